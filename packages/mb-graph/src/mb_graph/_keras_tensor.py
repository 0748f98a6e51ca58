"""KerasTensor: a symbolic placeholder with a shape and a dtype, and no data."""

from mb_graph import _hooks
from mb_graph.naming import auto_name

_PLACEHOLDER = "A KerasTensor is symbolic: a placeholder for a shape and a dtype, with no values. "
_ADVICE = (
    "Use it only as an input to operations (an op library such as mb_ops, or layers) "
    "to build a graph, then run that graph (a Function or a model) on real data."
)


class EngineConversionError(ValueError):
    """A KerasTensor was handed to an engine (NumPy, JAX, TensorFlow) as if it had values.

    Code that calls its engine directly on a layer's inputs raises it while a
    model is built symbolically; a layer catches it and traces its ``call`` on
    the backend's own placeholders instead, as Keras does.
    """


def _immutable(name, doc):
    attribute = "_" + name

    def fset(self, value):
        raise AttributeError(
            f"The `{name}` of a KerasTensor is immutable. Create a new KerasTensor "
            "instead, e.g. KerasTensor(shape, dtype)."
        )

    return property(lambda self: getattr(self, attribute), fset, doc=doc)


class KerasTensor:
    """Symbolic tensor: a shape (None for unknown dimensions) and a dtype, no data.

    Calling an `Operation` on KerasTensors records a node of a graph and
    returns new KerasTensors whose `_keras_history` says which call produced
    them; a `Function` captures the graph between KerasTensors.

    Args:
        shape: tuple of ints and Nones.
        dtype: dtype string (or anything the registered dtype standardizer
            accepts).
        sparse: whether the tensor stands for a sparse tensor.
        ragged: whether the tensor stands for a ragged tensor.
        record_history: when False, operations called on this tensor record
            no node (used for throw-away shape inference).
        name: optional name; a unique ``keras_tensor_N`` by default.

    Example:

    >>> x = KerasTensor((None, 3), dtype="float32")
    >>> x.shape, x.dtype, x.ndim
    ((None, 3), 'float32', 2)
    """

    # NumPy must hand mixed expressions (``array + x``) back to our reflected
    # operators instead of broadcasting over the tensor as an object.
    __array_ufunc__ = None

    def __init__(
        self,
        shape,
        dtype="float32",
        sparse=False,
        ragged=False,
        record_history=True,
        name=None,
        **kwargs,
    ):
        ragged_rank = kwargs.pop("ragged_rank", None)
        row_splits_dtype = kwargs.pop("row_splits_dtype", None)
        if kwargs:
            raise TypeError(
                f"KerasTensor got unexpected keyword arguments: {', '.join(kwargs)}. "
                "Expected: shape, dtype, sparse, ragged, record_history, name, "
                "ragged_rank, row_splits_dtype."
            )
        self._shape = _hooks.standardize_shape(shape)
        self._dtype = _hooks.standardize_dtype(dtype)
        self._sparse = bool(sparse)
        self._ragged = bool(ragged)
        if self._sparse and self._ragged:
            raise ValueError(
                "A KerasTensor cannot be both sparse and ragged. Received: sparse=True, "
                "ragged=True."
            )
        self._ragged_rank = None if ragged_rank is None else int(ragged_rank)
        self._row_splits_dtype = (
            None if row_splits_dtype is None else _hooks.standardize_dtype(row_splits_dtype)
        )
        self.name = name or auto_name(type(self).__name__)
        self.record_history = record_history
        self._keras_history = None

    shape = _immutable("shape", "Tuple of ints and Nones (None: unknown dimension).")
    dtype = _immutable("dtype", "Dtype string, e.g. 'float32'.")
    sparse = _immutable("sparse", "Whether the tensor stands for a sparse tensor.")
    ragged = _immutable("ragged", "Whether the tensor stands for a ragged tensor.")
    ragged_rank = _immutable("ragged_rank", "Ragged rank of a ragged tensor, or None.")
    row_splits_dtype = _immutable("row_splits_dtype", "Row-splits dtype of a ragged tensor.")

    @property
    def ndim(self):
        """Number of dimensions."""
        return len(self._shape)

    def __repr__(self):
        return (
            f"<KerasTensor shape={self._shape}, dtype={self._dtype}, "
            f"sparse={self._sparse}, ragged={self._ragged}, name={self.name}>"
        )

    # -- Refusals: a placeholder is not data. --------------------------------

    def __bool__(self):
        raise TypeError(
            f"{_PLACEHOLDER}It cannot be used as a Python boolean (in `if`, `while`, "
            f"`and`, `or`). Received: {self!r}. For data-dependent branches use the op "
            "library's `cond` or `where`."
        )

    def __len__(self):
        if not self._shape:
            raise TypeError(f"len() of a 0-d KerasTensor is undefined. Received: {self!r}.")
        if self._shape[0] is None:
            raise TypeError(
                f"{_PLACEHOLDER}len() needs a known first dimension, but it is unknown "
                f"(None). Received: {self!r}. Use the op library's `shape(x)[0]` to get "
                "it when the graph runs."
            )
        return self._shape[0]

    def __iter__(self):
        raise TypeError(
            f"{_PLACEHOLDER}It cannot be iterated over or unpacked. Received: {self!r}. "
            "Index it (x[0]) or use the op library's `unstack` instead."
        )

    def _refuse_conversion(self, target):
        raise ValueError(f"{_PLACEHOLDER}It cannot be converted to {target}. {_ADVICE}")

    def __int__(self):
        self._refuse_conversion("a Python int")

    def __float__(self):
        self._refuse_conversion("a Python float")

    def __index__(self):
        self._refuse_conversion("an index")

    def _refuse_engine(self, target):
        raise EngineConversionError(f"{_PLACEHOLDER}It cannot be converted to {target}. {_ADVICE}")

    def __array__(self, dtype=None, copy=None):
        self._refuse_engine("a NumPy array")

    def __jax_array__(self):
        self._refuse_engine("a JAX array (wrap the JAX code in a layer or operation)")

    def __tf_tensor__(self, dtype=None, name=None):
        self._refuse_engine("a TensorFlow tensor (wrap the TF code in a layer or operation)")

    # -- Python operators, routed to the registered op library. ----------------

    def reshape(self, newshape):
        """Symbolic ``reshape(self, newshape)`` through the op library."""
        return _operator("reshape", "reshape()")(self, newshape)

    def squeeze(self, axis=None):
        """Symbolic ``squeeze(self, axis)`` through the op library."""
        return _operator("squeeze", "squeeze()")(self, axis=axis)

    def __round__(self, ndigits=None):
        return _operator("round", "round()")(self, decimals=ndigits or 0)

    def __getitem__(self, key):
        return _operator("get_item", "[]")(self, key)


