"""Reading the data sets' pickles without running code from them.

IMDB and Reuters store ragged sequences as object arrays inside ``.npz`` files and
CIFAR stores its batches as pickles; a pickle can name any callable. These readers
allow only what rebuilding NumPy arrays needs, so a tampered file is refused
instead of executed.
"""

from __future__ import annotations

import io
import pickle
import zipfile
from typing import Any

import numpy as np

_ALLOWED = frozenset(
    {
        ("numpy", "ndarray"),
        ("numpy", "dtype"),
        ("numpy.core.multiarray", "_reconstruct"),
        ("numpy._core.multiarray", "_reconstruct"),
        ("numpy.core.multiarray", "scalar"),
        ("numpy._core.multiarray", "scalar"),
    }
)


class _ArrayUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _ALLOWED:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(
            f"Refusing to load {module}.{name} from a data set file: only NumPy arrays are "
            "allowed there. The file may be corrupted or tampered with; delete it from the "
            "cache and download it again."
        )


def load_pickle(path: str, encoding: str = "bytes") -> Any:
    """Unpickles a file that may hold only NumPy arrays and plain Python values."""
    with open(path, "rb") as f:
        return _ArrayUnpickler(f, encoding=encoding).load()


def _read_npy(raw: bytes) -> np.ndarray:
    buffer = io.BytesIO(raw)
    try:
        return np.lib.format.read_array(buffer, allow_pickle=False)
    except ValueError:
        # An object array: skip the header, then unpickle the body with the guard.
        buffer.seek(0)
        major, _ = np.lib.format.read_magic(buffer)
        if major == 1:
            np.lib.format.read_array_header_1_0(buffer)
        elif major in (2, 3):
            np.lib.format.read_array_header_2_0(buffer)
        else:
            raise ValueError(f"Unsupported .npy format version {major}.") from None
        return _ArrayUnpickler(buffer).load()


def load_npz(path: str) -> dict[str, np.ndarray]:
    """Every array of an ``.npz`` file, object arrays included, without running code."""
    arrays = {}
    with zipfile.ZipFile(path) as archive:
        for member in archive.namelist():
            if member.endswith(".npy"):
                arrays[member[: -len(".npy")]] = _read_npy(archive.read(member))
    return arrays
