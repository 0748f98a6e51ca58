"""Losses and metrics of the nn op family."""

from __future__ import annotations

from typing import Any

from mb_ops import _dtypes
from mb_ops._ops._machinery import op
from mb_ops._ops._shapes import (
    broadcast_shapes,
    canonical_axis,
    dtype_of,
    float_dtype,
    fmt,
    shape_of,
    std_dtype,
    tensor,
)


def _loss_dtype(target: Any, output: Any) -> str:
    return float_dtype(_dtypes.result_type(dtype_of(output)))


def _binary_ce_spec(op_name, target, output, from_logits=False) -> Any:
    t, o = shape_of(target), shape_of(output)
    if len(t) != len(o):
        raise ValueError(
            f"{op_name}: target and output must have the same rank, received shapes {fmt(t)} "
            f"and {fmt(o)}."
        )
    return tensor(broadcast_shapes(op_name, t, o), _loss_dtype(target, output))


@op(_binary_ce_spec, "nn")
def binary_crossentropy(target, output, from_logits=False):
    """Binary cross-entropy between targets and predicted probabilities (or logits), per element.

    Args:
        target: a tensor of 0s and 1s (or soft labels in ``[0, 1]``).
        output: a tensor of the same rank: probabilities, or logits when ``from_logits``.
        from_logits: whether ``output`` holds logits (a sigmoid is applied first).

    Returns:
        A float tensor of the broadcast shape: ``-(t * log(o) + (1 - t) * log(1 - o))``,
        with ``o`` clipped to ``[epsilon, 1 - epsilon]``. Not averaged over any axis.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> loss = ops.binary_crossentropy(np.array([1.0, 0.0]), np.array([0.9, 0.2]))
    >>> ops.convert_to_numpy(loss).astype("float64").round(4).tolist()
    [0.1054, 0.2231]
    """


def _categorical_ce_spec(op_name, target, output, from_logits=False, axis=-1) -> Any:
    t, o = shape_of(target), shape_of(output)
    if len(t) != len(o) or len(o) < 1:
        raise ValueError(
            f"{op_name}: target and output must have the same rank >= 1, received shapes "
            f"{fmt(t)} and {fmt(o)}."
        )
    shape = broadcast_shapes(op_name, t, o)
    ax = canonical_axis(op_name, axis, len(shape), shape)
    return tensor(shape[:ax] + shape[ax + 1 :], _loss_dtype(target, output))


@op(_categorical_ce_spec, "nn")
def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Categorical cross-entropy with one-hot (or soft) targets.

    Args:
        target: a tensor of class probabilities, one-hot along ``axis``.
        output: a tensor of the same shape: probabilities (normalized along ``axis`` first),
            or logits when ``from_logits``.
        from_logits: whether ``output`` holds logits (a softmax is applied first).
        axis: the class axis.

    Returns:
        A float tensor: the shape of ``output`` without ``axis``, ``-sum(t * log(o))``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> loss = ops.categorical_crossentropy(
    ...     np.array([[0.0, 1.0, 0.0]]), np.array([[0.1, 0.8, 0.1]])
    ... )
    >>> ops.convert_to_numpy(loss).astype("float64").round(4).tolist()
    [0.2231]
    """


def _sparse_ce_spec(op_name, target, output, from_logits=False, axis=-1) -> Any:
    t, o = shape_of(target), shape_of(output)
    if len(o) < 1:
        raise ValueError(f"{op_name}: output must have rank >= 1, received {fmt(o)}.")
    ax = canonical_axis(op_name, axis, len(o), o)
    expected = o[:ax] + o[ax + 1 :]
    if len(t) == len(o) and t[ax] == 1:
        t = t[:ax] + t[ax + 1 :]
    if len(t) != len(expected):
        raise ValueError(
            f"{op_name}: target shape {fmt(t)} must be the output shape {fmt(o)} without the "
            f"class axis {axis}, i.e. {fmt(expected)}."
        )
    return tensor(broadcast_shapes(op_name, t, expected), _loss_dtype(target, output))


@op(_sparse_ce_spec, "nn")
def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Categorical cross-entropy with integer class targets.

    Args:
        target: an integer tensor of class indices: the shape of ``output`` without ``axis``
            (a size-1 class axis is also accepted).
        output: a tensor of probabilities along ``axis``, or logits when ``from_logits``.
        from_logits: whether ``output`` holds logits (a softmax is applied first).
        axis: the class axis of ``output``.

    Returns:
        A float tensor: the shape of ``target``, ``-log(o[target])``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> loss = ops.sparse_categorical_crossentropy(np.array([1]), np.array([[0.1, 0.8, 0.1]]))
    >>> ops.convert_to_numpy(loss).astype("float64").round(4).tolist()
    [0.2231]
    >>> logits = np.array([[0.0, 0.0]])
    >>> loss = ops.sparse_categorical_crossentropy(np.array([0]), logits, from_logits=True)
    >>> ops.convert_to_numpy(loss).astype("float64").round(4).tolist()  # log(2)
    [0.6931]
    """


