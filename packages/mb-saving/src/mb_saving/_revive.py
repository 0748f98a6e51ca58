"""Creating objects from a config that the allow-list accepted.

Layers are made by their classes' ``from_config``; functional and sequential
networks are rebuilt here from their entries (the graph by
``mb_graph.deserialize_graph``, the one reader of the topology), so that a
failure names the entry's place in the config (``config.layers[3]``) and the
layer, instead of a generic "could not be deserialized".
"""

import inspect

import numpy as np

import mb_layers
from mb_graph import KerasTensor, custom_objects_in_scope, deserialize_graph
from mb_layers.layers import Lambda
from mb_ops import SymbolicScope, ops
from mb_saving import _consistency
from mb_saving._allow_list import AllowList
from mb_saving._errors import DeserializationError, UnsafeConfigError, json_path
from mb_saving._object_registry import CustomObjectScope
from mb_saving._safe_mode import SafeModeScope

_PASS_THROUGH = (DeserializationError, UnsafeConfigError)


class _UnsafeLambda:
    """Stands for `Lambda` in the custom objects when the caller chose safe_mode=False,
    so that Lambdas nested in custom layers' configs load their bytecode too."""

    @staticmethod
    def from_config(config, custom_objects=None):
        return Lambda.from_config(config, custom_objects=custom_objects, safe_mode=False)


def _stock(cls, base):
    """Whether `cls` uses `base`'s own ``from_config`` (not a user override): the
    network's, or, for a functional model, mb_train's `Functional.from_config`."""
    from mb_train.models import Functional

    method = getattr(getattr(cls, "from_config", None), "__func__", None)
    if method is base.from_config.__func__:
        return True
    return base is mb_layers.Functional and method is Functional.from_config.__func__


def _label(entry):
    config = entry.get("config")
    name = entry.get("name") or (config.get("name") if isinstance(config, dict) else None)
    return f"'{name}' ({entry.get('class_name')})" if name else f"a {entry.get('class_name')}"


def _overrides_compile_from_config(layer):
    from mb_train.models import Model

    own = getattr(type(layer), "compile_from_config", None)
    return isinstance(layer, Model) and own is not Model.compile_from_config


