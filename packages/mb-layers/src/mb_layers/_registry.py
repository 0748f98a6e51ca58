"""Serialization of layers: Keras 3's object dicts for ``keras.layers.serialize``.

Built-in layers are written with module ``"keras.layers"`` (the networks with
their Keras modules), so a config written by mb loads in Keras 3 and back.
"""

from mb_layers import _serialization

# name -> (class, Keras module, registered_name)
_BUILTINS = {}


def register_builtin(cls, module="keras.layers", registered_name=None, names=None):
    """Registers a built-in layer class under its name(s) (aliases too)."""
    for name in names or (cls.__name__,):
        _BUILTINS[name] = (cls, module, registered_name)
    return cls


def builtin_classes():
    """dict name -> class of every built-in layer (aliases included)."""
    return {name: entry[0] for name, entry in _BUILTINS.items()}


def serialize(layer):
    """``{"module", "class_name", "config", "registered_name"[, "build_config"]}``."""
    cls = type(layer)
    # Keras exports some classes under another name (GroupedQueryAttention).
    export_name = cls.__dict__.get("_keras_export_name", cls.__name__)
    entry = _BUILTINS.get(export_name)
    if entry is not None and entry[0] is cls:
        out = {
            "module": entry[1],
            "class_name": export_name,
            "config": layer.get_config(),
            "registered_name": entry[2],
        }
    else:
        out = {
            "module": None if cls.__module__ == "__main__" else cls.__module__,
            "class_name": cls.__name__,
            "config": layer.get_config(),
            "registered_name": _serialization.registered_name(cls),
        }
    build_config = layer.get_build_config() if hasattr(layer, "get_build_config") else None
    if build_config is not None:
        out["build_config"] = build_config
    return out


def deserialize(config, custom_objects=None):
    """Creates a layer from `serialize`'s dict (or a Keras 3 one) and builds it if recorded.

    Raises:
        ValueError: when the class is unknown; the error names it and how to
            make it known (`custom_objects`).
    """
    if not isinstance(config, dict) or "class_name" not in config:
        raise ValueError(
            f"Cannot deserialize a layer from {config!r}: expected a dict with 'class_name' "
            "and 'config'."
        )
    builtins = builtin_classes()
    layer = _serialization.deserialize_object(
        {k: v for k, v in config.items() if k != "build_config"},
        builtins,
        "layer",
        custom_objects=custom_objects,
        pass_custom_objects=True,
    )
    build_config = config.get("build_config")
    if build_config and not getattr(layer, "built", True):
        layer.build_from_config(build_config)
    return layer