def _ctc_loss_spec(op_name, target, output, target_length, output_length, mask_index=0) -> Any:
    o = shape_of(output)
    if len(o) != 3:
        raise ValueError(
            f"{op_name}: output must be (batch, time, classes), received shape {fmt(o)}."
        )
    return tensor((o[0],), float_dtype(std_dtype(output)))


@op(_ctc_loss_spec, "nn")
def ctc_loss(target, output, target_length, output_length, mask_index=0):
    """Connectionist Temporal Classification loss per batch element.

    Args:
        target: an integer tensor ``(batch, max_label_length)`` of label sequences.
        output: a tensor ``(batch, max_time, num_classes)`` of logits (log-softmax is applied).
        target_length: an integer tensor ``(batch,)``: the length of each label sequence.
        output_length: an integer tensor ``(batch,)``: the number of valid time steps.
        mask_index: the class index of the blank label.

    Returns:
        A float tensor ``(batch,)``: the negative log-likelihood of each label sequence,
        summed over every alignment.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> probs = np.array([[[0.1, 0.8, 0.1], [0.1, 0.1, 0.8], [0.8, 0.1, 0.1]]], "float32")
    >>> loss = ops.ctc_loss(np.array([[1, 2]]), np.log(probs), np.array([2]), np.array([3]))
    >>> ops.convert_to_numpy(loss).astype("float64").round(4).tolist()
    [0.5226]
    """


def _ctc_decode_spec(
    op_name,
    inputs,
    sequence_lengths,
    strategy="greedy",
    beam_width=100,
    top_paths=1,
    merge_repeated=True,
    mask_index=0,
) -> Any:
    s = shape_of(inputs)
    if len(s) != 3:
        raise ValueError(
            f"{op_name}: inputs must be (batch, time, classes), received shape {fmt(s)}."
        )
    paths = 1 if strategy == "greedy" else top_paths
    decoded = tensor((paths, s[0], s[1]), "int32")
    scores = tensor((s[0], paths), float_dtype(std_dtype(inputs)))
    return decoded, scores


@op(_ctc_decode_spec, "nn")
def ctc_decode(
    inputs,
    sequence_lengths,
    strategy="greedy",
    beam_width=100,
    top_paths=1,
    merge_repeated=True,
    mask_index=0,
):
    """Decode CTC outputs (greedy or beam search).

    Args:
        inputs: a tensor ``(batch, max_time, num_classes)`` of logits.
        sequence_lengths: an integer tensor ``(batch,)``: the number of valid time steps.
        strategy: ``"greedy"`` (the most likely class per step) or ``"beam_search"``.
        beam_width: the beam width for ``"beam_search"``.
        top_paths: the number of decoded sequences for ``"beam_search"``.
        merge_repeated: whether repeated classes (not separated by a blank) are merged.
        mask_index: the class index of the blank label.

    Returns:
        A pair ``(decoded, scores)``: ``decoded`` an int32 tensor
        ``(paths, batch, max_time)`` padded with -1, ``scores`` a float tensor
        ``(batch, paths)`` (for greedy decoding, minus the sum of the chosen logits).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> logits = np.array(
    ...     [[[0.1, 0.8, 0.1], [0.1, 0.8, 0.1], [0.8, 0.1, 0.1], [0.1, 0.1, 0.8]]], "float32"
    ... )
    >>> decoded, scores = ops.ctc_decode(logits, np.array([4]))
    >>> ops.convert_to_numpy(decoded).tolist()  # 1 1 blank 2 -> 1 2
    [[[1, 2, -1, -1]]]
    """


def _psnr_spec(op_name: str, x1: Any, x2: Any, max_val: Any) -> Any:
    s1, s2 = shape_of(x1), shape_of(x2)
    if len(s1) != len(s2):
        raise ValueError(
            f"{op_name}: x1 and x2 must have the same shape, received {fmt(s1)} and {fmt(s2)}."
        )
    broadcast_shapes(op_name, s1, s2)
    return tensor((), float_dtype(_dtypes.result_type(dtype_of(x1), dtype_of(x2))))


@op(_psnr_spec, "nn")
def psnr(x1, x2, max_val):
    """Peak signal-to-noise ratio between two images.

    Args:
        x1: a tensor.
        x2: a tensor of the same shape.
        max_val: the largest possible value (1.0 for images in ``[0, 1]``, 255 for bytes).

    Returns:
        A float scalar: ``10 * log10(max_val**2 / mean((x1 - x2)**2))``, in decibels.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> a, b = np.zeros((2, 2)), np.full((2, 2), 0.1)
    >>> ops.convert_to_numpy(ops.psnr(a, b, 1.0)).astype("float64").round(4).tolist()
    20.0
    """
