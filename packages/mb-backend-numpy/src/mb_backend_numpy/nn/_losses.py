"""Cross-entropies, CTC loss and decoding, and PSNR."""

import numpy as np

from mb_backend_numpy._convert import convert_to_tensor, to_tensor
from mb_backend_numpy._dtypes import result_type
from mb_backend_numpy.nn._activations import log_softmax, sigmoid
from mb_backend_numpy.nn._misc import one_hot
from mb_backend_numpy.numpy._common import cast, quiet
from mb_ops import config


def _check_same_shape(target, output):
    if target.shape != output.shape:
        raise ValueError(
            "`target` and `output` must have the same shape. "
            f"Received: target.shape={target.shape}, output.shape={output.shape}."
        )


def _log_probs(output, from_logits, axis):
    if from_logits:
        return log_softmax(output, axis=axis)
    eps = config.epsilon()
    output = output / np.sum(output, axis=axis, keepdims=True)
    return np.log(np.clip(output, eps, 1.0 - eps))


@quiet
def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    target, output = to_tensor(target), to_tensor(output)
    _check_same_shape(target, output)
    if target.ndim < 1:
        raise ValueError(
            "categorical_crossentropy expects `target` and `output` of rank 1 or more. "
            f"Received: target.shape={target.shape}."
        )
    return -np.sum(target * _log_probs(output, from_logits, axis), axis=axis)


@quiet
def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    target = to_tensor(target).astype("int32", copy=False)
    output = to_tensor(output)
    if target.ndim == output.ndim and target.shape[-1] == 1:
        target = np.squeeze(target, axis=-1)
    if output.ndim < 1:
        raise ValueError(f"`output` must be of rank 1 or more. Received: shape {output.shape}.")
    if target.shape != output.shape[:-1]:
        raise ValueError(
            "`target` must have the shape of `output` without its last axis. "
            f"Received: target.shape={target.shape}, output.shape={output.shape}."
        )
    log_prob = _log_probs(output, from_logits, axis)
    picked = one_hot(target, output.shape[axis], axis=axis, dtype=output.dtype)
    return -np.sum(picked * log_prob, axis=axis)


@quiet
def binary_crossentropy(target, output, from_logits=False):
    target, output = to_tensor(target), to_tensor(output)
    _check_same_shape(target, output)
    if from_logits:
        output = sigmoid(output)
    eps = config.epsilon()
    output = np.clip(output, eps, 1.0 - eps)
    return -(target * np.log(output) + (1.0 - target) * np.log(1.0 - output))


def _ctc_one(logp, labels, blank):
    """Negative log-likelihood of ``labels`` under per-step log-probs ``logp`` (T, K)."""
    extended = np.full(2 * len(labels) + 1, blank, dtype=np.int64)
    extended[1::2] = labels
    steps, states = logp.shape[0], len(extended)
    skip = np.zeros(states, dtype=bool)
    skip[2:] = (extended[2:] != blank) & (extended[2:] != extended[:-2])
    alpha = np.full(states, -np.inf)
    if steps == 0:
        return np.inf if len(labels) else 0.0
    alpha[0] = logp[0, extended[0]]
    if states > 1:
        alpha[1] = logp[0, extended[1]]
    for t in range(1, steps):
        stay = alpha
        step = np.concatenate([[-np.inf], alpha[:-1]])
        jump = np.where(skip, np.concatenate([[-np.inf, -np.inf], alpha[:-2]]), -np.inf)
        alpha = np.logaddexp(np.logaddexp(stay, step), jump) + logp[t, extended]
    tail = alpha[-2:] if states > 1 else alpha[-1:]
    return -np.logaddexp.reduce(tail)


@quiet
def ctc_loss(target, output, target_length, output_length, mask_index=0):
    target = convert_to_tensor(target, dtype="int32")
    output = to_tensor(output)
    target_length = np.asarray(convert_to_tensor(target_length, dtype="int32"))
    output_length = np.asarray(convert_to_tensor(output_length, dtype="int32"))
    dtype = result_type(output.dtype, "float32")
    logp = log_softmax(output.astype("float64"), axis=-1)
    losses = [
        _ctc_one(logp[b, : output_length[b]], target[b, : target_length[b]], mask_index)
        for b in range(output.shape[0])
    ]
    return cast(np.asarray(losses), dtype)


