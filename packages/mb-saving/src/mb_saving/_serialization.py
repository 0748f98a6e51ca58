"""``serialize_keras_object`` / ``deserialize_keras_object``: any object to Keras's JSON form.

Layers go through mb_layers' serializer (which writes Keras's layer dicts and
graph configs); models add their compile config; every other object is
``{"module", "class_name", "config", "registered_name"}`` from its
``get_config``, with Keras's export module for mb's built-ins. Deserializing
checks the whole config against the allow-list first (`_allow_list`), then
creates the objects (`_revive`).
"""

import base64
import marshal
import types
import warnings

import numpy as np

import mb_layers
from mb_graph import KerasTensor
from mb_layers import layers as layers_module
from mb_ops import core, dtypes
from mb_saving import _builtins, _compile_config, _object_registry
from mb_saving._allow_list import AllowList
from mb_saving._revive import Reviver
from mb_saving._safe_mode import resolve_safe_mode

_PLAIN = (str, int, float, bool)


def _function_config(fn):
    """Keras 3 writes every function alike, built-in or not: module ``"builtins"`` and
    registered name ``"function"`` (those of Python's function type), the function's
    own registered name in ``config``; its loader finds built-ins by that name."""
    hit = _builtins.builtin_name(fn)
    if hit is not None and not isinstance(fn, type):
        name = hit[1]
    else:
        name = _object_registry.get_registered_name(fn)
    return {"module": "builtins", "class_name": "function", "config": name,
            "registered_name": "function"}  # fmt: skip


def _lambda_config(fn):
    warnings.warn(
        "The object being serialized includes a lambda, which is stored as Python bytecode. "
        "Loading it needs safe_mode=False; prefer a named function registered with "
        "@register_keras_serializable().",
        stacklevel=3,
    )
    code = base64.b64encode(marshal.dumps(fn.__code__)).decode("ascii")
    closure = tuple(c.cell_contents for c in fn.__closure__) if fn.__closure__ else None
    return {
        "class_name": "__lambda__",
        "config": {"code": code, "defaults": fn.__defaults__, "closure": closure},
    }


def serialize_keras_object(obj):
    """The JSON-able Keras 3 form of `obj` (a layer, model, loss, optimizer, ... or a value).

    Example:

    >>> from mb_layers.layers import Dense
    >>> config = serialize_keras_object(Dense(3, name="d"))
    >>> config["module"], config["class_name"], config["config"]["units"]
    ('keras.layers', 'Dense', 3)
    """
    if obj is None or isinstance(obj, _PLAIN):
        return obj
    if isinstance(obj, (list, tuple)):
        return [serialize_keras_object(x) for x in obj]
    if isinstance(obj, dict):
        return {key: serialize_keras_object(value) for key, value in obj.items()}
    if isinstance(obj, bytes):
        return {"class_name": "__bytes__", "config": {"value": obj.decode("utf-8")}}
    if isinstance(obj, slice):
        parts = {k: serialize_keras_object(getattr(obj, k)) for k in ("start", "stop", "step")}
        return {"class_name": "__slice__", "config": parts}
    if obj is Ellipsis:
        return {"class_name": "__ellipsis__", "config": {}}
    if isinstance(obj, KerasTensor):
        history = obj._keras_history
        history = [history[0].name, history[1], history[2]] if history else None
        config = {"shape": list(obj.shape), "dtype": obj.dtype, "keras_history": history}
        return {"class_name": "__keras_tensor__", "config": config}
    if isinstance(obj, np.ndarray) and obj.ndim > 0:
        value = {"value": obj.tolist(), "dtype": dtypes.standardize_dtype(obj.dtype)}
        return {"class_name": "__numpy__", "config": value}
    if isinstance(obj, np.generic) or (isinstance(obj, np.ndarray) and obj.ndim == 0):
        return obj.item()
    if core.is_tensor(obj):
        array = np.asarray(core.convert_to_numpy(obj))
        value = {"value": array.tolist(), "dtype": dtypes.standardize_dtype(array.dtype)}
        return {"class_name": "__tensor__", "config": value}
    if isinstance(obj, mb_layers.Layer):
        config = _keras_op_modules(layers_module.serialize(obj))
        if _compile_config.is_model(obj):
            # Through the model's method: a subclass may override it (as in Keras).
            config["compile_config"] = obj.get_compile_config()
        return config
    if isinstance(obj, types.FunctionType) and obj.__name__ == "<lambda>":
        return _lambda_config(obj)
    if callable(obj) and not hasattr(obj, "get_config") and hasattr(obj, "__name__"):
        return _function_config(obj)
    if not hasattr(obj, "get_config"):
        raise TypeError(
            f"Cannot serialize {obj!r} (of type {type(obj).__name__}): it has no get_config(). "
            "Give its class a get_config() returning its constructor arguments."
        )
    return _object_config(obj)


