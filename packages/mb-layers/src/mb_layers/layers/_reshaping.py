"""Reshaping layers: cropping, flattening, permuting, repeating, reshaping,
up-sampling and zero-padding."""

import math

from mb_layers._input_spec import InputSpec
from mb_layers._layer import Layer
from mb_layers._ops import ops
from mb_ops import config


def _data_format(value):
    value = config.image_data_format() if value is None else value
    if value not in ("channels_last", "channels_first"):
        raise ValueError(
            "`data_format` must be 'channels_last' or 'channels_first'. "
            f"Received: data_format={value!r}."
        )
    return value


def _int_tuple(value, n, name):
    if isinstance(value, int):
        return (value,) * n
    value = tuple(value)
    if len(value) != n or not all(isinstance(v, int) for v in value):
        raise ValueError(f"`{name}` must be an int or {n} ints. Received: {name}={value!r}.")
    return value


def _pairs(value, n, name):
    """``((before, after),) * n`` from an int, n ints, or n pairs."""
    if isinstance(value, int):
        return ((value, value),) * n
    value = tuple(value)
    if len(value) == 2 and n == 1 and all(isinstance(v, int) for v in value):
        return (value,)
    if len(value) != n:
        raise ValueError(
            f"`{name}` must be an int, {n} ints or {n} pairs of ints. Received: {name}={value!r}."
        )
    out = []
    for v in value:
        out.append((v, v) if isinstance(v, int) else tuple(v))
    return tuple(out)


class _Spatial(Layer):
    """Layers acting on the spatial axes of ``(batch, *spatial, channels)`` inputs."""

    _rank = 1

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=self._rank + 2)
        self.built = True

    def _spatial_axes(self):
        start = 2 if self.data_format == "channels_first" else 1
        return list(range(start, start + self._rank))


_SIDES = {
    2: """an int (every side), a pair ``(rows, columns)`` (symmetric), or
            ``((top, bottom), (left, right))``.""",
    3: """an int (every side), a triple (symmetric per axis), or three pairs
            ``(before, after)``.""",
}


def _sides_doc(summary, argument, rank, example):
    """The docstring of Cropping2D/3D and ZeroPadding2D/3D: `summary`, the arguments
    (`argument` takes the amount per side), then `example`'s lines after the imports."""
    return f"""{summary}

    Args:
        {argument}: {_SIDES[rank]}
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops{example}"""


