"""mb: a multi-backend deep learning framework with the public API of Keras 3.

Pick the engine with ``MB_BACKEND`` (or ``KERAS_BACKEND``) before importing::

    MB_BACKEND=torch python train.py
"""

import importlib.metadata as _metadata

from mb import config as config

__version__ = _metadata.version("mb")


def version() -> str:
    """The version of the mb umbrella package."""
    return __version__


__all__ = ["__version__", "config", "version"]
