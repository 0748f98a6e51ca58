"""The legacy (tf.keras / Keras 2) object serialization: ``{"class_name", "config"}``
dicts with nested objects marked ``__passive_serialization__``, as Keras 3 keeps it in
``keras.legacy.saving`` and ``keras.utils.legacy`` for code written against it."""

from __future__ import annotations

import inspect

from mb_saving._object_registry import (
    CustomObjectScope,
    get_custom_objects,
    get_registered_name,
    get_registered_object,
    scoped_objects,
)

_PASSIVE = "__passive_serialization__"


def serialize_keras_object(instance):
    """The legacy JSON form of `instance`: ``{"class_name": name, "config": config}`` for
    an object with ``get_config`` (nested objects serialized the same way and marked
    ``"__passive_serialization__": True``), the registered name for a function or
    class, None for None.

    Example:

    >>> def scale(x):
    ...     return 2 * x
    >>> serialize_keras_object(scale)
    'scale'
    """
    instance = inspect.unwrap(instance) if callable(instance) else instance
    if instance is None:
        return None
    if hasattr(instance, "get_config"):
        config = {}
        for key, item in instance.get_config().items():
            if isinstance(item, str):
                config[key] = item
                continue
            try:
                serialized = serialize_keras_object(item)
            except ValueError:
                config[key] = item
                continue
            if isinstance(serialized, dict) and not isinstance(item, dict):
                serialized[_PASSIVE] = True
            config[key] = serialized
        return {"class_name": get_registered_name(type(instance)), "config": config}
    if hasattr(instance, "__name__"):
        return get_registered_name(instance)
    raise ValueError(
        f"Cannot serialize {instance!r} (of type {type(instance).__name__}): it has no "
        "get_config() and no __name__."
    )


def _lookup(name, module_objects, custom_objects):
    return get_registered_object(name, custom_objects, module_objects)


def deserialize_keras_object(
    identifier, module_objects=None, custom_objects=None, printable_module_name="object"
):
    """The object described by a legacy form: a ``{"class_name", "config"}`` dict (the
    class looked up in the custom object scopes, the registry, `custom_objects`, then
    `module_objects`, and built with ``from_config``), or a name (a class is
    instantiated, a function returned as is).

    Args:
        identifier: the serialized form (None gives None).
        module_objects: dict name -> built-in class or function to look names up in.
        custom_objects: dict name -> user class or function.
        printable_module_name: what the object is, for error messages.

    Example:

    >>> class Scale:
    ...     def __init__(self, factor=1.0):
    ...         self.factor = factor
    ...     def get_config(self):
    ...         return {"factor": self.factor}
    >>> config = serialize_keras_object(Scale(3.0))
    >>> deserialize_keras_object(config, module_objects={"Scale": Scale}).factor
    3.0
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        if "class_name" not in identifier or "config" not in identifier:
            raise ValueError(
                f"Improper config format for {identifier!r}: expected a dict with "
                "'class_name' and 'config' keys."
            )
        name = identifier["class_name"]
        cls = _lookup(name, module_objects, custom_objects)
        if cls is None:
            raise ValueError(
                f"Unknown {printable_module_name}: '{name}'. Pass it in custom_objects, "
                "use keras.saving.custom_object_scope, or register it with "
                "keras.saving.register_keras_serializable."
            )
        config = identifier["config"]
        if isinstance(config, dict):
            config = dict(config)
            for key, item in list(config.items()):
                if key == "name":
                    continue
                if isinstance(item, dict) and _PASSIVE in item:
                    item = {k: v for k, v in item.items() if k != _PASSIVE}
                    config[key] = deserialize_keras_object(
                        item, module_objects, custom_objects, "config_item"
                    )
                elif isinstance(item, str) and inspect.isfunction(
                    _lookup(item, module_objects, custom_objects)
                ):
                    config[key] = _lookup(item, module_objects, custom_objects)
        with CustomObjectScope(custom_objects or {}):
            if hasattr(cls, "from_config"):
                parameters = inspect.signature(cls.from_config).parameters
                if "custom_objects" in parameters:
                    return cls.from_config(
                        config,
                        custom_objects={
                            **get_custom_objects(),
                            **scoped_objects(),
                            **(custom_objects or {}),
                        },
                    )
                return cls.from_config(config)
            return cls(**config)
    if isinstance(identifier, str):
        found = _lookup(identifier, module_objects, custom_objects)
        if found is None:
            raise ValueError(
                f"Unknown {printable_module_name}: '{identifier}'. Pass it in "
                "custom_objects or use keras.saving.custom_object_scope."
            )
        return found() if inspect.isclass(found) else found
    if inspect.isfunction(identifier):
        return identifier
    raise ValueError(f"Could not interpret serialized {printable_module_name}: {identifier!r}.")
