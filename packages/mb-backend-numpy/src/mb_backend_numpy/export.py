"""The ``export`` contract module of the numpy backend: it traces nothing to export.

The numpy backend runs eagerly and has no traced graph to export. ``mb_export`` still exports a
model built on this backend: it saves a ``.keras`` file and converts it on a
backend that traces (jax, torch or tensorflow), in a subprocess.
"""

from mb_ops import numpy_shaped

_REASON = (
    "the numpy backend runs eagerly and has no traced graph to export; mb_export "
    "converts through a .keras file on the jax, torch or tensorflow backend"
)

UNSUPPORTED = {
    name: _REASON
    for name in ("to_tf_variables", "to_tf_function", "to_exported_program", "to_onnx")
}


_REFUSE = numpy_shaped.refusals("numpy", _REASON, UNSUPPORTED)
to_tf_variables = _REFUSE["to_tf_variables"]
to_tf_function = _REFUSE["to_tf_function"]
to_exported_program = _REFUSE["to_exported_program"]
to_onnx = _REFUSE["to_onnx"]
