"""Python generators and other one-shot iterators of batches."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from mb_data import _structure
from mb_data._adapters.base import DataAdapter


class GeneratorDataAdapter(DataAdapter):
    """Batches pulled from a Python generator (or any iterator), as it yields them.

    A generator can be iterated only once: every pass continues where the last
    one stopped, and when it runs dry the epoch ends with a warning from the
    epoch iterator. For data that should be read again each epoch, use a
    :class:`mb_data.PyDataset` or a re-iterable pipeline.

    Args:
        generator: yields ``x``, ``(x, y)`` or ``(x, y, sample_weight)`` batches.
    """

    can_restart = False

    def __init__(self, generator: Iterator[Any]):
        self._generator = generator

    def get_native_iterator(self) -> Iterator[Any]:
        # Iterating the user's generator inside this one leaves it open when a
        # pass is abandoned, so the next pass continues from where this stopped.
        for batch in self._generator:
            yield _structure.list_to_tuple(batch)
