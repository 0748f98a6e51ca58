"""Keras's ``tf.data`` pipelines, step for step: folder datasets and time series.

The only module of mb_data that imports TensorFlow, and only when a caller asks for
``format="tf"`` (the default where TensorFlow is installed, as in Keras). The same
steps in the same order as Keras (labels zipped to paths, ``shuffle`` with a buffer
of ``8 * batch_size`` and the seed, the parallel ``map``, ``batch``, ``prefetch``)
give the same elements in the same order as Keras's datasets.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np


def _tf() -> Any:
    import tensorflow as tf

    return tf


def _labels(tf: Any, labels: np.ndarray, label_mode: str, num_classes: int) -> Any:
    ds = tf.data.Dataset.from_tensor_slices(labels)
    if label_mode == "binary":
        return ds.map(lambda x: tf.expand_dims(tf.cast(x, "float32"), axis=-1))
    if label_mode == "categorical":
        return ds.map(lambda x: tf.one_hot(x, num_classes))
    return ds


def build(
    paths: Sequence[str],
    labels: np.ndarray | None,
    label_mode: str | None,
    num_classes: int,
    load: Callable[[Any], Any],
    batch_size: int | None,
    shuffle: bool,
    seed: int | None,
    batch: Callable[[Any, int], Any] | None = None,
) -> Any:
    """A ``tf.data.Dataset`` of ``load(path)`` (with labels), as Keras builds it."""
    tf = _tf()
    ds = tf.data.Dataset.from_tensor_slices(list(paths))
    if label_mode:
        raw = np.asarray(labels, dtype="int32")
        ds = tf.data.Dataset.zip((ds, _labels(tf, raw, label_mode, num_classes)))
    if shuffle:
        buffer = batch_size * 8 if batch_size is not None else 1024
        ds = ds.shuffle(buffer_size=buffer, seed=seed)
    if label_mode:
        ds = ds.map(lambda x, y: (load(x), y), num_parallel_calls=tf.data.AUTOTUNE)
    else:
        ds = ds.map(load, num_parallel_calls=tf.data.AUTOTUNE)
    if batch_size is not None:
        ds = batch(ds, batch_size) if batch else ds.batch(batch_size)
    return ds.prefetch(tf.data.AUTOTUNE)


def batch_audio(ds: Any, size: int, ragged: bool, padded: bool) -> Any:
    """Keras's audio batching: ragged clips, or zero-padded to the longest in the batch."""
    if ragged:
        tf = _tf()
        if isinstance(ds.element_spec, tuple):
            ds = ds.map(lambda x, y: (tf.RaggedTensor.from_tensor(x), y))
        else:
            ds = ds.map(tf.RaggedTensor.from_tensor)
    return ds.padded_batch(size) if padded else ds.batch(size)


def load_image(
    path: Any,
    image_size: tuple[int, int],
    channels: int,
    interpolation: str,
    data_format: str,
    crop_to_aspect_ratio: bool = False,
    pad_to_aspect_ratio: bool = False,
) -> Any:
    tf = _tf()
    img = tf.image.decode_image(tf.io.read_file(path), channels=channels, expand_animations=False)
    height, width = image_size
    if crop_to_aspect_ratio:
        # Keras's smart_resize: the largest centered window of the target's aspect ratio.
        shape = tf.shape(img)
        h, w = shape[0], shape[1]
        crop_h = tf.cast(tf.cast(w * height, "float32") / width, "int32")
        crop_h = tf.maximum(tf.minimum(h, crop_h), 1)
        crop_w = tf.cast(tf.cast(h * width, "float32") / height, "int32")
        crop_w = tf.maximum(tf.minimum(w, crop_w), 1)
        top = tf.cast(tf.cast(h - crop_h, "float32") / 2, "int32")
        left = tf.cast(tf.cast(w - crop_w, "float32") / 2, "int32")
        img = img[top : top + crop_h, left : left + crop_w, :]
        img = tf.image.resize(img, image_size, method=interpolation)
    elif pad_to_aspect_ratio:
        img = tf.image.resize_with_pad(img, height, width, method=interpolation)
    else:
        img = tf.image.resize(img, image_size, method=interpolation)
    if data_format == "channels_first":
        img = tf.transpose(img, (2, 0, 1))
        img.set_shape((channels, height, width))
    else:
        img.set_shape((height, width, channels))
    return img


def read_text(path: Any, max_length: int | None) -> Any:
    tf = _tf()
    text = tf.io.read_file(path)
    return text if max_length is None else tf.strings.substr(text, 0, max_length)


def read_wav(path: Any, output_sequence_length: int | None) -> Any:
    tf = _tf()
    desired = -1 if output_sequence_length is None else output_sequence_length
    audio, _ = tf.audio.decode_wav(tf.io.read_file(path), desired_samples=desired)
    return audio


def timeseries(
    data: Any,
    targets: Any,
    start_positions: np.ndarray,
    sequence_length: int,
    sampling_rate: int,
    batch_size: int | None,
    shuffle: bool,
    seed: int | None,
    start_index: int,
    end_index: int,
) -> Any:
    """Keras's windows: the data gathered at each start position, targets at the start."""
    tf = _tf()
    dtype = start_positions.dtype
    length = tf.cast(sequence_length, dtype=dtype)
    rate = tf.cast(sampling_rate, dtype=dtype)
    positions = tf.data.Dataset.from_tensors(start_positions).repeat()
    count = tf.data.Dataset.range(len(start_positions))

    def gather(array: Any, indices: Any) -> Any:
        steps = tf.data.Dataset.from_tensors(array[start_index:end_index]).repeat()
        return tf.data.Dataset.zip((steps, indices)).map(
            lambda s, i: tf.gather(s, i), num_parallel_calls=tf.data.AUTOTUNE
        )

    windows = tf.data.Dataset.zip((count, positions)).map(
        lambda i, p: tf.range(p[i], p[i] + length * rate, rate),
        num_parallel_calls=tf.data.AUTOTUNE,
    )
    ds = gather(data, windows)
    if targets is not None:
        starts = tf.data.Dataset.zip((count, positions)).map(
            lambda i, p: p[i], num_parallel_calls=tf.data.AUTOTUNE
        )
        ds = tf.data.Dataset.zip((ds, gather(targets, starts)))
    ds = ds.prefetch(tf.data.AUTOTUNE)
    if batch_size is not None:
        if shuffle:
            ds = ds.shuffle(buffer_size=batch_size * 8, seed=seed)
        return ds.batch(batch_size)
    return ds.shuffle(buffer_size=1024, seed=seed) if shuffle else ds


def batch_size_of(dataset: Any) -> int | None:
    """The batch size of a batched ``tf.data`` pipeline (Keras reads ``_batch_size``)."""
    size = getattr(dataset, "_batch_size", None)
    if size is None:
        return None
    return int(size.numpy()) if hasattr(size, "numpy") else int(size)


def from_slices(arrays: Any, batch_size: int | None = None) -> Any:
    """``tf.data.Dataset.from_tensor_slices``, batched if asked, prefetched (Keras's split)."""
    tf = _tf()
    ds = tf.data.Dataset.from_tensor_slices(arrays)
    if batch_size is not None:
        ds = ds.batch(batch_size)
    return ds.prefetch(tf.data.AUTOTUNE)