class _Cropping(_Spatial):
    def __init__(self, cropping, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.cropping = _pairs(cropping, self._rank, "cropping")

    def _check(self, shape):
        for axis, (a, b) in zip(self._spatial_axes(), self.cropping, strict=True):
            if shape[axis] is not None and a + b >= shape[axis]:
                raise ValueError(
                    f"{type(self).__name__}: cropping {self.cropping} leaves nothing of input "
                    f"shape {tuple(shape)} (axis {axis})."
                )

    def call(self, inputs):
        self._check(inputs.shape)
        index = [slice(None)] * len(inputs.shape)
        for axis, (a, b) in zip(self._spatial_axes(), self.cropping, strict=True):
            index[axis] = slice(a, inputs.shape[axis] - b)
        return inputs[tuple(index)]

    def compute_output_shape(self, input_shape):
        self._check(input_shape)
        shape = list(input_shape)
        for axis, (a, b) in zip(self._spatial_axes(), self.cropping, strict=True):
            shape[axis] = None if shape[axis] is None else shape[axis] - a - b
        return tuple(shape)

    def get_config(self):
        return {**super().get_config(), "cropping": self.cropping, "data_format": self.data_format}


class Cropping1D(_Cropping):
    """Crops ``(before, after)`` steps of ``(batch, steps, features)`` inputs.

    Args:
        cropping: an int (the same on both sides) or a pair ``(before, after)``.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.arange(5, dtype="float32").reshape(1, 5, 1)
    >>> ops.convert_to_numpy(Cropping1D((1, 2))(x))[0, :, 0].tolist()
    [1.0, 2.0]
    """

    _rank = 1

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__(cropping, data_format="channels_last", **kwargs)

    def get_config(self):
        config = super().get_config()
        config.pop("data_format")
        config["cropping"] = self.cropping[0]
        return config


class Cropping2D(_Cropping):
    __doc__ = _sides_doc(
        "Crops rows and columns of 4D inputs: ``((top, bottom), (left, right))``.",
        "cropping",
        2,
        """
    >>> images = np.arange(16, dtype="float32").reshape(1, 4, 4, 1)
    >>> ops.convert_to_numpy(Cropping2D(((1, 0), (1, 1)))(images))[0, :, :, 0].tolist()
    [[5.0, 6.0], [9.0, 10.0], [13.0, 14.0]]
    """,
    )

    _rank = 2

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(cropping, data_format=data_format, **kwargs)


class Cropping3D(_Cropping):
    __doc__ = _sides_doc(
        "Crops the three spatial axes of 5D inputs.",
        "cropping",
        3,
        """
    >>> volumes = np.zeros((1, 4, 5, 6, 2), "float32")
    >>> ops.shape(Cropping3D(((1, 1), (0, 2), (1, 0)))(volumes))
    (1, 2, 3, 5, 2)
    """,
    )

    _rank = 3

    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(cropping, data_format=data_format, **kwargs)


class _ZeroPadding(_Spatial):
    def __init__(self, padding, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.padding = _pairs(padding, self._rank, "padding")

    def call(self, inputs):
        pad = [(0, 0)] * len(inputs.shape)
        for axis, pair in zip(self._spatial_axes(), self.padding, strict=True):
            pad[axis] = pair
        return ops.pad(inputs, pad)

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        for axis, (a, b) in zip(self._spatial_axes(), self.padding, strict=True):
            shape[axis] = None if shape[axis] is None else shape[axis] + a + b
        return tuple(shape)

    def get_config(self):
        padding = self.padding[0] if self._rank == 1 else self.padding
        return {**super().get_config(), "padding": padding, "data_format": self.data_format}


class ZeroPadding1D(_ZeroPadding):
    """Pads the steps axis with zeros: an int or ``(before, after)``.

    Args:
        padding: an int (the same on both sides) or a pair ``(before, after)``.
        data_format: ``"channels_last"`` (``(batch, steps, features)``) or
            ``"channels_first"``; None: the configured ``image_data_format``.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.array([[[1.0], [2.0]]], "float32")
    >>> ops.convert_to_numpy(ZeroPadding1D((1, 2))(x))[0, :, 0].tolist()
    [0.0, 1.0, 2.0, 0.0, 0.0]
    """

    _rank = 1

    def __init__(self, padding=1, data_format=None, **kwargs):
        super().__init__(padding, data_format=data_format, **kwargs)


class ZeroPadding2D(_ZeroPadding):
    __doc__ = _sides_doc(
        "Pads rows and columns with zeros.",
        "padding",
        2,
        """
    >>> images = np.ones((1, 1, 2, 1), "float32")
    >>> ops.convert_to_numpy(ZeroPadding2D(((1, 0), (0, 1)))(images))[0, :, :, 0].tolist()
    [[0.0, 0.0, 0.0], [1.0, 1.0, 0.0]]
    """,
    )

    _rank = 2

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(padding, data_format=data_format, **kwargs)


class ZeroPadding3D(_ZeroPadding):
    __doc__ = _sides_doc(
        "Pads the three spatial axes with zeros.",
        "padding",
        3,
        """
    >>> volumes = np.ones((1, 2, 2, 2, 1), "float32")
    >>> ops.shape(ZeroPadding3D(1)(volumes))
    (1, 4, 4, 4, 1)
    """,
    )

    _rank = 3

    def __init__(self, padding=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(padding, data_format=data_format, **kwargs)


class _UpSampling(_Spatial):
    def __init__(self, size, data_format=None, interpolation="nearest", **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.size = _int_tuple(size, self._rank, "size")
        self.interpolation = interpolation

    def call(self, inputs):
        if self.interpolation != "nearest":
            axes = self._spatial_axes()
            new_size = tuple(inputs.shape[a] * s for a, s in zip(axes, self.size, strict=True))
            return ops.image.resize(
                inputs, new_size, interpolation=self.interpolation, data_format=self.data_format
            )
        x = inputs
        for axis, factor in zip(self._spatial_axes(), self.size, strict=True):
            if factor != 1:
                x = ops.repeat(x, factor, axis=axis)
        return x

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        for axis, factor in zip(self._spatial_axes(), self.size, strict=True):
            shape[axis] = None if shape[axis] is None else shape[axis] * factor
        return tuple(shape)

    def get_config(self):
        return {**super().get_config(), "size": self.size, "data_format": self.data_format}


class UpSampling1D(_UpSampling):
    """Repeats each step `size` times.

    Args:
        size: the number of repeats.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.array([[[1.0], [2.0]]], "float32")
    >>> ops.convert_to_numpy(UpSampling1D(2)(x))[0, :, 0].tolist()
    [1.0, 1.0, 2.0, 2.0]
    """

    _rank = 1

    def __init__(self, size=2, **kwargs):
        super().__init__(size, data_format="channels_last", **kwargs)

    def get_config(self):
        config = super().get_config()
        config.pop("data_format")
        config["size"] = self.size[0]
        return config


class UpSampling2D(_UpSampling):
    """Scales rows and columns by `size` (``"nearest"`` repeats; other modes resize).

    Args:
        size: an int or a pair ``(rows, columns)``: the scale factors.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.
        interpolation: ``"nearest"`` (repeat), or a ``resize`` method such as
            ``"bilinear"``.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> images = np.array([[1.0, 2.0]], "float32").reshape(1, 1, 2, 1)
    >>> ops.convert_to_numpy(UpSampling2D((2, 1))(images))[0, :, :, 0].tolist()
    [[1.0, 2.0], [1.0, 2.0]]
    """

    _rank = 2

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(size, data_format=data_format, interpolation=interpolation, **kwargs)

    def get_config(self):
        return {**super().get_config(), "interpolation": self.interpolation}


class UpSampling3D(_UpSampling):
    """Repeats along the three spatial axes.

    Args:
        size: an int or a triple: the repeats along each spatial axis.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> volumes = np.ones((1, 1, 2, 3, 4), "float32")
    >>> ops.shape(UpSampling3D(2)(volumes))
    (1, 2, 4, 6, 4)
    """

    _rank = 3

    def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
        super().__init__(size, data_format=data_format, **kwargs)


class Flatten(Layer):
    """Flattens every axis but the batch axis (channels moved last for channels_first).

    Args:
        data_format: the layout of the input (``"channels_first"`` inputs are moved to
            channels last first, so both give the same order); None: the configured
            ``image_data_format``.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> ops.shape(Flatten()(np.zeros((2, 3, 4), "float32")))
    (2, 12)
    """

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(min_ndim=1)
        self.built = True

    def call(self, inputs):
        rank = len(inputs.shape)
        if self.data_format == "channels_first" and rank > 2:
            inputs = ops.transpose(inputs, (0, *range(2, rank), 1))
        rest = inputs.shape[1:]
        if all(d is not None for d in rest):
            return ops.reshape(inputs, (-1, math.prod(rest)))
        return ops.reshape(inputs, (inputs.shape[0], -1))

    def compute_output_shape(self, input_shape):
        rest = input_shape[1:]
        size = math.prod(rest) if all(d is not None for d in rest) else None
        return (input_shape[0], size)

    def compute_output_spec(self, inputs):
        return super().compute_output_spec(inputs)

    def get_config(self):
        return {**super().get_config(), "data_format": self.data_format}


class Permute(Layer):
    """Permutes the non-batch axes: `dims` is a permutation of 1..rank-1.

    Args:
        dims: a tuple of the input axes (counted from 1, the batch axis excluded) in
            their new order.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> ops.shape(Permute((2, 1))(np.zeros((5, 3, 4), "float32")))
    (5, 4, 3)
    """

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        self.dims = tuple(dims)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError(
                "Permute `dims` must be a permutation of 1, 2, ..., rank - 1 (the batch axis "
                f"stays first). Received: dims={dims!r}."
            )
        self.input_spec = InputSpec(ndim=len(self.dims) + 1)
        self.built = True

    def call(self, inputs):
        return ops.transpose(inputs, (0, *self.dims))

    def compute_output_shape(self, input_shape):
        return (input_shape[0], *(input_shape[d] for d in self.dims))

    def compute_output_spec(self, inputs):
        return super().compute_output_spec(inputs)

    def get_config(self):
        return {**super().get_config(), "dims": self.dims}


class RepeatVector(Layer):
    """Repeats ``(batch, features)`` inputs `n` times: ``(batch, n, features)``.

    Args:
        n: the number of repeats.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.array([[1.0, 2.0]], "float32")
    >>> ops.convert_to_numpy(RepeatVector(3)(x)).tolist()
    [[[1.0, 2.0], [1.0, 2.0], [1.0, 2.0]]]
    """

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(n, int) or n < 1:
            raise TypeError(f"RepeatVector `n` must be a positive int. Received: n={n!r}.")
        self.n = n
        self.input_spec = InputSpec(ndim=2)
        self.built = True

    def call(self, inputs):
        return ops.repeat(ops.expand_dims(inputs, 1), self.n, axis=1)

    def compute_output_shape(self, input_shape):
        return (input_shape[0], self.n, input_shape[1])

    def get_config(self):
        return {**super().get_config(), "n": self.n}


class Reshape(Layer):
    """Reshapes the non-batch axes to `target_shape` (one entry may be -1).

    Args:
        target_shape: a tuple: the new shape without the batch axis; one entry may be -1
            (inferred from the others).
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> ops.shape(Reshape((3, 4))(np.zeros((2, 12), "float32")))
    (2, 3, 4)
    >>> ops.shape(Reshape((-1, 2))(np.zeros((2, 12), "float32")))
    (2, 6, 2)
    """

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)
        if sum(1 for d in self.target_shape if d == -1) > 1:
            raise ValueError(
                "Reshape `target_shape` may hold at most one -1. "
                f"Received: target_shape={self.target_shape}."
            )
        self.built = True

    def _resolve(self, input_shape):
        known = [d for d in input_shape[1:]]
        target = list(self.target_shape)
        if -1 in target:
            if any(d is None for d in known):
                return tuple(None if d == -1 else d for d in target)
            total = math.prod(known)
            rest = math.prod(d for d in target if d != -1)
            if rest == 0 or total % rest:
                raise ValueError(
                    f"Reshape: cannot reshape an input of shape {tuple(input_shape)} to "
                    f"{self.target_shape}: {total} values do not divide into {rest}."
                )
            target[target.index(-1)] = total // rest
        elif all(d is not None for d in known) and math.prod(known) != math.prod(target):
            raise ValueError(
                f"Reshape: the input of shape {tuple(input_shape)} has {math.prod(known)} "
                f"values per example; target_shape {self.target_shape} needs "
                f"{math.prod(target)}."
            )
        return tuple(target)

    def call(self, inputs):
        target = self._resolve(inputs.shape)
        if any(d is None for d in target):
            return ops.reshape(inputs, (inputs.shape[0], *self.target_shape))
        return ops.reshape(inputs, (-1, *target))

    def compute_output_shape(self, input_shape):
        return (input_shape[0], *self._resolve(input_shape))

    def compute_output_spec(self, inputs):
        return super().compute_output_spec(inputs)

    def get_config(self):
        return {**super().get_config(), "target_shape": self.target_shape}
