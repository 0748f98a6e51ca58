"""Unique, stable names for operations and symbolic tensors.

Counters are per thread, as in Keras 3: the first object of a kind gets the
bare name (``dense``), the next ones ``dense_1``, ``dense_2``, ...
:func:`reset_uids` starts all counters afresh (``clear_session`` calls it).

>>> from mb_graph import naming
>>> naming.reset_uids()
>>> naming.auto_name("MyDense"), naming.auto_name("MyDense")
('my_dense', 'my_dense_1')
"""

import collections
import re
import threading

__all__ = ["auto_name", "get_object_name", "get_uid", "reset_uids", "to_snake_case", "uniquify"]

_STATE = threading.local()


def _counters():
    counters = getattr(_STATE, "name_uids", None)
    if counters is None:
        counters = collections.defaultdict(int)
        _STATE.name_uids = counters
    return counters


def to_snake_case(name):
    """Turns a class name into snake case: ``"Conv2DTranspose"`` -> ``"conv2d_transpose"``."""
    name = re.sub(r"\W+", "", name)
    name = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", name).lower()


def uniquify(name):
    """Returns `name` the first time it is asked for, then ``name_1``, ``name_2``, ..."""
    counters = _counters()
    count = counters[name]
    counters[name] = count + 1
    return name if count == 0 else f"{name}_{count}"


def auto_name(prefix):
    """Returns a unique snake-case name built from `prefix` (often a class name)."""
    return uniquify(to_snake_case(prefix))


def get_uid(prefix=""):
    """Counts calls per `prefix`: returns 1, 2, 3, ... (``keras.backend.get_uid``)."""
    counters = _counters()
    counters[prefix] += 1
    return counters[prefix]


def reset_uids():
    """Forgets every name handed out so far in this thread."""
    _STATE.name_uids = collections.defaultdict(int)


def get_object_name(obj):
    """A readable name for any object: its ``name``, function name or class name."""
    if hasattr(obj, "name"):
        return obj.name
    if hasattr(obj, "__name__"):
        return to_snake_case(obj.__name__)
    return to_snake_case(type(obj).__name__)
