"""Asymmetric (scale and zero point) quantization in groups: GPTQ, AWQ and grouped int4."""

from __future__ import annotations

from mb_ops import ops


def compute_quantization_parameters(
    x,
    *,
    bits,
    symmetric=False,
    per_channel=False,
    group_size=-1,
    compute_dtype="float32",
    epsilon=0.0,
    signed=False,
):
    """Scale and zero point to quantize ``x`` ``(out_features, in_features)`` to `bits` bits.

    Args:
        x: the weights, ``(out_features, in_features)``.
        bits: bits per quantized value.
        symmetric: a range symmetric around zero.
        per_channel: one range per row (else one for the tensor).
        group_size: with `per_channel`, one range per `group_size` columns; -1: none.
        compute_dtype: dtype of the scale.
        epsilon: added to each range.
        signed: quantized values in ``[-2**(bits-1), 2**(bits-1) - 1]`` (zero points
            int8) rather than ``[0, 2**bits - 1]`` (uint8).

    Returns:
        ``(scale, zero, maxq)``: scale and zero are ``(out_features, n_groups)``
        (``n_groups`` is 1 without groups), ``maxq`` is ``2**bits - 1``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, quantizers
    >>> x = np.array([[0.0, 1.5, 3.0], [-1.0, 0.0, 2.0]], "float32")
    >>> scale, zero, maxq = quantizers.compute_quantization_parameters(x, bits=2, per_channel=True)
    >>> ops.convert_to_numpy(scale).tolist(), ops.convert_to_numpy(zero).tolist(), float(maxq)
    ([[1.0], [1.0]], [[0], [1]], 3.0)
    """
    if x is None:
        raise ValueError(f"Input tensor {x} cannot be None.")
    if len(x.shape) < 2:
        raise ValueError(
            f"Input weight tensor {x} must have a rank of at least 2, but got rank {len(x.shape)}."
        )
    if ops.size(x) == 0:
        raise ValueError("Input tensor 'x' cannot be empty.")
    out_features, in_features = x.shape[0], x.shape[1]
    grouped = per_channel and group_size > 0
    n_groups = (in_features + group_size - 1) // group_size if grouped else 1
    if n_groups > 1:
        remainder = in_features % group_size
        if remainder:
            x = ops.pad(x, [[0, 0], [0, group_size - remainder]], constant_values=0.0)
        x_grouped = ops.reshape(x, [out_features, n_groups, group_size])
        low, high = ops.min(x_grouped, axis=2), ops.max(x_grouped, axis=2)
    else:
        rows = ops.reshape(x, [out_features, -1] if per_channel else [1, -1])
        low, high = ops.min(rows, axis=1), ops.max(rows, axis=1)
    if symmetric:
        max_abs = ops.maximum(ops.abs(low), high)
        low = ops.where(ops.less(low, 0), ops.negative(max_abs), low)
        high = max_abs
    flat = ops.equal(low, high)
    low = ops.where(flat, ops.subtract(low, 1), low)
    high = ops.where(flat, ops.add(high, 1), high)
    maxq = ops.cast(ops.subtract(ops.power(2, bits), 1), compute_dtype)
    spread = ops.subtract(high, low)
    if epsilon > 0:
        spread = ops.add(spread, epsilon)
    scale = ops.divide(spread, maxq)
    scale = ops.where(ops.less_equal(scale, 0), 1e-8, scale)
    if signed:
        qmin, qmax = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
        if symmetric:
            zero = ops.full_like(scale, ops.divide(ops.add(maxq, 1), 2) + qmin)
        else:
            zero = ops.add(ops.round(ops.divide(ops.negative(low), scale)), qmin)
        zero = ops.clip(zero, qmin, qmax)
    elif symmetric:
        zero = ops.full_like(scale, ops.divide(ops.add(maxq, 1), 2))
    else:
        zero = ops.round(ops.divide(ops.negative(low), scale))
    if n_groups == 1 and per_channel:
        scale, zero = ops.reshape(scale, [-1, 1]), ops.reshape(zero, [-1, 1])
    elif n_groups == 1:
        scale = ops.tile(ops.reshape(scale, (1, 1)), (out_features, 1))
        zero = ops.tile(ops.reshape(zero, (1, 1)), (out_features, 1))
    return scale, ops.cast(zero, "int8" if signed else "uint8"), maxq


