"""The converters shared by every backend: SavedModel, LiteRT, ONNX (tf2onnx), OpenVINO.

Each runtime is imported only here and only when its format is written (the
``mb-export[onnx|openvino|litert|tensorflow]`` extras install them).
"""

from __future__ import annotations

import os
import warnings


def _require(module, extra):
    try:
        return __import__(module, fromlist=["_"])
    except ImportError as error:
        raise ImportError(
            f"This export needs {module}, which is not installed: pip install 'mb-export[{extra}]'."
        ) from error


def write_litert(endpoint, root, filepath, **converter_options):
    """Converts the traced ``tf.function`` `endpoint` to a ``.tflite`` file.

    `converter_options` set attributes of ``tf.lite.TFLiteConverter`` (e.g.
    ``optimizations``, ``representative_dataset``).
    """
    tf = _require("tensorflow", "tensorflow")
    concrete = endpoint.get_concrete_function()
    converter = tf.lite.TFLiteConverter.from_concrete_functions([concrete], root)
    for option, value in converter_options.items():
        if not hasattr(converter, option):
            raise TypeError(f"Unknown LiteRT converter option {option!r}.")
        setattr(converter, option, value)
    try:
        content = converter.convert()
    except Exception as error:
        if "TensorList" not in str(error):
            raise
        raise ValueError(
            "LiteRT's built-in ops need the loops of recurrent layers (LSTM, GRU, RNN) to "
            "have static shapes, and this export has a dynamic axis. Pass a fixed "
            "input_signature, e.g. input_signature=[mb.InputSpec(shape=(1, 5, 3), "
            "dtype='float32')], and feed batches of that size."
        ) from None
    with open(filepath, "wb") as f:
        f.write(content)


def write_onnx_from_tf(endpoint, input_specs, output_names, filepath, opset_version=None):
    """Converts the traced ``tf.function`` `endpoint` to ONNX with tf2onnx."""
    tf = _require("tensorflow", "tensorflow")
    tf2onnx = _require("tf2onnx", "onnx")
    signature = [
        tf.TensorSpec(tuple(s.shape), tf.as_dtype(s.dtype), name=s.name) for s in input_specs
    ]
    model_proto, _ = tf2onnx.convert.from_function(
        endpoint, input_signature=signature, opset=opset_version
    )
    onnx = _require("onnx", "onnx")
    graph = model_proto.graph
    renames = {}
    for output, name in zip(graph.output, output_names, strict=False):
        renames[output.name] = name
    for node in graph.node:
        node.output[:] = [renames.get(o, o) for o in node.output]
    for output in graph.output:
        output.name = renames.get(output.name, output.name)
    onnx.save(model_proto, os.fspath(filepath))


def write_openvino(source, input_specs, output_names, filepath):
    """Converts `source` (a ``tf.function``'s concrete function or a torch
    ExportedProgram) to OpenVINO IR: ``filepath`` (.xml) and the ``.bin`` beside it."""
    ov = _require("openvino", "openvino")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the frontends narrate their conversions
        model = ov.convert_model(source)
    if len(model.outputs) > len(output_names):  # the TF frontend can expose loop internals
        model = ov.Model(list(model.outputs)[: len(output_names)], model.get_parameters())
    for port, spec in zip(model.inputs, input_specs, strict=False):
        port.get_node().set_friendly_name(spec.name)
        port.get_tensor().set_names({spec.name})
        port.get_node().set_partial_shape(
            ov.PartialShape([-1 if s is None else s for s in spec.shape])
        )
    for port, name in zip(model.outputs, output_names, strict=False):
        port.get_tensor().set_names({name})
    model.validate_nodes_and_infer_types()
    ov.save_model(model, os.fspath(filepath), compress_to_fp16=False)


def write_saved_model(root, signatures, filepath, options=None):
    tf = _require("tensorflow", "tensorflow")
    tf.saved_model.save(root, os.fspath(filepath), signatures=signatures, options=options)
