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
    """Binary cross-entropy between targets and predicted probabilities (or logits)."""


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
    """Categorical cross-entropy with one-hot targets."""


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
    """Categorical cross-entropy with integer class targets."""


def _ctc_loss_spec(op_name, target, output, target_length, output_length, mask_index=0) -> Any:
    o = shape_of(output)
    if len(o) != 3:
        raise ValueError(
            f"{op_name}: output must be (batch, time, classes), received shape {fmt(o)}."
        )
    return tensor((o[0],), float_dtype(std_dtype(output)))


@op(_ctc_loss_spec, "nn")
def ctc_loss(target, output, target_length, output_length, mask_index=0):
    """Connectionist Temporal Classification loss per batch element."""


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
    """Decode CTC outputs (greedy or beam search)."""


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
    """Peak signal-to-noise ratio between two images."""
