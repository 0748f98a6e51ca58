"""What an exported artifact takes and returns, read without running it.

``mb inspect`` dispatches here for a SavedModel folder, an ``.onnx`` file, an
OpenVINO ``.xml`` or a LiteRT ``.tflite`` file. Each reader parses the file's
own description (protobuf, XML, flatbuffer): no graph runs.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ElementTree

from mb_export import _compat
from mb_export._writers import _require

_SAVED_MODEL = "saved_model.pb"


def artifact_format(path):
    """The export format of `path` (``"tf_saved_model"``, ``"onnx"``, ...), or None."""
    path = os.fspath(path)
    if os.path.isdir(path) and os.path.isfile(os.path.join(path, _SAVED_MODEL)):
        return "tf_saved_model"
    lowered = path.lower()
    if lowered.endswith(".onnx"):
        return "onnx"
    if lowered.endswith(".xml"):
        return "openvino"
    if lowered.endswith(".tflite"):
        return "litert"
    return None


def _tensor(name, dtype, shape):
    return {"name": name, "dtype": dtype, "shape": shape}


def _saved_model(path):
    tf = _require("tensorflow", "tensorflow")
    proto = _compat.saved_model_proto()
    with open(os.path.join(path, _SAVED_MODEL), "rb") as f:
        proto.ParseFromString(f.read())

    def describe(infos):
        out = []
        for key, info in sorted(infos.items()):
            if not info.dtype:  # a composite tensor's component: listed by its parts
                continue
            shape = (
                None
                if info.tensor_shape.unknown_rank
                else [None if d.size < 0 else d.size for d in info.tensor_shape.dim]
            )
            out.append(_tensor(key, tf.dtypes.as_dtype(info.dtype).name, shape))
        return out

    signatures = {}
    for graph in proto.meta_graphs:
        for key, signature in graph.signature_def.items():
            if key.startswith("__"):  # the init op, not an endpoint
                continue
            signatures[key] = {
                "inputs": describe(signature.inputs),
                "outputs": describe(signature.outputs),
            }
    return signatures


def _onnx(path):
    onnx = _require("onnx", "onnx")
    model = onnx.load(path, load_external_data=False)

    def describe(values):
        out = []
        for value in values:
            kind = value.type.tensor_type
            # A named (dim_param) or unnamed axis is dynamic: None, as in the other formats.
            shape = [d.dim_value if d.HasField("dim_value") else None for d in kind.shape.dim]
            dtype = onnx.helper.tensor_dtype_to_np_dtype(kind.elem_type).name
            out.append(_tensor(value.name, dtype, shape))
        return out

    opsets = {o.domain or "ai.onnx": o.version for o in model.opset_import}
    return {
        "main": {"inputs": describe(model.graph.input), "outputs": describe(model.graph.output)},
        "_opsets": opsets,
    }


# Element types (Parameter's element_type) and port precisions (FP32, I64, ...), lowercased.
_OV_TYPES = {
    "f32": "float32",
    "fp32": "float32",
    "f16": "float16",
    "fp16": "float16",
    "f64": "float64",
    "fp64": "float64",
    "i8": "int8",
    "i16": "int16",
    "i32": "int32",
    "i64": "int64",
    "u8": "uint8",
    "boolean": "bool",
    "bool": "bool",
    "bf16": "bfloat16",
}


def _openvino(path):
    root = ElementTree.parse(path).getroot()

    def dims(port):
        return [None if d.text in ("-1", "?") else int(d.text) for d in port.findall("dim")]

    produced = {}  # (layer id, port id) -> tensor names
    for layer in root.iter("layer"):
        for port in layer.findall("output/port"):
            if port.get("names"):
                produced[(layer.get("id"), port.get("id"))] = port.get("names").split(",")[0]
    source = {}
    for edge in root.iter("edge"):
        source[edge.get("to-layer")] = (edge.get("from-layer"), edge.get("from-port"))
    inputs, outputs = [], []
    for layer in root.iter("layer"):
        if layer.get("type") == "Parameter":
            data = layer.find("data")
            shape = data.get("shape", "")
            parsed = [
                None if s in ("?", "-1") or ".." in s else int(s) for s in shape.split(",") if s
            ]
            dtype = _OV_TYPES.get(data.get("element_type", "").lower(), data.get("element_type"))
            port = layer.find("output/port")
            name = (port.get("names") if port is not None else None) or layer.get("name")
            inputs.append(_tensor(name.split(",")[0], dtype, parsed))
        elif layer.get("type") == "Result":
            port = layer.find("input/port")
            dtype = _OV_TYPES.get(port.get("precision", "").lower(), port.get("precision"))
            name = produced.get(source.get(layer.get("id")), layer.get("name"))
            outputs.append(_tensor(name, dtype, dims(port)))
    return {"main": {"inputs": inputs, "outputs": outputs}}


def _litert(path):
    interpreter_module = _require("ai_edge_litert.interpreter", "litert")
    interpreter = interpreter_module.Interpreter(model_path=path)

    def describe(details):
        return [
            _tensor(
                name,
                d["dtype"].__name__,
                [None if s < 0 else int(s) for s in d.get("shape_signature", d["shape"])],
            )
            for name, d in details
        ]

    signatures = interpreter.get_signature_list() or {}
    if not signatures:  # no signature: the interpreter's own tensor names
        return {
            "main": {
                "inputs": describe((d["name"], d) for d in interpreter.get_input_details()),
                "outputs": describe((d["name"], d) for d in interpreter.get_output_details()),
            }
        }
    out = {}
    for key in signatures:
        runner = interpreter.get_signature_runner(key)
        inputs = runner.get_input_details()
        outputs = runner.get_output_details()
        out[key] = {
            "inputs": describe(sorted(inputs.items())),
            "outputs": describe(sorted(outputs.items())),
        }
    return out


def inspect_artifact(path, format=None):
    """``{"format", "path", "signatures": {name: {"inputs", "outputs"}}}`` for an export.

    `format` (``"tf_saved_model"``, ``"onnx"``, ``"openvino"``, ``"litert"``) names the
    artifact's format when its file name does not tell (an ONNX file without ``.onnx``);
    by default it is read from the name.

    Raises:
        ValueError: `path` is no exported artifact mb reads.
        FileNotFoundError: `path` does not exist.
    """
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"No such file or folder: '{path}'.")
    format = format or artifact_format(path)
    readers = {
        "tf_saved_model": _saved_model,
        "onnx": _onnx,
        "openvino": _openvino,
        "litert": _litert,
    }
    if format not in readers:
        raise ValueError(
            f"'{path}' is not an exported artifact mb reads: expected a SavedModel folder "
            "(with saved_model.pb), a .onnx, an OpenVINO .xml or a .tflite file."
        )
    signatures = readers[format](path)
    extra = {k[1:]: signatures.pop(k) for k in list(signatures) if k.startswith("_")}
    return {"format": format, "path": path, "signatures": signatures, **extra}


def format_artifact(info):
    """The report of `inspect_artifact` as text."""

    def shape(s):
        return (
            "?" if s is None else "(" + ", ".join("None" if d is None else str(d) for d in s) + ")"
        )

    lines = [f"{info['path']}: {info['format']}"]
    if "opsets" in info:
        lines.append("opsets: " + ", ".join(f"{k} {v}" for k, v in info["opsets"].items()))
    for name, signature in info["signatures"].items():
        lines.append(f"signature {name}:")
        for kind in ("inputs", "outputs"):
            for t in signature[kind]:
                lines.append(f"  {kind[:-1]:6} {t['name']}: {t['dtype']} {shape(t['shape'])}")
    return "\n".join(lines)
