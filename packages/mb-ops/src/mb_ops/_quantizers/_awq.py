"""AWQ: per-input-channel scales, found by grid search, that shield salient weights.

Weights are multiplied by the scales before 4-bit quantization (so the inputs with
large activations keep more precision) and divided by them after dequantization.
"""

from __future__ import annotations

from mb_ops import ops
from mb_ops._quantizers._zero_point import (
    compute_quantization_parameters,
    dequantize_with_sz_map,
    dequantize_with_zero_point,
    quantize_with_sz_map,
    quantize_with_zero_point,
)


def _quantize_4bit(weights, group_size, in_features):
    """``(levels, scale, zero, g_idx or None)`` of asymmetric 4-bit quantization per row."""
    scale, zero, maxq = compute_quantization_parameters(
        weights,
        bits=4,
        symmetric=False,
        per_channel=True,
        group_size=group_size,
        compute_dtype="float32",
    )
    if group_size == -1:
        return quantize_with_zero_point(weights, scale, zero, maxq), scale, zero, None
    g_idx = ops.cast(ops.floor_divide(ops.arange(0, in_features), group_size), "int32")
    return quantize_with_sz_map(weights, scale, zero, g_idx, maxq), scale, zero, g_idx


def awq_search_optimal_scales(weights, activation_magnitudes, *, num_grid_points=20, group_size=-1):
    """The scales ``x_max ** ratio`` (ratio on a grid in [0, 1]) of least weighted error.

    The error is the mean of ``(w - dequantized(w * s) / s)**2 * x_max**2``: the
    quantization error each weight causes, weighted by its input's magnitude.

    Args:
        weights: ``(out_features, in_features)``.
        activation_magnitudes: the largest ``|x|`` of each input, ``(in_features,)``.
        num_grid_points: the grid has ``num_grid_points + 1`` ratios.
        group_size: quantization group size; -1 for one group per row.

    Returns:
        The best scales, ``(in_features,)``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, quantizers
    >>> w = np.array([[0.5, -1.0, 2.0, 0.25]], "float32")
    >>> magnitudes = np.array([1.0, 4.0, 0.5, 2.0], "float32")
    >>> scales = quantizers.awq_search_optimal_scales(w, magnitudes, num_grid_points=4)
    >>> ops.shape(scales)
    (4,)
    """
    in_features = int(ops.shape(weights)[1])
    x_max = ops.cast(activation_magnitudes, "float32")
    x_max = ops.where(ops.less(x_max, 1e-8), ops.ones_like(x_max), x_max)
    best_loss = None
    best_scales = ops.ones((in_features,), dtype="float32")
    for i in range(num_grid_points + 1):
        ratio = i / num_grid_points
        scales = ops.ones_like(x_max) if ratio == 0 else ops.power(x_max, ratio)
        scales = ops.maximum(scales, 1e-4)
        middle = ops.maximum(ops.sqrt(ops.multiply(ops.max(scales), ops.min(scales))), 1e-8)
        scales = ops.divide(scales, middle)
        scaled = ops.multiply(weights, scales)
        levels, scale_q, zero_q, g_idx = _quantize_4bit(scaled, group_size, in_features)
        if g_idx is None:
            restored = dequantize_with_zero_point(levels, scale_q, zero_q)
        else:
            restored = dequantize_with_sz_map(levels, scale_q, zero_q, g_idx)
        error = ops.square(ops.subtract(weights, ops.divide(restored, scales)))
        loss = ops.mean(ops.multiply(error, ops.square(x_max)))
        if best_loss is None or bool(ops.less(loss, best_loss)):
            best_loss, best_scales = loss, scales
    return best_scales


def awq_quantize_matrix(
    weights_transpose, activation_magnitudes, *, num_grid_points=20, group_size=-1
):
    """AWQ on ``(out_features, in_features)`` weights.

    The weights are multiplied by the scales of ``awq_search_optimal_scales``, then
    quantized to 4 bits per row (or per group).

    Args:
        weights_transpose: the weights, ``(out_features, in_features)``.
        activation_magnitudes: the largest ``|x|`` of each input, ``(in_features,)``.
        num_grid_points: the scale search's grid has ``num_grid_points + 1`` ratios.
        group_size: quantization group size; -1 for one group per row.

    Returns:
        ``(levels, scale, zero, awq_scales, g_idx)``: levels in ``[0, 15]`` (float),
        scale/zero ``(out_features, n_groups)``, the AWQ scales ``(in_features,)``
        and the float group index of each input.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, quantizers
    >>> w = np.array([[0.5, -1.0, 2.0, 0.25]], "float32")
    >>> magnitudes = np.array([1.0, 4.0, 0.5, 2.0], "float32")
    >>> levels, scale, zero, awq_scales, g_idx = quantizers.awq_quantize_matrix(
    ...     w, magnitudes, num_grid_points=4
    ... )
    >>> ops.shape(levels), ops.shape(scale), ops.shape(awq_scales)
    ((1, 4), (1, 1), (4,))
    >>> levels = ops.convert_to_numpy(levels)
    >>> bool(levels.min() >= 0 and levels.max() <= 15)
    True
    """
    in_features = int(ops.shape(weights_transpose)[1])
    awq_scales = awq_search_optimal_scales(
        weights_transpose,
        activation_magnitudes,
        num_grid_points=num_grid_points,
        group_size=group_size,
    )
    scaled = ops.multiply(weights_transpose, awq_scales)
    levels, scale, zero, g_idx = _quantize_4bit(scaled, group_size, in_features)
    if g_idx is None:
        g_idx = ops.zeros((in_features,), dtype="float32")
    return levels, scale, zero, awq_scales, ops.cast(g_idx, "float32")


def update_activation_magnitudes(magnitudes, inputs):
    """``max(magnitudes, max |inputs| per feature)`` over the rows of ``inputs`` ``(..., F)``.

    Args:
        magnitudes: the maxima so far, ``(F,)``.
        inputs: new activations, ``(..., F)``.

    Returns:
        ``(magnitudes, rows)``: the new maxima and the number of rows seen.

    Raises:
        ValueError: if ``inputs`` is None or empty.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, quantizers
    >>> inputs = np.array([[1.0, -3.0], [2.0, 0.0]], "float32")
    >>> magnitudes, rows = quantizers.update_activation_magnitudes(ops.zeros((2,)), inputs)
    >>> ops.convert_to_numpy(magnitudes).tolist(), rows
    ([2.0, 3.0], 2)
    """
    if inputs is None:
        raise ValueError("Input tensor cannot be None.")
    if ops.size(inputs) == 0:
        raise ValueError("Input tensor cannot be empty.")
    x = ops.cast(ops.reshape(inputs, (-1, inputs.shape[-1])), "float32")
    return ops.maximum(magnitudes, ops.max(ops.abs(x), axis=0)), int(ops.shape(x)[0])
