"""``audio_dataset_from_directory``: a dataset of waveforms from a folder of ``.wav`` files."""

from __future__ import annotations

import functools
import wave
from typing import Any

import numpy as np

from mb_data import _tf_pipelines
from mb_data._directory import formats, index

ALLOWED_FORMATS = (".wav",)
_PCM_SCALE = {1: 128.0, 2: 32768.0, 4: 2147483648.0}


def _read_wav(path: str, output_sequence_length: int | None) -> np.ndarray:
    """``(samples, channels)`` float32 in [-1, 1), as ``tf.audio.decode_wav`` gives."""
    with wave.open(path, "rb") as f:
        width, channels = f.getsampwidth(), f.getnchannels()
        frames = f.readframes(f.getnframes())
    if width not in _PCM_SCALE:
        raise ValueError(f"{path}: only 8, 16 and 32-bit PCM WAV files can be read.")
    dtype = {1: np.uint8, 2: "<i2", 4: "<i4"}[width]
    samples = np.frombuffer(frames, dtype=dtype).astype("float32")
    if width == 1:  # 8-bit WAV is unsigned
        samples -= 128.0
    audio = (samples / _PCM_SCALE[width]).reshape(-1, channels)
    if output_sequence_length is not None:
        out = np.zeros((output_sequence_length, channels), dtype="float32")
        n = min(output_sequence_length, len(audio))
        out[:n] = audio[:n]
        audio = out
    return audio


def _pad_stack(items: list[Any]) -> Any:
    """A batch of waveforms zero-padded to the longest (``padded_batch``)."""
    if isinstance(items[0], tuple):
        return (_pad_stack([x for x, _ in items]), formats.stack([y for _, y in items]))
    longest = max(len(x) for x in items)
    out = np.zeros((len(items), longest, items[0].shape[1]), dtype="float32")
    for i, x in enumerate(items):
        out[i, : len(x)] = x
    return out


def audio_dataset_from_directory(
    directory,
    labels="inferred",
    label_mode="int",
    class_names=None,
    batch_size=32,
    sampling_rate=None,
    output_sequence_length=None,
    ragged=False,
    shuffle=True,
    seed=None,
    validation_split=None,
    subset=None,
    follow_links=False,
    verbose=True,
    format="auto",
):
    """A dataset of audio clips (and labels) from a folder of ``.wav`` files, as Keras's.

    Labels, classes, shuffling and splits work as in `image_dataset_from_directory`.

    Args:
        directory: the folder (with ``labels="inferred"``, one sub-folder per class).
        labels: ``"inferred"``, None, or one integer label per file (sorted paths).
        label_mode: ``"int"``, ``"categorical"``, ``"binary"`` or None.
        class_names: with ``labels="inferred"``, the sub-folders to use, in order.
        batch_size: clips per batch (zero-padded to the longest in the batch unless
            ``output_sequence_length`` is set), or None for single clips.
        sampling_rate: resample to this rate; needs ``tensorflow-io`` (as in Keras).
        output_sequence_length: pad or cut every clip to this many samples.
        ragged: yield ragged batches (``format="tf"`` only).
        shuffle, seed, validation_split, subset, follow_links, verbose: as in
            `image_dataset_from_directory`.
        format: ``"tf"``, ``"grain"``, ``"pydataset"`` or ``"auto"`` (``"tf"`` where
            TensorFlow is installed). Without TensorFlow, 8/16/32-bit PCM WAV files
            are read with Python's ``wave`` module, scaled as ``tf.audio.decode_wav``.

    Returns:
        A dataset yielding ``(audio, labels)`` (or audio): float32
        ``(batch, samples, channels)``, with ``class_names``; with
        ``subset="both"``, ``[train, validation]``.

    Example:

    ```python
    train = mb.utils.audio_dataset_from_directory("speech", output_sequence_length=16000)
    ```
    """
    index.check_labels_arguments("audio", labels, label_mode, class_names)
    format = formats.resolve_format(format)
    if ragged and output_sequence_length is not None:
        raise ValueError("Pass either ragged=True or output_sequence_length, not both.")
    if ragged and format != "tf":
        raise ValueError(f"ragged=True needs format='tf' (ragged tensors). Received: {format!r}.")
    if sampling_rate is not None:
        if not isinstance(sampling_rate, int) or sampling_rate <= 0:
            raise ValueError(
                f"sampling_rate must be a positive int. Received: sampling_rate={sampling_rate!r}."
            )
        raise ImportError(
            "sampling_rate= resamples with tensorflow-io, which mb does not use. Resample the "
            "files beforehand, or leave sampling_rate=None."
        )
    options = (validation_split, subset, follow_links, verbose)
    files = index.list_files(
        directory, labels, label_mode, class_names, ALLOWED_FORMATS, shuffle, seed, options
    )
    padded = output_sequence_length is None and not ragged

    def tf_batch(ds, size):
        return _tf_pipelines.batch_audio(ds, size, ragged=ragged, padded=padded)

    return formats.build_subsets(
        format,
        files,
        (validation_split, subset, shuffle),
        lambda what: (
            f"No {what}audio files found in {directory}. Allowed format(s): {ALLOWED_FORMATS}"
        ),
        load=functools.partial(_read_wav, output_sequence_length=output_sequence_length),
        load_tf=functools.partial(
            _tf_pipelines.read_wav, output_sequence_length=output_sequence_length
        ),
        batch_size=batch_size,
        batch=_pad_stack if padded else formats.stack,
        tf_batch=tf_batch,
    )
