"""Export from the OpenVINO backend: not available here.

Ops run eagerly, one compiled model each, so there is no whole-model graph to
serialize. mb_export writes OpenVINO IR from the traceable backends instead.
"""

UNSUPPORTED = {
    "export": "the openvino backend runs ops eagerly and keeps no whole-model graph to "
    "export; export with the jax, torch or tensorflow backend (mb_export writes OpenVINO IR)",
}


def export(*args, **kwargs):
    raise NotImplementedError(
        f"export is not supported on the openvino backend: {UNSUPPORTED['export']}."
    )
