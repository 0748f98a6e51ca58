"""``Variable``: the base class of every backend's variable.

The live value is held by the variable itself (``_value``, a tensor of the
active backend). A StatelessScope overrides reads and records writes only
while it is active; outside one, reading or assigning always sees and changes
the live value, on every backend.

A backend subclass implements three hooks: ``_initialize(value)`` (store the
first value in ``self._value``), ``_direct_assign(value)`` (replace the live
value) and ``_convert_to_tensor(value, dtype=None)``.
"""

from __future__ import annotations

from operator import methodcaller
from typing import Any

import numpy as np

from mb_ops import _backends, _dtypes
from mb_ops._distribution import _state as _distribution
from mb_ops._operators import LOGICAL, add_binary_operators
from mb_ops._scopes import current_path
from mb_ops._state import STATE, auto_name

_AGGREGATIONS = ("none", "mean", "sum", "only_first_replica")
_SYNCHRONIZATIONS = ("none", "on_read", "on_write", "auto")


class _Hooks:
    # The op namespace Variable operators call (mb_ops.numpy once imported).
    ops: Any = None
    # Turns a string initializer ("zeros") into a callable (set by mb_layers).
    initializer_lookup: Any = None
    core: Any = None


def set_operator_namespace(namespace: Any) -> None:
    """Set where Variable's Python operators find ``add``, ``matmul``, … ."""
    _Hooks.ops = namespace


def set_initializer_lookup(fn: Any) -> Any:
    """Let Variable accept string initializers: ``fn("zeros")`` returns a callable.

    ``mb_layers.initializers`` registers its ``get`` on import (so with ``import mb``
    ``Variable("ones", shape=...)`` works, as in Keras); mb-ops alone has none.

    Args:
        fn: a function from an initializer's name to ``initializer(shape, dtype)``,
            or None for no lookup.

    Returns:
        The lookup it replaces (None if there was none), to put back later.

    Example:

    >>> import numpy as np
    >>> import mb_ops
    >>> from mb_ops import ops
    >>> def lookup(name):
    ...     return lambda shape, dtype=None: np.full(shape, {"ones": 1, "twos": 2}[name], dtype)
    >>> previous = mb_ops.set_initializer_lookup(lookup)
    >>> ops.convert_to_numpy(mb_ops.Variable("twos", shape=(2,), dtype="float32")).tolist()
    [2.0, 2.0]
    >>> _ = mb_ops.set_initializer_lookup(previous)  # the registry that was there
    """
    previous = _Hooks.initializer_lookup
    _Hooks.initializer_lookup = fn
    return previous


def _core() -> Any:
    if _Hooks.core is None:
        _Hooks.core = _backends.backend_module("core")
    return _Hooks.core


def standardize_shape(shape: Any) -> tuple[int, ...]:
    """A variable's shape as a tuple of ints; refuses unknown dimensions.

    Args:
        shape: an iterable of ints (or objects with ``__index__``, e.g. NumPy ints).

    Returns:
        A tuple of non-negative Python ints.

    Raises:
        ValueError: for None, a non-iterable, an unknown (None) or a negative dimension.

    Example:

    >>> import numpy as np
    >>> import mb_ops
    >>> mb_ops.standardize_shape([2, np.int64(3)])
    (2, 3)
    """
    if shape is None or not hasattr(shape, "__iter__"):
        raise ValueError(f"Cannot use {shape!r} as a variable shape; give a tuple of ints.")
    out = []
    for dim in shape:
        if dim is None:
            raise ValueError(
                f"A variable's shape must be fully known, received shape={tuple(shape)}."
            )
        if hasattr(dim, "__index__"):
            dim = dim.__index__()
        if not isinstance(dim, int) or dim < 0:
            raise ValueError(
                f"A variable's shape holds non-negative ints, received shape={tuple(shape)}."
            )
        out.append(dim)
    return tuple(out)


