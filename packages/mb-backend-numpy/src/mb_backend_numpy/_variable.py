"""``Variable`` of the NumPy backend: the live value is a ``numpy.ndarray`` it owns."""

import numpy as np

import mb_ops
from mb_backend_numpy._convert import convert_to_tensor
from mb_backend_numpy._dtypes import to_numpy_dtype


class Variable(mb_ops.Variable):
    """An ``mb_ops.Variable`` holding a NumPy array (copied in, so callers cannot alias it)."""

    def _initialize(self, value):
        self._value = np.array(value, dtype=to_numpy_dtype(self._dtype))

    def _direct_assign(self, value):
        self._value = np.array(value, dtype=to_numpy_dtype(self._dtype))

    def _convert_to_tensor(self, value, dtype=None):
        return convert_to_tensor(value, dtype=dtype)
