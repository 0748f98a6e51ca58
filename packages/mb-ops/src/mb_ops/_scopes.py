"""Scopes that change how ops and variables behave while they are active."""

from __future__ import annotations

from typing import Any

from mb_ops import _dtypes
from mb_ops._state import STATE


class StatelessScope:
    """Run stateful-looking code against explicit values, without mutating state.

    While active, reading a variable listed in ``state_mapping`` returns the
    mapped value, and ``assign``/``assign_add``/``assign_sub`` record the new
    value in the scope instead of changing the variable. Outside any scope
    (user code, callbacks) variables always read and write their live value:
    the trainer writes its results back into the variables after each step,
    so there is no hidden copy of the state.

    Args:
        state_mapping: pairs ``(variable, value)`` of values to read instead.
        collect_losses: collect losses added with ``add_loss`` in ``losses``.
        initialize_variables: when the outermost scope exits, initialize the
            variables created inside it (deferred initialization).

    Example:

    >>> import numpy as np
    >>> import mb_ops
    >>> from mb_ops import ops
    >>> v = mb_ops.Variable(np.array([1.0, 2.0], "float32"))
    >>> with mb_ops.StatelessScope([(v, np.array([5.0, 6.0], "float32"))]) as scope:
    ...     _ = v.assign(v + 1.0)
    >>> ops.convert_to_numpy(scope.get_current_value(v)).tolist()  # the scope's value
    [6.0, 7.0]
    >>> ops.convert_to_numpy(v).tolist()  # the variable is unchanged
    [1.0, 2.0]
    """

    def __init__(
        self,
        state_mapping: Any = None,
        collect_losses: bool = False,
        initialize_variables: bool = True,
    ) -> None:
        self.collect_losses = collect_losses
        self.initialize_variables = initialize_variables
        self.losses: list[Any] = []
        self.state_mapping: dict[int, Any] = {}
        self._variables: dict[int, Any] = {}
        for variable, value in state_mapping or ():
            if not hasattr(variable, "_direct_assign"):
                raise ValueError(
                    "StatelessScope state_mapping must hold (Variable, value) pairs. "
                    f"Received a key of type {type(variable).__name__}: {variable!r}."
                )
            value = variable._convert_to_tensor(value, dtype=variable.dtype)
            if tuple(value.shape) != tuple(variable.shape):
                raise ValueError(
                    f"StatelessScope: the value for variable {variable.path!r} has shape "
                    f"{tuple(value.shape)}, expected the variable's shape {variable.shape}."
                )
            self.state_mapping[id(variable)] = value
            self._variables[id(variable)] = variable
        self._donated: set[int] = set()
        self._previous: Any = None

    @classmethod
    def _snapshot(cls, variables: Any) -> StatelessScope:
        """A scope mapping each initialized variable to its own live value, as it is.

        What ``cls([(v, v.value) for v in variables])`` gives when no scope is active,
        without converting and checking values that are the variables' own (an eager
        optimizer step snapshots every slot of the model this way).
        """
        scope = cls()
        for variable in variables:
            value = variable._value
            if value is None:  # deferred: read and checked as a given value would be
                value = variable._convert_to_tensor(variable.value, dtype=variable.dtype)
            scope.state_mapping[id(variable)] = value
            scope._variables[id(variable)] = variable
        return scope

    def __enter__(self) -> StatelessScope:
        self._previous = STATE.stateless_scope
        STATE.stateless_scope = self
        return self

    def add_update(self, update: tuple[Any, Any]) -> None:
        """Record ``(variable, value)`` as the variable's new value in this scope."""
        variable, value = update
        self.state_mapping[id(variable)] = value
        self._variables[id(variable)] = variable

    def get_current_value(self, variable: Any) -> Any:
        """The value of ``variable`` in this scope, or None if it is not mapped."""
        return self.state_mapping.get(id(variable))

    def is_donated(self, value: Any) -> bool:
        """Whether `value` is one of the donated values this scope was given
        (always False outside a `DonatingStatelessScope`)."""
        return id(value) in self._donated

    def updated_variables(self) -> list[tuple[Any, Any]]:
        """Every ``(variable, value)`` pair known to this scope (mapped or assigned)."""
        return [(self._variables[k], v) for k, v in self.state_mapping.items()]

    def add_loss(self, loss: Any) -> None:
        self.losses.append(loss)

    def __exit__(self, *args: Any) -> None:
        STATE.stateless_scope = self._previous
        if self._previous is None and self.initialize_variables:
            initialize_all_variables()


