"""``compute_output_spec`` by running: the fallback of the engines that compute eagerly."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mb_graph import KerasTensor, tree
from mb_ops.dtypes import standardize_dtype

# Two different stand-ins for unknown dimensions: an output dimension that
# changes between the two runs depends on an unknown input dimension.
_FILL_A, _FILL_B = 83, 89


def spec_by_running(
    fn: Callable[..., Any],
    args: Any,
    kwargs: Any,
    zeros: Callable[[tuple[int, ...], str], Any],
    is_array: Callable[[Any], bool],
) -> Any:
    """The KerasTensor(s) ``fn`` returns for symbolic ``args``/``kwargs``, found by running
    it on placeholders: ``zeros(shape, dtype)`` stands in for each KerasTensor, an unknown
    dimension filled with two different sizes in two runs (an output dimension that changes
    with them is unknown too). ``is_array``: whether an output is one of the engine's arrays
    (the rest is returned as it is). The caller holds the stateless and symbolic scopes.

    >>> from mb_ops import KerasTensor
    >>> spec_by_running(lambda x: x[:1] * 2, (KerasTensor((None, 3)),), {},
    ...                 lambda s, d: np.zeros(s, d), lambda x: isinstance(x, np.ndarray))
    <KerasTensor shape=(1, 3), dtype=float32...>
    """

    def placeholders(fill: int) -> Any:
        def make(x: Any) -> Any:
            if isinstance(x, KerasTensor):
                return zeros(tuple(fill if d is None else d for d in x.shape), x.dtype)
            return x

        return tree.map_structure(make, (args, kwargs))

    unknown = any(
        isinstance(x, KerasTensor) and None in x.shape for x in tree.flatten((args, kwargs))
    )
    a_args, a_kwargs = placeholders(_FILL_A)
    outputs = fn(*a_args, **a_kwargs)
    flat = tree.flatten(outputs)
    shapes = [tuple(x.shape) if is_array(x) else None for x in flat]
    if unknown:
        b_args, b_kwargs = placeholders(_FILL_B)
        other = tree.flatten(fn(*b_args, **b_kwargs))
        shapes = [
            _merge(s, tuple(o.shape) if is_array(o) else np.shape(o)) if s is not None else None
            for s, o in zip(shapes, other, strict=True)
        ]
    specs = [
        KerasTensor(shape, dtype=standardize_dtype(x.dtype)) if shape is not None else x
        for x, shape in zip(flat, shapes, strict=True)
    ]
    return tree.pack_sequence_as(outputs, specs)


def _merge(first: tuple[Any, ...], second: tuple[Any, ...]) -> tuple[Any, ...] | None:
    if len(first) != len(second):
        return None
    return tuple(a if a == b else None for a, b in zip(first, second, strict=True))
