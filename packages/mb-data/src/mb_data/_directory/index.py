"""Finding the files of a folder dataset and their labels, in Keras's order.

The file list, the labels, the class order, the seeded shuffle and the
training/validation split are Keras 3's, step for step, so the same folder and
seed give the same files in the same subset as Keras.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

_LABEL_MODES = ("int", "categorical", "binary", None)
_SUBSETS = ("training", "validation", "both", None)


def check_labels_arguments(kind: str, labels: Any, label_mode: Any, class_names: Any) -> None:
    """The checks every ``*_dataset_from_directory`` makes on its label arguments."""
    if labels not in ("inferred", None):
        if not isinstance(labels, (list, tuple)):
            raise ValueError(
                f"labels must be 'inferred', None, or a list/tuple of integer labels, one per "
                f"{kind} file in the folder (in the sorted order of their paths). "
                f"Received: labels={labels!r}."
            )
        if class_names:
            raise ValueError(
                "class_names can only be given with labels='inferred' (they name the "
                f"sub-folders). Received: labels={labels!r}, class_names={class_names!r}."
            )
    if label_mode not in _LABEL_MODES:
        raise ValueError(
            "label_mode must be 'int', 'categorical', 'binary' or None. "
            f"Received: label_mode={label_mode!r}."
        )


def check_validation_split(validation_split: Any, subset: Any, shuffle: bool, seed: Any) -> None:
    if validation_split and not 0 < validation_split < 1:
        raise ValueError(
            f"validation_split must be between 0 and 1. Received: {validation_split!r}."
        )
    if (validation_split or subset) and not (validation_split and subset):
        raise ValueError(
            "validation_split and subset go together: give both (e.g. validation_split=0.2, "
            f"subset='training') or neither. Received: validation_split={validation_split!r}, "
            f"subset={subset!r}."
        )
    if subset not in _SUBSETS:
        raise ValueError(
            f"subset must be 'training', 'validation' or 'both'. Received: subset={subset!r}."
        )
    if validation_split and shuffle and seed is None:
        raise ValueError(
            "With validation_split and shuffle=True, pass a seed: the training and validation "
            "calls must shuffle the same way, or their files would overlap."
        )


def _class_folders(directory: str, class_names: Sequence[str] | None) -> list[str]:
    found = [
        name.rstrip("/")
        for name in sorted(os.listdir(directory))
        if os.path.isdir(os.path.join(directory, name)) and not name.startswith(".")
    ]
    if class_names is None:
        return found
    if not set(class_names) <= set(found):
        raise ValueError(
            f"class_names must name sub-folders of {directory}. Found sub-folders: {found}; "
            f"received: class_names={list(class_names)}."
        )
    return list(class_names)  # the caller's order


def _walk_files(folder: str, follow_links: bool, formats: tuple[str, ...]) -> Iterator[str]:
    for root, _, files in sorted(os.walk(folder, followlinks=follow_links), key=lambda w: w[0]):
        for name in sorted(files):
            if name.lower().endswith(formats):
                yield os.path.join(root, name)


def index_directory(
    directory: str,
    labels: Any,
    formats: tuple[str, ...],
    class_names: Sequence[str] | None = None,
    shuffle: bool = True,
    seed: int | None = None,
    follow_links: bool = False,
    verbose: bool = True,
) -> tuple[list[str], np.ndarray | None, list[str] | None]:
    """``(file_paths, labels, class_names)`` of a folder, shuffled with ``seed`` as Keras does."""
    directory = os.fspath(directory)
    if not os.path.isdir(directory):
        raise ValueError(f"Could not find the folder {directory!r}: pass an existing folder.")
    if labels == "inferred":
        folders = _class_folders(directory, class_names)
    else:
        if class_names is not None:
            raise ValueError(
                "class_names can only be given with labels='inferred'; with explicit labels "
                "the class names are the sorted labels, and with labels=None there are none."
            )
        folders = [""]
    paths, inferred = [], []
    for index, folder in enumerate(folders):
        for path in _walk_files(os.path.join(directory, folder), follow_links, formats):
            paths.append(path)
            inferred.append(index)

    if labels == "inferred":
        labels = np.asarray(inferred, dtype="int32")
        names = list(folders)
    elif labels is None:
        names = None
    else:
        labels = np.array(labels, dtype="int32")  # a copy: the caller's list stays as it is
        if len(labels) != len(paths):
            raise ValueError(
                f"labels has {len(labels)} entries but {len(paths)} files were found in "
                f"{directory}. Give one label per file, in the sorted order of their paths."
            )
        names = [str(label) for label in sorted(set(labels))]
    if verbose:
        if labels is None:
            print(f"Found {len(paths)} files.")
        else:
            print(f"Found {len(paths)} files belonging to {len(names)} classes.")
    if shuffle:
        if seed is None:
            seed = np.random.randint(1e6)
        np.random.RandomState(seed).shuffle(paths)
        if labels is not None:
            np.random.RandomState(seed).shuffle(labels)
    return paths, labels, names


def split(paths: list[str], labels: Any, validation_split: float | None, subset: str | None):
    """The training part (all but the last ``validation_split``) or the validation part."""
    if not validation_split:
        return paths, labels
    n_val = int(validation_split * len(paths))
    cut = len(paths) - n_val
    if subset == "training":
        print(f"Using {cut} files for training.")
        return paths[:cut], None if labels is None else labels[:cut]
    print(f"Using {n_val} files for validation.")
    return paths[cut:], None if labels is None else labels[cut:]


def binary_needs_two_classes(label_mode: Any, class_names: Any) -> None:
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError(
            "label_mode='binary' needs exactly 2 classes. Received: "
            f"class_names={class_names}. Use label_mode='int' or 'categorical' for more."
        )


def make_subsets(make, paths, labels, validation_split, subset, shuffle):
    """``make(paths, labels, shuffle, what)`` for the ``subset`` asked for (None,
    "training" or "validation"), or ``[training, validation]`` for "both"; the
    validation part is never shuffled."""
    if subset == "both":
        train = split(paths, labels, validation_split, "training")
        val = split(paths, labels, validation_split, "validation")
        return [make(*train, shuffle, "training "), make(*val, False, "validation ")]
    return make(*split(paths, labels, validation_split, subset), shuffle, "")


def list_files(directory, labels, label_mode, class_names, allowed, shuffle, seed, split_options):
    """The files of a ``*_dataset_from_directory`` call, checked as Keras does.

    ``split_options``: ``(validation_split, subset, follow_links, verbose)``. No labels
    (``labels`` or ``label_mode`` None) means neither; a missing ``seed`` is drawn.
    Returns ``(paths, labels, label_mode, class_names, seed)``.
    """
    validation_split, subset, follow_links, verbose = split_options
    if labels is None or label_mode is None:
        labels = label_mode = None
    check_validation_split(validation_split, subset, shuffle, seed)
    if seed is None:
        seed = np.random.randint(1e6)
    paths, labels, class_names = index_directory(
        directory, labels, allowed, class_names, shuffle, seed, follow_links, verbose
    )
    binary_needs_two_classes(label_mode, class_names)
    return paths, labels, label_mode, class_names, seed
