"""Symmetric abs-max quantization (int8 / int4 weights and activations)."""

from __future__ import annotations

import math

import numpy as np

from mb_ops import _config, _dtypes, ops
from mb_ops._quantizers._zero_point import compute_quantization_parameters

# Keras evaluates `backend.epsilon()` once, when its module is imported; so does mb.
_EPSILON = _config.epsilon()


class Quantizer:
    """The base of quantizers: ``quantizer(x)`` returns the quantized form of ``x``.

    Args:
        output_dtype: the dtype of the quantized values.

    Example:

    >>> Quantizer().output_dtype
    'int8'
    """

    def __init__(self, output_dtype="int8"):
        self.output_dtype = output_dtype

    def __call__(self, x):
        """Compute a quantized output from an input tensor."""
        return x

    @classmethod
    def from_config(cls, config):
        """Creates a quantizer from the dict `get_config` returned."""
        return cls(**config)

    def get_config(self):
        """The constructor arguments, as a JSON-able dict (subclasses implement it)."""
        raise NotImplementedError(f"{self} does not implement get_config()")


def _numpy_axis(axis):
    return tuple(axis) if isinstance(axis, list) else axis


def abs_max_quantize(
    inputs,
    axis,
    value_range=(-127, 127),
    dtype="int8",
    epsilon=_EPSILON,
    to_numpy=False,
):
    """Quantizes `inputs` by the absolute maximum along `axis` (symmetric, no zero point).

    ``scale = value_range[1] / (max(|inputs|, axis) + epsilon)``, and the quantized
    values are ``clip(round(inputs * scale), *value_range)`` in `dtype`; dividing
    them by ``scale`` gives back ``inputs`` (up to rounding).

    Args:
        inputs: the tensor to quantize.
        axis: the axis (or axes) reduced to find the maximum.
        value_range: ``(min, max)`` of the quantized values.
        dtype: their dtype.
        epsilon: added to the maximum, so an all-zero slice does not divide by zero.
        to_numpy: compute on the host with NumPy (saves accelerator memory).

    Returns:
        ``(quantized, scale)``; ``scale`` keeps the reduced axes (size 1).

    Example:

    >>> import numpy as np
    >>> q, scale = abs_max_quantize(np.array([[0.5, -1.0]], "float32"), axis=-1)
    >>> ops.convert_to_numpy(q).tolist()
    [[63, -127]]
    """
    if to_numpy:
        original_dtype = _dtypes.standardize_dtype(inputs.dtype)
        array = ops.convert_to_numpy(inputs)
        axis = _numpy_axis(axis)
        scale = np.divide(
            value_range[1], np.add(np.max(np.abs(array), axis=axis, keepdims=True), epsilon)
        )
        outputs = np.clip(np.round(np.multiply(array, scale)), value_range[0], value_range[1])
        return (
            ops.convert_to_tensor(outputs.astype(dtype)),
            ops.convert_to_tensor(scale, dtype=original_dtype),
        )
    inputs = ops.convert_to_tensor(inputs)
    scale = ops.divide(
        value_range[1], ops.add(ops.max(ops.abs(inputs), axis=axis, keepdims=True), epsilon)
    )
    scale = ops.cast(scale, _dtypes.standardize_dtype(inputs.dtype))
    outputs = ops.clip(ops.round(ops.multiply(inputs, scale)), value_range[0], value_range[1])
    return ops.cast(outputs, dtype), scale


class AbsMaxQuantizer(Quantizer):
    """`abs_max_quantize` as a quantizer object (the default of int8 layers).

    Args:
        axis: deprecated; give the axis when calling.
        value_range: ``(min, max)`` of the quantized values.
        epsilon: added to the maximum.
        output_dtype: dtype of the quantized values.

    Example:

    >>> import numpy as np
    >>> q, scale = AbsMaxQuantizer()(np.array([[2.0, -4.0]], "float32"))
    >>> ops.convert_to_numpy(q).tolist()
    [[64, -127]]
    """

    def __init__(
        self,
        axis=None,
        value_range=(-127, 127),
        epsilon=_EPSILON,
        output_dtype="int8",
    ):
        Quantizer.__init__(self, output_dtype=output_dtype)
        if axis is not None:
            self.axis = (axis,) if isinstance(axis, int) else tuple(axis)
        else:
            self.axis = None
        self.value_range = value_range
        self.epsilon = epsilon
        if output_dtype == "int8" and (value_range[0] < -128 or value_range[1] > 127):
            raise ValueError(
                "Quantizer with output_dtype='int8' requires value_range to be within the "
                f"interval [-128, 127]. Received: value_range={value_range}"
            )

    def __call__(self, x, axis=None, to_numpy=False):
        """``(quantized, scale)`` of `x` along `axis` (default: the constructor's, else -1)."""
        if axis is None:
            axis = self.axis
        if axis is None:
            axis = -1
        return abs_max_quantize(
            x, axis, self.value_range, self.output_dtype, self.epsilon, to_numpy
        )

    def get_config(self):
        config = {
            "value_range": self.value_range,
            "epsilon": self.epsilon,
            "output_dtype": self.output_dtype,
        }
        if self.axis is not None:
            config["axis"] = self.axis
        return config


