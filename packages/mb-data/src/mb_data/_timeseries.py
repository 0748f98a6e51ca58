"""``timeseries_dataset_from_array``: sliding windows over a series, as Keras makes them."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mb_data import _tf_pipelines
from mb_data._directory.formats import resolve_format, stack
from mb_data._py_dataset import PyDataset


class _Windows:
    """Window ``i`` (and its target) computed on access: nothing is copied up front."""

    def __init__(self, data, targets, starts, sequence_length, sampling_rate, start_index):
        self.data, self.targets, self.starts = data, targets, starts
        self.offsets = np.arange(0, sequence_length * sampling_rate, sampling_rate)
        self.start_index = start_index

    def __len__(self) -> int:
        return len(self.starts)

    def __getitem__(self, i: int) -> Any:
        position = self.start_index + int(self.starts[i])
        window = np.asarray(self.data[position + self.offsets])
        if self.targets is None:
            return window
        return window, np.asarray(self.targets[position])


class _WindowsDataset(PyDataset):
    def __init__(self, windows: _Windows, batch_size, shuffle, seed, **kwargs):
        super().__init__(**kwargs)
        self._windows = windows
        self.batch_size = batch_size
        self._shuffle = shuffle
        self._rng = np.random.RandomState(seed)
        self._order = np.arange(len(windows))

    def __len__(self) -> int:
        if self.batch_size is None:
            return len(self._windows)
        return math.ceil(len(self._windows) / self.batch_size)

    def __getitem__(self, index: int) -> Any:
        if not 0 <= index < len(self):
            raise IndexError(f"batch index {index} out of range for {len(self)} batches")
        if self.batch_size is None:
            return self._windows[self._order[index]]
        rows = self._order[index * self.batch_size : (index + 1) * self.batch_size]
        return stack([self._windows[i] for i in rows])

    def on_epoch_end(self) -> None:
        if self._shuffle:
            self._rng.shuffle(self._order)


def _check(data, start_index, end_index, sequence_stride, sampling_rate) -> None:
    n = len(data)
    if start_index and (start_index < 0 or start_index >= n):
        raise ValueError(
            f"start_index must be in [0, {n}) for data of length {n}. "
            f"Received: start_index={start_index}."
        )
    if end_index:
        if start_index and end_index <= start_index:
            raise ValueError(
                f"end_index must be greater than start_index. Received: start_index="
                f"{start_index}, end_index={end_index}."
            )
        if end_index >= n or end_index <= 0:
            raise ValueError(
                f"end_index must be in (0, {n}) for data of length {n}. "
                f"Received: end_index={end_index}."
            )
    for name, value in (("sampling_rate", sampling_rate), ("sequence_stride", sequence_stride)):
        if value <= 0 or value >= n:
            raise ValueError(
                f"{name} must be in (0, {n}) for data of length {n}. Received: {name}={value}."
            )


def timeseries_dataset_from_array(
    data,
    targets,
    sequence_length,
    sequence_stride=1,
    sampling_rate=1,
    batch_size=128,
    shuffle=False,
    seed=None,
    start_index=None,
    end_index=None,
    format="auto",
):
    """A dataset of sliding windows over ``data`` (and the target at each window's start).

    Window ``i`` holds ``data[s, s + r, ..., s + (sequence_length - 1) * r]`` with
    ``s = start_index + i * sequence_stride`` and ``r = sampling_rate``; its target
    is ``targets[s]``. Windows, shuffles and batches are Keras's.

    Args:
        data: an array of timesteps (first axis).
        targets: one target per timestep, or None.
        sequence_length: timesteps per window.
        sequence_stride: steps between the starts of consecutive windows.
        sampling_rate: steps between the timesteps of one window.
        batch_size: windows per batch, or None for single windows.
        shuffle: shuffle the windows (seeded with ``seed``).
        seed: the shuffle's seed.
        start_index: the first timestep used.
        end_index: one past the last timestep used.
        format: ``"tf"`` (``tf.data.Dataset``, Keras's default), ``"grain"``,
            ``"pydataset"`` (an mb `PyDataset`, no engine needed) or ``"auto"``
            (``"tf"`` where TensorFlow is installed, else grain, else PyDataset).

    Returns:
        A dataset yielding ``(windows, targets)`` (``windows`` without targets),
        windows of shape ``(batch, sequence_length, *data.shape[1:])``.

    Example:

    ```python
    ds = mb.utils.timeseries_dataset_from_array(
        series[:-10], series[10:], sequence_length=10, batch_size=32
    )
    ```
    """
    _check(data, start_index, end_index, sequence_stride, sampling_rate)
    format = resolve_format(format)
    start = start_index or 0
    end = len(data) if end_index is None else end_index
    num_seqs = end - start - (sequence_length - 1) * sampling_rate
    if targets is not None:
        num_seqs = min(num_seqs, len(targets))
    dtype = "int32" if num_seqs < 2147483647 else "int64"
    starts = np.arange(0, num_seqs, sequence_stride, dtype=dtype)
    if shuffle:
        if seed is None:
            seed = np.random.randint(1e6)
        np.random.RandomState(seed).shuffle(starts)
    if format == "tf":
        return _tf_pipelines.timeseries(
            data,
            targets,
            starts,
            sequence_length,
            sampling_rate,
            batch_size,
            shuffle,
            seed,
            start,
            end,
        )
    data = np.asarray(data)
    targets = None if targets is None else np.asarray(targets)
    windows = _Windows(data[:end], targets, starts, sequence_length, sampling_rate, start)
    if format == "pydataset":
        return _WindowsDataset(windows, batch_size, shuffle, seed)
    import grain

    ds = grain.MapDataset.source(windows)
    if shuffle:
        ds = ds.shuffle(seed=seed)
    ds = ds.to_iter_dataset()
    return ds if batch_size is None else ds.batch(batch_size, batch_fn=stack)