def quantize_with_zero_point(input_tensor, scale, zero, maxq):
    """``clip(round(x / scale + zero), 0, maxq)`` (float levels in ``[0, maxq]``).

    Args:
        input_tensor: the values to quantize.
        scale: the step between levels (broadcast against ``input_tensor``).
        zero: the level of the value 0.
        maxq: the largest level.

    Returns:
        A float tensor of integer levels in ``[0, maxq]``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, quantizers
    >>> x = np.array([[0.0, 1.5, 3.0], [-1.0, 0.0, 2.0]], "float32")
    >>> scale, zero, maxq = quantizers.compute_quantization_parameters(x, bits=2, per_channel=True)
    >>> levels = quantizers.quantize_with_zero_point(x, scale, zero, maxq)
    >>> ops.convert_to_numpy(levels).tolist()
    [[0.0, 2.0, 3.0], [0.0, 1.0, 3.0]]
    """
    epsilon = ops.cast(1e-8, dtype=scale.dtype)
    safe_scale = ops.where(ops.equal(scale, 0), epsilon, scale)
    levels = ops.round(ops.add(ops.divide(input_tensor, safe_scale), ops.cast(zero, scale.dtype)))
    return ops.clip(levels, 0, maxq)


def dequantize_with_zero_point(input_tensor, scale, zero):
    """``scale * (q - zero)``: the values that quantized levels stand for.

    Args:
        input_tensor: the levels.
        scale: the step between levels.
        zero: the level of the value 0.

    Returns:
        A tensor of the dtype of ``scale``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, quantizers
    >>> x = np.array([[0.0, 1.5, 3.0], [-1.0, 0.0, 2.0]], "float32")
    >>> scale, zero, maxq = quantizers.compute_quantization_parameters(x, bits=2, per_channel=True)
    >>> levels = quantizers.quantize_with_zero_point(x, scale, zero, maxq)
    >>> ops.convert_to_numpy(quantizers.dequantize_with_zero_point(levels, scale, zero)).tolist()
    [[0.0, 2.0, 3.0], [-1.0, 0.0, 2.0]]
    """
    return ops.multiply(scale, ops.subtract(input_tensor, ops.cast(zero, scale.dtype)))


def quantize_with_sz_map(weights_matrix, scale, zero, g_idx, maxq, group_axis=-1):
    """Quantizes `weights_matrix` with per-group scale/zero picked by the group index `g_idx`.

    Args:
        weights_matrix: the values to quantize.
        scale: a tensor with one scale per group along ``group_axis``.
        zero: the zero points, shaped as ``scale``.
        g_idx: an integer tensor: the group of each index along ``group_axis``.
        maxq: the largest level.
        group_axis: the axis of ``scale`` and ``zero`` that holds the groups.

    Returns:
        A float tensor of levels in ``[0, maxq]``, shaped as ``weights_matrix``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, quantizers
    >>> scale = np.array([[1.0, 0.5]], "float32")  # two groups of columns
    >>> zero = np.array([[0, 2]], "uint8")
    >>> g_idx = np.array([0, 0, 1])  # the group of each column
    >>> w = np.array([[1.0, 2.0, 0.5]], "float32")
    >>> levels = quantizers.quantize_with_sz_map(w, scale, zero, g_idx, 3.0)
    >>> ops.convert_to_numpy(levels).tolist()
    [[1.0, 2.0, 3.0]]
    """
    groups = ops.cast(g_idx, "int32")
    scale_cols = ops.take(scale, groups, axis=group_axis)
    zero_cols = ops.take(zero, groups, axis=group_axis)
    return quantize_with_zero_point(weights_matrix, scale_cols, zero_cols, maxq)


def dequantize_with_sz_map(weights_matrix, scale, zero, g_idx, group_axis=-1):
    """``(q - zero[g_idx]) * scale[g_idx]`` along `group_axis` (the inverse of the above).

    Args:
        weights_matrix: the levels.
        scale: a tensor with one scale per group along ``group_axis``.
        zero: the zero points, shaped as ``scale``.
        g_idx: an integer tensor: the group of each index along ``group_axis``.
        group_axis: the axis of ``scale`` and ``zero`` that holds the groups.

    Returns:
        A tensor of the dtype of ``scale``, shaped as ``weights_matrix``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, quantizers
    >>> scale = np.array([[1.0, 0.5]], "float32")  # two groups of columns
    >>> zero = np.array([[0, 2]], "uint8")
    >>> g_idx = np.array([0, 0, 1])  # the group of each column
    >>> w = np.array([[1.0, 2.0, 0.5]], "float32")
    >>> levels = quantizers.quantize_with_sz_map(w, scale, zero, g_idx, 3.0)
    >>> ops.convert_to_numpy(quantizers.dequantize_with_sz_map(levels, scale, zero, g_idx)).tolist()
    [[1.0, 2.0, 0.5]]
    """
    groups = ops.cast(g_idx, "int32")
    scales = ops.take(scale, groups, axis=group_axis)
    zeros = ops.cast(ops.take(zero, groups, axis=group_axis), scales.dtype)
    return ops.multiply(ops.subtract(weights_matrix, zeros), scales)
