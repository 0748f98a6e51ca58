"""NumPy references for every loss, written from the formulas (float64).

Each function returns the unreduced values for same-rank `y_true`/`y_pred`;
`reduce` states Keras 3's reductions directly.
"""

import numpy as np

EPS = 1e-7


def mean_squared_error(t, p):
    return np.mean((t - p) ** 2, axis=-1)


def mean_absolute_error(t, p):
    return np.mean(np.abs(t - p), axis=-1)


def mean_absolute_percentage_error(t, p):
    return 100.0 * np.mean(np.abs(t - p) / np.maximum(np.abs(t), EPS), axis=-1)


def mean_squared_logarithmic_error(t, p):
    return np.mean((np.log1p(np.maximum(p, EPS)) - np.log1p(np.maximum(t, EPS))) ** 2, axis=-1)


def cosine_similarity(t, p, axis=-1):
    def unit(x):
        norm = np.sqrt(np.sum(x**2, axis=axis, keepdims=True))
        return x / np.maximum(norm, EPS)

    return -np.sum(unit(t) * unit(p), axis=axis)


def huber(t, p, delta=1.0):
    e = np.abs(p - t)
    return np.mean(np.where(e <= delta, 0.5 * e**2, delta * e - 0.5 * delta**2), axis=-1)


def log_cosh(t, p):
    return np.mean(np.log(np.cosh(p - t)), axis=-1)


def kl_divergence(t, p):
    t, p = np.clip(t, EPS, 1), np.clip(p, EPS, 1)
    return np.sum(t * np.log(t / p), axis=-1)


def poisson(t, p):
    return np.mean(p - t * np.log(p + EPS), axis=-1)


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def _bce_entries(t, p, from_logits):
    if from_logits:
        return np.maximum(p, 0) - p * t + np.log1p(np.exp(-np.abs(p)))
    p = np.clip(p, EPS, 1 - EPS)
    return -(t * np.log(p) + (1 - t) * np.log(1 - p))


def binary_crossentropy(t, p, from_logits=False, label_smoothing=0.0, axis=-1):
    t = t * (1 - label_smoothing) + 0.5 * label_smoothing
    return np.mean(_bce_entries(t, p, from_logits), axis=axis)


def binary_focal_crossentropy(
    t,
    p,
    apply_class_balancing=False,
    alpha=0.25,
    gamma=2.0,
    from_logits=False,
    label_smoothing=0.0,
    axis=-1,
):
    t = t * (1 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        p = _sigmoid(p)
    bce = _bce_entries(t, p, False)
    p_t = t * p + (1 - t) * (1 - p)
    focal = (1 - p_t) ** gamma * bce
    if apply_class_balancing:
        focal = (t * alpha + (1 - t) * (1 - alpha)) * focal
    return np.mean(focal, axis=axis)


def _log_probs(p, from_logits, axis):
    if from_logits:
        shifted = p - np.max(p, axis=axis, keepdims=True)
        return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))
    p = p / np.sum(p, axis=axis, keepdims=True)
    return np.log(np.clip(p, EPS, 1 - EPS))


def _smooth_one_hot(t, label_smoothing, axis):
    return t * (1 - label_smoothing) + label_smoothing / t.shape[axis]


def categorical_crossentropy(t, p, from_logits=False, label_smoothing=0.0, axis=-1):
    t = _smooth_one_hot(t, label_smoothing, axis)
    return -np.sum(t * _log_probs(p, from_logits, axis), axis=axis)


def categorical_focal_crossentropy(
    t, p, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1
):
    t = _smooth_one_hot(t, label_smoothing, axis)
    if from_logits:
        p = np.exp(_log_probs(p, True, axis))
    p = np.clip(p / np.sum(p, axis=axis, keepdims=True), EPS, 1 - EPS)
    return np.sum(alpha * (1 - p) ** gamma * -t * np.log(p), axis=axis)


def sparse_categorical_crossentropy(t, p, from_logits=False, ignore_class=None, axis=-1):
    """Returns (values, mask or None)."""
    t = np.asarray(t)
    if t.ndim == p.ndim:
        t = np.squeeze(t, axis=axis)
    labels = t.astype(np.int64)
    valid = np.ones(labels.shape, bool) if ignore_class is None else labels != ignore_class
    safe = np.where(valid, labels, 0)
    logp = np.moveaxis(_log_probs(p, from_logits, axis), axis, -1)
    values = -np.take_along_axis(logp, safe[..., None], axis=-1)[..., 0]
    values = np.where(valid, values, 0.0)
    return values, (None if ignore_class is None else valid)


