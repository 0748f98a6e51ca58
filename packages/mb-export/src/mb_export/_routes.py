"""Which backend writes which format, and how (the table of the README)."""

from __future__ import annotations

FORMATS = ("tf_saved_model", "onnx", "openvino", "litert", "torch")

# The backend's own route per format (what mb runs in-process on that backend).
NATIVE = {
    "tensorflow": {
        "tf_saved_model": "tf.function",
        "onnx": "tf.function, then tf2onnx",
        "openvino": "tf.function, then OpenVINO's TF frontend",
        "litert": "tf.function, then the TFLite converter",
    },
    "jax": {
        "tf_saved_model": "jax2tf (StableHLO in a TF graph)",
        "litert": "jax2tf, then the TFLite converter",
    },
    "torch": {
        "torch": "torch.export",
        "onnx": "torch.export, then the dynamo ONNX exporter",
        "openvino": "torch.export, then OpenVINO's PyTorch frontend",
    },
}

# Where a format is written when the active backend has no route of its own:
# the model goes through a .keras file to a subprocess on the first of these
# that is installed.
CONVERTERS = {
    "tf_saved_model": ("tensorflow", "jax"),
    "litert": ("tensorflow", "jax"),
    "onnx": ("torch", "tensorflow"),
    "openvino": ("torch", "tensorflow"),
    "torch": ("torch",),
}

SUFFIXES = {"onnx": ".onnx", "openvino": ".xml", "litert": ".tflite", "torch": ".pt2"}


def check_format(format):
    if format not in FORMATS:
        raise ValueError(f"Unrecognized format={format!r}. Supported formats are: {list(FORMATS)}.")


def _provides(module, name):
    return hasattr(module, name) and name not in getattr(module, "UNSUPPORTED", {})


def native_step(module, format):
    """How the backend whose ``export`` module is `module` writes `format` itself:
    ``"tf"`` (a traced ``tf.function``), ``"program"`` (a torch ExportedProgram) or None."""
    tf_graph = _provides(module, "to_tf_function")
    portable = tf_graph and getattr(module, "TF_GRAPH_IS_PORTABLE", False)
    program = _provides(module, "to_exported_program")
    if format in ("tf_saved_model", "litert"):
        return "tf" if tf_graph else None
    if format == "torch":
        return "program" if program else None
    if program and (format == "openvino" or _provides(module, "to_onnx")):
        return "program"
    return "tf" if portable else None


def describe_native(backend):
    """``"tf_saved_model (tf.function), ..."`` for an error message."""
    routes = NATIVE.get(backend, {})
    if not routes:
        return f"the {backend} backend writes no format itself"
    return f"the {backend} backend writes " + ", ".join(routes)


def pairs_that_work():
    """Every (backend, format) pair with a route of its own, as text."""
    return "; ".join(f"{backend}: {', '.join(routes)}" for backend, routes in NATIVE.items())