class DonatingStatelessScope(StatelessScope):
    """A `StatelessScope` whose caller hands over some of the mapped values.

    The caller takes the scope's results as the new state (the trainer's step), so
    code in the scope may update the ``donated`` values in place (`is_donated`),
    e.g. torch's multi-tensor optimizer kernels. Keras's `StatelessScope` has no
    such argument; it lives on this subclass so that mb's keeps Keras's signature.

    Args:
        state_mapping: pairs ``(variable, value)`` of values to read instead.
        collect_losses: collect losses added with ``add_loss`` in ``losses``.
        initialize_variables: as in `StatelessScope`.
        donated: values of ``state_mapping`` that belong to the caller.

    Example:

    >>> import numpy as np
    >>> import mb_ops
    >>> from mb_ops import ops
    >>> v = mb_ops.Variable(np.array([1.0, 2.0], "float32"))
    >>> value = np.array([5.0, 6.0], "float32")
    >>> with mb_ops.DonatingStatelessScope([(v, value)], donated=[value]) as scope:
    ...     _ = v.assign(v + 1.0)
    >>> ops.convert_to_numpy(scope.get_current_value(v)).tolist()
    [6.0, 7.0]
    """

    def __init__(
        self,
        state_mapping: Any = None,
        collect_losses: bool = False,
        initialize_variables: bool = True,
        *,
        donated: Any = (),
    ) -> None:
        pairs = list(state_mapping or ())
        super().__init__(pairs, collect_losses, initialize_variables)
        # The caller holds the donated values alive, so their ids stay unique.
        donated_ids = {id(v) for v in donated}
        self._donated = {
            id(self.state_mapping[id(variable)])
            for variable, given in pairs
            if id(given) in donated_ids
        }


def get_stateless_scope() -> StatelessScope | None:
    """The active StatelessScope, or None.

    Returns:
        The innermost active ``StatelessScope`` of this thread, or None.

    Example:

    >>> import mb_ops
    >>> with mb_ops.StatelessScope() as scope:
    ...     print(mb_ops.get_stateless_scope() is scope)
    True
    >>> print(mb_ops.get_stateless_scope())
    None
    """
    return STATE.stateless_scope


def in_stateless_scope() -> bool:
    """Whether a StatelessScope is active in this thread.

    Returns:
        A bool.

    Example:

    >>> import mb_ops
    >>> with mb_ops.StatelessScope():
    ...     print(mb_ops.in_stateless_scope())
    True
    >>> mb_ops.in_stateless_scope()
    False
    """
    return STATE.stateless_scope is not None


def initialize_all_variables() -> None:
    """Initialize the variables whose initialization was deferred by a scope.

    Variables created in a ``StatelessScope(initialize_variables=False)`` wait for this
    call (or for an outer scope's exit) to get their values.

    Example:

    >>> import numpy as np
    >>> import mb_ops
    >>> from mb_ops import ops
    >>> def ones(shape, dtype):
    ...     return np.ones(shape, dtype)
    >>> with mb_ops.StatelessScope(initialize_variables=False):
    ...     v = mb_ops.Variable(ones, shape=(2,), dtype="float32")
    >>> mb_ops.initialize_all_variables()
    >>> ops.convert_to_numpy(v).tolist()
    [1.0, 1.0]
    """
    pending = STATE.uninitialized_variables
    STATE.uninitialized_variables = []
    for variable in pending:
        variable._deferred_initialize()


class SymbolicScope:
    """Marks code that runs during shape inference (symbolic tracing).

    Example:

    >>> import mb_ops
    >>> with mb_ops.SymbolicScope() as scope:
    ...     print(mb_ops.in_symbolic_scope(), mb_ops.get_symbolic_scope() is scope)
    True True
    """

    def __enter__(self) -> SymbolicScope:
        self._previous = STATE.symbolic_scope
        STATE.symbolic_scope = self
        return self

    def __exit__(self, *args: Any) -> None:
        STATE.symbolic_scope = self._previous


def in_symbolic_scope() -> bool:
    """Whether a SymbolicScope is active in this thread.

    Returns:
        A bool.

    Example:

    >>> import mb_ops
    >>> mb_ops.in_symbolic_scope()
    False
    >>> with mb_ops.SymbolicScope():
    ...     print(mb_ops.in_symbolic_scope())
    True
    """
    return STATE.symbolic_scope is not None


