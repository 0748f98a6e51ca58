"""Cross-entropies, CTC loss and decoding, and PSNR."""

import jax
import jax.nn as jnn
import jax.numpy as jnp
import numpy as np

from mb_backend_jax.core import cast, convert_to_tensor
from mb_ops import config, dtypes

_LOG_ZERO = -1e5  # log(0) stand-in that keeps CTC gradients finite


def _check_same_shape(target, output, name):
    if target.shape != output.shape:
        raise ValueError(
            f"{name} expects target and output of the same shape. Received "
            f"target.shape={target.shape}, output.shape={output.shape}."
        )


def _log_probabilities(output, from_logits, axis):
    if from_logits:
        return jnn.log_softmax(output, axis=axis)
    output = output / jnp.sum(output, axis=axis, keepdims=True)
    eps = config.epsilon()
    return jnp.log(jnp.clip(output, eps, 1.0 - eps))


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy between one-hot/probability ``target`` and ``output``."""
    target = convert_to_tensor(target)
    output = convert_to_tensor(output)
    _check_same_shape(target, output, "categorical_crossentropy")
    if output.ndim < 1:
        raise ValueError(
            f"categorical_crossentropy expects rank >= 1 inputs. Received shape {output.shape}."
        )
    return -jnp.sum(target * _log_probabilities(output, from_logits, axis), axis=axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy between integer class ``target`` and ``output``."""
    target = convert_to_tensor(target, dtype="int32")
    output = convert_to_tensor(output)
    if output.ndim < 1:
        raise ValueError(
            "sparse_categorical_crossentropy expects output of rank >= 1. "
            f"Received shape {output.shape}."
        )
    if target.ndim == output.ndim and target.shape[-1] == 1:
        target = jnp.squeeze(target, axis=-1)
    if target.shape != output.shape[:-1]:
        raise ValueError(
            "sparse_categorical_crossentropy expects target.shape == output.shape[:-1]. "
            f"Received target.shape={target.shape}, output.shape={output.shape}."
        )
    log_prob = _log_probabilities(output, from_logits, axis)
    labels = jnn.one_hot(target, output.shape[axis], axis=axis, dtype=log_prob.dtype)
    return -jnp.sum(labels * log_prob, axis=axis)


def binary_crossentropy(target, output, from_logits=False):
    """Element-wise binary cross-entropy."""
    target = convert_to_tensor(target)
    output = convert_to_tensor(output)
    _check_same_shape(target, output, "binary_crossentropy")
    if from_logits:
        return -target * jnn.log_sigmoid(output) - (1.0 - target) * jnn.log_sigmoid(-output)
    eps = config.epsilon()
    output = jnp.clip(output, eps, 1.0 - eps)
    return -(target * jnp.log(output) + (1.0 - target) * jnp.log(1.0 - output))


def psnr(x1, x2, max_val):
    """Peak signal-to-noise ratio in dB."""
    x1 = convert_to_tensor(x1)
    x2 = convert_to_tensor(x2)
    if x1.shape != x2.shape:
        raise ValueError(
            f"psnr expects inputs of the same shape. Received {x1.shape} and {x2.shape}."
        )
    max_val = convert_to_tensor(max_val, dtype=x2.dtype)
    mse = jnp.mean(jnp.square(x1 - x2))
    return 20 * jnp.log10(max_val) - 10 * jnp.log10(mse)


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    """Connectionist temporal classification loss per sequence.

    Args:
        target: int labels ``(batch, max_label_length)``.
        output: logits ``(batch, max_time, num_classes)``.
        target_length, output_length: valid lengths ``(batch,)``.
        mask_index: the blank class.

    Returns:
        The negative log-likelihood of each target, ``(batch,)``.
    """
    target = convert_to_tensor(target, dtype="int32")
    output = convert_to_tensor(output)
    output = cast(output, dtypes.result_type(output.dtype, "float32"))
    target_length = convert_to_tensor(target_length, dtype="int32")
    output_length = convert_to_tensor(output_length, dtype="int32")
    batch, max_time, _ = output.shape
    max_labels = target.shape[1]
    log_probs = jnn.log_softmax(output, axis=-1)
    # The extended label sequence: blank, l1, blank, l2, ..., blank (length 2N+1).
    ext = jnp.full((batch, 2 * max_labels + 1), mask_index, "int32")
    ext = ext.at[:, 1::2].set(target)
    ext_probs = jnp.take_along_axis(log_probs, ext[:, None, :], axis=2)  # (B, T, S)
    skip_ok = jnp.concatenate(
        [jnp.zeros((batch, 2), bool), (ext[:, 2:] != mask_index) & (ext[:, 2:] != ext[:, :-2])],
        axis=1,
    )
    neg = jnp.asarray(_LOG_ZERO, log_probs.dtype)
    alpha0 = jnp.full(ext.shape, neg, log_probs.dtype)
    alpha0 = alpha0.at[:, 0].set(ext_probs[:, 0, 0])
    alpha0 = alpha0.at[:, 1].set(jnp.where(max_labels > 0, ext_probs[:, 0, 1], neg))

    def step(alpha, inputs):
        probs_t, t = inputs
        shift1 = jnp.pad(alpha[:, :-1], ((0, 0), (1, 0)), constant_values=_LOG_ZERO)
        shift2 = jnp.pad(alpha[:, :-2], ((0, 0), (2, 0)), constant_values=_LOG_ZERO)
        shift2 = jnp.where(skip_ok, shift2, neg)
        new = jnp.logaddexp(jnp.logaddexp(alpha, shift1), shift2) + probs_t
        active = (t < output_length)[:, None]
        return jnp.where(active, new, alpha), None

    steps = (jnp.moveaxis(ext_probs, 1, 0)[1:], jnp.arange(1, max_time))
    alpha, _ = jax.lax.scan(step, alpha0, steps)
    last = jnp.take_along_axis(alpha, (2 * target_length)[:, None], axis=1)[:, 0]
    before = jnp.take_along_axis(alpha, jnp.maximum(2 * target_length - 1, 0)[:, None], axis=1)
    before = jnp.where(target_length > 0, before[:, 0], neg)
    return -jnp.logaddexp(last, before)


