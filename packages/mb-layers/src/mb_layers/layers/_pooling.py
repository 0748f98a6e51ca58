"""Pooling layers: max/average (1D-3D), global and adaptive pooling."""

from mb_graph._operation import default
from mb_layers._input_spec import InputSpec
from mb_layers._layer import Layer
from mb_layers._ops import ops
from mb_layers.layers._reshaping import _data_format, _int_tuple


def _padding(value):
    value = value.lower()
    if value not in ("valid", "same"):
        raise ValueError(f"`padding` must be 'valid' or 'same'. Received: padding={value!r}.")
    return value


class _Pooling(Layer):
    _rank = 2
    _op = "max_pool"

    def __init__(self, pool_size, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.pool_size = _int_tuple(pool_size, self._rank, "pool_size")
        strides = self.pool_size if strides is None else strides
        self.strides = _int_tuple(strides, self._rank, "strides")
        self.padding = _padding(padding)
        self.data_format = _data_format(data_format)
        self.pool_mode = "max" if self._op == "max_pool" else "average"
        self.input_spec = InputSpec(ndim=self._rank + 2)
        self.built = True

    @default
    def compute_output_shape(self, input_shape):
        """The output shape, by symbolic inference of `call` (Keras's signature)."""
        return super().compute_output_shape(input_shape)

    def call(self, inputs):
        pool = getattr(ops, self._op)
        return pool(
            inputs,
            pool_size=self.pool_size,
            strides=self.strides,
            padding=self.padding,
            data_format=self.data_format,
        )

    def get_config(self):
        return {
            **super().get_config(),
            "pool_size": self.pool_size,
            "padding": self.padding,
            "strides": self.strides,
            "data_format": self.data_format,
        }


def _pool_class(name, rank, op, default_pool, doc):
    def __init__(
        self,
        pool_size=default_pool,
        strides=None,
        padding="valid",
        data_format=None,
        name=None,
        **kwargs,
    ):
        _Pooling.__init__(
            self,
            pool_size,
            strides=strides,
            padding=padding,
            data_format=data_format,
            name=name,
            **kwargs,
        )

    if default_pool is None:  # Keras's average pooling layers take no default pool_size
        __init__.__defaults__ = __init__.__defaults__[1:]
    return type(
        name,
        (_Pooling,),
        {"__init__": __init__, "_rank": rank, "_op": op, "__doc__": doc, "__module__": __name__},
    )


MaxPooling1D = _pool_class("MaxPooling1D", 1, "max_pool", 2, "Max pooling over steps.")
MaxPooling2D = _pool_class("MaxPooling2D", 2, "max_pool", (2, 2), "Max pooling over 2D maps.")
MaxPooling3D = _pool_class("MaxPooling3D", 3, "max_pool", (2, 2, 2), "Max pooling over volumes.")
AveragePooling1D = _pool_class(
    "AveragePooling1D", 1, "average_pool", None, "Average pooling over steps."
)
AveragePooling2D = _pool_class(
    "AveragePooling2D", 2, "average_pool", None, "Average pooling over 2D maps."
)
AveragePooling3D = _pool_class(
    "AveragePooling3D", 3, "average_pool", None, "Average pooling over volumes."
)


class _GlobalPooling(Layer):
    _rank = 2
    _reduce = "mean"

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = _data_format(data_format)
        self.keepdims = keepdims
        self.input_spec = InputSpec(ndim=self._rank + 2)
        self.built = True

    def _axes(self):
        start = 2 if self.data_format == "channels_first" else 1
        return list(range(start, start + self._rank))

    def call(self, inputs):
        axes = self._axes()
        if self._reduce == "mean":
            return ops.mean(inputs, axis=axes, keepdims=self.keepdims)
        return ops.max(inputs, axis=axes, keepdims=self.keepdims)

    def compute_output_shape(self, input_shape):
        axes = self._axes()
        if self.keepdims:
            return tuple(1 if i in axes else d for i, d in enumerate(input_shape))
        return tuple(d for i, d in enumerate(input_shape) if i not in axes)

    def get_config(self):
        return {**super().get_config(), "data_format": self.data_format, "keepdims": self.keepdims}


def _global_class(name, rank, reduce, doc):
    attributes = {"_rank": rank, "_reduce": reduce, "__doc__": doc, "__module__": __name__}
    return type(name, (_GlobalPooling,), attributes)


class GlobalAveragePooling1D(_GlobalPooling):
    """Mean over steps (masked steps excluded)."""

    _rank = 1
    _reduce = "mean"

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(data_format=data_format, keepdims=keepdims, **kwargs)
        self.supports_masking = True

    def call(self, inputs, mask=None):
        if mask is None:
            return super().call(inputs)
        steps_axis = self._axes()[0]
        weights = ops.cast(mask, inputs.dtype)
        weights = ops.expand_dims(weights, 1 if self.data_format == "channels_first" else -1)
        total = ops.sum(ops.multiply(inputs, weights), axis=steps_axis, keepdims=self.keepdims)
        count = ops.sum(weights, axis=steps_axis, keepdims=self.keepdims)
        return ops.divide(total, count)

    def compute_mask(self, inputs, mask=None):
        return None


GlobalAveragePooling2D = _global_class(
    "GlobalAveragePooling2D", 2, "mean", "Mean over the two spatial axes."
)
GlobalAveragePooling3D = _global_class(
    "GlobalAveragePooling3D", 3, "mean", "Mean over the three spatial axes."
)
GlobalMaxPooling1D = _global_class("GlobalMaxPooling1D", 1, "max", "Max over steps.")
GlobalMaxPooling2D = _global_class("GlobalMaxPooling2D", 2, "max", "Max over the two spatial axes.")
GlobalMaxPooling3D = _global_class(
    "GlobalMaxPooling3D", 3, "max", "Max over the three spatial axes."
)


class _AdaptivePooling(Layer):
    _rank = 2
    _op = "adaptive_average_pool"

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.output_size = _int_tuple(output_size, self._rank, "output_size")
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=self._rank + 2)
        self.built = True

    def call(self, inputs):
        pool = getattr(ops, self._op)
        return pool(inputs, output_size=self.output_size, data_format=self.data_format)

    def compute_output_shape(self, input_shape):
        if self.data_format == "channels_first":
            return (input_shape[0], input_shape[1], *self.output_size)
        return (input_shape[0], *self.output_size, input_shape[-1])

    def get_config(self):
        return {
            **super().get_config(),
            "output_size": self.output_size,
            "data_format": self.data_format,
        }


def _adaptive_class(name, rank, op, doc):
    return type(
        name,
        (_AdaptivePooling,),
        {"_rank": rank, "_op": op, "__doc__": doc, "__module__": __name__},
    )


AdaptiveAveragePooling1D = _adaptive_class(
    "AdaptiveAveragePooling1D", 1, "adaptive_average_pool", "Averages to a fixed size."
)
AdaptiveAveragePooling2D = _adaptive_class(
    "AdaptiveAveragePooling2D", 2, "adaptive_average_pool", "Averages to a fixed size."
)
AdaptiveAveragePooling3D = _adaptive_class(
    "AdaptiveAveragePooling3D", 3, "adaptive_average_pool", "Averages to a fixed size."
)
AdaptiveMaxPooling1D = _adaptive_class(
    "AdaptiveMaxPooling1D", 1, "adaptive_max_pool", "Max-pools to a fixed size."
)
AdaptiveMaxPooling2D = _adaptive_class(
    "AdaptiveMaxPooling2D", 2, "adaptive_max_pool", "Max-pools to a fixed size."
)
AdaptiveMaxPooling3D = _adaptive_class(
    "AdaptiveMaxPooling3D", 3, "adaptive_max_pool", "Max-pools to a fixed size."
)