class Variable:
    """A named, mutable tensor of the active backend (Keras 3's ``Variable``).

    Args:
        initializer: a concrete value (array, list, scalar, tensor) or a
            callable ``initializer(shape, dtype=dtype)``; a string when mb_layers
            has registered its initializers.
        shape: required with a callable initializer.
        dtype: the variable's dtype; default: the value's dtype, else floatx.
        trainable: whether optimizers update it.
        autocast: read as the compute dtype inside an AutocastScope.
        aggregation, synchronization: distribution hints (as in Keras).
        name: no ``/``; default ``variable``, ``variable_1``, … .
        layout: a `mb_ops.distribution.TensorLayout` (or the engine's own layout)
            to place the variable by; default: the active distribution's.

    Example:
        >>> v = mb_ops.Variable([1.0, 2.0])  # doctest: +SKIP
        >>> v.assign_add([1.0, 1.0]).tolist()  # doctest: +SKIP
    """

    def __init__(
        self,
        initializer: Any,
        shape: Any = None,
        dtype: Any = None,
        trainable: bool = True,
        autocast: bool = True,
        aggregation: str | None = "none",
        synchronization: str | None = "auto",
        name: str | None = None,
        layout: Any = None,
        **kwargs: Any,
    ) -> None:
        if type(self) is Variable:
            # ``mb_ops.Variable(...)`` (and ``mb.Variable``) make the active backend's
            # variable, which subclasses this one, as ``keras.Variable`` does. Done
            # here rather than in ``__new__`` so the class shows this signature.
            self.__class__ = _core().Variable
        if kwargs:
            raise TypeError(f"Variable got unexpected keyword arguments: {sorted(kwargs)}.")
        name = name or auto_name(type(self).__name__.lstrip("_"))
        if not isinstance(name, str) or "/" in name:
            raise ValueError(
                f"A Variable name must be a string without '/', received name={name!r}."
            )
        aggregation = aggregation or "none"
        if aggregation not in _AGGREGATIONS:
            raise ValueError(
                f"Invalid aggregation {aggregation!r}. Expected one of {_AGGREGATIONS}."
            )
        synchronization = synchronization or "none"
        if synchronization not in _SYNCHRONIZATIONS:
            raise ValueError(
                f"Invalid synchronization {synchronization!r}. Expected one of {_SYNCHRONIZATIONS}."
            )
        self._name = name
        parent = current_path()
        self._path = f"{parent}/{name}" if parent else name
        self._value: Any = None
        self._initializer: Any = None
        self._regularizer: Any = None
        self._constraint: Any = None
        self._trainable = bool(trainable)
        self._autocast = bool(autocast)
        self._aggregation = aggregation
        self._synchronization = synchronization
        self._layout = layout
        self._overwrite_with_gradient = False
        if isinstance(initializer, str):
            if _Hooks.initializer_lookup is None:
                raise ValueError(
                    f"Variable got the string initializer {initializer!r}, but no initializer "
                    "registry is loaded (mb_layers registers one on import). Pass a value or "
                    "a callable, import mb_layers, or register a lookup with "
                    "mb_ops.set_initializer_lookup."
                )
            initializer = _Hooks.initializer_lookup(initializer)
        if callable(initializer):
            if shape is None:
                raise ValueError(
                    "A Variable created from an initializer needs a shape. "
                    f"Received initializer={initializer!r} and shape=None."
                )
        else:
            initializer = self._convert_to_tensor(initializer, dtype=dtype)
            if dtype is None:
                dtype = initializer.dtype
        self._dtype = _dtypes.standardize_dtype(dtype)
        if STATE.stateless_scope is not None:
            if not callable(initializer):
                raise ValueError(
                    "A Variable cannot be created from a value inside a StatelessScope. "
                    "Create variables before running the model statelessly (e.g. in the "
                    "layer's build()), or pass a callable initializer and a shape."
                )
            self._initializer = initializer
            self._shape = standardize_shape(shape)
            STATE.uninitialized_variables.append(self)
        elif callable(initializer):
            self._shape = standardize_shape(shape)
            self._initialize_with_initializer(initializer)
        else:
            self._shape = standardize_shape(initializer.shape)
            self._initialize(self._placed(initializer))
        self._ndim = len(self._shape)

    # ----- backend hooks -------------------------------------------------------------

    def _initialize(self, value: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} must implement _initialize(value).")

    def _direct_assign(self, value: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} must implement _direct_assign(value).")

    def _convert_to_tensor(self, value: Any, dtype: Any = None) -> Any:
        raise NotImplementedError(
            f"{type(self).__name__} must implement _convert_to_tensor(value, dtype=None)."
        )

    def _initialize_with_initializer(self, initializer: Any) -> None:
        value = self._convert_to_tensor(initializer(self._shape, dtype=self._dtype))
        self._initialize(self._placed(value))

    def _placed(self, value: Any) -> Any:
        """The first value placed as the variable's layout says: its own ``layout``,
        else the active distribution's (`mb_ops.distribution`), kept in ``_layout``."""
        layout = _distribution.variable_layout(self)
        self._layout = layout
        return _distribution.distribute_variable_value(value, layout)

    def _deferred_initialize(self) -> None:
        if self._value is not None:
            return
        if STATE.stateless_scope is not None:
            raise ValueError(
                f"Variable {self.path!r} cannot be initialized inside a StatelessScope. "
                "Initialize variables before running statelessly."
            )
        self._initialize_with_initializer(self._initializer)
        self._initializer = None

    # ----- value and state -----------------------------------------------------------

    @property
    def value(self) -> Any:
        """The current value: the scope's value inside a StatelessScope, else the live one."""
        scope = STATE.stateless_scope
        if scope is not None:
            value = scope.state_mapping.get(id(self))
            if value is not None:
                return self._maybe_autocast(value)
        if self._value is None:
            # Deferred (created inside a StatelessScope): read the initial value.
            return self._maybe_autocast(
                self._convert_to_tensor(self._initializer(self._shape, dtype=self._dtype))
            )
        return self._maybe_autocast(self._value)

    def _maybe_autocast(self, value: Any) -> Any:
        scope = STATE.autocast_scope
        if (
            scope is not None
            and self._autocast
            and scope.dtype is not None
            and scope.dtype != self._dtype
            and _dtypes.is_float_dtype(self._dtype)
        ):
            return _core().cast(value, scope.dtype)
        return value

    def assign(self, value: Any) -> Any:
        """Set the value (recorded in the scope inside a StatelessScope); returns it."""
        value = self._convert_to_tensor(value, dtype=self._dtype)
        if tuple(value.shape) != self._shape:
            raise ValueError(
                f"Cannot assign a value of shape {tuple(value.shape)} to variable "
                f"{self.path!r} of shape {self._shape}. The shapes must match."
            )
        scope = STATE.stateless_scope
        if scope is not None:
            scope.add_update((self, value))
        else:
            self._direct_assign(value)
        return value

    def assign_add(self, value: Any) -> Any:
        """Add ``value`` to the variable; returns the new value."""
        return self.assign(self._ops().add(self.value, value))

    def assign_sub(self, value: Any) -> Any:
        """Subtract ``value`` from the variable; returns the new value."""
        return self.assign(self._ops().subtract(self.value, value))

    def numpy(self) -> np.ndarray:
        """A copy of the current value as a NumPy array (later updates do not reach it)."""
        # Engines that share memory with NumPy (torch on the CPU) update variables in
        # place; a view would silently change with the next training step.
        return np.array(_core().convert_to_numpy(self.value), copy=True)

    # ----- attributes ----------------------------------------------------------------

    @property
    def name(self) -> str:
        return self._name

    @property
    def path(self) -> str:
        """The name prefixed with the name scopes it was created in (``dense/kernel``)."""
        return self._path

    @property
    def dtype(self) -> str:
        scope = STATE.autocast_scope
        if (
            scope is not None
            and self._autocast
            and scope.dtype is not None
            and _dtypes.is_float_dtype(self._dtype)
        ):
            return scope.dtype
        return self._dtype

    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape

    @property
    def ndim(self) -> int:
        return self._ndim

    @property
    def trainable(self) -> bool:
        return self._trainable

    @trainable.setter
    def trainable(self, value: bool) -> None:
        self._trainable = bool(value)

    @property
    def autocast(self) -> bool:
        return self._autocast

    @property
    def aggregation(self) -> str:
        return self._aggregation

    @property
    def synchronization(self) -> str:
        return self._synchronization

    @property
    def initializer(self) -> Any:
        return self._initializer

    @property
    def overwrite_with_gradient(self) -> bool:
        """Whether an optimizer assigns the gradient instead of applying it."""
        return self._overwrite_with_gradient

    @overwrite_with_gradient.setter
    def overwrite_with_gradient(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"overwrite_with_gradient must be a bool, received {value!r}.")
        self._overwrite_with_gradient = value

    @property
    def regularizer(self) -> Any:
        return self._regularizer

    @regularizer.setter
    def regularizer(self, value: Any) -> None:
        if value is not None and not callable(value):
            raise ValueError(f"regularizer must be callable or None, received {value!r}.")
        self._regularizer = value

    @property
    def constraint(self) -> Any:
        return self._constraint

    @constraint.setter
    def constraint(self, value: Any) -> None:
        if value is not None and not callable(value):
            raise ValueError(f"constraint must be callable or None, received {value!r}.")
        self._constraint = value

    def __repr__(self) -> str:
        value = "<uninitialized>" if self._value is None else self.numpy()
        return (
            f"<{type(self).__name__} path={self.path}, shape={self.shape}, "
            f"dtype={self.dtype}, value={value}>"
        )

    def __hash__(self) -> int:
        return id(self)

    # ----- conversions and Python operators ------------------------------------------

    def _ops(self) -> Any:
        return _Hooks.ops

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        out = self.numpy()
        return out.astype(dtype) if dtype is not None else out

    def __bool__(self) -> bool:
        return bool(self.numpy())

    def __int__(self) -> int:
        if self._ndim:
            raise TypeError(
                f"Only scalar variables convert to int; {self.path} has shape {self._shape}."
            )
        return int(self.numpy())

    def __float__(self) -> float:
        if self._ndim:
            raise TypeError(
                f"Only scalar variables convert to float; {self.path} has shape {self._shape}."
            )
        return float(self.numpy())

    def __index__(self) -> int:
        return self.__int__()

    def __len__(self) -> int:
        if not self._ndim:
            raise TypeError("len() of a scalar variable.")
        return self._shape[0]

    def __getitem__(self, idx: Any) -> Any:
        return self.value.__getitem__(idx)

    def __iter__(self) -> Any:
        return iter(self.value)

    def __neg__(self) -> Any:
        return self._ops().negative(self)

    def __pos__(self) -> Any:
        return self.value

    def __abs__(self) -> Any:
        return self._ops().absolute(self)

    def __invert__(self) -> Any:
        if self._dtype == "bool":
            return self._ops().logical_not(self)
        return self._ops().bitwise_not(self)

    def __round__(self, ndigits: Any = None) -> Any:
        return self._ops().round(self, decimals=ndigits or 0)


add_binary_operators(Variable, methodcaller("_ops"), LOGICAL)
