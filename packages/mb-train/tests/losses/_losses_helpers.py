"""Shared test data for the loss tests: float32 inputs of each kind of target."""

import numpy as np

from mb_ops import ops


def to_numpy(x):
    """A backend tensor (or array) as a float64 NumPy array."""
    return np.asarray(ops.convert_to_numpy(x), dtype=np.float64)


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def data(kind, shape, seed=0):
    """(y_true, y_pred) as float32 arrays of `shape` for a kind of loss.

    Kinds: "regression" (any reals), "positive" (y > 0), "binary" (0/1 targets,
    probabilities), "binary_logits", "signed" (-1/+1 targets, scores),
    "categorical" (one-hot, probabilities), "categorical_logits", "soft"
    (probability targets and predictions), "masks" (segmentation).
    """
    rng = np.random.default_rng(seed)
    classes = shape[-1]
    if kind == "regression":
        t, p = rng.normal(size=shape), rng.normal(size=shape)
    elif kind == "positive":
        t, p = rng.uniform(0.1, 3.0, size=shape), rng.uniform(0.1, 3.0, size=shape)
    elif kind == "binary":
        t, p = rng.integers(0, 2, size=shape), rng.uniform(0.02, 0.98, size=shape)
    elif kind == "binary_logits":
        t, p = rng.integers(0, 2, size=shape), rng.normal(scale=2.0, size=shape)
    elif kind == "signed":
        t, p = rng.choice([-1.0, 1.0], size=shape), rng.normal(size=shape)
    elif kind in ("categorical", "categorical_logits"):
        labels = rng.integers(0, classes, size=shape[:-1])
        t = np.eye(classes)[labels]
        logits = rng.normal(scale=2.0, size=shape)
        p = logits if kind == "categorical_logits" else softmax(logits)
    elif kind == "soft":
        t, p = softmax(rng.normal(size=shape)), softmax(rng.normal(size=shape))
    elif kind == "masks":
        t, p = rng.integers(0, 2, size=shape), rng.uniform(0.0, 1.0, size=shape)
    else:
        raise ValueError(kind)
    return t.astype("float32"), p.astype("float32")


def sparse_data(shape, from_logits=False, seed=0):
    """(integer labels of shape[:-1], scores of `shape`) as float32/int32 arrays."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, shape[-1], size=shape[:-1]).astype("int32")
    logits = rng.normal(scale=2.0, size=shape)
    return labels, (logits if from_logits else softmax(logits)).astype("float32")


def embeddings(batch, dim, num_labels, seed=0):
    """(labels, L2-normalized embeddings) for the Circle loss."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, num_labels, size=batch).astype("int32")
    x = rng.normal(size=(batch, dim))
    return labels, (x / np.linalg.norm(x, axis=1, keepdims=True)).astype("float32")


def ctc_data(batch=3, time=6, classes=5, max_label=3, seed=0):
    """(zero-padded integer labels, logits (batch, time, classes))."""
    rng = np.random.default_rng(seed)
    labels = np.zeros((batch, max_label), "int32")
    for i in range(batch):
        n = rng.integers(1, max_label + 1)
        labels[i, :n] = rng.integers(1, classes, size=n)
    return labels, rng.normal(size=(batch, time, classes)).astype("float32")