def categorical_generalized_cross_entropy(t, p, q):
    labels = np.asarray(t).reshape(-1).astype(np.int64)
    prob = p[np.arange(len(labels)), labels]
    return (1 - prob**q) / q


def _signed(t):
    return 2 * t - 1 if np.all((t == 0) | (t == 1)) else t


def hinge(t, p):
    return np.mean(np.maximum(1 - _signed(t) * p, 0), axis=-1)


def squared_hinge(t, p):
    return np.mean(np.maximum(1 - _signed(t) * p, 0) ** 2, axis=-1)


def categorical_hinge(t, p):
    pos = np.sum(t * p, axis=-1)
    neg = np.max((1 - t) * p, axis=-1)
    return np.maximum(neg - pos + 1, 0)


def dice(t, p, axis=None):
    inter = np.sum(t * p, axis=axis)
    return 1 - 2 * inter / (np.sum(t, axis=axis) + np.sum(p, axis=axis) + EPS)


def tversky(t, p, alpha=0.5, beta=0.5, axis=None):
    tp = np.sum(t * p, axis=axis)
    missed = np.sum(t * (1 - p), axis=axis)
    outside = np.sum((1 - t) * p, axis=axis)
    return 1 - tp / (tp + alpha * missed + beta * outside + EPS)


def _logsumexp(x, mask):
    out = np.full(x.shape[0], -np.inf)
    for i in range(x.shape[0]):
        row = x[i][mask[i]]
        if row.size:
            top = row.max()
            out[i] = top + np.log(np.sum(np.exp(row - top)))
    return out


def circle(t, p, remove_diagonal=True, gamma=80.0, margin=0.4):
    """Returns (values, mask): one loss per embedding, mask = values > 0."""
    labels = np.asarray(t).reshape(-1)
    d = np.maximum(1 - p @ p.T, 0)
    pos = labels[:, None] == labels[None, :]
    neg = ~pos
    if remove_diagonal:
        pos &= ~np.eye(len(labels), dtype=bool)
    wp = np.maximum((margin + d) * pos, 0)
    wn = np.maximum((1 + margin - d) * neg, 0)
    lp = _logsumexp(-gamma * wp * (margin - d), pos)
    ln = _logsumexp(gamma * wn * (1 - margin - d), neg)
    values = np.logaddexp(0.0, lp + ln)
    return values, values > 0


def ctc(labels, logits):
    """CTC negative log-likelihood per sequence (blank 0, zero-padded labels)."""
    out = []
    for lab, x in zip(labels, logits, strict=True):
        lab = [int(v) for v in lab if v != 0]
        logp = x - x.max(axis=-1, keepdims=True)
        logp = logp - np.log(np.sum(np.exp(logp), axis=-1, keepdims=True))
        ext = [0]
        for v in lab:
            ext += [v, 0]
        alpha = np.full(len(ext), -np.inf)
        alpha[0] = logp[0, 0]
        if len(ext) > 1:
            alpha[1] = logp[0, ext[1]]
        for step in range(1, len(x)):
            new = np.full(len(ext), -np.inf)
            for s, c in enumerate(ext):
                terms = [alpha[s]]
                if s >= 1:
                    terms.append(alpha[s - 1])
                if s >= 2 and c != 0 and c != ext[s - 2]:
                    terms.append(alpha[s - 2])
                new[s] = np.logaddexp.reduce(terms) + logp[step, c]
            alpha = new
        tail = [alpha[-1]] + ([alpha[-2]] if len(ext) > 1 else [])
        out.append(-np.logaddexp.reduce(tail))
    return np.array(out)


def reduce(values, sample_weight=None, mask=None, reduction="sum_over_batch_size"):
    """Keras 3's reductions, stated directly.

    `sample_weight` must already broadcast against `values` (NumPy rules);
    `mask` has the shape of `values`.
    """
    values = np.asarray(values, np.float64)
    w = np.ones_like(values) if sample_weight is None else np.asarray(sample_weight, np.float64)
    keep = np.ones_like(values) if mask is None else np.asarray(mask, np.float64)
    weighted = values * w * keep
    if reduction in (None, "none") or weighted.ndim == 0:
        return weighted
    total = np.sum(weighted)
    if reduction == "sum":
        return total
    if reduction == "mean_with_sample_weight" and mask is not None:
        divisor = np.sum(w * keep)  # the weights merged with the mask, at their shape
    elif reduction == "mean_with_sample_weight" and sample_weight is not None:
        divisor = np.sum(w)  # the weights as given, not broadcast to the values
    elif mask is not None:
        divisor = np.sum(keep)
    else:
        divisor = weighted.size
    return total / divisor if divisor else 0.0
