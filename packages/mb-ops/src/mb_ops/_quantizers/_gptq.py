"""GPTQ: column-by-column quantization with the error pushed onto the columns not yet done.

The layer side (collecting the Hessian of a layer's inputs during calibration) lives
in mb_layers; this is the math on a weight matrix and a Hessian.
"""

from __future__ import annotations

import functools

from mb_ops import ops
from mb_ops._quantizers._zero_point import (
    compute_quantization_parameters,
    dequantize_with_zero_point,
    quantize_with_zero_point,
)


def _stable_permutation(metric):
    """A permutation sorting `metric` in descending order, ties broken by index."""
    n = ops.shape(metric)[0]
    jitter = ops.divide(ops.cast(ops.arange(0, n, dtype="int32"), "float32"), float(n))
    return ops.argsort(ops.negative(ops.add(metric, ops.multiply(jitter, 1e-12))))


def gptq_parameter_finder(weight_bits, per_channel=True, symmetric=False, compute_dtype="float32"):
    """``find(weights) -> (scale, zero, maxq)`` with GPTQ's quantization settings.

    Args:
        weight_bits: bits per quantized weight.
        per_channel: one range per row (output feature).
        symmetric: a range symmetric around zero.
        compute_dtype: dtype of the scale.

    Returns:
        ``compute_quantization_parameters`` with these settings bound (no groups: GPTQ
        passes each group's columns itself).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, quantizers
    >>> x = np.array([[0.0, 1.5, 3.0], [-1.0, 0.0, 2.0]], "float32")
    >>> scale, zero, maxq = quantizers.gptq_parameter_finder(2)(x)
    >>> ops.convert_to_numpy(scale).tolist(), ops.convert_to_numpy(zero).tolist(), float(maxq)
    ([[1.0], [1.0]], [[0], [1]], 3.0)
    """
    return functools.partial(
        compute_quantization_parameters,
        bits=weight_bits,
        symmetric=symmetric,
        per_channel=per_channel,
        group_size=-1,
        compute_dtype=compute_dtype,
    )


def update_hessian(hessian, num_samples, inputs):
    """The running mean of ``2 X^T X`` over samples, after adding the rows of `inputs`.

    Args:
        hessian: the ``(features, features)`` estimate so far.
        num_samples: how many rows it was made from.
        inputs: new activations, ``(..., features)``.

    Returns:
        ``(hessian, num_samples)`` updated.

    Raises:
        ValueError: if ``inputs`` is None, empty, of rank < 2, or its features do not
            match the Hessian's.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, quantizers
    >>> inputs = np.array([[1.0, 0.0], [0.0, 2.0]], "float32")
    >>> hessian, n = quantizers.update_hessian(ops.zeros((2, 2)), 0, inputs)
    >>> ops.convert_to_numpy(hessian).tolist(), n
    ([[1.0, 0.0], [0.0, 4.0]], 2)
    """
    if inputs is None:
        raise ValueError("Input tensor cannot be None.")
    if len(inputs.shape) < 2:
        raise ValueError(f"Input tensor must have rank >= 2 (got rank {len(inputs.shape)}).")
    if ops.size(inputs) == 0:
        raise ValueError("Input tensor cannot be empty.")
    x = ops.cast(ops.reshape(inputs, (-1, inputs.shape[-1])), "float32")
    if ops.shape(hessian)[0] != ops.shape(x)[-1]:
        raise ValueError(
            f"Hessian dimensions ({ops.shape(hessian)[0]}) do not match input features "
            f"({ops.shape(x)[-1]})."
        )
    new = int(ops.shape(x)[0])
    total = num_samples + new
    gram = ops.matmul(ops.transpose(x), x)
    gram = ops.divide(ops.add(gram, ops.transpose(gram)), 2.0)
    if num_samples > 0:
        hessian = ops.multiply(hessian, num_samples / total)
    return ops.add(hessian, ops.multiply(2.0 / total, gram)), total


def damped_inverse_hessian(hessian, damping):
    """The inverse of `hessian` with dead inputs set to 1 and ``damping * mean(diag)`` added.

    Args:
        hessian: a ``(features, features)`` Hessian estimate (see ``update_hessian``).
        damping: the fraction of the mean diagonal added to the diagonal.

    Returns:
        ``(inverse, damped_hessian)``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, quantizers
    >>> hessian = np.array([[1.0, 0.0], [0.0, 4.0]], "float32")
    >>> inverse, damped = quantizers.damped_inverse_hessian(hessian, 0.0)
    >>> ops.convert_to_numpy(inverse).tolist()
    [[1.0, 0.0], [0.0, 0.25]]
    """
    diagonal = ops.diagonal(hessian)
    dead = ops.equal(diagonal, 0.0)
    diagonal = ops.where(dead, 1.0, diagonal)
    hessian = ops.add(hessian, ops.diag(ops.where(dead, 1.0, ops.zeros_like(diagonal))))
    diagonal = ops.add(diagonal, ops.multiply(damping, ops.mean(diagonal)))
    hessian = ops.add(ops.subtract(hessian, ops.diag(ops.diagonal(hessian))), ops.diag(diagonal))
    return ops.linalg.inv(hessian), hessian


