"""Handing batches to the active backend: each leaf goes to ``convert_to_tensor`` unchanged.

The backend's ``convert_to_tensor`` returns its own engine's tensors as they
are and takes other engines' tensors through DLPack, so passing the native
batch straight through is what avoids a round trip through NumPy.

`BatchConverter(host_arrays=True)` is the variant for a consumer whose compiled step
places NumPy arguments on the device itself (jax's ``jit`` does it in its C++ dispatch, a third of
the cost of a conversion in Python): NumPy arrays of numbers stay as they are, and so
do other engines' tensors in host memory, as NumPy views (``Tensor.numpy`` for torch,
DLPack otherwise), instead of going through DLPack into the backend (~40 us a tensor on
jax). `BatchConverter` does either for the batches of a pass, deciding per kind of batch
once.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mb_data import _engines, _structure, _text
from mb_ops import backends


def backend_converter():
    """The active backend's ``convert_to_tensor``."""
    return backends.backend_module("core").convert_to_tensor


def to_backend(batch: Any) -> Any:
    """``batch`` with every leaf a tensor of the active backend (text the backend
    cannot hold, or Python objects, are refused naming the input: `_text`)."""
    convert = backend_converter()
    if _flat_numbers(batch):  # the usual (x, y[, sample_weight]) of arrays: one pass
        return tuple([convert(x) for x in batch])
    _text.check_batch(batch)
    return _structure.map_structure(convert, batch)


def _flat_numbers(batch: Any) -> bool:
    return type(batch) is tuple and all(is_host_numbers(x) for x in batch)


def is_host_numbers(x: Any) -> bool:
    """Whether `x` is a NumPy array of numbers or booleans (what a compiled step takes)."""
    return type(x) is np.ndarray and x.dtype.kind in "biufc"


class BatchConverter:
    """Converts the batches of one pass, as `to_backend` does (or, with `host_arrays`,
    keeping host arrays for the compiled step), at a fraction of the Python work per batch.

    A flat tuple batch (the usual ``(x, y[, sample_weight])``) is looked up by the
    type and dtype of its leaves: the first batch of each kind is checked for text
    (`_text.check_batch`) and a function per leaf is chosen once (the backend's
    ``convert_to_tensor``; with `host_arrays`, the NumPy array itself or a private copy
    of it, or a NumPy view of another engine's tensor in host memory), so later batches
    of that kind pay only those functions. Other batches take the general path.

    Args:
        host_arrays: keep NumPy arrays of numbers (and host views of other engines'
            CPU tensors) instead of converting them.
        copy: with `host_arrays`, hand over private copies of NumPy arrays (the source
            may write into their memory for its next batch while a step reads them).
        copy_views: the same for host views of other engines' tensors (None: as
            `copy`); False where the source never writes into a tensor it has yielded
            (``tf.data`` tensors are immutable; a torch ``DataLoader`` collates each
            batch into new tensors: `DataAdapter.fresh_batches`).
    """

    def __init__(
        self, host_arrays: bool = False, copy: bool = True, copy_views: bool | None = None
    ):
        core = backends.backend_module("core")
        self._convert = core.convert_to_tensor
        self._is_own = core.is_tensor
        self._host = host_arrays
        self._copy = copy
        self._copy_views = copy if copy_views is None else copy_views
        # leaf kinds of a flat tuple batch -> one function per leaf (None: general path)
        self._plans: dict[tuple, tuple | None] = {}

    def __call__(self, batch: Any) -> Any:
        if type(batch) is tuple:
            try:
                key = tuple([(type(x), x.dtype) for x in batch])
                plan = self._plans[key]
            except KeyError:
                plan = self._plan(key, batch)
            except (AttributeError, TypeError):  # a leaf without a (hashable) dtype
                plan = None
            if plan is not None:
                return tuple([f(x) for f, x in zip(plan, batch, strict=True)])
        return self._general(batch)

    def _plan(self, key: tuple, batch: tuple) -> tuple | None:
        plan = None
        if all(_text.is_numeric(x) for x in batch):
            plan = tuple([self._leaf_function(x) for x in batch])
        self._plans[key] = plan
        return plan

    def _leaf_function(self, x: Any) -> Any:
        convert = self._convert
        if not self._host:
            return convert
        if type(x) is np.ndarray:
            return np.ndarray.copy if self._copy else _identity
        if self._is_own(x):
            return convert
        view_of = _engines.host_view_function(x)
        if view_of is None:
            return convert
        copy = self._copy_views

        def leaf(x: Any) -> Any:
            view = view_of(x)
            if view is None:  # e.g. this one is on an accelerator: converted as is
                return convert(x)
            return view.copy() if copy else view

        return leaf

    def _general(self, batch: Any) -> Any:
        if not self._host:
            return to_backend(batch)
        _text.check_batch(batch)
        convert, is_own, copy = self._convert, self._is_own, self._copy

        def leaf(x: Any) -> Any:
            if is_host_numbers(x):
                return x.copy() if copy else x
            if not is_own(x):
                view = _host_view(x)
                if view is not None:
                    return view.copy() if self._copy_views else view
            return convert(x)

        return _structure.map_structure(leaf, batch)


def private_copies(batch: Any) -> Any:
    """``batch`` with a copy of each NumPy array in it (pure NumPy: any thread)."""
    if type(batch) is tuple:
        return tuple([x.copy() if type(x) is np.ndarray else x for x in batch])
    return _structure.map_structure(lambda x: x.copy() if type(x) is np.ndarray else x, batch)


def _identity(x: Any) -> Any:
    return x


def _host_view(x: Any) -> np.ndarray | None:
    """A NumPy view of another engine's tensor of numbers held in host memory (a torch
    ``DataLoader``'s or a ``tf.data`` pipeline's batch on the CPU); None for anything
    else (a tensor on an accelerator stays one: no copy to the host)."""
    view_of = _engines.host_view_function(x)
    return None if view_of is None else view_of(x)


def to_numpy(batch: Any) -> Any:
    """``batch`` with every leaf a NumPy array."""
    return _structure.map_structure(_engines.to_numpy, batch)
