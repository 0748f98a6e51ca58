"""How a metric's function argument (``MeanMetricWrapper(fn=...)``) is written and read.

Keras 3 writes a function as ``{"module": "builtins", "class_name": "function",
"config": <name>, "registered_name": "function"}``; mb writes the same, so the
configs interchange. The table of built-in functions (metric functions and the
loss functions `keras.metrics` re-exports) is filled in by `_registry` once
every module is loaded.
"""

from mb_layers import _serialization

FUNCTIONS = {}


def register_functions(functions):
    """Adds ``{name: function}`` to the built-in functions known by name."""
    FUNCTIONS.update(functions)


def serialize_function(fn):
    """The Keras 3 dict form of a function (built-in or registered by the user)."""
    name = _serialization.registered_name(fn)
    registered = "function" if FUNCTIONS.get(name) is fn or name == fn.__name__ else name
    return {
        "module": "builtins",
        "class_name": "function",
        "config": name,
        "registered_name": registered,
    }


def deserialize_function(config, custom_objects=None):
    """A function from its name, its serialized dict, or the function itself."""
    if callable(config):
        return config
    if isinstance(config, str):
        config = {"class_name": "function", "config": config, "registered_name": None}
    if not isinstance(config, dict) or config.get("class_name") != "function":
        raise ValueError(
            "Could not interpret a metric function from "
            f"{config!r}: expected a function, its name (e.g. 'binary_accuracy') or a dict "
            "{'class_name': 'function', 'config': <name>}."
        )
    if config.get("registered_name") == "function":
        config = {**config, "registered_name": None}
    return _serialization.deserialize_object(
        config, FUNCTIONS, "metric", custom_objects=custom_objects
    )
