"""Fake quantization: values snapped to a ``num_bits`` grid over ``[min, max]``, still float."""

from __future__ import annotations

from mb_graph import KerasTensor, Operation, any_symbolic_tensors
from mb_ops import _dtypes, ops


def _adjust_and_nudge(min_range, max_range, num_bits, narrow_range):
    dtype = _dtypes.result_type(min_range.dtype, "float32")
    min_range, max_range = ops.cast(min_range, dtype), ops.cast(max_range, dtype)
    quant_max = (1 << num_bits) - 1
    quant_min = 1 if narrow_range else 0
    spread = ops.subtract(max_range, min_range)
    scale = ops.divide(spread, quant_max - quant_min)
    inv_scale = ops.divide(quant_max - quant_min, spread)
    zero_point = ops.round(ops.clip(quant_min - ops.divide(min_range, scale), quant_min, quant_max))
    nudged_min = ops.multiply(ops.subtract(quant_min, zero_point), scale)
    nudged_max = ops.multiply(ops.subtract(quant_max, zero_point), scale)
    return nudged_min, nudged_max, scale, inv_scale


class FakeQuantWithMinMaxVars(Operation):
    """The symbolic form of `fake_quant_with_min_max_vars`."""

    def __init__(self, num_bits=8, narrow_range=False, axis=None):
        super().__init__()
        self.num_bits = num_bits
        self.narrow_range = narrow_range
        self.axis = axis

    def call(self, inputs, min_vals, max_vals):
        return fake_quant_with_min_max_vars(
            inputs, min_vals, max_vals, self.num_bits, self.narrow_range, self.axis
        )

    def compute_output_spec(self, inputs, min_vals, max_vals):
        return KerasTensor(inputs.shape, dtype=inputs.dtype)


def fake_quant_with_min_max_vars(
    inputs,
    min_vals,
    max_vals,
    num_bits=8,
    narrow_range=False,
    axis=None,
):
    """Quantizes and dequantizes `inputs` on a ``num_bits`` grid over ``[min_vals, max_vals]``.

    Per tensor (`axis` None) or per channel along `axis`. The gradient passes
    straight through inside the range and flows to `min_vals` / `max_vals` from the
    values clipped to them, so the range can be trained.

    Example:

    >>> import numpy as np
    >>> x = fake_quant_with_min_max_vars(np.array([0.3, 2.0], "float32"), 0.0, 1.0, num_bits=2)
    >>> ops.convert_to_numpy(x).tolist()
    [0.3333333432674408, 1.0]
    """
    if any_symbolic_tensors((inputs,)):
        return FakeQuantWithMinMaxVars(num_bits, narrow_range, axis).symbolic_call(
            inputs, min_vals, max_vals
        )
    inputs = ops.convert_to_tensor(inputs)
    min_vals = ops.convert_to_tensor(min_vals)
    max_vals = ops.convert_to_tensor(max_vals)
    num_bits = int(num_bits)
    ndim = len(inputs.shape)
    if axis is not None:
        axis = axis + ndim if axis < 0 else axis

    @ops.custom_gradient
    def fake_quant(x, min_val, max_val):
        dtype = _dtypes.standardize_dtype(x.dtype)
        nudged_min, nudged_max, scale, inv_scale = _adjust_and_nudge(
            min_val, max_val, num_bits, narrow_range
        )
        quant_zero = ops.floor(ops.add(ops.multiply(-nudged_min, inv_scale), 0.5))
        clamped = ops.clip(ops.cast(x, nudged_min.dtype), nudged_min, nudged_max)
        shifted = ops.subtract(clamped, nudged_min)
        levels = ops.floor(ops.add(ops.subtract(ops.multiply(shifted, inv_scale), quant_zero), 0.5))
        result = ops.cast(ops.multiply(levels, scale), dtype=dtype)
        inside = ops.logical_and(ops.greater_equal(x, nudged_min), ops.less_equal(x, nudged_max))

        def reduce_to(grad, like):
            if axis is not None:
                grad = ops.sum(grad, axis=[i for i in range(ndim) if i != axis])
            else:
                grad = ops.sum(grad)
            return ops.reshape(grad, ops.shape(like))

        def grad(*args, upstream=None):
            if upstream is None:
                (upstream,) = args
            dx = ops.where(inside, upstream, 0.0)
            grad_min = ops.where(ops.less_equal(x, nudged_min), upstream, 0.0)
            grad_max = ops.where(ops.greater_equal(x, nudged_max), upstream, 0.0)
            return dx, reduce_to(grad_min, min_val), reduce_to(grad_max, max_val)

        return result, grad

    return fake_quant(inputs, min_vals, max_vals)
