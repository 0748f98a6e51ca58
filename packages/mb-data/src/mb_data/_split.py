"""``split_dataset``: two parts of a dataset, as Keras 3 splits them.

Samples are listed one by one (Python's ``random`` shuffles them with the seed, as
Keras), cut by Keras's size rules, and rebuilt as ``tf.data.Dataset``s where
TensorFlow is installed (batched again if the input was a batched ``tf.data``
pipeline), as torch ``Subset``s with ``preferred_backend="torch"``, and as NumPy
arrays in the input's structure where TensorFlow is not installed.
"""

from __future__ import annotations

import importlib.util
import random
from typing import Any

import numpy as np

from mb_data import _tf_pipelines, _torch_pipelines
from mb_data._engines import engine_of, to_numpy
from mb_graph import tree
from mb_ops import config


def _mro_names(x: Any) -> set[tuple[str, str]]:
    return {(c.__module__, c.__name__) for c in type(x).__mro__}


def _is_tf_dataset(x: Any) -> bool:
    return any(
        name in ("DatasetV2", "Dataset") and "tensorflow" in module
        for module, name in _mro_names(x)
    )


def _is_torch_dataset(x: Any) -> bool:
    return any(
        name == "Dataset" and module.startswith("torch.utils.data")
        for module, name in _mro_names(x)
    )


def _kind(dataset: Any) -> str:
    if isinstance(dataset, (tuple, list, dict)):
        return type(dataset).__name__
    if isinstance(dataset, np.ndarray) or engine_of(dataset) is not None:
        return "array"
    if _is_tf_dataset(dataset):
        return "tf"
    if _is_torch_dataset(dataset):
        return "torch"
    raise TypeError(
        "split_dataset takes a tf.data.Dataset, a torch Dataset, an array, or a tuple/list/"
        f"dict of arrays with one row per sample. Received: {type(dataset).__name__}."
    )


def _samples(dataset: Any, kind: str) -> list[Any]:
    """One entry per sample, as Keras lists them."""
    if kind in ("tuple", "list", "dict"):
        leaves = [to_numpy(x) for x in tree.flatten(dataset)]
        if not leaves:
            raise ValueError("split_dataset received an empty structure. Pass arrays.")
        if any(len(x) != len(leaves[0]) for x in leaves):
            raise ValueError(
                "split_dataset: every array must have the same number of samples. Received "
                f"lengths {[len(x) for x in leaves]}."
            )
        return [tree.pack_sequence_as(dataset, list(row)) for row in zip(*leaves, strict=True)]
    if kind == "array":
        return list(to_numpy(dataset))
    if kind == "tf":
        if _tf_pipelines.batch_size_of(dataset) is not None:
            dataset = dataset.unbatch()
        return [tree.map_structure(to_numpy, sample) for sample in dataset]
    return [tree.map_structure(to_numpy, sample) for sample in dataset]


def _sizes(left_size: Any, right_size: Any, total: int) -> tuple[int, int]:
    """Keras's rules: fractions of the total (rounded) or counts, each strictly inside."""
    for name, size in (("left_size", left_size), ("right_size", right_size)):
        if size is not None and type(size) not in (int, float):
            raise TypeError(
                f"split_dataset: {name} must be an int, a float or None. Received "
                f"{type(size).__name__}."
            )
        if (type(size) is int and not 0 < size < total) or (
            type(size) is float and not 0 < size < 1
        ):
            raise ValueError(
                f"split_dataset: {name} must be a count in (0, {total}) or a fraction in "
                f"(0, 1). Received {name}={size!r}."
            )
    if left_size is None and right_size is None:
        raise ValueError("split_dataset needs left_size or right_size (or both).")
    if type(left_size) is float and type(right_size) is float and left_size + right_size > 1:
        raise ValueError("split_dataset: left_size + right_size must not exceed 1.")
    left = round(left_size * total) if type(left_size) is float else left_size
    right = round(right_size * total) if type(right_size) is float else right_size
    left = total - right if left is None else left
    right = total - left if right is None else right
    if left + right > total:
        raise ValueError(
            f"split_dataset: left ({left}) + right ({right}) exceed the {total} samples."
        )
    if left == 0 or right == 0:
        raise ValueError(
            f"split_dataset: with {total} samples, left_size={left_size} and right_size="
            f"{right_size} leave one side empty. Adjust the sizes."
        )
    return int(left), int(right)


def _stack(samples: list[Any], kind: str) -> Any:
    if kind == "array":
        return np.stack(samples)
    structure = samples[0]
    columns = zip(*(tree.flatten(s) for s in samples), strict=True)
    packed = tree.pack_sequence_as(structure, [np.array(c) for c in columns])
    # tf.data reads lists as tensors: samples of several parts become tuples, as in Keras.
    return tuple(packed) if isinstance(packed, list) else packed


def split_dataset(
    dataset, left_size=None, right_size=None, shuffle=False, seed=None, preferred_backend=None
):
    """Splits a dataset into a left and a right part (``keras.utils.split_dataset``).

    Args:
        dataset: a ``tf.data.Dataset``, a torch ``Dataset``, an array, or a tuple/list
            (or dict) of arrays with one row per sample.
        left_size: the left part's size: a fraction in (0, 1) or a count.
        right_size: the right part's size, likewise (the last samples); either one
            alone takes the rest for the other side.
        shuffle: shuffle the samples first (Python's ``random`` with ``seed``, as Keras).
        seed: the shuffle's seed.
        preferred_backend: ``"torch"`` for torch ``Subset``s (a torch ``random_split``);
            default: ``"torch"`` for a torch Dataset, else the active backend for
            arrays and ``"tensorflow"`` for a tf.data pipeline.

    Returns:
        ``(left, right)``: ``tf.data.Dataset``s where TensorFlow is installed (batched
        like a batched input pipeline), torch ``Subset``s for ``preferred_backend=
        "torch"``, else NumPy arrays in the input's structure.

    Example:

    ```python
    train, val = mb.utils.split_dataset((x, y), left_size=0.8, shuffle=True, seed=1)
    ```
    """
    kind = _kind(dataset)
    if preferred_backend is None:
        preferred_backend = {"tf": "tensorflow", "torch": "torch"}.get(kind, config.backend())
    if right_size is None and left_size is None:
        raise ValueError("split_dataset needs left_size or right_size (or both).")
    if preferred_backend == "torch":
        samples = None if kind in ("torch",) else _samples(dataset, kind)
        total = len(dataset) if samples is None else len(samples)
        left, right = _sizes(left_size, right_size, total)
        return _torch_pipelines.random_split(
            dataset if samples is None else _stack(samples, kind), kind, left, right, shuffle,
            seed,
        )  # fmt: skip
    samples = _samples(dataset, kind)
    if not samples:
        raise ValueError("split_dataset received an empty dataset.")
    if shuffle:
        if seed is None:
            seed = random.randint(0, int(1e6))
        random.Random(seed).shuffle(samples)
    left, right = _sizes(left_size, right_size, len(samples))
    parts = (_stack(samples[:left], kind), _stack(samples[-right:], kind))
    if importlib.util.find_spec("tensorflow") is None:
        return parts
    batch = _tf_pipelines.batch_size_of(dataset) if kind == "tf" else None
    return tuple(_tf_pipelines.from_slices(part, batch) for part in parts)
