"""Arrays and tensors held in memory: batched, shuffled and sliced by the adapter itself."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from mb_data import _convert, _engines, _packing, _structure, _text
from mb_data._adapters.base import DataAdapter
from mb_ops import backends, config, dtypes

ACCEPTED_ARRAYS = (
    "NumPy arrays, jax/torch/tensorflow tensors, pandas DataFrames or Series, "
    "and lists, tuples or dicts of them"
)


class _Column:
    """One array of the inputs, with the cheapest way to take rows from it."""

    __slots__ = ("cast", "data", "gather")

    def __init__(self, leaf: Any):
        if _engines.is_pandas(leaf):
            leaf = leaf.to_numpy()
        engine = _engines.engine_of(leaf)
        self.gather = None
        if engine == "tensorflow":
            if backends.backend_module("core").is_tensor(leaf):
                # TF tensors have no fancy indexing: gather with the backend's take.
                self.gather = backends.backend_module("numpy").take
            else:
                leaf, engine = leaf.numpy(), "numpy"
        elif engine is None:
            leaf, engine = np.asarray(leaf), "numpy"
        self.cast = None
        name = _engines.dtype_name(leaf)
        if dtypes.is_float_dtype(name) and name != config.floatx():
            # As in Keras, floating inputs are fed at floatx. NumPy arrays are
            # cast once here; engine tensors batch by batch by the backend.
            if engine == "numpy":
                leaf = leaf.astype(config.floatx())
            else:
                self.cast = config.floatx()
        self.data = leaf

    def rows(self, index: slice | np.ndarray) -> Any:
        if self.gather is not None and not isinstance(index, slice):
            return self.gather(self.data, index, axis=0)
        return self.data[index]


class ArrayDataAdapter(DataAdapter):
    """Batches of in-memory arrays, shuffled per pass (``shuffle=True``) or within
    each batch (``shuffle="batch"``); the last batch may be smaller.

    Args:
        x: an array or tensor, or a list, tuple or dict of them.
        y: targets, same kinds as ``x``, or None.
        sample_weight: per-sample weights, or None.
        batch_size: samples per batch; defaults to 32 (or to cover the data in
            ``steps`` batches when ``steps`` is given).
        steps: the number of steps per epoch, used only to pick a batch size.
        shuffle: False, True (a new permutation each pass) or ``"batch"``.
        class_weight: a dict from class index to weight, turned into sample weights.
        seed: base seed of the shuffles; None draws one from NumPy's global RNG.
    """

    def __init__(
        self,
        x: Any,
        y: Any = None,
        sample_weight: Any = None,
        batch_size: int | None = None,
        steps: int | None = None,
        shuffle: bool | str = False,
        class_weight: dict | None = None,
        seed: int | None = None,
    ):
        for name, value in (("x", x), ("y", y), ("sample_weight", sample_weight)):
            _check_arrays(name, value)
            _text.check_structure(value, name)
        if shuffle not in (True, False, "batch"):
            raise ValueError(
                f'`shuffle` must be True, False or "batch". Received: shuffle={shuffle!r}.'
            )
        if class_weight is not None:
            sample_weight = _packing.class_weight_to_sample_weights(y, class_weight, sample_weight)
        elif (
            sample_weight is not None
            and _structure.is_nested(y)
            and not _structure.is_nested(sample_weight)
        ):
            # One weight per sample, shared by every output.
            weights = sample_weight
            sample_weight = _structure.map_structure(lambda _: weights, y)
        num_samples = _packing.check_data_cardinality(
            {"x": x, "y": y, "sample_weight": sample_weight}
        )
        if not batch_size:
            batch_size = math.ceil(num_samples / steps) if steps else 32
        if int(batch_size) < 1:
            raise ValueError(f"`batch_size` must be a positive integer. Received: {batch_size}.")
        self._batch_size = int(batch_size)
        self._num_samples = num_samples
        self._size = math.ceil(num_samples / self._batch_size)
        self._partial = num_samples % self._batch_size
        self._shuffle = shuffle
        if seed is not None:
            self._seed = int(seed)
        else:  # drawn only to shuffle: predict and evaluate leave NumPy's global RNG alone
            self._seed = int(np.random.randint(2**31 - 1)) if shuffle else 0
        self._passes = 0
        inputs = _packing.pack_x_y_sample_weight(x, y, sample_weight)
        self._columns = _structure.map_structure(_Column, inputs)

    def _batch_indices(self) -> Iterator[slice | np.ndarray]:
        # (A generator is made only to shuffle: it costs more than a small predict.)
        rng = np.random.default_rng([self._seed, self._passes]) if self._shuffle else None
        self._passes += 1
        permutation = rng.permutation(self._num_samples) if self._shuffle is True else None
        for i in range(self._size):
            start = i * self._batch_size
            stop = min(start + self._batch_size, self._num_samples)
            if self._shuffle == "batch":
                yield start + rng.permutation(stop - start)
            elif permutation is not None:
                yield permutation[start:stop]
            else:
                yield slice(start, stop)

    def get_native_iterator(self) -> Iterator[Any]:
        for index in self._batch_indices():
            yield _structure.map_structure(lambda c, i=index: c.rows(i), self._columns)

    def get_iterator(self) -> Iterator[Any]:
        convert = _convert.backend_converter()

        def take(column, index):
            rows = column.rows(index)
            return convert(rows) if column.cast is None else convert(rows, dtype=column.cast)

        return self._batches(take)

    def get_host_iterator(self) -> Iterator[Any]:
        # The arrays' rows as they are (views or gathered copies, never written by mb:
        # no private copy needed); columns of engine tensors are converted as usual.
        convert = _convert.backend_converter()

        def take(column, index):
            rows = column.rows(index)
            if column.cast is not None:
                return convert(rows, dtype=column.cast)
            return rows if _convert.is_host_numbers(rows) else convert(rows)

        return self._batches(take)

    def _batches(self, take) -> Iterator[Any]:
        """One pass: ``take(column, index)`` on every column, in the inputs' structure."""
        columns = self._columns
        if type(columns) is tuple and all(type(c) is _Column for c in columns):
            # The flat (x, y[, sample_weight]) of single arrays: no structure walk.
            for index in self._batch_indices():
                yield tuple([take(c, index) for c in columns])
            return
        if type(columns) is _Column:  # x alone (predict's input): one array
            for index in self._batch_indices():
                yield take(columns, index)
            return
        for index in self._batch_indices():
            yield _structure.map_structure(lambda c, i=index: take(c, i), columns)

    def get_sharded_iterator(self, sharding: Any) -> Iterator[Any]:
        # Only this process's rows are gathered from the arrays.
        if not sharding.distribution.auto_shard_dataset:
            yield from super().get_sharded_iterator(sharding)
            return
        for index in self._batch_indices():
            size = _index_length(index)
            rows, kind = sharding.rows(size)
            mine = index[rows] if not isinstance(index, slice) else _sub_slice(index, rows)
            batch = _structure.map_structure(lambda c, i=mine: _host_rows(c, i), self._columns)
            yield sharding.place(batch, kind)

    @property
    def num_batches(self) -> int:
        return self._size

    @property
    def num_samples(self) -> int:
        return self._num_samples

    @property
    def batch_size(self) -> int:
        return self._batch_size

    @property
    def has_partial_batch(self) -> bool:
        return self._partial > 0

    @property
    def partial_batch_size(self) -> int | None:
        return self._partial or None


