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

UNSUPPORTED = dict.fromkeys(numpy_shaped.EXPORT_FUNCTIONS, _REASON)
to_tf_variables, to_tf_function, to_exported_program, to_onnx = numpy_shaped.refusals(
    "numpy", _REASON, UNSUPPORTED
).values()
