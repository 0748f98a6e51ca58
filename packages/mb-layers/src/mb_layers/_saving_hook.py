"""Where `FeatureSpace.save` finds the saving code.

mb_layers does not depend on mb_saving (the arrow points the other way), so
layers that save themselves call the function mb_saving registers here when it
is imported (``import mb`` imports it).
"""

_NOT_LOADED = (
    "{method}() needs mb-saving, which is not loaded. Add `import mb_saving` (`import mb` "
    "loads it too); if it is not installed, install it with `pip install mb-saving`."
)


class _Registry:
    save_model = None
    loader = None


def set_save_loader(loader):
    """Registers ``loader()``, called once when no implementation is registered: it
    imports the package that registers one (``import mb`` sets it). None removes it."""
    _Registry.loader = loader


def set_save_implementation(save_model):
    """Registers ``save_model(layer, filepath)``; returns the one registered before."""
    if save_model is not None and not callable(save_model):
        raise TypeError(f"The save implementation must be callable. Received: {save_model!r}.")
    previous = _Registry.save_model
    _Registry.save_model = save_model
    return previous


def save_implementation(method):
    """The registered ``save_model``; `method` names the caller for the error."""
    loader, _Registry.loader = _Registry.loader, None
    if _Registry.save_model is None and loader is not None:
        loader()
    if _Registry.save_model is None:
        raise RuntimeError(_NOT_LOADED.format(method=method))
    return _Registry.save_model
