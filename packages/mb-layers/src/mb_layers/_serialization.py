"""The JSON form of registry objects (initializers, activations, policies, ...).

The form is Keras 3's ``serialize_keras_object`` (reference/keras-file-format.md
section 2.3), so configs interchange with Keras: a built-in object records the
Keras export module (``"keras.initializers"``) and class name; a user object
records its Python module and a registered name. mb_saving, which owns the
full object registry, plugs its lookup in with `set_custom_object_lookup`.
"""

import inspect

from mb_graph import custom_objects_in_scope, find_scoped_object


class _Hooks:
    custom_lookup = None


def set_custom_object_lookup(fn):
    """Registers ``fn(name) -> object or None``, consulted before the built-in tables.

    Returns the previously registered function.
    """
    previous = _Hooks.custom_lookup
    _Hooks.custom_lookup = fn
    return previous


def registered_name(target):
    """The registered name of a user class or function (``package>Name`` when registered)."""
    name = getattr(target, "_mb_registered_name", None)
    return name if name is not None else target.__name__


def serialize_object(obj, builtins, module):
    """``{"module", "class_name", "config", "registered_name"}`` for an object with get_config.

    Args:
        obj: the object.
        builtins: dict name -> class of the registry's built-in classes.
        module: the Keras export module of the built-ins (``"keras.initializers"``).
    """
    cls = type(obj)
    config = obj.get_config()
    if builtins.get(cls.__name__) is cls:
        return {
            "module": module,
            "class_name": cls.__name__,
            "config": config,
            "registered_name": None,
        }
    return {
        "module": None if cls.__module__ == "__main__" else cls.__module__,
        "class_name": cls.__name__,
        "config": config,
        "registered_name": registered_name(cls),
    }


def serialize_function(fn, builtins, module):
    """The string name of a built-in function, else a ``"function"`` object dict."""
    name = getattr(fn, "__name__", None)
    if name is not None and builtins.get(name) is fn:
        return name
    # Keras 3 writes every function so: the module and registered name of Python's
    # function type, the function's own registered name in "config".
    return {
        "module": "builtins",
        "class_name": "function",
        "config": registered_name(fn),
        "registered_name": "function",
    }


def _lookup(name, builtins, custom_objects):
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    scoped = find_scoped_object(name)
    if scoped is not None:
        return scoped
    if _Hooks.custom_lookup is not None:
        found = _Hooks.custom_lookup(name)
        if found is not None:
            return found
    if name in builtins:
        return builtins[name]
    return None


def deserialize_object(config, builtins, kind, custom_objects=None, pass_custom_objects=False):
    """Creates an object from a name or a serialized dict.

    Args:
        config: a string name (class name or snake_case alias) or a dict with
            ``class_name`` and ``config`` (``module``/``registered_name`` optional).
        builtins: dict name -> class or function of the registry.
        kind: what is being deserialized, for errors (``"initializer"``).
        custom_objects: optional dict name -> class or function.
        pass_custom_objects: give `custom_objects` to ``from_config`` when it
            accepts them (containers of nested objects).

    Raises:
        ValueError: when the name is unknown or the dict is malformed.
    """
    if isinstance(config, str):
        found = _lookup(config, builtins, custom_objects)
        if found is None:
            raise ValueError(
                f"Unknown {kind}: {config!r}. Expected one of the built-in names "
                f"({', '.join(sorted(builtins))}) or a name given in `custom_objects`."
            )
        return found() if isinstance(found, type) else found
    if not isinstance(config, dict) or "class_name" not in config:
        raise ValueError(
            f"Could not interpret {kind} {config!r}: expected a string name or a dict "
            "with 'class_name' and 'config'."
        )
    class_name = config["class_name"]
    inner = config.get("config", {})
    if class_name == "function":
        name = config.get("registered_name") or inner
        found = _lookup(name, builtins, custom_objects) or _lookup(inner, builtins, custom_objects)
        if found is None:
            raise ValueError(
                f"Unknown {kind} function {inner!r} (registered name {name!r}). Register "
                "it or pass it in `custom_objects`."
            )
        return found
    candidates = [config.get("registered_name"), class_name]
    for name in candidates:
        if name is None:
            continue
        found = _lookup(name, builtins, custom_objects)
        if found is not None:
            break
    else:
        raise ValueError(
            f"Unknown {kind} class {class_name!r}. Built-in: {', '.join(sorted(builtins))}. "
            "Register custom classes or pass them in `custom_objects`."
        )
    if not hasattr(found, "from_config"):
        return found(**(inner or {}))
    # Keras's from_config(cls, config) finds nested custom objects in the scope;
    # containers that take `custom_objects` (Functional, RNN, ...) get them too.
    with custom_objects_in_scope(custom_objects):
        if (
            pass_custom_objects
            and "custom_objects" in inspect.signature(found.from_config).parameters
        ):
            return found.from_config(inner or {}, custom_objects=custom_objects)
        return found.from_config(inner or {})


def registry_functions(module_name, all_objects, kind, example, base=None):
    """``deserialize`` and ``get`` of one registry module, written once.

    The constraints, regularizers and initializers modules each expose the two
    with the same behaviour over their own tables (each writes its ``serialize``,
    whose argument Keras names after the kind).

    Args:
        module_name: the module the functions are exposed from (their ``__module__``).
        all_objects: dict name (class names and snake_case aliases) -> class.
        kind: the kind of object, for docstrings and errors (``"constraint"``).
        example: a built-in name for the error of `get` (``"'non_neg'"``).
        base: when given, `get` also accepts a subclass of it and instantiates it
            with no arguments (``get(GlorotUniform)``, as Keras's initializers do).
    """

    def deserialize(config, custom_objects=None):
        return deserialize_object(config, all_objects, kind, custom_objects=custom_objects)

    def get(identifier):
        if identifier is None:
            return None
        if isinstance(identifier, (str, dict)):
            return deserialize(identifier)
        if base is not None and isinstance(identifier, type) and issubclass(identifier, base):
            return identifier()
        if callable(identifier):
            return identifier
        raise ValueError(
            f"Could not interpret {kind} identifier: {identifier!r}. Expected a name such as "
            f"{example}, a serialized dict, or a callable."
        )

    deserialize.__doc__ = f"The {kind} described by `config` (a name or a dict)."
    accepted = "a name, a dict, a class, a callable or an instance"
    if base is None:
        accepted = accepted.replace(" a class,", "")
    article = "An" if kind[0] in "aeiou" else "A"
    get.__doc__ = (
        f"{article} {kind} from None, {accepted}.\n\n    Raises:\n"
        "        ValueError: when `identifier` is none of those.\n    "
    )
    for fn in (deserialize, get):
        fn.__module__ = module_name
        fn.__qualname__ = fn.__name__
    return deserialize, get
