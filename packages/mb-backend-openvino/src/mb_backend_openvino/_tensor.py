"""``OpenVINOTensor``: the tensor type of the OpenVINO backend.

A tensor holds either a value (a C-contiguous NumPy array, the result of an
OpenVINO inference or an input given by the user) or, while a function is being
traced, a symbolic ``openvino.Output``. Python operators and indexing call the
backend's own ops, so arithmetic on tensors always runs through OpenVINO.
"""

import numpy as np

from mb_backend_openvino._dtypes import name_of, name_of_ov
from mb_ops import numpy_shaped


class _Ops:
    # The backend's numpy module (set by it once imported) and get_item.
    numpy = None
    get_item = None


def set_operator_namespace(numpy_module, get_item):
    """Where tensor operators find ``add``, ``matmul``, … and indexing."""
    _Ops.numpy = numpy_module
    _Ops.get_item = get_item


class SymbolicValueError(ValueError):
    """A traced (symbolic) tensor was asked for a concrete value."""


class OpenVINOTensor:
    """A tensor of the OpenVINO backend (a value, or a symbolic node while tracing).

    Args:
        data: a NumPy array (kept as is; it must not be modified afterwards).
        output: an ``openvino.Output`` for a symbolic tensor.

    Example:
        >>> import numpy as np
        >>> t = OpenVINOTensor(np.ones((2, 3), "float32"))
        >>> t.shape, t.dtype
        ((2, 3), 'float32')
    """

    # ``_keras_mask``: layers attach masks to tensors (Keras's convention).
    __slots__ = ("__weakref__", "_data", "_keras_mask", "_output")
    # NumPy must call our reflected operators instead of broadcasting over us.
    __array_ufunc__ = None

    def __init__(self, data=None, output=None):
        self._data = data
        self._output = output

    # ----- attributes -----------------------------------------------------------------

    @property
    def shape(self):
        if self._data is not None:
            return self._data.shape
        shape = self._output.get_partial_shape()
        return tuple(d.get_length() if d.is_static else None for d in shape)

    @property
    def dtype(self):
        if self._data is not None:
            return name_of(self._data.dtype)
        return name_of_ov(self._output.get_element_type())

    @property
    def ndim(self):
        if self._data is not None:
            return self._data.ndim
        return self._output.get_partial_shape().rank.get_length()

    @property
    def size(self):
        return int(np.prod(self.shape))

    @property
    def is_symbolic(self):
        """True while the tensor stands for a node of a model being traced."""
        return self._data is None

    # ----- values ---------------------------------------------------------------------

    def numpy(self):
        """A NumPy copy of the value."""
        return np.array(self._value())

    def _value(self):
        if self._data is None:
            raise SymbolicValueError(
                "This openvino tensor is symbolic: it stands for a node of a model being "
                f"traced (shape {self.shape}, dtype {self.dtype}) and holds no value yet. "
                "Use ops instead of Python values (ops.cond instead of `if`, ops.shape "
                "instead of reading values) inside traced functions."
            )
        return self._data

    def __array__(self, dtype=None, copy=None):
        value = self._value()
        if dtype is not None and value.dtype != dtype:
            return value.astype(dtype)
        return np.array(value) if copy else value

    def __bool__(self):
        return bool(self._value())

    def __int__(self):
        return int(self._value())

    def __float__(self):
        return float(self._value())

    def __index__(self):
        return int(self._value().__index__())

    def __len__(self):
        if not self.ndim:
            raise TypeError("len() of a 0-d openvino tensor.")
        return self.shape[0]

    def __iter__(self):
        if not self.ndim:
            raise TypeError("Iteration over a 0-d openvino tensor.")
        for i in range(self.shape[0]):
            yield self[i]

    def __repr__(self):
        if self._data is None:
            return f"<OpenVINOTensor symbolic shape={self.shape} dtype={self.dtype}>"
        return f"<OpenVINOTensor shape={self.shape} dtype={self.dtype} value={self._data!r}>"

    def __hash__(self):
        return id(self)

    def __getitem__(self, key):
        return _Ops.get_item(self, key)

    def __setitem__(self, key, value):
        raise TypeError(
            "openvino tensors are immutable. Use ops.slice_update or ops.scatter_update "
            "to get an updated copy."
        )

    def __neg__(self):
        return _Ops.numpy.negative(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return _Ops.numpy.absolute(self)

    def __invert__(self):
        if self.dtype == "bool":
            return _Ops.numpy.logical_not(self)
        return _Ops.numpy.bitwise_not(self)

    def __round__(self, ndigits=None):
        return _Ops.numpy.round(self, decimals=ndigits or 0)

    # Tensors are no pytree containers, and `x.T` reads as in NumPy.
    @property
    def T(self):
        return _Ops.numpy.transpose(self)

    def reshape(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], list | tuple):
            shape = shape[0]
        return _Ops.numpy.reshape(self, shape)

    def astype(self, dtype):
        return _Ops.numpy.array(self, dtype=dtype)


# As NumPy: ``&``, ``|`` and ``^`` are bitwise on integers, logical on booleans.
numpy_shaped.add_binary_operators(OpenVINOTensor, lambda self: _Ops.numpy, numpy_shaped.BITWISE)
