"""`get`, `serialize` and `deserialize` for metrics (Keras 3's names and config form).

Names, as in Keras 3: each class name (``"AUC"``), its snake-case form
(``"auc"``, ``"mean_io_u"``) and the aliases ``"mse"``, ``"mae"``, ``"mape"``,
``"msle"``, ``"bce"`` (and upper case); a name gives an instance. mb adds,
on purpose, the names of the `mb_train.metrics` functions that have no class of
the same snake-case name (``"log_cosh"``, ``"huber"``, ...): those give the
function, which `compile` wraps in a `MeanMetricWrapper`.
"""

import difflib
import inspect

from mb_graph import naming
from mb_layers import _serialization
from mb_train.metrics import _serialize
from mb_train.metrics._metric import Metric

_ALIASES = {
    "bce": "BinaryCrossentropy",
    "mse": "MeanSquaredError",
    "mae": "MeanAbsoluteError",
    "mape": "MeanAbsolutePercentageError",
    "msle": "MeanSquaredLogarithmicError",
}

CLASSES = {}
ALL_OBJECTS = {}


def register(classes, functions):
    """Fills the tables with the built-in metric classes and functions."""
    for cls in classes:
        CLASSES[cls.__name__] = cls
    for name, cls in CLASSES.items():
        ALL_OBJECTS[name] = cls
        ALL_OBJECTS[naming.to_snake_case(name)] = cls
    for alias, name in _ALIASES.items():
        ALL_OBJECTS[alias] = ALL_OBJECTS[alias.upper()] = CLASSES[name]
    _serialize.register_functions(functions)
    for name, fn in functions.items():
        ALL_OBJECTS.setdefault(name, fn)


def _unknown(identifier):
    matches = difflib.get_close_matches(str(identifier), list(ALL_OBJECTS), n=3, cutoff=0.6)
    hint = f" Did you mean {' or '.join(repr(m) for m in matches)}?" if matches else ""
    return ValueError(
        f"Could not interpret metric identifier: {identifier!r}.{hint} Expected a metric "
        "class name ('AUC', 'MeanSquaredError', ...), its snake-case name ('auc', "
        "'mean_squared_error'), an alias ('mse', 'mae', 'mape', 'msle', 'bce'), a metric "
        "function name, a config dict, a Metric object or a function."
    )


def serialize(metric):
    """The Keras 3 config of a metric object or metric function.

    Example:

    >>> from mb_train import metrics
    >>> metrics.serialize(metrics.BinaryAccuracy(threshold=0.7))["config"]
    {'name': 'binary_accuracy', 'dtype': 'float32', 'threshold': 0.7}
    """
    if metric is None:
        return None
    if isinstance(metric, Metric):
        return _serialization.serialize_object(metric, CLASSES, "keras.metrics")
    if callable(metric) and hasattr(metric, "__name__") and not isinstance(metric, type):
        return _serialize.serialize_function(metric)
    raise TypeError(
        f"Cannot serialize {metric!r} (of type {type(metric).__name__}) as a metric. Expected "
        "a Metric object or a metric function."
    )


def deserialize(config, custom_objects=None):
    """The metric object (or function) described by `config`: a name or a Keras 3 dict.

    Args:
        config: a name, or a dict with ``class_name`` and ``config`` as
            `serialize` writes it.
        custom_objects: optional dict name -> user metric class or function.

    Raises:
        ValueError: for an unknown name or class.
    """
    if isinstance(config, str):
        try:
            return _serialization.deserialize_object(
                config, ALL_OBJECTS, "metric", custom_objects=custom_objects
            )
        except ValueError:
            raise _unknown(config) from None
    return _serialization.deserialize_object(
        config, ALL_OBJECTS, "metric", custom_objects=custom_objects, pass_custom_objects=True
    )


def get(identifier):
    """A metric from None, a name, a config dict, a class, an object or a function.

    A class or a class name gives a new instance; a Metric object or a
    function is returned as it is.

    Example:

    >>> from mb_train import metrics
    >>> metrics.get("mse")
    <MeanSquaredError name=mean_squared_error>

    Raises:
        ValueError: when `identifier` is none of those.
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        found = deserialize(identifier)
    elif isinstance(identifier, str):
        found = ALL_OBJECTS.get(identifier)
        if found is None:
            raise _unknown(identifier)
    else:
        found = identifier
    if inspect.isclass(found):
        return found()
    if callable(found) or isinstance(found, Metric):
        return found
    raise _unknown(identifier)
