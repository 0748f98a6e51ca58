"""``rearrange``: einops-style axis rearrangement written over reshape and transpose."""

from __future__ import annotations

import math
import re
from typing import Any

from mb_ops._ops import numpy_shape as shp
from mb_ops._ops._machinery import op
from mb_ops._ops._shapes import fmt, shape_of, std_dtype, tensor

_TOKEN = re.compile(r"\(|\)|[A-Za-z_][A-Za-z0-9_]*|\d+")


def _parse_side(op_name: str, side: str) -> list[list[str]]:
    groups: list[list[str]] = []
    current: list[str] | None = None
    for token in _TOKEN.findall(side):
        if token == "(":
            if current is not None:
                raise ValueError(f"{op_name}: nested parentheses in pattern side {side!r}.")
            current = []
        elif token == ")":
            if current is None:
                raise ValueError(f"{op_name}: unbalanced parentheses in {side!r}.")
            groups.append(current)
            current = None
        elif current is not None:
            current.append(token)
        else:
            groups.append([token])
    if current is not None:
        raise ValueError(f"{op_name}: unbalanced parentheses in {side!r}.")
    return groups


def _plan(op_name: str, shape: tuple, pattern: str, axes_lengths: dict) -> tuple:
    if "->" not in pattern:
        raise ValueError(f"{op_name}: the pattern needs '->', received {pattern!r}.")
    left, right = (_parse_side(op_name, side) for side in pattern.split("->"))
    if len(left) != len(shape):
        raise ValueError(
            f"{op_name}: the pattern's input side has {len(left)} axes but the tensor has "
            f"shape {fmt(shape)}."
        )
    sizes: dict[str, Any] = dict(axes_lengths)
    for group, dim in zip(left, shape, strict=True):
        unknown = [n for n in group if n not in sizes]
        known = math.prod(sizes[n] for n in group if n in sizes)
        if len(unknown) > 1:
            raise ValueError(f"{op_name}: cannot infer the sizes of {unknown}; give them.")
        if unknown:
            sizes[unknown[0]] = None if dim is None else dim // known
        elif dim is not None and known != dim:
            raise ValueError(f"{op_name}: axis group {group} of size {known} != {dim}.")
    names_in = [n for group in left for n in group]
    names_out = [n for group in right for n in group]
    if sorted(names_in) != sorted(names_out):
        raise ValueError(f"{op_name}: both sides must name the same axes, received {pattern!r}.")
    expanded = [sizes[n] for n in names_in]
    perm = [names_in.index(n) for n in names_out]
    out = []
    for group in right:
        dims = [sizes[n] for n in group]
        out.append(None if None in dims else math.prod(dims))
    return expanded, perm, out


def _rearrange_spec(op_name: str, tensor_: Any, pattern: str, axes_lengths: dict) -> Any:
    _, _, out = _plan(op_name, shape_of(tensor_), pattern, axes_lengths)
    return tensor(out, std_dtype(tensor_))


def _rearrange(tensor_, pattern, **axes_lengths):
    expanded, perm, out = _plan("rearrange", shape_of(tensor_), pattern, axes_lengths)
    x = shp.reshape(tensor_, tuple(-1 if d is None else d for d in expanded))
    x = shp.transpose(x, perm)
    return shp.reshape(x, tuple(-1 if d is None else d for d in out))


@op(_rearrange_spec, "einops", impl=_rearrange)
def rearrange(tensor, pattern, **axes_lengths):
    """Rearrange axes with an einops pattern, e.g. ``"b (h w) c -> b h w c"``.

    Args:
        tensor: a tensor.
        pattern: ``"input axes -> output axes"``: named axes, grouped in parentheses to
            merge (output) or split (input) them.
        **axes_lengths: the sizes of split axes that cannot be inferred, e.g. ``h=2``.

    Returns:
        The tensor transposed and reshaped as the pattern says.

    Example:

    >>> import numpy as np
    >>> from mb_ops import einops, ops
    >>> x = np.arange(6).reshape(2, 3)
    >>> ops.convert_to_numpy(einops.rearrange(x, "h w -> w h")).tolist()
    [[0, 3], [1, 4], [2, 5]]
    >>> ops.shape(einops.rearrange(np.zeros((1, 6, 3)), "b (h w) c -> b h w c", h=2))
    (1, 2, 3, 3)
    """
