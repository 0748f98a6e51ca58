"""Cross-entropies, CTC loss and decoding, and PSNR."""

import torch
import torch.nn.functional as tnn

from mb_backend_torch._convert import convert_to_tensor
from mb_backend_torch._dtypes import _result_many
from mb_backend_torch.numpy._common import t, to_float
from mb_ops import config


def _log_probabilities(output, from_logits, axis):
    """``log_softmax`` of logits, or the log of probabilities renormalized along ``axis``
    and clipped to ``[epsilon, 1 - epsilon]``."""
    if from_logits:
        return tnn.log_softmax(output, dim=axis)
    eps = config.epsilon()
    output = output / output.sum(dim=axis, keepdim=True)
    return torch.log(output.clamp(eps, 1.0 - eps))


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    target = t(target)
    output = to_float(output)
    if tuple(target.shape) != tuple(output.shape):
        raise ValueError(
            "categorical_crossentropy needs target and output of the same shape. "
            f"Received target.shape={tuple(target.shape)}, output.shape={tuple(output.shape)}."
        )
    if output.ndim < 1:
        raise ValueError("categorical_crossentropy needs inputs of rank >= 1; got scalars.")
    target = target.to(output.dtype)
    log_prob = _log_probabilities(output, from_logits, axis)
    return -(target * log_prob).sum(dim=axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    target = t(target).to(torch.int64)
    output = to_float(output)
    if target.ndim == output.ndim and target.shape[axis] == 1:
        target = target.squeeze(axis)
    if output.ndim < 1:
        raise ValueError("sparse_categorical_crossentropy needs an output of rank >= 1.")
    expected = list(output.shape)
    del expected[axis]
    if list(target.shape) != expected:
        raise ValueError(
            "sparse_categorical_crossentropy: target shape must be the output shape without "
            f"the class axis. Received target.shape={tuple(target.shape)}, "
            f"output.shape={tuple(output.shape)}."
        )
    log_prob = _log_probabilities(output, from_logits, axis)
    log_prob = torch.moveaxis(log_prob, axis, -1)
    return -torch.gather(log_prob, -1, target.unsqueeze(-1)).squeeze(-1)


def binary_crossentropy(target, output, from_logits=False):
    output = to_float(output)
    target = t(target).to(output.dtype)
    if tuple(target.shape) != tuple(output.shape):
        raise ValueError(
            "binary_crossentropy needs target and output of the same shape. "
            f"Received target.shape={tuple(target.shape)}, output.shape={tuple(output.shape)}."
        )
    if from_logits:
        return tnn.binary_cross_entropy_with_logits(output, target, reduction="none")
    eps = config.epsilon()
    output = output.clamp(eps, 1.0 - eps)
    return -(target * torch.log(output) + (1 - target) * torch.log(1 - output))


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    target = t(target).to(torch.int64)
    output = t(output)
    dtype = _result_many((output.dtype, torch.float32), config.floatx())
    log_probs = tnn.log_softmax(output.to(dtype).transpose(0, 1), dim=-1)
    return tnn.ctc_loss(
        log_probs,
        target,
        t(output_length).to(torch.int64),
        t(target_length).to(torch.int64),
        blank=mask_index,
        reduction="none",
        zero_infinity=False,
    )


def _greedy_decode(inputs, lengths, merge_repeated, mask_index):
    batch, max_len, num_classes = inputs.shape
    if mask_index is None:
        mask_index = num_classes - 1
    scores, indices = inputs.max(dim=-1)
    indices = indices.to(torch.int32)
    beyond = torch.arange(max_len, device=inputs.device)[None, :] >= lengths[:, None]
    indices = torch.where(beyond, torch.full_like(indices, mask_index), indices)
    scores = torch.where(beyond, torch.zeros_like(scores), scores)
    if merge_repeated:
        repeat = torch.zeros_like(indices, dtype=torch.bool)
        repeat[:, 1:] = indices[:, 1:] == indices[:, :-1]
        indices = torch.where(repeat, torch.full_like(indices, mask_index), indices)
    invalid = indices == mask_index
    indices = torch.where(invalid, torch.full_like(indices, -1), indices)
    order = torch.arange(max_len, device=inputs.device).expand(batch, max_len)
    order = torch.where(invalid, torch.full_like(order, max_len), order)
    order = torch.argsort(order, dim=-1, stable=True)
    indices = torch.gather(indices, 1, order)
    return indices.unsqueeze(0), -scores.sum(dim=1, keepdim=True)


def _beam_decode(inputs, lengths, beam_width, top_paths, mask_index):
    # Prefix beam search, one sequence at a time (host loop: decoding is not a
    # training hot path). Scores are log-probabilities of the kept prefixes.
    log_probs = tnn.log_softmax(inputs, dim=-1).detach().cpu().double()
    batch, max_len, num_classes = log_probs.shape
    if mask_index is None:
        mask_index = num_classes - 1
    neg_inf = float("-inf")
    all_paths, all_scores = [], []
    for b in range(batch):
        beams = {(): (0.0, neg_inf)}  # prefix -> (log p ending in blank, ending in non-blank)
        for step in range(int(lengths[b])):
            row = log_probs[b, step].tolist()
            nxt = {}

            def add(prefix, pb, pnb, nxt=nxt):
                old_b, old_nb = nxt.get(prefix, (neg_inf, neg_inf))
                nxt[prefix] = (_logsumexp(old_b, pb), _logsumexp(old_nb, pnb))

            for prefix, (pb, pnb) in beams.items():
                total = _logsumexp(pb, pnb)
                add(prefix, total + row[mask_index], neg_inf)
                for c in range(num_classes):
                    if c == mask_index:
                        continue
                    p = row[c]
                    if prefix and prefix[-1] == c:
                        add((*prefix, c), neg_inf, pb + p)
                        add(prefix, neg_inf, pnb + p)
                    else:
                        add((*prefix, c), neg_inf, total + p)
            beams = dict(sorted(nxt.items(), key=lambda kv: -_logsumexp(*kv[1]))[:beam_width])
        ranked = sorted(beams.items(), key=lambda kv: -_logsumexp(*kv[1]))[:top_paths]
        while len(ranked) < top_paths:
            ranked.append(((), (neg_inf, neg_inf)))
        paths = torch.full((top_paths, max_len), -1, dtype=torch.int32)
        for i, (prefix, _) in enumerate(ranked):
            if prefix:
                paths[i, : len(prefix)] = torch.tensor(prefix, dtype=torch.int32)
        all_paths.append(paths)
        all_scores.append(torch.tensor([_logsumexp(*s) for _, s in ranked]))
    paths = torch.stack(all_paths, dim=1).to(inputs.device)
    scores = torch.stack(all_scores).to(device=inputs.device, dtype=inputs.dtype)
    return paths, scores


def _logsumexp(a, b):
    if a == float("-inf"):
        return b
    if b == float("-inf"):
        return a
    m = max(a, b)
    return m + torch.log1p(torch.exp(torch.tensor(-abs(a - b), dtype=torch.float64))).item()


def ctc_decode(
    inputs,
    sequence_lengths,
    strategy="greedy",
    beam_width=100,
    top_paths=1,
    merge_repeated=True,
    mask_index=0,
):
    inputs = t(inputs)
    dtype = _result_many((inputs.dtype, torch.float32), config.floatx())
    inputs = inputs.to(dtype)
    lengths = convert_to_tensor(sequence_lengths, "int32").to(inputs.device)
    if strategy == "greedy":
        return _greedy_decode(inputs, lengths, merge_repeated, mask_index)
    if strategy == "beam_search":
        return _beam_decode(inputs, lengths, beam_width, top_paths, mask_index)
    raise ValueError(
        f"ctc_decode: strategy must be 'greedy' or 'beam_search'. Received {strategy!r}."
    )


def psnr(x1, x2, max_val):
    x1 = to_float(x1)
    x2 = t(x2).to(x1.dtype)
    if tuple(x1.shape) != tuple(x2.shape):
        raise ValueError(
            "psnr needs two inputs of the same shape. "
            f"Received {tuple(x1.shape)} and {tuple(x2.shape)}."
        )
    max_val = convert_to_tensor(max_val, x1.dtype)
    mse = torch.mean((x1 - x2) ** 2)
    return 20 * torch.log10(max_val) - 10 * torch.log10(mse)