def get_symbolic_scope() -> SymbolicScope | None:
    """The active SymbolicScope, or None.

    Returns:
        The innermost active ``SymbolicScope`` of this thread, or None.

    Example:

    >>> import mb_ops
    >>> print(mb_ops.get_symbolic_scope())
    None
    """
    return STATE.symbolic_scope


class AutocastScope:
    """While active, float variables with ``autocast=True`` read as ``dtype``.

    Mixed-precision layers open one with their compute dtype, so float32 weights
    are read as float16 (or bfloat16) in their ``call``.

    Args:
        dtype: a float dtype (the compute dtype of a mixed-precision policy),
            or None to switch autocasting off inside an outer scope.

    Raises:
        ValueError: if ``dtype`` is not a float dtype.

    Example:

    >>> import numpy as np
    >>> import mb_ops
    >>> from mb_ops import ops
    >>> v = mb_ops.Variable(np.array([1.0], "float32"))
    >>> with mb_ops.AutocastScope("float16"):
    ...     print(ops.dtype(v.value))
    float16
    >>> ops.dtype(v.value)
    'float32'
    """

    def __init__(self, dtype: Any) -> None:
        if dtype is not None:
            dtype = _dtypes.standardize_dtype(dtype)
            if not _dtypes.is_float_dtype(dtype):
                raise ValueError(f"AutocastScope needs a float dtype, received dtype={dtype!r}.")
        self.dtype = dtype

    def __enter__(self) -> AutocastScope:
        self._previous = STATE.autocast_scope
        STATE.autocast_scope = self
        return self

    def __exit__(self, *args: Any) -> None:
        STATE.autocast_scope = self._previous


def get_autocast_scope() -> AutocastScope | None:
    """The active AutocastScope, or None.

    Returns:
        The innermost active ``AutocastScope`` of this thread, or None.

    Example:

    >>> import mb_ops
    >>> with mb_ops.AutocastScope("bfloat16"):
    ...     print(mb_ops.get_autocast_scope().dtype)
    bfloat16
    """
    return STATE.autocast_scope


class name_scope:
    """Prefix the paths of variables created inside (``"dense/kernel"``).

    Args:
        name: the path component to add (must not contain ``/``).
        caller: the object opening the scope (kept for the layers' use).
        deduplicate: skip the component when the innermost one is the same.
        override_parent: a ``/``-separated path to put this scope under instead
            of the scopes open around it (an absolute path).

    Example:
        >>> import mb_ops
        >>> with mb_ops.name_scope("outer"):
        ...     with mb_ops.name_scope("inner", override_parent="model/block"):
        ...         mb_ops.current_path()
        'model/block/inner'
    """

    # Keras 3's own signature (its JAX and TensorFlow scopes take ``**kwargs``).
    def __init__(self, name: str, **kwargs: Any) -> None:
        unknown = sorted(set(kwargs) - {"caller", "deduplicate", "override_parent"})
        if unknown:
            raise TypeError(
                f"name_scope got unexpected keyword arguments {unknown}. Expected "
                "caller=, deduplicate= or override_parent=."
            )
        if not isinstance(name, str) or not name or "/" in name:
            raise ValueError(
                f"name_scope needs a non-empty string name without '/', received {name!r}."
            )
        self.name = name
        self.caller = kwargs.get("caller")
        self.deduplicate = kwargs.get("deduplicate", True)
        self.override_parent = kwargs.get("override_parent")
        self._pushed = False

    def __enter__(self) -> name_scope:
        stack = STATE.name_scope_stack
        if (
            self.deduplicate
            and self.override_parent is None
            and stack
            and stack[-1].name == self.name
        ):
            return self
        stack.append(self)
        self._pushed = True
        return self

    def __exit__(self, *args: Any) -> None:
        if self._pushed:
            STATE.name_scope_stack.pop()
            self._pushed = False


def current_path() -> str:
    """The ``/``-joined names of the active name scopes (``""`` at top level).

    Returns:
        A string.

    Example:

    >>> import mb_ops
    >>> with mb_ops.name_scope("block"):
    ...     with mb_ops.name_scope("dense"):
    ...         print(mb_ops.current_path())
    block/dense
    >>> mb_ops.current_path()
    ''
    """
    parts: list[str] = []
    for scope in STATE.name_scope_stack:
        if scope.override_parent is not None:
            parts = [p for p in scope.override_parent.split("/") if p]
        parts.append(scope.name)
    return "/".join(parts)
