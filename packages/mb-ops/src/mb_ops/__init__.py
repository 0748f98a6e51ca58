"""mb-ops: configuration, the backend contract and the op API of mb."""

from mb_ops import backends as backends
from mb_ops import config as config

__all__ = ["backends", "config"]