def _group_parameters(find, weights, column, group, in_features, cache):
    """Scale and zero of the group holding `column` (computed once per group)."""
    start = 0 if group == in_features else (column // group) * group
    if cache.get("start") != start:
        stop = min(start + group, in_features)
        cache.update(start=start, params=find(weights[:, start:stop]))
        cache.setdefault("chunks", []).append(cache["params"][:2])
    return cache["params"]


def gptq_quantize_matrix(
    weights_transpose,
    inv_hessian,
    *,
    blocksize=128,
    group_size=-1,
    activation_order=False,
    order_metric=None,
    compute_scale_zero=compute_quantization_parameters,
):
    """Quantizes ``(out_features, in_features)`` weights column by column (GPTQ).

    Each column's quantization error, weighted by the inverse Hessian, is
    subtracted from the columns not yet quantized (inside a block at once, across
    blocks in one product per block).

    Args:
        weights_transpose: the weights, ``(out_features, in_features)``.
        inv_hessian: the ``(in_features, in_features)`` inverse Hessian (see
            ``damped_inverse_hessian``).
        blocksize: the number of columns quantized together.
        group_size: columns per quantization group; -1: one group.
        activation_order: quantize the columns in decreasing order of ``order_metric``.
        order_metric: None (the inverse of the inverse Hessian's diagonal) or one value
            per column.
        compute_scale_zero: ``find(weights) -> (scale, zero, maxq)`` (see
            ``gptq_parameter_finder``).

    Returns:
        ``(quantized int32, scale, zero, g_idx)``: scale and zero are
        ``(out_features, n_groups)``, ``g_idx`` the float group of each input
        (``i / group_size``, as Keras; truncate it for the group's index).

    Example (with an identity inverse Hessian no error is carried over, so this is
    rounding to the nearest level):

    >>> import numpy as np
    >>> from mb_ops import ops, quantizers
    >>> x = np.array([[0.0, 1.5, 3.0], [-1.0, 0.0, 2.0]], "float32")
    >>> find = quantizers.gptq_parameter_finder(2)
    >>> quantized, scale, zero, g_idx = quantizers.gptq_quantize_matrix(
    ...     x, ops.eye(3), compute_scale_zero=find
    ... )
    >>> ops.convert_to_numpy(quantized).tolist()
    [[0, 2, 3], [0, 1, 3]]
    """
    in_features = int(ops.shape(weights_transpose)[1])
    perm = inv_perm = None
    if activation_order:
        if order_metric is None:
            order_metric = ops.reciprocal(ops.add(ops.diagonal(inv_hessian), 1e-12))
        else:
            order_metric = ops.cast(order_metric, "float32")
            order_metric = ops.where(
                ops.isfinite(order_metric), order_metric, ops.zeros_like(order_metric)
            )
        perm = _stable_permutation(order_metric)
        inv_perm = ops.argsort(perm)
        weights_transpose = ops.take(weights_transpose, perm, axis=1)
        inv_hessian = ops.take(ops.take(inv_hessian, perm, axis=0), perm, axis=1)
    weights = weights_transpose
    quantized = ops.zeros_like(weights_transpose, dtype="int32")
    group = in_features if group_size == -1 else group_size
    cache = {}
    for block_start in range(0, in_features, blocksize):
        block_end = min(block_start + blocksize, in_features)
        width = block_end - block_start
        block = weights[:, block_start:block_end]
        block_error = ops.zeros_like(block)
        block_inv = inv_hessian[block_start:block_end, block_start:block_end]
        for i in range(width):
            column = block_start + i
            scale, zero, maxq = _group_parameters(
                compute_scale_zero, weights, column, group, in_features, cache
            )
            weight_column = block[:, i]
            levels = quantize_with_zero_point(ops.expand_dims(weight_column, 1), scale, zero, maxq)
            quantized = ops.slice_update(quantized, (0, column), ops.cast(levels, "int32"))
            restored = dequantize_with_zero_point(levels, scale, zero)[:, 0]
            error = ops.divide(ops.subtract(weight_column, restored), block_inv[i, i])
            block_error = ops.slice_update(block_error, (0, i), ops.expand_dims(error, 1))
            if i < width - 1:
                update = ops.matmul(
                    ops.expand_dims(error, 1), ops.expand_dims(block_inv[i, i + 1 :], 0)
                )
                block = ops.slice_update(block, (0, i + 1), ops.subtract(block[:, i + 1 :], update))
        if block_end < in_features:
            correction = ops.matmul(block_error, inv_hessian[block_start:block_end, block_end:])
            weights = ops.concatenate(
                [weights[:, :block_end], ops.subtract(weights[:, block_end:], correction)], axis=1
            )
    g_idx = ops.cast(ops.divide(ops.arange(0, in_features, dtype="int32"), group), "float32")
    if activation_order:
        g_idx = ops.take(g_idx, inv_perm, axis=0)
        quantized = ops.take(quantized, inv_perm, axis=1)
    chunks = cache.get("chunks")
    if not chunks:
        scale, zero, _ = compute_scale_zero(weights_transpose)
    else:
        scale = ops.concatenate([c[0] for c in chunks], axis=1)
        zero = ops.concatenate([c[1] for c in chunks], axis=1)
    return quantized, scale, zero, g_idx
