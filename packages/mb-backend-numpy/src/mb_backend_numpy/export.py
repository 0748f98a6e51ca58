"""Export from the NumPy backend: not available (there is no graph to serialize)."""

UNSUPPORTED = {
    "export": "the numpy backend runs eagerly and has no traced graph to export; "
    "use jax, torch or tensorflow to export",
}


def export(*args, **kwargs):
    raise NotImplementedError(
        "export is not supported on the numpy backend: it runs eagerly and has no traced "
        "graph to export. Export with the jax, torch or tensorflow backend."
    )