def abs_max_quantize_grouped_with_zero_point(
    inputs,
    block_size,
    value_range=(-8, 7),
    dtype="int8",
    epsilon=_EPSILON,
    to_numpy=False,
):
    """Asymmetric quantization of a 2-D ``(input_dim, output_dim)`` tensor in row groups.

    Each group of `block_size` rows (the last one zero-padded) gets a scale and a zero
    point per column: ``q = clip(round(x / scale) + zero, *value_range)``.

    Args:
        inputs: the ``(input_dim, output_dim)`` tensor.
        block_size: rows per group.
        value_range: ``(min, max)`` of the quantized values.
        dtype: dtype of the quantized values.
        epsilon: added to each group's range.
        to_numpy: compute on the host with NumPy.

    Returns:
        ``(quantized, scale, zero_point)``; ``scale`` and ``zero_point`` are
        ``(ceil(input_dim / block_size), output_dim)``, the zero points int8.

    Example:

    >>> import numpy as np
    >>> q, scale, zero = abs_max_quantize_grouped_with_zero_point(
    ...     np.ones((6, 2), "float32"), block_size=4)
    >>> tuple(scale.shape), tuple(zero.shape)
    ((2, 2), (2, 2))
    """
    if to_numpy:
        return _grouped_numpy(inputs, block_size, value_range, dtype, epsilon)
    return _grouped_tensor(inputs, block_size, value_range, dtype, epsilon)


def _grouped_numpy(inputs, block_size, value_range, dtype, epsilon):
    original_dtype = _dtypes.standardize_dtype(inputs.dtype)
    array = ops.convert_to_numpy(inputs)
    input_dim, output_dim = array.shape
    n_groups = math.ceil(input_dim / block_size)
    qmin, qmax = value_range
    padded = n_groups * block_size
    if padded > input_dim:
        pad = np.zeros((padded - input_dim, output_dim), dtype=array.dtype)
        array = np.concatenate([array, pad], axis=0)
    grouped = array.reshape(n_groups, block_size, output_dim)
    low = np.min(grouped, axis=1, keepdims=True)
    high = np.max(grouped, axis=1, keepdims=True)
    scale = np.divide(np.subtract(high, low) + epsilon, qmax - qmin)
    zero = np.clip(np.round(np.divide(-low, scale)) + qmin, qmin, qmax)
    outputs = np.clip(np.round(np.divide(grouped, scale)) + zero, qmin, qmax).astype(dtype)
    outputs = outputs.reshape(padded, output_dim)[:input_dim, :]
    return (
        ops.convert_to_tensor(outputs),
        ops.convert_to_tensor(np.squeeze(scale, axis=1), dtype=original_dtype),
        ops.convert_to_tensor(np.squeeze(zero, axis=1).astype("int8")),
    )


def _grouped_tensor(inputs, block_size, value_range, dtype, epsilon):
    original_dtype = _dtypes.standardize_dtype(inputs.dtype)
    inputs = ops.convert_to_tensor(inputs)
    input_dim, output_dim = (int(d) for d in inputs.shape)
    qmin, qmax = value_range
    bits = int(math.log2(qmax - qmin + 1))
    n_groups = math.ceil(input_dim / block_size)
    padded = n_groups * block_size
    scale_t, zero_t, _ = compute_quantization_parameters(
        ops.transpose(inputs),
        bits=bits,
        symmetric=False,
        per_channel=True,
        group_size=block_size,
        compute_dtype=original_dtype,
        epsilon=epsilon,
        signed=True,
    )
    scale, zero = ops.transpose(scale_t), ops.transpose(zero_t)
    if padded > input_dim:
        pad = ops.zeros((padded - input_dim, output_dim), dtype=inputs.dtype)
        inputs = ops.concatenate([inputs, pad], axis=0)
    grouped = ops.reshape(inputs, (n_groups, block_size, output_dim))
    outputs = ops.add(
        ops.round(ops.divide(grouped, ops.expand_dims(scale, 1))), ops.expand_dims(zero, 1)
    )
    outputs = ops.cast(ops.clip(outputs, qmin, qmax), dtype)
    outputs = ops.reshape(outputs, (padded, output_dim))[:input_dim, :]
    return outputs, scale, zero
