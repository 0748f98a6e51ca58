"""Masks travel with tensors: ``x._keras_mask`` where the tensor type allows it.

Tensor types that refuse new attributes (NumPy arrays, JAX arrays) keep their
mask in a side table keyed by ``id``, cleaned up when the tensor dies.
"""

import weakref

_SIDE_TABLE = {}


def get_keras_mask(x):
    """The mask attached to `x`, or None."""
    mask = getattr(x, "_keras_mask", None)
    if mask is not None:
        return mask
    entry = _SIDE_TABLE.get(id(x))
    if entry is None:
        return None
    ref, mask = entry
    return mask if ref() is x else None


def set_keras_mask(x, mask):
    """Attaches `mask` to `x` (None removes it). Silently skips objects that hold none."""
    try:
        x._keras_mask = mask
        return
    except (AttributeError, TypeError):
        pass
    key = id(x)
    if mask is None:
        _SIDE_TABLE.pop(key, None)
        return
    try:
        ref = weakref.ref(x)
    except TypeError:
        return  # Scalars and other objects without weak references carry no mask.
    if key not in _SIDE_TABLE:
        weakref.finalize(x, _SIDE_TABLE.pop, key, None)
    _SIDE_TABLE[key] = (ref, mask)