class Reviver:
    """Turns checked config values into objects.

    Args:
        custom_objects: the caller's extra names.
        safe_mode: whether bytecode is refused (already checked by the allow-list).
        compile_model: a function ``(model, compile_config)`` run on models
            that carry a compile config, or None to skip compiling.
    """

    def __init__(self, custom_objects=None, safe_mode=True, compile_model=None):
        self.allow = AllowList(custom_objects, safe_mode)
        self.safe_mode = safe_mode
        self.compile_model = compile_model
        self.shared = {}
        # Whether the file carries mb's metadata (Keras resolves jit_compile on save).
        self.written_by_mb = False

    def scope(self):
        objects = dict(self.allow.custom_objects)
        if not self.safe_mode:
            objects.setdefault("Lambda", _UnsafeLambda)
        return _Scopes(CustomObjectScope(objects), SafeModeScope(self.safe_mode))

    def revive(self, value, path):
        if isinstance(value, list):
            return [self.revive(v, [*path, i]) for i, v in enumerate(value)]
        if not isinstance(value, dict):
            return value
        if "class_name" not in value or "config" not in value:
            return {k: self.revive(v, [*path, k]) for k, v in value.items()}
        return self.revive_object(value, path)

    def revive_object(self, entry, path):
        where = json_path(path)
        shared_id = entry.get("shared_object_id")
        if shared_id is not None and shared_id in self.shared:
            return self.shared[shared_id]
        resolution = self.allow.resolve(entry, where)
        if resolution.target is _UnsafeLambda:  # the scope's stand-in: revive a Lambda
            resolution.target = Lambda
        if resolution.source == "data":
            obj = self._data(entry, path)
        elif entry["class_name"] == "function" or not isinstance(resolution.target, type):
            obj = resolution.target
        elif issubclass(resolution.target, mb_layers.Layer):
            obj = self.revive_layer(entry, resolution.target, path)
        else:
            obj = self._call(where, entry, lambda: self._from_config(resolution.target, entry))
        if shared_id is not None:
            self.shared[shared_id] = obj
        return obj

    def _data(self, entry, path):
        name, inner = entry["class_name"], entry["config"]
        where = json_path(path)
        try:
            if name == "__keras_tensor__":
                return KerasTensor(inner["shape"], inner["dtype"])
            if name == "__numpy__":
                return np.array(inner["value"], dtype=inner["dtype"])
            if name == "__tensor__":
                return ops.convert_to_tensor(np.array(inner["value"], dtype=inner["dtype"]))
            if name == "__bytes__":
                return inner["value"].encode("utf-8")
            if name == "__slice__":
                parts = [self.revive(inner.get(k), [*path, k]) for k in ("start", "stop", "step")]
                return slice(*parts)
            if name == "__ellipsis__":
                return Ellipsis
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise DeserializationError(f"{where}: malformed '{name}' entry: {error}.") from error
        raise UnsafeConfigError(f"{where}: '{name}' cannot be used outside a Lambda's config.")

    def _from_config(self, cls, entry):
        inner = entry["config"] if entry["config"] is not None else {}
        if not hasattr(cls, "from_config"):
            return cls(**inner)
        if not isinstance(inner, dict):
            raise TypeError(f"expected 'config' to be a dict, got {inner!r}")
        parameters = inspect.signature(cls.from_config).parameters
        kwargs = {}
        if "custom_objects" in parameters:
            kwargs["custom_objects"] = self.allow.custom_objects
        if "safe_mode" in parameters:  # classes that fail closed (TorchModuleWrapper)
            kwargs["safe_mode"] = self.safe_mode
        # Keras's from_config(cls, config) finds the caller's custom objects in the scope.
        with custom_objects_in_scope(self.allow.custom_objects):
            return cls.from_config(inner, **kwargs)

    def _call(self, where, entry, make):
        try:
            return make()
        except _PASS_THROUGH:
            raise
        except Exception as error:
            raise DeserializationError(
                f"{where}: could not create {_label(entry)} from its config: "
                f"{type(error).__name__}: {error}"
            ) from error

    # ----- layers ---------------------------------------------------------------------

    def revive_layer(self, entry, cls, path):
        where = json_path(path)
        config = entry["config"]
        if not isinstance(config, dict):
            raise DeserializationError(f"{where}: a layer's 'config' must be a dict.")
        if issubclass(cls, mb_layers.Functional) and _stock(cls, mb_layers.Functional):
            layer = self._functional(cls, config, [*path, "config"])
        elif issubclass(cls, mb_layers.Sequential) and _stock(cls, mb_layers.Sequential):
            layer = self._sequential(cls, config, [*path, "config"])
        elif issubclass(cls, Lambda):
            objects = {**self.allow.custom_objects, **self._lambda_functions(config, path)}
            layer = self._call(
                where,
                entry,
                lambda: cls.from_config(config, custom_objects=objects, safe_mode=self.safe_mode),
            )
        else:
            layer = self._call(where, entry, lambda: self._from_config(cls, entry))
        build_config = entry.get("build_config")
        if build_config and not layer.built:
            self._build(layer, build_config, where, entry)
        compile_config = entry.get("compile_config")
        if compile_config and self.compile_model is not None:
            if _overrides_compile_from_config(layer):
                # The class's own (as Keras calls it): given the serialized config.
                self._call(where, entry, lambda: layer.compile_from_config(compile_config))
            else:
                self.compile_model(layer, compile_config, self, [*path, "compile_config"])
        return layer

    def _lambda_functions(self, config, path):
        # Lambda's own from_config only finds registered functions; hand it the
        # built-in ones (e.g. "relu") the allow-list resolved.
        found = {}
        for key in ("function", "output_shape", "mask"):
            value = config.get(key)
            if isinstance(value, dict) and value.get("class_name") == "function":
                target = self.allow.resolve(value, json_path([*path, "config", key])).target
                for name in (value.get("registered_name"), value.get("config")):
                    if isinstance(name, str):
                        found[name] = target
        return found

    def _build(self, layer, build_config, where, entry):
        def build():
            layer.build_from_config(build_config)
            build_sublayers(layer, build_config)

        try:
            build()
        except _PASS_THROUGH:
            raise
        except Exception as error:
            raise DeserializationError(
                f"{where}: could not build {_label(entry)} from its build_config "
                f"{build_config}: {type(error).__name__}: {error}"
            ) from error

    def _functional(self, cls, config, path):
        entries = config.get("layers")
        if not isinstance(entries, list):
            raise DeserializationError(f"{json_path(path)}: 'layers' must be a list.")
        index = {id(e): i for i, e in enumerate(entries)}
        made = []

        def make(entry):
            if not isinstance(entry, dict) or "name" not in entry:
                raise DeserializationError(
                    f"{json_path([*path, 'layers'])}: every entry needs a 'name' and a "
                    f"'class_name'; got {str(entry)[:200]}."
                )
            i = index.get(id(entry), "?")
            operation = self.revive_object(entry, [*path, "layers", i])
            made.append((entry, operation, len(getattr(operation, "_inbound_nodes", ())), i))
            return operation

        def rebuild():
            inputs, outputs = deserialize_graph(config, deserialize_operation=make)
            return cls(
                inputs, outputs, name=config.get("name"), trainable=config.get("trainable", True)
            )

        network = self._call(
            json_path(path), {"class_name": cls.__name__, "config": config}, rebuild
        )
        _consistency.check_network(made, path)
        return network

    def _sequential(self, cls, config, path):
        entries = config.get("layers")
        if not isinstance(entries, list):
            raise DeserializationError(f"{json_path(path)}: 'layers' must be a list.")
        layers = [self.revive_object(e, [*path, "layers", i]) for i, e in enumerate(entries)]

        def rebuild():
            model = cls(layers, name=config.get("name"), trainable=config.get("trainable", True))
            shape = config.get("build_input_shape")
            if not model.built and isinstance(shape, list):
                model.build(tuple(shape))
            return model

        network = self._call(
            json_path(path), {"class_name": cls.__name__, "config": config}, rebuild
        )
        pairs = [(e, layer, 0, i) for i, (e, layer) in enumerate(zip(entries, layers, strict=True))]
        _consistency.check_network([p for p in pairs if isinstance(p[0], dict)], path)
        return network


def build_sublayers(layer, build_config):
    """Builds sub-layers that ``build_from_config`` left unbuilt (created in ``__init__``
    but only built by ``call``), by a symbolic call on the recorded input shape."""
    pending = [sub for sub in layer._flatten_layers(include_self=False) if not sub.built]
    shape = build_config.get("input_shape") if isinstance(build_config, dict) else None
    if not pending or not isinstance(shape, list) or isinstance(layer, mb_layers.Functional):
        return
    if not all(d is None or isinstance(d, int) for d in shape):
        return
    try:
        with SymbolicScope():
            layer.call(KerasTensor(tuple(shape), record_history=False))
    except Exception:
        # Best effort: if the call needs more than one input, loading the weights
        # reports precisely which variables are missing.
        return


class _Scopes:
    def __init__(self, *scopes):
        self.scopes = scopes

    def __enter__(self):
        for scope in self.scopes:
            scope.__enter__()
        return self

    def __exit__(self, *exc):
        for scope in reversed(self.scopes):
            scope.__exit__(*exc)
        return False
