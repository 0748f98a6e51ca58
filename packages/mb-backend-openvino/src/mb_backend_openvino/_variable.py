"""``Variable`` of the OpenVINO backend: the live value is an ``OpenVINOTensor`` it owns."""

import numpy as np

import mb_ops
from mb_backend_openvino._convert import convert_to_tensor
from mb_backend_openvino._tensor import OpenVINOTensor


def _owned(value, dtype):
    tensor = convert_to_tensor(value, dtype=dtype)
    if tensor.is_symbolic:
        raise ValueError(
            "A Variable cannot take a symbolic (traced) value outside a StatelessScope. "
            "Assign concrete values, or run traced code in a StatelessScope and read the "
            "updates from it."
        )
    # A private copy: the caller's array may be changed later.
    return OpenVINOTensor(np.array(tensor._data, copy=True))


class Variable(mb_ops.Variable):
    """An ``mb_ops.Variable`` holding an ``OpenVINOTensor`` (copied in, never aliased).

    Example:
        >>> v = Variable([1.0, 2.0])  # doctest: +SKIP
        >>> v.assign_add([1.0, 1.0]).numpy().tolist()  # doctest: +SKIP
        [2.0, 3.0]
    """

    def _initialize(self, value):
        self._value = _owned(value, self._dtype)

    def _direct_assign(self, value):
        self._value = _owned(value, self._dtype)

    def _convert_to_tensor(self, value, dtype=None):
        return convert_to_tensor(value, dtype=dtype)
