"""`Lambda`: wraps a Python function as a layer."""

import base64
import inspect
import marshal
import types

from mb_graph import KerasTensor, tree
from mb_graph._operation import default
from mb_layers import _serialization
from mb_layers._layer import Layer

_UNSAFE = (
    "Lambda '{name}': its config holds Python bytecode (a lambda), which runs arbitrary code "
    "when loaded. Refused because safe_mode is on. Load with safe_mode=False only if you "
    "trust the source, or wrap a named, registered function instead."
)


def _dump_function(fn):
    code = base64.b64encode(marshal.dumps(fn.__code__)).decode("ascii")
    closure = tuple(c.cell_contents for c in fn.__closure__) if fn.__closure__ else None
    return {
        "class_name": "__lambda__",
        "config": {"code": code, "defaults": fn.__defaults__, "closure": closure},
    }


def _load_function(config):
    code = marshal.loads(base64.b64decode(config["code"].encode("ascii")))
    closure = config.get("closure")
    if closure is not None:
        closure = tuple(types.CellType(c) for c in closure)
    defaults = config.get("defaults")
    return types.FunctionType(
        code, globals(), code.co_name, tuple(defaults) if defaults else None, closure
    )


class Lambda(Layer):
    """Runs ``function(inputs, **arguments)`` as a layer.

    Args:
        function: the function (its output shape is inferred symbolically
            unless `output_shape` is given).
        output_shape: the output shape without batch axis, or a function of
            the input shape.
        mask: a mask, or a function ``mask(inputs, previous_mask)``.
        arguments: extra keyword arguments of `function`.

    Example:

    >>> import numpy as np
    >>> double = Lambda(lambda x: x * 2)
    >>> np.asarray(double(np.ones((1, 2), "float32"))).tolist()
    [[2.0, 2.0]]
    """

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        self.function = function
        self.arguments = arguments or {}
        self._output_shape = output_shape
        self.mask = mask
        self.supports_masking = mask is not None
        params = inspect.signature(function).parameters
        self._fn_takes_mask = "mask" in params
        self._fn_takes_training = "training" in params
        self.built = True

    def call(self, inputs, mask=None, training=None):
        kwargs = dict(self.arguments)
        if self._fn_takes_mask:
            kwargs["mask"] = mask
        if self._fn_takes_training:
            kwargs["training"] = training
        return self.function(inputs, **kwargs)

    def compute_mask(self, inputs, mask=None):
        if callable(self.mask):
            return self.mask(inputs, mask)
        return self.mask

    @default  # the output spec (symbolic inference or `output_shape`) gives the shape
    def compute_output_shape(self, input_shape):
        inputs = tree.map_shape_structure(lambda s: KerasTensor(s), input_shape)
        return tree.map_structure(lambda x: x.shape, self.compute_output_spec(inputs))

    def compute_output_spec(self, *args, **kwargs):
        # Keras's signature; the arguments are call's (inputs, mask=None, training=None).
        if self._output_shape is None:
            return Layer.compute_output_spec(self, *args, **kwargs)
        inputs = args[0] if args else kwargs["inputs"]
        shape = self._output_shape
        if callable(shape):
            shape = shape(tree.map_structure(lambda x: x.shape, inputs))
        else:
            batch = tree.flatten(inputs)[0].shape[0]
            shape = (batch, *tuple(shape))
        return KerasTensor(tuple(shape), dtype=self.compute_dtype)

    def get_config(self):
        config = {**super().get_config(), "function": self._serialize_function(self.function)}
        if self._output_shape is not None:
            config["output_shape"] = (
                self._serialize_function(self._output_shape)
                if callable(self._output_shape)
                else list(self._output_shape)
            )
        if self.mask is not None:
            config["mask"] = self._serialize_function(self.mask) if callable(self.mask) else None
        config["arguments"] = self.arguments
        return config

    @staticmethod
    def _serialize_function(fn):
        if fn.__name__ == "<lambda>" or "<locals>" in fn.__qualname__:
            return _dump_function(fn)
        return _serialization.serialize_function(fn, {}, None)

    @classmethod
    def from_config(cls, config, custom_objects=None, safe_mode=None):
        """Recreates the layer; lambdas (bytecode) are refused unless ``safe_mode=False``
        (None, not said, is safe)."""
        config = dict(config)
        for key in ("function", "output_shape", "mask"):
            value = config.get(key)
            if isinstance(value, dict) and value.get("class_name") == "__lambda__":
                if safe_mode is not False:
                    raise ValueError(_UNSAFE.format(name=config.get("name")))
                config[key] = _load_function(value["config"])
            elif isinstance(value, dict) and value.get("class_name") == "function":
                config[key] = _serialization.deserialize_object(
                    value, {}, "function", custom_objects=custom_objects
                )
        return super().from_config(config)
