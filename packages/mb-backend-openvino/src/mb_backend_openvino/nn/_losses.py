"""Cross-entropies, CTC loss and decoding, and PSNR."""

import math

import numpy as np

from mb_backend_openvino import _dtypes
from mb_backend_openvino._convert import convert_to_tensor, to_tensor
from mb_backend_openvino._graph import (
    canonical_axis,
    const,
    const_like,
    cv,
    i64,
    opset,
    reshape,
    run,
)
from mb_ops import config


def _one_hot_node(idx, depth, axis, dtype):
    idx = cv(idx, "int32")
    return opset.one_hot(
        idx, opset.constant(np.int64(depth)), const(1, dtype), const(0, dtype), axis
    ).output(0)


def _check_same_shape(target, output):
    if tuple(target.shape) != tuple(output.shape):
        raise ValueError(
            "`target` and `output` must have the same shape. "
            f"Received: target.shape={target.shape}, output.shape={output.shape}."
        )


def _log_probs(output, from_logits, axis):
    if from_logits:
        shifted = opset.subtract(output, opset.reduce_max(output, i64([axis]), True))
        total = opset.reduce_sum(opset.exp(shifted), i64([axis]), True)
        return opset.subtract(shifted, opset.log(total)).output(0)
    eps = config.epsilon()
    probs = opset.divide(output, opset.reduce_sum(output, i64([axis]), True))
    clipped = opset.minimum(
        opset.maximum(probs, const_like(eps, output)), const_like(1.0 - eps, output)
    )
    return opset.log(clipped).output(0)


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    target, output = to_tensor(target), to_tensor(output)
    _check_same_shape(target, output)
    if target.ndim < 1:
        raise ValueError(
            "categorical_crossentropy expects `target` and `output` of rank 1 or more. "
            f"Received: target.shape={target.shape}."
        )
    ax = canonical_axis(axis, output.ndim, "categorical_crossentropy")
    dtype = _dtypes.result_type(target.dtype, output.dtype)

    def build(t, o):
        t, o = cv(t, dtype), cv(o, dtype)
        return opset.negative(
            opset.reduce_sum(opset.multiply(t, _log_probs(o, from_logits, ax)), i64([ax]), False)
        )

    return run(("cce", ax, bool(from_logits), config.epsilon(), dtype), build, target, output)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    target, output = to_tensor(target), to_tensor(output)
    squeeze = target.ndim == output.ndim and target.shape[-1] == 1
    if output.ndim < 1:
        raise ValueError(f"`output` must be of rank 1 or more. Received: shape {output.shape}.")
    t_shape = target.shape[:-1] if squeeze else target.shape
    if tuple(t_shape) != tuple(output.shape[:-1]):
        raise ValueError(
            "`target` must have the shape of `output` without its last axis. "
            f"Received: target.shape={target.shape}, output.shape={output.shape}."
        )
    ax = canonical_axis(axis, output.ndim, "sparse_categorical_crossentropy")
    depth = output.shape[ax]

    def build(t, o):
        t = cv(t, "int32")
        if squeeze:
            t = opset.squeeze(t, i64([-1])).output(0)
        log_prob = _log_probs(o, from_logits, ax)
        picked = _one_hot_node(t, depth, ax, _dtypes.name_of_ov(o.get_element_type()))
        return opset.negative(opset.reduce_sum(opset.multiply(picked, log_prob), i64([ax]), False))

    return run(
        ("scce", ax, depth, squeeze, bool(from_logits), config.epsilon()), build, target, output
    )


def binary_crossentropy(target, output, from_logits=False):
    target, output = to_tensor(target), to_tensor(output)
    _check_same_shape(target, output)
    dtype = _dtypes.result_type(target.dtype, output.dtype)
    eps = config.epsilon()

    def build(t, o):
        t, o = cv(t, dtype), cv(o, dtype)
        if from_logits:
            o = opset.sigmoid(o).output(0)
        o = opset.minimum(opset.maximum(o, const_like(eps, o)), const_like(1.0 - eps, o))
        one = const_like(1, o)
        first = opset.multiply(t, opset.log(o))
        second = opset.multiply(opset.subtract(one, t), opset.log(opset.subtract(one, o)))
        return opset.negative(opset.add(first, second))

    return run(("bce", bool(from_logits), eps, dtype), build, target, output)


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    target = convert_to_tensor(target, dtype="int32")
    output = to_tensor(output)
    target_length = convert_to_tensor(target_length, dtype="int32")
    output_length = convert_to_tensor(output_length, dtype="int32")
    dtype = _dtypes.result_type(output.dtype, "float32")
    blank = int(mask_index)

    def build(t, o, tl, ol):
        o = cv(o, "float32")
        # OpenVINO wants labels padded to the time axis of the logits: (N, T).
        steps = opset.gather(opset.shape_of(o, "i64"), i64([1]), i64(0))
        have = opset.gather(opset.shape_of(t, "i64"), i64([1]), i64(0))
        missing = opset.maximum(opset.subtract(steps, have), i64([0]))
        t = opset.pad(
            t,
            i64([0, 0]),
            opset.concat([i64([0]), missing], 0),
            "constant",
            opset.constant(np.int32(blank)),
        )
        t = opset.slice(t, i64([0]), steps, i64([1]), i64([1]))
        loss = opset.ctc_loss(o, ol, t, tl, opset.constant(np.int32(blank)), False, True, False)
        return cv(loss.output(0), dtype)

    return run(("ctc_loss", blank, dtype), build, target, output, target_length, output_length)


