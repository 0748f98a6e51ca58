"""The weight files published for Keras: where each lives, its hash, and fetching it.

Files are fetched with `mb_data.get_file` into ``<cache>/models`` (``~/.keras/models``
by default), so files Keras already downloaded are reused and never fetched again.
"""

from typing import NamedTuple

import mb_data

KERAS_APPLICATIONS = "https://storage.googleapis.com/tensorflow/keras-applications/"
# EfficientNet (V1) is the one family published in another bucket.
EFFICIENTNET = "https://storage.googleapis.com/keras-applications/"


class WeightsFile(NamedTuple):
    """A published weight file: its name in the cache, its URL and its hash (or None)."""

    file_name: str
    origin: str
    file_hash: str | None = None


def published(folder, file_name, file_hash=None, base=None):
    """The `WeightsFile` ``<base><folder>/<file_name>`` (base: the Keras applications bucket)."""
    base = KERAS_APPLICATIONS if base is None else base
    return WeightsFile(file_name, f"{base}{folder}{file_name}", file_hash)


def fetch(weights_file):
    """The local path of `weights_file`, downloaded into the cache on first use."""
    return mb_data.get_file(
        weights_file.file_name,
        weights_file.origin,
        cache_subdir="models",
        file_hash=weights_file.file_hash,
    )
