"""Turning a list of files and labels into the dataset a caller asked for.

``format="tf"`` builds Keras's ``tf.data`` pipeline step for step (same shuffle
buffer and seed, so the same order as Keras); ``"grain"`` a grain ``IterDataset``
(Keras's grain pipeline, yielding NumPy); ``"pydataset"`` an mb `PyDataset`. The
default ``"auto"`` is ``"tf"`` where TensorFlow is installed, as Keras, else
``"grain"`` where grain is, else ``"pydataset"``: no engine is needed to read a
folder. TensorFlow and grain are imported here only when their format is used.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from mb_data import _tf_pipelines
from mb_data._directory import index
from mb_data._py_dataset import PyDataset

FORMATS = ("auto", "tf", "grain", "pydataset")


def resolve_format(format: str) -> str:
    if format not in FORMATS:
        raise ValueError(
            f"format must be one of {', '.join(map(repr, FORMATS))}. Received: format={format!r}."
        )
    if format == "auto":
        if importlib.util.find_spec("tensorflow") is not None:
            return "tf"
        if importlib.util.find_spec("grain") is not None:
            return "grain"
        return "pydataset"
    for name, module in (("tf", "tensorflow"), ("grain", "grain")):
        if format == name and importlib.util.find_spec(module) is None:
            raise ImportError(
                f"format={format!r} needs {module}, which is not installed. Install it "
                f"(pip install {module}) or pass format='pydataset', which needs no engine."
            )
    return format


def encode_labels(labels: Any, label_mode: str, num_classes: int) -> np.ndarray:
    """Labels as Keras yields them: int32, float32 ``(n, 1)`` (binary) or one-hot float32."""
    labels = np.asarray(labels, dtype="int32")
    if label_mode == "binary":
        return labels.astype("float32")[:, None]
    if label_mode == "categorical":
        return np.eye(num_classes, dtype="float32")[labels]
    return labels


def stack(items: list[Any]) -> Any:
    """One batch from samples: arrays stacked, tuples stacked field by field."""
    if isinstance(items[0], tuple):
        return tuple(stack([item[i] for item in items]) for i in range(len(items[0])))
    if isinstance(items[0], str):
        return np.array(items, dtype=object)
    return np.stack(items)


class FilesDataset(PyDataset):
    """A `PyDataset` of files read on demand, in batches (or one sample at a time).

    The order is shuffled again at the end of each epoch when ``shuffle`` is set
    (seeded, so runs repeat). ``class_names`` and ``file_paths`` are attributes, as
    on Keras's datasets.
    """

    def __init__(
        self,
        paths: Sequence[str],
        labels: np.ndarray | None,
        load: Callable[[str], Any],
        batch_size: int | None,
        shuffle: bool = False,
        seed: int | None = None,
        batch: Callable[[list[Any]], Any] = stack,
        **kwargs: Any,
    ):
        super().__init__(**kwargs)
        self._paths = list(paths)
        self._labels = labels
        self._load = load
        self._batch = batch
        self.batch_size = batch_size
        self._shuffle = shuffle
        self._rng = np.random.RandomState(seed)
        self._order = np.arange(len(self._paths))
        if shuffle:
            self._rng.shuffle(self._order)

    def __len__(self) -> int:
        if self.batch_size is None:
            return len(self._paths)
        return math.ceil(len(self._paths) / self.batch_size)

    def _sample(self, i: int) -> Any:
        x = self._load(self._paths[i])
        return x if self._labels is None else (x, self._labels[i])

    def __getitem__(self, index: int) -> Any:
        if not 0 <= index < len(self):
            raise IndexError(f"batch index {index} out of range for {len(self)} batches")
        if self.batch_size is None:
            return self._sample(self._order[index])
        rows = self._order[index * self.batch_size : (index + 1) * self.batch_size]
        return self._batch([self._sample(i) for i in rows])

    def on_epoch_end(self) -> None:
        if self._shuffle:
            self._rng.shuffle(self._order)


def build(
    format: str,
    paths: Sequence[str],
    labels: np.ndarray | None,
    label_mode: str | None,
    num_classes: int,
    *,
    load: Callable[[str], Any],
    load_tf: Callable[[Any], Any] | None,
    batch_size: int | None,
    shuffle: bool,
    seed: int | None,
    batch: Callable[[list[Any]], Any] = stack,
    tf_batch: Callable[[Any, int], Any] | None = None,
) -> Any:
    """The dataset of ``paths`` (with ``labels`` encoded by ``label_mode``) in ``format``."""
    if format == "tf":
        return _tf_pipelines.build(
            paths, labels, label_mode, num_classes, load_tf, batch_size, shuffle, seed, tf_batch
        )
    encoded = encode_labels(labels, label_mode, num_classes) if label_mode else None
    if format == "grain":
        import grain

        ds = grain.MapDataset.source(list(paths))
        if label_mode:
            ds = grain.experimental.ZipMapDataset([ds, grain.MapDataset.source(list(encoded))])
        if shuffle:
            ds = ds.shuffle(seed=seed)
        if label_mode:
            ds = ds.map(lambda item: (load(item[0]), item[1]))
        else:
            ds = ds.map(load)
        ds = ds.to_iter_dataset()
        if batch_size is not None:
            ds = ds.batch(batch_size, batch_fn=batch)
        return ds
    return FilesDataset(paths, encoded, load, batch_size, shuffle=shuffle, seed=seed, batch=batch)


def build_subsets(
    format: str,
    files: tuple,
    split_options: tuple,
    missing: Callable[[str], str],
    keep_paths: bool = False,
    **options: Any,
) -> Any:
    """The dataset (or ``[training, validation]``) of a ``*_dataset_from_directory``
    call: ``files`` as `index.list_files` returns them, ``split_options`` as it takes
    them, ``missing(what)`` the message when a subset has no file, ``options`` those
    of `build` (``load``, ``batch_size``, ...). Each dataset has ``class_names`` (and
    ``file_paths`` with ``keep_paths``)."""
    paths, labels, label_mode, class_names, seed = files
    validation_split, subset, shuffle = split_options

    def make(subset_paths, subset_labels, subset_shuffle, what):
        if not subset_paths:
            raise ValueError(missing(what))
        num_classes = len(class_names) if class_names else 0
        ds = build(
            format,
            subset_paths,
            subset_labels,
            label_mode,
            num_classes,
            shuffle=subset_shuffle,
            seed=seed,
            **options,
        )
        ds.class_names = class_names
        if keep_paths:
            ds.file_paths = subset_paths
        return ds

    return index.make_subsets(make, paths, labels, validation_split, subset, shuffle)