def _operator(op_name, symbol):
    namespace = _hooks.get_operator_hook()
    if namespace is None:
        raise TypeError(
            f"The operator `{symbol}` on a KerasTensor builds a graph node, which needs an "
            "op library: import mb_ops (or mb) first, or register a namespace with "
            f"mb_graph.set_operator_hook(namespace) that provides `{op_name}`."
        )
    fn = getattr(namespace, op_name, None)
    if fn is None:
        raise TypeError(
            f"The operator `{symbol}` on a KerasTensor calls `{op_name}`, but the registered "
            f"op namespace {namespace!r} has no function of that name."
        )
    return fn


def _unary(op_name, symbol):
    def method(self):
        return _operator(op_name, symbol)(self)

    method.__doc__ = f"``{symbol}x``: symbolic ``{op_name}(x)``."
    return method


def _binary(op_name, symbol):
    def method(self, other):
        return _operator(op_name, symbol)(self, other)

    method.__doc__ = f"``x {symbol} y``: symbolic ``{op_name}(x, y)``."
    return method


def _reflected(op_name, symbol):
    def method(self, other):
        return _operator(op_name, symbol)(other, self)

    method.__doc__ = f"``y {symbol} x``: symbolic ``{op_name}(y, x)``."
    return method


# `__eq__` is left as identity, as in Keras 3: a symbolic `==` would break
# `x in list_of_tensors`, `list.index` and dict lookups, which graph code relies on.
_BINARY_OPERATORS = {
    "add": ("+", "__add__", "__radd__"),
    "subtract": ("-", "__sub__", "__rsub__"),
    "multiply": ("*", "__mul__", "__rmul__"),
    "true_divide": ("/", "__truediv__", "__rtruediv__"),
    "floor_divide": ("//", "__floordiv__", "__rfloordiv__"),
    "mod": ("%", "__mod__", "__rmod__"),
    "power": ("**", "__pow__", "__rpow__"),
    "matmul": ("@", "__matmul__", "__rmatmul__"),
    "logical_and": ("&", "__and__", "__rand__"),
    "logical_or": ("|", "__or__", "__ror__"),
    "logical_xor": ("^", "__xor__", "__rxor__"),
    "not_equal": ("!=", "__ne__", None),
    "less": ("<", "__lt__", None),
    "less_equal": ("<=", "__le__", None),
    "greater": (">", "__gt__", None),
    "greater_equal": (">=", "__ge__", None),
}
_UNARY_OPERATORS = {
    "negative": ("-", "__neg__"),
    "absolute": ("abs", "__abs__"),
    "logical_not": ("~", "__invert__"),
}

for _op_name, (_symbol, _method, _rmethod) in _BINARY_OPERATORS.items():
    setattr(KerasTensor, _method, _binary(_op_name, _symbol))
    if _rmethod is not None:
        setattr(KerasTensor, _rmethod, _reflected(_op_name, _symbol))
for _op_name, (_symbol, _method) in _UNARY_OPERATORS.items():
    setattr(KerasTensor, _method, _unary(_op_name, _symbol))
del _op_name, _symbol, _method, _rmethod


def is_keras_tensor(x):
    """Returns whether `x` is a symbolic KerasTensor (not a concrete tensor).

    >>> is_keras_tensor(KerasTensor((2,))), is_keras_tensor([1.0, 2.0])
    (True, False)
    """
    return isinstance(x, KerasTensor)


def _nested_has_symbolic(structure):
    # Iterative walk of lists, tuples and dicts only: this runs on every eager op call.
    stack = [structure]
    while stack:
        item = stack.pop()
        values = item.values() if isinstance(item, dict) else item
        for x in values:
            if isinstance(x, KerasTensor):
                return True
            if isinstance(x, (list, tuple, dict)) and x:
                stack.append(x)
    return False


def any_symbolic_tensors(args=None, kwargs=None):
    """Returns whether any KerasTensor appears in `args` or `kwargs` values.

    Lists, tuples and dicts are searched recursively; other objects are leaves.
    This is on the path of every eager op call, so it avoids any tree library.

    >>> x = KerasTensor((2,))
    >>> any_symbolic_tensors((1.0, [2.0, {"k": x}])), any_symbolic_tensors((1.0,), {"axis": 0})
    (True, False)
    """
    if args:
        for x in args:
            if isinstance(x, KerasTensor):
                return True
            if isinstance(x, (list, tuple, dict)) and x and _nested_has_symbolic(x):
                return True
    if kwargs:
        for x in kwargs.values():
            if isinstance(x, KerasTensor):
                return True
            if isinstance(x, (list, tuple, dict)) and x and _nested_has_symbolic(x):
                return True
    return False
