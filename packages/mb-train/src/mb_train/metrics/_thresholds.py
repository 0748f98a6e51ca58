"""Counting true/false positives/negatives at a list of thresholds.

Written once over `mb_ops.ops`, shared by TruePositives & co, Precision, Recall,
the sensitivity/specificity family and AUC. Two equivalent paths, as in Keras:
evenly spaced thresholds (AUC's default) put each prediction into a bucket and
take a reversed cumulative sum, in O(samples) memory; any other list compares
every prediction with every threshold.
"""

import numpy as np

import mb_ops
from mb_ops import ops
from mb_train.metrics import _shapes

# Scores outside the top k are set to this before thresholding (as in Keras).
NEG_INF = -1e10

TP, FP, TN, FN = "true_positives", "false_positives", "true_negatives", "false_negatives"


def confusion_variables(metric):
    """``{name: variable}`` of the four confusion variables `metric` keeps under those
    names (``true_positives``, ``false_positives``, ``true_negatives``,
    ``false_negatives``)."""
    return {name: getattr(metric, name) for name in (TP, FP, TN, FN)}


def parse_thresholds(thresholds, default):
    """The thresholds as a list of floats, checked to lie in [0, 1]."""
    if thresholds is None:
        return [float(default)]
    values = list(thresholds) if isinstance(thresholds, list | tuple) else [thresholds]
    bad = [t for t in values if t is None or not 0 <= t <= 1]
    if bad or not values:
        raise ValueError(
            f"Threshold values must be in [0, 1]. Received: thresholds={thresholds!r} "
            f"(out of range: {bad}). Pass a float or a non-empty list of floats in [0, 1]."
        )
    return [float(t) for t in values]


def evenly_spaced(thresholds):
    """Whether the thresholds are ``0, 1/(n-1), ..., 1`` (n >= 3), within epsilon."""
    n = len(thresholds)
    if n < 3:
        return False
    even = np.arange(n, dtype="float32") / (n - 1)
    return bool(np.allclose(thresholds, even, atol=mb_ops.config.epsilon()))


def filter_top_k(x, k):
    """Keeps the k largest scores of the last axis; sets the others to `NEG_INF`."""
    _, idx = ops.top_k(x, k)
    keep = ops.sum(ops.one_hot(idx, ops.shape(x)[-1], dtype=x.dtype), axis=-2)
    return x * keep + NEG_INF * (1.0 - keep)


def _prepare(y_true, y_pred, sample_weight, top_k, class_id, dtype):
    y_true = _shapes.as_tensor(y_true, dtype)
    y_pred = _shapes.as_tensor(y_pred, dtype)
    y_pred, y_true = _shapes.same_rank(y_pred, y_true)
    if sample_weight is not None:
        sample_weight = ops.expand_dims(_shapes.as_tensor(sample_weight, dtype), -1)
        _, sample_weight = _shapes.same_rank(y_true, sample_weight, expand_rank_1=False)
    if top_k is not None:
        y_pred = filter_top_k(y_pred, top_k)
    if class_id is not None:
        if len(y_pred.shape) < 2:
            raise ValueError(
                "With class_id, y_pred must have shape (num_samples, num_classes). "
                f"Received y_pred of shape {tuple(y_pred.shape)}."
            )
        y_true = y_true[..., class_id : class_id + 1]
        y_pred = y_pred[..., class_id : class_id + 1]
    return y_true, y_pred, sample_weight


def _weights(sample_weight, label_weights, y_pred, multi_label):
    """One weight per prediction (flattened unless multi-label), or None."""
    weights = None
    if sample_weight is not None:
        weights = ops.broadcast_to(ops.cast(sample_weight, y_pred.dtype), ops.shape(y_pred))
    if label_weights is not None:
        lw = ops.broadcast_to(ops.cast(label_weights, y_pred.dtype), ops.shape(y_pred))
        weights = lw if weights is None else weights * lw
    if weights is not None and not multi_label:
        weights = ops.reshape(weights, (-1,))
    return weights


