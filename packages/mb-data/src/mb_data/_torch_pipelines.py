"""The torch side of ``split_dataset``: Keras's ``random_split`` into torch ``Subset``s.

The only module of mb_data that imports torch, and only for
``split_dataset(..., preferred_backend="torch")``.
"""

from __future__ import annotations

from typing import Any


def random_split(dataset: Any, kind: str, left: int, right: int, shuffle: bool, seed):
    """``(left, right)`` torch Subsets; a seeded generator when shuffling, as Keras."""
    import torch
    from torch.utils.data import TensorDataset

    if kind != "torch":
        arrays = dataset if isinstance(dataset, tuple) else (dataset,)
        if isinstance(dataset, dict):
            raise TypeError("split_dataset with preferred_backend='torch' takes no dict.")
        dataset = TensorDataset(*(torch.from_numpy(a) for a in arrays))
    generator = None
    if shuffle:
        generator = torch.Generator()
        if seed is not None:
            generator.manual_seed(seed)
        else:
            generator.seed()
    return tuple(torch.utils.data.random_split(dataset, [left, right], generator=generator))