def ctc_decode(
    inputs,
    sequence_lengths,
    strategy="greedy",
    beam_width=100,
    top_paths=1,
    merge_repeated=True,
    mask_index=0,
):
    if strategy == "beam_search":
        raise NotImplementedError(
            "ctc_decode(strategy='beam_search') is not supported on the openvino backend: "
            "OpenVINO has no CTC beam-search decoder. Use strategy='greedy'."
        )
    if strategy != "greedy":
        raise ValueError(
            f"ctc_decode strategy must be 'greedy' or 'beam_search'. Received: {strategy!r}."
        )
    inputs = to_tensor(inputs)
    dtype = _dtypes.result_type(inputs.dtype, "float32")
    lengths = convert_to_tensor(sequence_lengths, dtype="int32")
    batch, steps, classes = inputs.shape
    blank = classes - 1 if mask_index is None else int(mask_index)

    def build(x, n):
        x = cv(x, dtype)
        best = cv(
            opset.topk(x, opset.constant(np.int64(1)), -1, "max", "none", "i32").output(1), "int32"
        )
        best = opset.squeeze(best, i64([-1]))
        scores = opset.reduce_max(x, i64([-1]), False)
        t = opset.range(
            opset.constant(np.int32(0)),
            opset.constant(np.int32(steps)),
            opset.constant(np.int32(1)),
            "i32",
        )
        beyond = opset.greater_equal(opset.unsqueeze(t, i64([0])), opset.unsqueeze(n, i64([1])))
        blank_c = opset.constant(np.int32(blank))
        best = opset.select(beyond, blank_c, best)
        scores = opset.select(beyond, const_like(0, scores.output(0)), scores)
        if merge_repeated and steps > 1:
            previous = opset.slice(best, i64([0]), i64([steps - 1]), i64([1]), i64([1]))
            current = opset.slice(best, i64([1]), i64([steps]), i64([1]), i64([1]))
            repeated = opset.concat(
                [opset.constant(np.zeros((batch, 1), bool)), opset.equal(current, previous)], 1
            )
            best = opset.select(repeated, blank_c, best)
        keep = opset.not_equal(best, blank_c)
        position = opset.subtract(
            opset.cumsum(opset.convert(keep, "i32"), i64(1)), opset.constant(np.int32(1))
        )
        position = opset.select(keep, position, opset.constant(np.int32(steps)))
        filled = opset.broadcast(opset.constant(np.int32(-1)), i64([batch, steps + 1]))
        packed = opset.scatter_elements_update(filled, position, best, i64(1), "none")
        packed = opset.slice(packed, i64([0]), i64([steps]), i64([1]), i64([1]))
        total = opset.negative(opset.reduce_sum(scores, i64([1]), True))
        return [opset.unsqueeze(packed, i64([0])).output(0), total.output(0)]

    return run(
        ("ctc_decode", batch, steps, blank, bool(merge_repeated), dtype), build, inputs, lengths
    )


def psnr(x1, x2, max_val):
    x1, x2 = to_tensor(x1), to_tensor(x2)
    if tuple(x1.shape) != tuple(x2.shape):
        raise ValueError(
            f"psnr expects inputs of the same shape. Received: {x1.shape} and {x2.shape}."
        )
    peak = to_tensor(max_val)
    dtype = x2.dtype

    def build(a, b, m):
        a, b, m = cv(a, dtype), cv(b, dtype), cv(m, dtype)
        diff = opset.subtract(a, b)
        mse = opset.reduce_mean(
            reshape(opset.multiply(diff, diff).output(0), [-1]), i64([0]), False
        )
        ln10 = const_like(math.log(10), m)
        db = lambda v: opset.divide(opset.log(v), ln10)  # noqa: E731
        return opset.subtract(
            opset.multiply(const_like(20, m), db(m)), opset.multiply(const_like(10, m), db(mse))
        )

    return run(("psnr", dtype), build, x1, x2, peak)
