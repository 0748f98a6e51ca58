"""Where `Model.export` finds the export code.

mb_train does not depend on mb_export (the arrow points the other way), so
``Model.export`` calls a function that mb_export registers here when it is
imported. ``import mb`` registers a loader instead, which imports mb_export the first
time ``export`` runs. Without either, it raises an error saying what to import or
install.
"""

_NOT_LOADED = (
    "Model.export() needs mb-export, which is not loaded. Add `import mb_export` "
    "(`import mb` loads it too); if it is not installed, install it with "
    "`pip install mb-export`."
)


class _Registry:
    export_model = None
    loader = None


def set_export_loader(loader):
    """Registers ``loader()``, called once when ``export`` finds no implementation: it
    imports the package that registers one. Passing None removes it."""
    _Registry.loader = loader


def set_export_implementation(export_model):
    """Registers ``export_model(model, filepath, **kwargs)``; None removes it.

    Returns:
        The function registered before (or None).
    """
    if export_model is not None and not callable(export_model):
        raise TypeError(f"The export implementation must be callable. Received: {export_model!r}.")
    previous = _Registry.export_model
    _Registry.export_model = export_model
    return previous


def export_implementation():
    """The registered ``export_model``; raises when mb-export is not loaded."""
    loader, _Registry.loader = _Registry.loader, None
    if _Registry.export_model is None and loader is not None:
        loader()
    if _Registry.export_model is None:
        raise RuntimeError(_NOT_LOADED)
    return _Registry.export_model
