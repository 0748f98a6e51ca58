"""The ``export`` contract module of the torch backend (not written yet).

Exporting (``torch.export`` ExportedProgram, ONNX through torch) lives in
mb-export; the backend-side hooks it needs are not part of this version.
"""

UNSUPPORTED = {
    "export": "exporting models from the torch backend is not implemented yet; "
    "mb-export will provide torch.export/ONNX through this module",
}


def export(*args, **kwargs):
    """Not implemented yet on the torch backend."""
    raise NotImplementedError(
        "export is not supported on the torch backend: "
        "exporting models from the torch backend is not implemented yet."
    )
