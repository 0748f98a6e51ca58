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
        >>> v = mb_ops.Variable(1.0)  # doctest: +SKIP
        >>> with StatelessScope([(v, 2.0)]) as scope:  # doctest: +SKIP
        ...     v.assign_add(1.0)
        >>> scope.get_current_value(v), v.numpy()  # doctest: +SKIP
        (3.0, 1.0)
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
        state_mapping, collect_losses, initialize_variables: as `StatelessScope`.
        donated: values of ``state_mapping`` that belong to the caller.
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
    """The active StatelessScope, or None."""
    return STATE.stateless_scope


def in_stateless_scope() -> bool:
    """Whether a StatelessScope is active in this thread."""
    return STATE.stateless_scope is not None


def initialize_all_variables() -> None:
    """Initialize the variables whose initialization was deferred by a scope."""
    pending = STATE.uninitialized_variables
    STATE.uninitialized_variables = []
    for variable in pending:
        variable._deferred_initialize()


class SymbolicScope:
    """Marks code that runs during shape inference (symbolic tracing)."""

    def __enter__(self) -> SymbolicScope:
        self._previous = STATE.symbolic_scope
        STATE.symbolic_scope = self
        return self

    def __exit__(self, *args: Any) -> None:
        STATE.symbolic_scope = self._previous


def in_symbolic_scope() -> bool:
    """Whether a SymbolicScope is active in this thread."""
    return STATE.symbolic_scope is not None


def get_symbolic_scope() -> SymbolicScope | None:
    return STATE.symbolic_scope


class AutocastScope:
    """While active, float variables with ``autocast=True`` read as ``dtype``.

    Args:
        dtype: a float dtype (the compute dtype of a mixed-precision policy),
            or None to switch autocasting off inside an outer scope.
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
    """The ``/``-joined names of the active name scopes (``""`` at top level)."""
    parts: list[str] = []
    for scope in STATE.name_scope_stack:
        if scope.override_parent is not None:
            parts = [p for p in scope.override_parent.split("/") if p]
        parts.append(scope.name)
    return "/".join(parts)