def _index_length(index: slice | np.ndarray) -> int:
    return index.stop - index.start if isinstance(index, slice) else len(index)


def _sub_slice(index: slice, rows: slice) -> slice:
    return slice(index.start + rows.start, index.start + rows.stop)


def _host_rows(column: _Column, index: slice | np.ndarray) -> Any:
    rows = column.rows(index)
    if column.cast is None:
        return rows
    return _convert.backend_converter()(rows, dtype=column.cast)


def can_convert_arrays(*structures: Any) -> bool:
    """Whether every leaf of the structures is something the array adapter can slice."""
    leaves = [leaf for s in structures for leaf in _structure.flatten(s)]
    return bool(leaves) and all(_engines.is_array_like(leaf) for leaf in leaves)


def _check_arrays(name: str, value: Any) -> None:
    bad = [
        f"{path or name}: {type(leaf).__name__}"
        for path, leaf in _structure.flatten_with_paths(value, name)
        if not _engines.is_array_like(leaf)
    ]
    if bad:
        raise TypeError(
            f"Expected `{name}` to hold only arrays ({ACCEPTED_ARRAYS}). Received "
            f"{'; '.join(bad[:5])}{' ...' if len(bad) > 5 else ''}. Convert Python lists of "
            "numbers with numpy.asarray."
        )
