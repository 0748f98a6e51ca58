"""The numpy ops OpenVINO cannot compute, with the reason (op name -> reason).

OpenVINO has no complex element type and no bit-cast between element types.
The complex-number ops below work on real tensors (``real`` is the identity,
``imag`` gives zeros, ``angle`` gives 0 or pi); given complex data they raise
``NotImplementedError``, as does ``view`` for a change of dtype.
"""

_COMPLEX = "OpenVINO has no complex element type (real inputs work)"

UNSUPPORTED = {
    "angle": _COMPLEX,
    "conj": _COMPLEX,
    "conjugate": _COMPLEX,
    "real": _COMPLEX,
    "imag": _COMPLEX,
    "isreal": _COMPLEX,
    "view": "OpenVINO has no bit-cast between element types (a view to the same dtype works)",
    "nextafter": "OpenVINO has no bit-cast between float and integer element types",
}


def nextafter(x1, x2):
    raise NotImplementedError(
        f"nextafter is not supported on the openvino backend: {UNSUPPORTED['nextafter']}."
    )
