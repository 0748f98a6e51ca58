"""The approximate quantile summary `Discretization.adapt` learns its bins from.

A summary is a ``(2, n)`` float32 array: sorted sample points (row 0) and the
number of data values each stands for (row 1). Each batch is summarized on its
own, merged into the running summary and compressed so that it keeps about
``1 / epsilon`` points; the bin boundaries are the summary compressed to
``num_bins`` points, less the last. This is the algorithm of Keras 3's
``Discretization`` (the same arithmetic, in float32), so an adapted layer gets
Keras's boundaries, not NumPy's exact quantiles.
"""

import numpy as np


def empty_summary():
    """The summary of no data."""
    return np.zeros((2, 0), dtype="float32")


def summarize(values, epsilon):
    """One batch as a summary: every ``step``-th sorted value, each weighing ``step``.

    ``step`` is the batch size times `epsilon` (at least 1), so a batch keeps
    about ``1 / epsilon`` points; a small batch keeps every value.
    """
    points = np.sort(np.ravel(np.asarray(values, dtype="float32")))
    # Divide by the bucket count (not multiply by epsilon) for Keras's rounding.
    step = max(points.size / (1.0 / epsilon), 1)
    kept = points[int(step - 1) :: int(step)]
    return np.stack([kept, np.ones_like(kept) * step])


def compress(summary, epsilon):
    """`summary` re-sampled at the cumulative-weight fractions ``epsilon, 2 epsilon, ..., 1``.

    Summaries with fewer than ``1 / epsilon`` points are returned unchanged.
    """
    if summary.shape[1] * epsilon < 1:
        return summary
    targets = epsilon + np.arange(0.0, 1.0, epsilon)
    cumulative = summary[1].cumsum()
    fractions = cumulative / cumulative[-1]
    points = np.interp(targets, fractions, summary[0])
    cumulative = np.interp(targets, fractions, cumulative)
    weights = np.diff(cumulative, prepend=0.0)
    return np.stack((points, weights)).astype("float32")


def merge(new, previous, epsilon):
    """Two summaries merged in value order and compressed back to `epsilon`."""
    merged = np.concatenate((new, previous), axis=1)
    merged = merged[:, np.argsort(merged[0])]
    return compress(merged, epsilon)


def bin_boundaries(summary, num_bins):
    """The ``num_bins - 1`` boundaries of equal-weight bins of `summary`."""
    return compress(summary, 1.0 / num_bins)[0, :-1]
