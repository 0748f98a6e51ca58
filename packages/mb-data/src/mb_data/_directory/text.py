"""``text_dataset_from_directory``: a dataset of strings from a folder of ``.txt`` files."""

from __future__ import annotations

import functools

from mb_data import _tf_pipelines
from mb_data._directory import formats, index


def _read_text(path: str, max_length: int | None) -> str:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return text if max_length is None else text[:max_length]


def text_dataset_from_directory(
    directory,
    labels="inferred",
    label_mode="int",
    class_names=None,
    batch_size=32,
    max_length=None,
    shuffle=True,
    seed=None,
    validation_split=None,
    subset=None,
    follow_links=False,
    format="auto",
    verbose=True,
):
    """A dataset of texts (and labels) read from a folder of ``.txt`` files, as Keras's.

    Labels, classes, shuffling and splits work as in `image_dataset_from_directory`.

    Args:
        directory: the folder (with ``labels="inferred"``, one sub-folder per class).
        labels: ``"inferred"``, None, or one integer label per file (sorted paths).
        label_mode: ``"int"``, ``"categorical"``, ``"binary"`` or None.
        class_names: with ``labels="inferred"``, the sub-folders to use, in order.
        batch_size: samples per batch, or None for single samples.
        max_length: keep at most this many characters of each text (bytes with
            ``format="tf"``, as ``tf.strings.substr`` counts).
        shuffle: shuffle the files (else alphanumeric order).
        seed: the shuffle's seed; needed with ``validation_split``.
        validation_split: fraction of the files kept for validation.
        subset: ``"training"``, ``"validation"`` or ``"both"``.
        follow_links: visit sub-folders that are symbolic links.
        format: ``"tf"`` (``tf.data.Dataset`` of ``tf.string``), ``"grain"`` or
            ``"pydataset"`` (batches of Python strings in an object array), or
            ``"auto"`` (``"tf"`` where TensorFlow is installed).
        verbose: print how many files and classes were found.

    Returns:
        A dataset yielding ``(texts, labels)`` (or texts), with ``class_names``;
        with ``subset="both"``, ``[train, validation]``.

    Example:

    ```python
    train = mb.utils.text_dataset_from_directory("aclImdb/train", batch_size=32)
    ```
    """
    index.check_labels_arguments("text", labels, label_mode, class_names)
    format = formats.resolve_format(format)
    options = (validation_split, subset, follow_links, verbose)
    files = index.list_files(
        directory, labels, label_mode, class_names, (".txt",), shuffle, seed, options
    )
    return formats.build_subsets(
        format,
        files,
        (validation_split, subset, shuffle),
        lambda what: f"No {what}text files found in {directory}. Allowed format: .txt",
        load=functools.partial(_read_text, max_length=max_length),
        load_tf=functools.partial(_tf_pipelines.read_text, max_length=max_length),
        batch_size=batch_size,
    )
