"""The JSON form of losses (``keras.losses.serialize`` / ``deserialize``).

The form is Keras 3's ``serialize_keras_object``, so configs move between mb and
Keras both ways:

- a built-in loss object: ``{"module": "keras.losses", "class_name": "Huber",
  "config": {...}, "registered_name": None}``;
- a function: ``{"module": "builtins", "class_name": "function", "config":
  "huber", "registered_name": "function"}`` (``config`` is the registered name
  for a user function, ``package>name`` when registered);
- a user loss class: its Python module, class name, config and registered name.

The family modules register their functions and classes here as they are
imported (`builtin`); `deserialize` resolves names against `custom_objects`
first, then against that table.
"""

import difflib
import inspect

from mb_train.losses._loss import Loss

# name -> class or function; class names, function names and the aliases Keras accepts.
BUILTINS = {}
# The Keras module and registered name written for a built-in class (Keras writes
# LossFunctionWrapper under its source module).
_CLASS_MODULES = {}


def builtin(obj=None, *, aliases=(), module="keras.losses", registered_name=None):
    """Registers a built-in loss class or function under its name (and `aliases`)."""

    def register(target):
        for name in (target.__name__, *aliases):
            BUILTINS[name] = target
        if isinstance(target, type):
            _CLASS_MODULES[target] = (module, registered_name)
        return target

    return register if obj is None else register(obj)


def registered_name(target):
    """The name a user class or function is saved under (``package>Name`` if registered)."""
    name = getattr(target, "_mb_registered_name", None)
    return name if name is not None else target.__name__


def _is_builtin(target):
    return BUILTINS.get(getattr(target, "__name__", None)) is target


def serialize(loss):
    """The Keras 3 config of a loss object or loss function (None stays None).

    Example:

    >>> from mb_train import losses
    >>> losses.serialize(losses.Huber(delta=2.0))["config"]
    {'name': 'huber_loss', 'reduction': 'sum_over_batch_size', 'delta': 2.0}
    >>> losses.serialize(losses.mean_squared_error)["config"]
    'mean_squared_error'
    """
    if loss is None:
        return None
    if isinstance(loss, Loss):
        cls = type(loss)
        if _is_builtin(cls):
            module, registered = _CLASS_MODULES[cls]
            return {
                "module": module,
                "class_name": cls.__name__,
                "config": loss.get_config(),
                "registered_name": registered,
            }
        return {
            "module": None if cls.__module__ == "__main__" else cls.__module__,
            "class_name": cls.__name__,
            "config": loss.get_config(),
            "registered_name": registered_name(cls),
        }
    if inspect.isfunction(loss) or inspect.isbuiltin(loss):
        if loss.__name__ == "<lambda>":
            raise ValueError(
                f"Cannot serialize the lambda {loss!r} as a loss: a lambda has no name to be "
                "found by when loading. Define the loss with `def` (and register it, or pass "
                "it in `custom_objects` when loading)."
            )
        name = loss.__name__ if _is_builtin(loss) else registered_name(loss)
        return {
            "module": "builtins",
            "class_name": "function",
            "config": name,
            "registered_name": "function",
        }
    raise TypeError(
        f"Cannot serialize {loss!r} (of type {type(loss).__name__}) as a loss. Expected a "
        "Loss object or a loss function."
    )


def close_matches(name, names):
    """Up to three known names close to `name`, best first.

    Case is ignored to find them ("meansquarederror" finds "MeanSquaredError");
    names equal but for case ("huber", "Huber") are ordered by their closeness
    to `name` as typed.
    """
    by_lower = {}
    for known in names:
        by_lower.setdefault(known.lower(), []).append(known)
    found = difflib.get_close_matches(name.lower(), list(by_lower), n=3, cutoff=0.6)
    ranked = []
    for lower in found:
        spellings = by_lower[lower]
        ranked += sorted(spellings, key=lambda k: -difflib.SequenceMatcher(None, name, k).ratio())
    return ranked[:3]


def unknown_name_error(name, what="loss"):
    """A ValueError for an unknown loss name that lists the close matches."""
    suggestions = close_matches(name, BUILTINS)
    hint = f" Did you mean {' or '.join(repr(s) for s in suggestions)}?" if suggestions else ""
    return ValueError(
        f"Unknown {what}: {name!r}.{hint} Known names are the loss classes "
        "('MeanSquaredError', ...), the loss functions ('mean_squared_error', ...) and the "
        "aliases 'mse', 'mae', 'mape', 'msle', 'kld', 'bce', 'logcosh'. For a loss of your "
        "own, pass the object or function itself, or give it in `custom_objects`."
    )


def _lookup(name, custom_objects):
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    if name in BUILTINS:
        return BUILTINS[name]
    short = name.split(">", 1)[-1]  # "package>name" of a registered object
    if custom_objects and short in custom_objects:
        return custom_objects[short]
    return None


def deserialize(name, custom_objects=None):
    """The loss object or function described by `name` (a name or a Keras 3 dict).

    A class name gives an instance (``"Huber"`` -> ``Huber()``), a function name
    or alias gives the function (``"mse"`` -> `mean_squared_error`).

    Args:
        name: a name, or a dict with ``class_name`` and ``config`` (Keras's argument
            name for both).
        custom_objects: optional dict name -> user loss class or function.

    Raises:
        ValueError: for an unknown name (the close matches are listed) or a
            dict that is not a loss config.
    """
    config = name
    if isinstance(config, str):
        found = _lookup(config, custom_objects)
        if found is None:
            raise unknown_name_error(config)
        return found() if isinstance(found, type) else found
    if not isinstance(config, dict) or "class_name" not in config:
        raise ValueError(
            f"Could not deserialize a loss from {config!r}: expected a loss name (such as "
            "'mean_squared_error') or a dict with 'class_name' and 'config', as "
            "`serialize` writes."
        )
    class_name = config["class_name"]
    inner = config.get("config")
    if class_name == "__lambda__":
        raise ValueError(
            "This loss config holds a lambda (Python bytecode), which mb does not load. "
            "Define the loss as a named function and pass it in `custom_objects`."
        )
    if class_name == "function":
        found = _lookup(inner, custom_objects) if isinstance(inner, str) else None
        if found is None:
            raise unknown_name_error(inner, what="loss function")
        return found
    registered = config.get("registered_name")
    found = _lookup(registered, custom_objects) if isinstance(registered, str) else None
    if found is None:
        found = _lookup(class_name, custom_objects)
    if found is None:
        raise unknown_name_error(class_name, what="loss class")
    if not isinstance(found, type):
        raise ValueError(
            f"The loss config names class {class_name!r}, but that name refers to "
            f"{found!r}, which is not a class."
        )
    return found.from_config(inner or {})
