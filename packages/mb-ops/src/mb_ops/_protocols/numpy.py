"""The ``numpy`` contract module: what every backend's ``numpy`` provides.

The functions are declared per op group, in the files that mirror ``mb_ops._ops``."""

from typing import Protocol

from mb_ops._protocols.numpy_arithmetic import NumpyArithmetic
from mb_ops._protocols.numpy_complex import NumpyComplex
from mb_ops._protocols.numpy_creation import NumpyCreation
from mb_ops._protocols.numpy_cumulative import NumpyCumulative
from mb_ops._protocols.numpy_indexing import NumpyIndexing
from mb_ops._protocols.numpy_joining import NumpyJoining
from mb_ops._protocols.numpy_linear import NumpyLinear
from mb_ops._protocols.numpy_logic import NumpyLogic
from mb_ops._protocols.numpy_order_statistics import NumpyOrderStatistics
from mb_ops._protocols.numpy_reductions import NumpyReductions
from mb_ops._protocols.numpy_shape import NumpyShape
from mb_ops._protocols.numpy_transcendental import NumpyTranscendental


class Numpy(
    NumpyArithmetic,
    NumpyComplex,
    NumpyCreation,
    NumpyCumulative,
    NumpyIndexing,
    NumpyJoining,
    NumpyLinear,
    NumpyLogic,
    NumpyOrderStatistics,
    NumpyReductions,
    NumpyShape,
    NumpyTranscendental,
    Protocol,
):
    """The names every backend's ``numpy`` module provides (or declares unsupported)."""
