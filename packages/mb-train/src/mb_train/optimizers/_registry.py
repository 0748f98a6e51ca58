"""`get`, `serialize` and `deserialize` for optimizers (Keras 3's config format)."""

from mb_layers import _serialization
from mb_train.optimizers._base import Optimizer

# Class name -> class of the built-in optimizers; filled by the package's __init__.
BUILTINS = {}


def register_builtins(*classes):
    for cls in classes:
        BUILTINS[cls.__name__] = cls


def _canonical_name(name):
    """Class names are matched case-insensitively, as Keras does ("adam", "SGD", "RMSprop")."""
    lowered = name.lower() if isinstance(name, str) else name
    for known in BUILTINS:
        if known.lower() == lowered:
            return known
    return name


def serialize(optimizer):
    """The Keras-format dict of an optimizer (module ``"keras.optimizers"`` for built-ins).

    Example:
        >>> from mb_train.optimizers import Adam
        >>> config = serialize(Adam(learning_rate=0.5))
        >>> config["class_name"], config["config"]["learning_rate"]
        ('Adam', 0.5)
    """
    if not isinstance(optimizer, Optimizer):
        raise TypeError(
            f"optimizers.serialize expects an Optimizer. Received: {optimizer!r} (of type "
            f"{type(optimizer).__name__})."
        )
    return _serialization.serialize_object(optimizer, BUILTINS, "keras.optimizers")


def deserialize(config, custom_objects=None):
    """The optimizer described by a Keras-format dict, or by a name (with defaults).

    Built-in class names match case-insensitively ("adam", "Adam").
    """
    if isinstance(config, str):
        if not (custom_objects and config in custom_objects):
            config = _canonical_name(config)
    elif isinstance(config, dict) and "class_name" in config:
        name = config["class_name"]
        if not (custom_objects and name in custom_objects) and not config.get("registered_name"):
            config = {**config, "class_name": _canonical_name(name)}
    optimizer = _serialization.deserialize_object(
        config, BUILTINS, "optimizer", custom_objects=custom_objects, pass_custom_objects=True
    )
    if not isinstance(optimizer, Optimizer):
        raise ValueError(
            f"Could not interpret optimizer identifier: {config!r} (it gave a "
            f"{type(optimizer).__name__}, not an Optimizer)."
        )
    return optimizer


def get(identifier):
    """An optimizer from a name ("adam", "sgd", "rmsprop", ...), a config dict or an instance.

    Example:
        >>> type(get("adam")).__name__
        'Adam'
        >>> get({"class_name": "SGD", "config": {"momentum": 0.5}}).momentum
        0.5
    """
    if identifier is None:
        return None
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        return deserialize({"class_name": identifier, "config": {}})
    if isinstance(identifier, type) and issubclass(identifier, Optimizer):
        return identifier()
    raise ValueError(
        f"Could not interpret optimizer identifier: {identifier!r}. Expected a name such as "
        f"'adam' (built-in: {', '.join(_optimizer_names())}), a config dict, or an Optimizer "
        "instance."
    )


def _optimizer_names():
    # The names `get` can create with defaults (not OptimizerMap, which is no optimizer).
    return sorted(n.lower() for n, cls in BUILTINS.items() if issubclass(cls, Optimizer))
