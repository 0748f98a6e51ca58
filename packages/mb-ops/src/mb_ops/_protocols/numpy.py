"""The ``numpy`` contract module: what every backend's ``numpy`` provides.

The functions are declared per op group, in the files that mirror ``mb_ops._ops``."""

from typing import Protocol

from mb_ops._protocols.numpy_arithmetic import NumpyElementwise
from mb_ops._protocols.numpy_creation import NumpyCreation
from mb_ops._protocols.numpy_indexing import NumpyIndexing
from mb_ops._protocols.numpy_linear import NumpyLinear
from mb_ops._protocols.numpy_reductions import NumpyReductions
from mb_ops._protocols.numpy_shape import NumpyShape


class Numpy(
    NumpyCreation,
    NumpyElementwise,
    NumpyIndexing,
    NumpyLinear,
    NumpyReductions,
    NumpyShape,
    Protocol,
):
    """The names every backend's ``numpy`` module provides (or declares unsupported)."""
