"""The ``export`` contract module: what every backend's ``export`` provides."""

from typing import Protocol


class Export(Protocol):
    """The names every backend's ``export`` module provides (or declares unsupported)."""

    pass
