"""Where `Model.save`, `save_weights` and `load_weights` find the saving code.

mb_train does not depend on mb_saving (the arrow points the other way), so the
model's saving methods call an implementation that mb_saving registers here
when it is imported. ``import mb`` registers a loader instead, which imports mb_saving
the first time a saving method needs it (so training alone never imports it). Without
either, the methods raise an error saying what to import or install.
"""

_NOT_LOADED = (
    "Model.{method}() needs mb-saving, which is not loaded. Add `import mb_saving` "
    "(`import mb` loads it too); if it is not installed, install it with "
    "`pip install mb-saving`."
)
_METHODS = ("save_model", "save_weights", "load_weights")


class _Registry:
    implementation = None
    loader = None


def set_saving_loader(loader):
    """Registers ``loader()``, called once when a saving method finds no implementation:
    it imports the package that registers one. Passing None removes it."""
    _Registry.loader = loader


def _load():
    loader, _Registry.loader = _Registry.loader, None
    if loader is not None and _Registry.implementation is None:
        loader()


def set_saving_implementation(implementation):
    """Registers the object whose ``save_model``/``save_weights``/``load_weights`` run.

    Each is called as ``fn(model, filepath, **kwargs)``. Passing None removes
    the registration.

    Returns:
        The implementation registered before (or None).

    Raises:
        TypeError: when `implementation` lacks one of the three functions.
    """
    if implementation is not None:
        missing = [m for m in _METHODS if not callable(getattr(implementation, m, None))]
        if missing:
            raise TypeError(
                f"A saving implementation needs the functions {list(_METHODS)}; "
                f"{implementation!r} lacks {missing}."
            )
    previous = _Registry.implementation
    _Registry.implementation = implementation
    return previous


def has_saving_implementation():
    """Whether mb-saving is registered, or can be (``Model.save`` etc. will work)."""
    if _Registry.implementation is None:
        _load()
    return _Registry.implementation is not None


def saving_implementation(method):
    """The registered implementation; `method` names the Model method for the error."""
    if _Registry.implementation is None:
        _load()
    if _Registry.implementation is None:
        raise RuntimeError(_NOT_LOADED.format(method=method))
    return _Registry.implementation