def _greedy_decode(inputs, lengths, merge_repeated, mask_index):
    batch, steps, classes = inputs.shape
    mask_index = classes - 1 if mask_index is None else mask_index
    best = np.argmax(inputs, axis=-1).astype("int32")
    scores = np.max(inputs, axis=-1)
    beyond = np.arange(steps)[None, :] >= lengths[:, None]
    best = np.where(beyond, mask_index, best)
    scores = np.where(beyond, 0.0, scores)
    if merge_repeated:
        repeated = np.pad(best[:, 1:] == best[:, :-1], ((0, 0), (1, 0)))
        best = np.where(repeated, mask_index, best)
    out = np.full((batch, steps), -1, dtype="int32")
    for b in range(batch):
        kept = best[b][best[b] != mask_index]
        out[b, : len(kept)] = kept
    return out[None], -np.sum(scores, axis=1, keepdims=True).astype(inputs.dtype)


def _beam_decode(inputs, lengths, beam_width, top_paths, mask_index):
    batch, steps, classes = inputs.shape
    mask_index = classes - 1 if mask_index is None else mask_index
    logp = log_softmax(inputs.astype("float64"), axis=-1)
    paths = np.full((top_paths, batch, steps), -1, dtype="int32")
    scores = np.full((batch, top_paths), -np.inf)
    for b in range(batch):
        best = _prefix_beam_search(logp[b, : lengths[b]], beam_width, mask_index)
        for k, (prefix, score) in enumerate(best[:top_paths]):
            paths[k, b, : len(prefix)] = prefix
            scores[b, k] = score
    return paths, scores.astype(inputs.dtype)


def _prefix_beam_search(logp, beam_width, blank):
    """CTC prefix beam search; returns (prefix, log-probability) best first."""
    # Each prefix keeps (log P ending in blank, log P ending in its last label).
    beams = {(): (0.0, -np.inf)}
    for t in range(logp.shape[0]):
        step = logp[t]
        grown = {}

        def add(prefix, blank_p, label_p, grown=grown):
            old_b, old_l = grown.get(prefix, (-np.inf, -np.inf))
            grown[prefix] = (np.logaddexp(old_b, blank_p), np.logaddexp(old_l, label_p))

        for prefix, (p_b, p_l) in beams.items():
            total = np.logaddexp(p_b, p_l)
            add(prefix, total + step[blank], -np.inf)
            for k in range(logp.shape[1]):
                if k == blank:
                    continue
                extended = (*prefix, k)
                if prefix and prefix[-1] == k:
                    add(extended, -np.inf, p_b + step[k])
                    add(prefix, -np.inf, p_l + step[k])
                else:
                    add(extended, -np.inf, total + step[k])
        ranked = sorted(grown.items(), key=lambda kv: -np.logaddexp(*kv[1]))
        beams = dict(ranked[:beam_width])
    ranked = sorted(beams.items(), key=lambda kv: -np.logaddexp(*kv[1]))
    return [(list(prefix), float(np.logaddexp(*p))) for prefix, p in ranked]


@quiet
def ctc_decode(
    inputs,
    sequence_lengths,
    strategy="greedy",
    beam_width=100,
    top_paths=1,
    merge_repeated=True,
    mask_index=0,
):
    inputs = to_tensor(inputs)
    inputs = cast(inputs, result_type(inputs.dtype, "float32"))
    lengths = np.asarray(convert_to_tensor(sequence_lengths, dtype="int32"))
    if strategy == "greedy":
        return _greedy_decode(inputs, lengths, merge_repeated, mask_index)
    if strategy == "beam_search":
        return _beam_decode(inputs, lengths, beam_width, top_paths, mask_index)
    raise ValueError(
        f"ctc_decode strategy must be 'greedy' or 'beam_search'. Received: {strategy!r}."
    )


@quiet
def psnr(x1, x2, max_val):
    x1, x2 = to_tensor(x1), to_tensor(x2)
    if x1.shape != x2.shape:
        raise ValueError(
            f"psnr expects inputs of the same shape. Received: {x1.shape} and {x2.shape}."
        )
    max_val = convert_to_tensor(max_val, dtype=x2.dtype)
    mse = np.mean(np.square(x1 - x2))
    return 20 * np.log10(max_val) - 10 * np.log10(mse)