def _keras_op_modules(value):
    """Writes the ops of functional graphs under Keras's modules (``keras.src.ops.numpy``)
    instead of mb's, so that Keras finds them; returns `value`, edited in place."""
    if isinstance(value, list):
        for item in value:
            _keras_op_modules(item)
    elif isinstance(value, dict):
        module = value.get("module")
        if isinstance(module, str) and module.startswith("mb_ops.") and "class_name" in value:
            cls = _builtins.OPERATIONS.table().get(value["class_name"])
            keras_module = _builtins.operation_module(cls) if cls is not None else None
            if keras_module is not None:
                value["module"] = keras_module
                value["registered_name"] = value["class_name"]
        for item in value.values():
            _keras_op_modules(item)
    return value


def _object_config(obj):
    cls = type(obj)
    config = obj.get_config()
    if not isinstance(config, dict):
        raise TypeError(f"{cls.__name__}.get_config() must return a dict; it returned {config!r}.")
    hit = _builtins.builtin_name(cls)
    if hit is not None:
        module, class_name, registered = hit[0].module, hit[1], None
    else:
        module = None if cls.__module__ == "__main__" else cls.__module__
        class_name, registered = cls.__name__, _object_registry.get_registered_name(cls)
    out = {
        "module": module,
        "class_name": class_name,
        "config": serialize_keras_object(config),
        "registered_name": registered,
    }
    build_config = obj.get_build_config() if hasattr(obj, "get_build_config") else None
    if build_config is not None:
        out["build_config"] = serialize_keras_object(build_config)
    return out


def deserialize_keras_object(config, custom_objects=None, safe_mode=True, **kwargs):
    """Creates the object described by `config` (from `serialize_keras_object` or Keras 3).

    The whole config is checked first: every object it names must be an mb
    built-in, a registered object or in `custom_objects`; lambdas are refused
    unless ``safe_mode=False``. An error names the entry's JSON path.

    Args:
        config: a dict, a list of them, a name string or a plain value.
        custom_objects: dict name -> class or function.
        safe_mode: refuse code stored in the config (an active `SafeModeScope`
            takes precedence).

    Raises:
        UnsafeConfigError: when an entry is refused.
        DeserializationError: when creating an allowed object fails.

    Example:

    >>> layer = deserialize_keras_object(
    ...     {"module": "keras.layers", "class_name": "Dense", "config": {"units": 2}}
    ... )
    >>> type(layer).__name__, layer.units
    ('Dense', 2)
    """
    module_objects = kwargs.pop("module_objects", None)
    kwargs.pop("printable_module_name", None)
    if kwargs:
        raise TypeError(f"Unexpected keyword arguments: {sorted(kwargs)}.")
    if config is None or isinstance(config, (int, float, bool)):
        return config
    if isinstance(config, str):
        allow = AllowList(custom_objects)
        found = allow.custom(config)
        if found is None and module_objects:
            found = module_objects.get(config)
        return found if found is not None else config
    safe = resolve_safe_mode(safe_mode)
    reviver = Reviver(custom_objects, safe, _compile_config.compile_from_config)
    reviver.allow.check(config, ("config",))
    with reviver.scope():
        return reviver.revive(config, ["config"])
