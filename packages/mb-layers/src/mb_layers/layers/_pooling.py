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


_DATA_FORMAT_ARG = """    data_format: ``"channels_last"`` (``(batch, *spatial, channels)``) or
        ``"channels_first"``; None: the configured ``image_data_format``.
    **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...)."""


def _pool_doc(summary, rank, default, example):
    size = "an int" if rank == 1 else f"an int or {rank} ints"
    return f"""{summary}

Args:
    pool_size: {size}: the window size{default}.
    strides: {size}: the step between windows; None: ``pool_size``.
    padding: ``"valid"`` (windows inside the input) or ``"same"`` (output size
        ``ceil(size / strides)``).
{_DATA_FORMAT_ARG}

Example:

>>> import numpy as np
>>> from mb_ops import ops
{example}
"""


_STEPS = """>>> x = np.array([1.0, 5.0, 3.0, 2.0, 4.0, 6.0], "float32").reshape(1, 6, 1)"""

MaxPooling1D = _pool_class(
    "MaxPooling1D",
    1,
    "max_pool",
    2,
    _pool_doc(
        "Max pooling over steps: the largest value of each window.",
        1,
        " (default 2)",
        f"""{_STEPS}
>>> ops.convert_to_numpy(MaxPooling1D(pool_size=2)(x))[0, :, 0].tolist()
[5.0, 3.0, 6.0]""",
    ),
)
MaxPooling2D = _pool_class(
    "MaxPooling2D",
    2,
    "max_pool",
    (2, 2),
    _pool_doc(
        "Max pooling over 2D maps: the largest value of each window.",
        2,
        " (default ``(2, 2)``)",
        """>>> images = np.arange(16, dtype="float32").reshape(1, 4, 4, 1)
>>> ops.convert_to_numpy(MaxPooling2D()(images))[0, :, :, 0].tolist()
[[5.0, 7.0], [13.0, 15.0]]""",
    ),
)
MaxPooling3D = _pool_class(
    "MaxPooling3D",
    3,
    "max_pool",
    (2, 2, 2),
    _pool_doc(
        "Max pooling over volumes: the largest value of each window.",
        3,
        " (default ``(2, 2, 2)``)",
        """>>> volumes = np.arange(8, dtype="float32").reshape(1, 2, 2, 2, 1)
>>> ops.convert_to_numpy(MaxPooling3D()(volumes)).ravel().tolist()
[7.0]""",
    ),
)
AveragePooling1D = _pool_class(
    "AveragePooling1D",
    1,
    "average_pool",
    None,
    _pool_doc(
        "Average pooling over steps: the mean of each window.",
        1,
        "",
        f"""{_STEPS}
>>> ops.convert_to_numpy(AveragePooling1D(pool_size=2)(x))[0, :, 0].tolist()
[3.0, 2.5, 5.0]""",
    ),
)
AveragePooling2D = _pool_class(
    "AveragePooling2D",
    2,
    "average_pool",
    None,
    _pool_doc(
        "Average pooling over 2D maps: the mean of each window.",
        2,
        "",
        """>>> images = np.arange(16, dtype="float32").reshape(1, 4, 4, 1)
>>> ops.convert_to_numpy(AveragePooling2D(pool_size=2)(images))[0, :, :, 0].tolist()
[[2.5, 4.5], [10.5, 12.5]]""",
    ),
)
AveragePooling3D = _pool_class(
    "AveragePooling3D",
    3,
    "average_pool",
    None,
    _pool_doc(
        "Average pooling over volumes: the mean of each window.",
        3,
        "",
        """>>> volumes = np.arange(8, dtype="float32").reshape(1, 2, 2, 2, 1)
>>> ops.convert_to_numpy(AveragePooling3D(pool_size=2)(volumes)).ravel().tolist()
[3.5]""",
    ),
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


def _global_doc(summary, example):
    return f"""{summary}

Args:
    keepdims: whether the reduced axes stay, with size 1.
{_DATA_FORMAT_ARG}

Example:

>>> import numpy as np
>>> from mb_ops import ops
{example}
"""


class GlobalAveragePooling1D(_GlobalPooling):
    """Mean over steps (masked steps excluded).

    Args:
        data_format: ``"channels_last"`` (``(batch, steps, features)``) or
            ``"channels_first"``; None: the configured ``image_data_format``.
        keepdims: whether the steps axis stays, with size 1.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.array([[[1.0], [2.0], [6.0]]], "float32")
    >>> ops.convert_to_numpy(GlobalAveragePooling1D()(x)).tolist()
    [[3.0]]
    >>> mask = np.array([[True, True, False]])
    >>> ops.convert_to_numpy(GlobalAveragePooling1D()(x, mask=mask)).tolist()
    [[1.5]]
    """

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
    "GlobalAveragePooling2D",
    2,
    "mean",
    _global_doc(
        "Mean over the two spatial axes: one value per channel.",
        """>>> images = np.arange(8, dtype="float32").reshape(1, 2, 2, 2)
>>> ops.convert_to_numpy(GlobalAveragePooling2D()(images)).tolist()
[[3.0, 4.0]]
>>> ops.shape(GlobalAveragePooling2D(keepdims=True)(images))
(1, 1, 1, 2)""",
    ),
)
GlobalAveragePooling3D = _global_class(
    "GlobalAveragePooling3D",
    3,
    "mean",
    _global_doc(
        "Mean over the three spatial axes: one value per channel.",
        """>>> volumes = np.arange(16, dtype="float32").reshape(1, 2, 2, 2, 2)
>>> ops.convert_to_numpy(GlobalAveragePooling3D()(volumes)).tolist()
[[7.0, 8.0]]""",
    ),
)
GlobalMaxPooling1D = _global_class(
    "GlobalMaxPooling1D",
    1,
    "max",
    _global_doc(
        "Max over steps: one value per feature.",
        """>>> x = np.array([[[1.0, 9.0], [2.0, 0.0], [6.0, 3.0]]], "float32")
>>> ops.convert_to_numpy(GlobalMaxPooling1D()(x)).tolist()
[[6.0, 9.0]]""",
    ),
)
GlobalMaxPooling2D = _global_class(
    "GlobalMaxPooling2D",
    2,
    "max",
    _global_doc(
        "Max over the two spatial axes: one value per channel.",
        """>>> images = np.arange(8, dtype="float32").reshape(1, 2, 2, 2)
>>> ops.convert_to_numpy(GlobalMaxPooling2D()(images)).tolist()
[[6.0, 7.0]]""",
    ),
)
GlobalMaxPooling3D = _global_class(
    "GlobalMaxPooling3D",
    3,
    "max",
    _global_doc(
        "Max over the three spatial axes: one value per channel.",
        """>>> volumes = np.arange(16, dtype="float32").reshape(1, 2, 2, 2, 2)
>>> ops.convert_to_numpy(GlobalMaxPooling3D()(volumes)).tolist()
[[14.0, 15.0]]""",
    ),
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


def _adaptive_doc(summary, rank, example):
    size = "an int" if rank == 1 else f"an int or {rank} ints"
    return f"""{summary}

Window ``i`` of an axis of size ``n`` covers ``floor(i * n / out)`` to
``ceil((i + 1) * n / out)`` (as torch's adaptive pooling).

Args:
    output_size: {size}: the output's spatial size.
{_DATA_FORMAT_ARG}

Example:

>>> import numpy as np
>>> from mb_ops import ops
{example}
"""


_FIVE = """>>> x = np.arange(5, dtype="float32").reshape(1, 5, 1)"""
_IMAGES = """>>> images = np.zeros((1, 7, 9, 3), "float32")"""
_VOLUMES = """>>> volumes = np.zeros((1, 4, 5, 6, 2), "float32")"""

AdaptiveAveragePooling1D = _adaptive_class(
    "AdaptiveAveragePooling1D",
    1,
    "adaptive_average_pool",
    _adaptive_doc(
        "Averages steps to a fixed number of windows.",
        1,
        f"""{_FIVE}
>>> ops.convert_to_numpy(AdaptiveAveragePooling1D(2)(x))[0, :, 0].tolist()
[1.0, 3.0]""",
    ),
)
AdaptiveAveragePooling2D = _adaptive_class(
    "AdaptiveAveragePooling2D",
    2,
    "adaptive_average_pool",
    _adaptive_doc(
        "Averages 2D maps to a fixed size.",
        2,
        f"""{_IMAGES}
>>> ops.shape(AdaptiveAveragePooling2D((2, 3))(images))
(1, 2, 3, 3)""",
    ),
)
AdaptiveAveragePooling3D = _adaptive_class(
    "AdaptiveAveragePooling3D",
    3,
    "adaptive_average_pool",
    _adaptive_doc(
        "Averages volumes to a fixed size.",
        3,
        f"""{_VOLUMES}
>>> ops.shape(AdaptiveAveragePooling3D(2)(volumes))
(1, 2, 2, 2, 2)""",
    ),
)
AdaptiveMaxPooling1D = _adaptive_class(
    "AdaptiveMaxPooling1D",
    1,
    "adaptive_max_pool",
    _adaptive_doc(
        "Max-pools steps to a fixed number of windows.",
        1,
        f"""{_FIVE}
>>> ops.convert_to_numpy(AdaptiveMaxPooling1D(2)(x))[0, :, 0].tolist()
[2.0, 4.0]""",
    ),
)
AdaptiveMaxPooling2D = _adaptive_class(
    "AdaptiveMaxPooling2D",
    2,
    "adaptive_max_pool",
    _adaptive_doc(
        "Max-pools 2D maps to a fixed size.",
        2,
        f"""{_IMAGES}
>>> ops.shape(AdaptiveMaxPooling2D((2, 3))(images))
(1, 2, 3, 3)""",
    ),
)
AdaptiveMaxPooling3D = _adaptive_class(
    "AdaptiveMaxPooling3D",
    3,
    "adaptive_max_pool",
    _adaptive_doc(
        "Max-pools volumes to a fixed size.",
        3,
        f"""{_VOLUMES}
>>> ops.shape(AdaptiveMaxPooling3D(2)(volumes))
(1, 2, 2, 2, 2)""",
    ),
)
