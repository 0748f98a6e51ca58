"""The non-public TensorFlow APIs mb uses, in one place, each with its public fallback.

Nothing outside this module imports ``tensorflow.python`` or reads ``tf.__internal__``
/ ``tf.compat.v1`` (the tooling leg checks it). Each entry is resolved once; where a
TensorFlow release moved it, the entry falls back to the public path (slower or
less exact, never wrong). ``tests/test_compat.py`` asserts that every fast path is
still resolved on the TensorFlow this workspace pins, so an upgrade that loses one
fails CI instead of slowing mb down silently.

Importing this module does not start TensorFlow's runtime (no tensor is made and
the eager context is not initialised): a ``MultiWorkerMirroredStrategy`` or
``tf.config.set_logical_device_configuration`` can only configure the runtime before
it starts. The fast path of `numpy_to_eager` is probed on its first use instead.
"""

import numpy as np
import tensorflow as tf

try:
    # The class itself, not ``type(tf.constant(0))``: making a tensor would start
    # TensorFlow's runtime at import.
    from tensorflow.python.eager import context as _context
    from tensorflow.python.framework.ops import EagerTensor as _EagerTensor
except Exception:  # any drift in the private API: the public path is used
    _context = None
    _EagerTensor = None

EAGER_TENSOR = _EagerTensor
"""The concrete class of eager tensors (what ``tf.constant`` makes), or None where
this TensorFlow moved it (then no value is taken for one on sight)."""

_fast_numpy_to_eager = None  # None until probed, then True or False


def _probe_eager_constructor():
    try:
        ctx = _context.context()
        ctx.ensure_initialized()
        probe = _EagerTensor(np.array([1.0, 2.0], np.float32), ctx.device_name, None)
        return probe.numpy().tolist() == [1.0, 2.0]
    except Exception:  # any drift in the private API: the public path is used
        return False


def fast_numpy_to_eager():
    """Whether `numpy_to_eager` builds eager tensors directly (else it returns None and
    the caller takes ``tf.convert_to_tensor``).

    Probed once, on first use (the probe makes a tensor, which starts TensorFlow's
    runtime: never at import).
    """
    global _fast_numpy_to_eager
    if _fast_numpy_to_eager is None:
        _fast_numpy_to_eager = (
            _context is not None and _EagerTensor is not None and _probe_eager_constructor()
        )
    return _fast_numpy_to_eager


def numpy_to_eager(x):
    """An eager tensor holding a copy of the NumPy array `x`, built directly.

    What ``tf.convert_to_tensor`` ends in after a dozen Python dispatch layers: ~5 us
    instead of ~13 us a batch. None in graph mode (a constant op is needed there) and
    where this TensorFlow lacks the private eager context.
    """
    if _fast_numpy_to_eager is False or _context is None:
        return None
    ctx = _context.context()
    if not ctx.executing_eagerly():
        return None
    if _fast_numpy_to_eager is None and not fast_numpy_to_eager():
        return None
    ctx.ensure_initialized()
    # A private copy: the eager tensor may share the array's memory otherwise.
    return _EagerTensor(x.copy(), ctx.device_name, None)


def current_device_name():
    """The calling thread's ``tf.device`` scope as a full device name ("" outside any),
    or None where this TensorFlow moved its eager context (then it cannot be told)."""
    if _context is None:
        return None
    try:
        return _context.context().device_name or ""
    except Exception:  # any drift in the private API: unknown
        return None


def func_graph(name):
    """A fresh ``FuncGraph`` to trace a function in (``tf.__internal__.FuncGraph``)."""
    return tf.__internal__.FuncGraph(name)


def placeholder(shape, dtype):
    """A graph placeholder of ``shape`` (None dims unknown) and ``dtype``."""
    return tf.compat.v1.placeholder(shape=shape, dtype=dtype)


_SMART_COND = getattr(getattr(tf.__internal__, "smart_cond", None), "smart_cond", None)
FAST_SMART_COND = _SMART_COND is not None
"""Whether `smart_cond` folds a constant predicate (else it is always ``tf.cond``)."""


def smart_cond(pred, true_fn, false_fn):
    """``true_fn()`` or ``false_fn()`` chosen in Python when ``pred`` is known (a
    Python bool or a constant), a graph ``tf.cond`` otherwise."""
    if _SMART_COND is None:
        if isinstance(pred, bool):
            return true_fn() if pred else false_fn()
        return tf.cond(pred, true_fn=true_fn, false_fn=false_fn)
    return _SMART_COND(pred, true_fn=true_fn, false_fn=false_fn)
