"""The ``export`` contract module of the JAX backend.

Exporting a model (SavedModel through ``jax2tf``, StableHLO through
``jax.export``) is not available yet: ``mb_export`` reports it through
``export_model`` below.
"""

UNSUPPORTED = {
    "export_model": (
        "exporting from the jax backend is not implemented yet in mb; save the model as "
        "a .keras file and export it from the tensorflow or torch backend"
    ),
}


def export_model(*args, **kwargs):
    """Not available yet: raises ``NotImplementedError`` with the workaround."""
    raise NotImplementedError(
        f"export_model is not supported on the jax backend: {UNSUPPORTED['export_model']}."
    )
