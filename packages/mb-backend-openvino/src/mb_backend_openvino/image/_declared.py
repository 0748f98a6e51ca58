"""The image ops this backend does not provide yet, with the reason (op name -> reason)."""

_LATER = "not implemented on the openvino backend yet"

UNSUPPORTED = {
    "affine_transform": _LATER,
    "elastic_transform": _LATER,
    "map_coordinates": _LATER,
    "perspective_transform": _LATER,
    "compute_homography_matrix": _LATER,
}


def _refuse(name):
    raise NotImplementedError(
        f"{name} is not supported on the openvino backend: {UNSUPPORTED[name]}."
    )


def affine_transform(*args, **kwargs):
    _refuse("affine_transform")


def elastic_transform(*args, **kwargs):
    _refuse("elastic_transform")


def map_coordinates(*args, **kwargs):
    _refuse("map_coordinates")


def perspective_transform(*args, **kwargs):
    _refuse("perspective_transform")


def compute_homography_matrix(*args, **kwargs):
    _refuse("compute_homography_matrix")
