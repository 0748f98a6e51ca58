"""Float8 scaling with delayed (amax history) scaling, as NVIDIA's Transformer Engine does."""

from __future__ import annotations

import ml_dtypes

from mb_ops import ops


def compute_float8_scale(amax, scale, dtype_max, margin=0):
    """The next scale of a float8 tensor from the largest recent magnitude `amax`.

    ``scale`` divides a tensor before it is cast to float8: the new one maps `amax`
    onto ``dtype_max / 2**margin``; a zero or non-finite `amax` keeps `scale`.

    Example:

    >>> float(compute_float8_scale(448.0, 1.0, 448.0))
    1.0
    """
    previous = ops.reciprocal(scale)
    factor = ops.divide(ops.divide(dtype_max, amax), 2**margin)
    factor = ops.where(ops.greater(amax, 0.0), factor, previous)
    factor = ops.where(ops.isfinite(amax), factor, previous)
    return ops.reciprocal(factor)


def compute_float8_amax_history(x, amax_history):
    """`amax_history` rolled by one with ``max(|x|)`` written at index 0.

    Example:

    >>> import numpy as np
    >>> ops.convert_to_numpy(compute_float8_amax_history(
    ...     np.array([-3.0, 2.0], "float32"), np.array([1.0, 2.0, 5.0], "float32"))).tolist()
    [3.0, 5.0, 1.0]
    """
    amax = ops.cast(ops.max(ops.abs(x)), amax_history.dtype)
    return ops.scatter_update(ops.roll(amax_history, shift=-1), [[0]], ops.reshape(amax, [1]))


def quantize_and_dequantize(inputs, scale, quantized_dtype, compute_dtype):
    """`inputs` through float8 and back: ``cast(cast(clip(x / scale), quantized_dtype)) * scale``.

    Example:

    >>> import numpy as np
    >>> x = quantize_and_dequantize(np.array([1.3], "float32"), 1.0, "float8_e4m3fn", "float32")
    >>> ops.convert_to_numpy(x).tolist()
    [1.25]
    """
    limit = ops.cast(float(ml_dtypes.finfo(quantized_dtype).max), compute_dtype)
    x = ops.divide(inputs, ops.cast(scale, compute_dtype))
    x = ops.cast(ops.clip(x, -limit, limit), quantized_dtype)
    return ops.multiply(ops.cast(x, compute_dtype), ops.cast(scale, compute_dtype))