def _counts_by_buckets(y_true, y_pred, weights, num_thresholds, with_epsilon, multi_label):
    """(tp, fp, positives, negatives) at thresholds ``i/(n-1)`` by bucketing the scores."""
    y_pred = ops.clip(y_pred, 0.0, 1.0)
    is_pos = ops.cast(ops.not_equal(y_true, 0), y_pred.dtype)
    if not multi_label:
        is_pos, y_pred = ops.reshape(is_pos, (-1,)), ops.reshape(y_pred, (-1,))
    w = ops.ones_like(y_pred) if weights is None else weights
    positives, negatives = is_pos * w, (1.0 - is_pos) * w
    # A score s counts at threshold t_j exactly when s > t_j: bucket ceil(s*(n-1)) - 1,
    # then a reversed cumulative sum over the buckets.
    buckets = ops.ceil(y_pred * float(num_thresholds - 1)) - 1.0
    if with_epsilon:
        buckets = ops.relu(buckets)
    buckets = ops.cast(buckets, "int32")
    segments = num_thresholds
    if multi_label:
        num_labels = y_pred.shape[-1]
        buckets = buckets + ops.arange(num_labels, dtype="int32") * num_thresholds
        segments = num_thresholds * num_labels
    # Scores at or below the lowest threshold (bucket -1) go to a spare last segment.
    ids = ops.reshape(buckets, (-1,))
    ids = ops.where(ops.less(ids, 0), segments, ids)
    tp = ops.segment_sum(ops.reshape(positives, (-1,)), ids, num_segments=segments + 1)
    fp = ops.segment_sum(ops.reshape(negatives, (-1,)), ids, num_segments=segments + 1)
    tp, fp = tp[:segments], fp[:segments]
    if multi_label:
        tp = ops.transpose(ops.reshape(tp, (num_labels, num_thresholds)))
        fp = ops.transpose(ops.reshape(fp, (num_labels, num_thresholds)))
    tp = ops.flip(ops.cumsum(ops.flip(tp, axis=0), axis=0), axis=0)
    fp = ops.flip(ops.cumsum(ops.flip(fp, axis=0), axis=0), axis=0)
    axis = 0 if multi_label else None
    return tp, fp, ops.sum(positives, axis=axis), ops.sum(negatives, axis=axis)


def _counts_by_comparison(y_true, y_pred, weights, thresholds, multi_label):
    """(tp, fp, positives, negatives) comparing every score with every threshold."""
    if not multi_label:
        y_true, y_pred = ops.reshape(y_true, (-1,)), ops.reshape(y_pred, (-1,))
    thresholds = ops.convert_to_tensor(np.asarray(thresholds, dtype="float32"))
    thresholds = ops.reshape(ops.cast(thresholds, y_pred.dtype), (-1,) + (1,) * len(y_pred.shape))
    pred_pos = ops.greater(ops.expand_dims(y_pred, 0), thresholds)
    label_pos = ops.expand_dims(ops.not_equal(y_true, 0), 0)
    label_neg = ops.logical_not(label_pos)
    if weights is None:
        w = ops.ones_like(ops.expand_dims(y_pred, 0))
    else:
        w = ops.expand_dims(weights, 0)
    zero = ops.zeros_like(w)
    tp = ops.sum(ops.where(ops.logical_and(label_pos, pred_pos), w, zero), axis=1)
    fp = ops.sum(ops.where(ops.logical_and(label_neg, pred_pos), w, zero), axis=1)
    positives = ops.sum(ops.where(label_pos, w, zero)[0], axis=0)
    negatives = ops.sum(ops.where(label_neg, w, zero)[0], axis=0)
    return tp, fp, positives, negatives


def update_confusion_variables(
    variables,
    y_true,
    y_pred,
    thresholds,
    evenly_spaced=False,
    top_k=None,
    class_id=None,
    sample_weight=None,
    multi_label=False,
    label_weights=None,
):
    """Adds this batch's counts to the variables.

    Args:
        variables: ``{TP|FP|TN|FN: Variable}``, each of shape ``(len(thresholds),)``
            (``(len(thresholds), num_labels)`` with `multi_label`).
        y_true, y_pred: labels (nonzero is positive) and scores.
        thresholds: a list of floats; a score counts as positive when above one.
        evenly_spaced: the thresholds are ``0, 1/(n-1), ..., 1`` (possibly with
            the ends pushed out by epsilon): count by bucketing.
        top_k: only the k largest scores of each sample can be positive.
        class_id: look at this class (last axis) only.
        sample_weight: per-sample (or per-element) weights.
        multi_label: keep one set of counts per label (last axis).
        label_weights: per-label weights (not with `multi_label`).
    """
    dtype = next(iter(variables.values())).dtype
    y_true, y_pred, sample_weight = _prepare(y_true, y_pred, sample_weight, top_k, class_id, dtype)
    weights = _weights(sample_weight, label_weights, y_pred, multi_label)
    if evenly_spaced:
        with_epsilon = thresholds[0] < 0.0 or thresholds[-1] > 1.0
        counts = _counts_by_buckets(
            y_true, y_pred, weights, len(thresholds), with_epsilon, multi_label
        )
    else:
        counts = _counts_by_comparison(y_true, y_pred, weights, thresholds, multi_label)
    tp, fp, positives, negatives = counts
    values = {TP: tp, FP: fp, TN: negatives - fp, FN: positives - tp}
    for key, variable in variables.items():
        variable.assign(variable.value + ops.cast(values[key], variable.dtype))