def ctc_decode(
    inputs,
    sequence_lengths,
    strategy="greedy",
    beam_width=100,
    top_paths=1,
    merge_repeated=True,
    mask_index=0,
):
    """Decode CTC outputs ``(batch, time, classes)``.

    ``greedy`` takes the best class per step (traceable); ``beam_search`` runs
    an exact prefix beam search on the host (eager only).

    Returns ``(decoded, scores)``: ``decoded`` of shape ``(paths, batch, time)``
    with -1 after the decoded labels (``paths`` is 1 for greedy, ``top_paths``
    for beam search), and ``scores`` ``(batch, paths)``: the negative sum of the
    best per-step scores (greedy) or each path's log-probability (beam search).
    """
    if strategy == "beam_search":
        return _ctc_beam_search(inputs, sequence_lengths, beam_width, top_paths, mask_index)
    if strategy != "greedy":
        raise ValueError(
            f"ctc_decode strategy must be 'greedy' or 'beam_search'. Received: {strategy!r}."
        )
    inputs = convert_to_tensor(inputs)
    inputs = cast(inputs, dtypes.result_type(inputs.dtype, "float32"))
    sequence_lengths = convert_to_tensor(sequence_lengths, dtype="int32")
    _batch, max_time, num_classes = inputs.shape
    blank = num_classes - 1 if mask_index is None else mask_index
    best = jnp.argmax(inputs, axis=-1)
    scores = jnp.max(inputs, axis=-1)
    beyond = jnp.arange(max_time)[None, :] >= sequence_lengths[:, None]
    best = jnp.where(beyond, blank, best)
    scores = jnp.where(beyond, 0.0, scores)
    if merge_repeated:
        repeated = jnp.pad(best[:, 1:] == best[:, :-1], ((0, 0), (1, 0)))
        best = jnp.where(repeated, blank, best)
    dropped = best == blank
    # Stable-sort kept positions first, dropped ones (-1) last.
    order = jnp.argsort(jnp.where(dropped, max_time, jnp.arange(max_time)[None, :]), axis=-1)
    decoded = jnp.take_along_axis(jnp.where(dropped, -1, best), order, axis=-1)
    return decoded[None], -jnp.sum(scores, axis=1, keepdims=True)


def _ctc_beam_search(inputs, sequence_lengths, beam_width, top_paths, mask_index):
    inputs = convert_to_tensor(inputs)
    if isinstance(inputs, jax.core.Tracer):
        raise ValueError(
            "ctc_decode(strategy='beam_search') runs on the host and cannot be traced under "
            "jax.jit; call it eagerly, or use strategy='greedy' inside compiled code."
        )
    if top_paths > beam_width:
        raise ValueError(
            f"ctc_decode needs top_paths <= beam_width. Received top_paths={top_paths}, "
            f"beam_width={beam_width}."
        )
    dtype = dtypes.result_type(inputs.dtype, "float32")
    log_probs = np.asarray(jnn.log_softmax(inputs.astype(dtype), axis=-1), "float64")
    lengths = np.asarray(sequence_lengths).astype(int)
    batch, max_time, num_classes = log_probs.shape
    blank = num_classes - 1 if mask_index is None else mask_index
    decoded = np.full((top_paths, batch, max_time), -1, "int32")
    scores = np.full((batch, top_paths), -np.inf, "float64")
    for b in range(batch):
        best = _prefix_beam_search(log_probs[b, : lengths[b]], blank, beam_width)
        for rank, (prefix, score) in enumerate(best[:top_paths]):
            decoded[rank, b, : len(prefix)] = prefix
            scores[b, rank] = score
    return jnp.asarray(decoded), jnp.asarray(scores, dtype)


def _add(beams, prefix, blank_score, label_score):
    old_blank, old_label = beams.get(prefix, (-np.inf, -np.inf))
    beams[prefix] = (np.logaddexp(old_blank, blank_score), np.logaddexp(old_label, label_score))


def _prefix_beam_search(log_probs, blank, beam_width):
    # Each beam: prefix -> (log P(prefix, ends in blank), log P(prefix, ends in label)).
    beams = {(): (0.0, -np.inf)}
    for step in log_probs:
        grown = {}
        for prefix, (p_blank, p_label) in beams.items():
            total = np.logaddexp(p_blank, p_label)
            _add(grown, prefix, total + step[blank], -np.inf)
            for c, p in enumerate(step):
                if c == blank:
                    continue
                if prefix and prefix[-1] == c:
                    _add(grown, prefix, -np.inf, p_label + p)  # repeat collapses
                    _add(grown, (*prefix, c), -np.inf, p_blank + p)  # blank-separated repeat
                else:
                    _add(grown, (*prefix, c), -np.inf, total + p)
        ranked = sorted(grown.items(), key=lambda kv: -np.logaddexp(*kv[1]))
        beams = dict(ranked[:beam_width])
    final = [(list(prefix), float(np.logaddexp(*s))) for prefix, s in beams.items()]
    return sorted(final, key=lambda item: -item[1])
