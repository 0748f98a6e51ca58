"""`Metric`: state held in non-trainable variables, updated with mb ops only.

Every metric keeps its running state in `mb_ops.Variable`s created with
`add_variable`. `update_state` and `result` use nothing but `mb_ops.ops`, with no
NumPy on tensors and no Python branching on tensor values, so the trainer can run
them inside its compiled, pure step (a `StatelessScope` maps each variable to a
value and collects the assignments). `stateless_update_state` and
`stateless_result` do the same for user code that keeps state explicitly.
"""

import mb_ops
from mb_graph import naming
from mb_layers import dtype_policies, initializers
from mb_ops import ops


def _check_super_called(metric):
    if "_variables" not in metric.__dict__:
        raise RuntimeError(
            f"{type(metric).__name__}.__init__ did not call `super().__init__()`. Call it "
            "first in your metric's __init__, before creating variables."
        )


_LAZY_BUILD_IN_SCOPE = (
    "{cls} creates its state variables from the shapes of the first batch it sees, but its "
    "first update_state ran inside a StatelessScope (a compiled or stateless step), where "
    "new variables cannot join the state. Update it once outside any such step first, e.g. "
    "`metric.update_state(y_true_sample, y_pred_sample); metric.reset_state()`{hint}."
)


def check_lazy_build(metric, hint=""):
    """Raises a clear error when `metric` would create its variables inside a StatelessScope."""
    if mb_ops.in_stateless_scope():
        raise RuntimeError(_LAZY_BUILD_IN_SCOPE.format(cls=type(metric).__name__, hint=hint))


class Metric:
    """Encapsulates a metric's state and logic (Keras 3's ``keras.metrics.Metric``).

    Subclasses create their state in ``__init__`` with `add_variable`, accumulate
    in `update_state` (``self.var.assign(self.var + ...)``) and compute the value
    in `result`.

    Args:
        dtype: the dtype of the metric's computations; None means
            `mb_ops.config.floatx()`. A dtype policy gives its compute dtype.
        name: the metric's name; default: the snake-case class name, made unique.

    Example:

    >>> class Count(Metric):
    ...     def __init__(self, name="count"):
    ...         super().__init__(name=name)
    ...         self.n = self.add_variable(shape=(), initializer="zeros", name="n")
    ...     def update_state(self, values):
    ...         self.n.assign(self.n.value + ops.cast(ops.size(values), self.dtype))
    ...     def result(self):
    ...         return self.n.value
    >>> m = Count()
    >>> m.update_state([1, 2, 3])
    >>> float(m.result())
    3.0
    """

    def __init__(self, dtype=None, name=None):
        if name is not None and not isinstance(name, str):
            raise TypeError(
                f"A metric name must be a string. Received: name={name!r} "
                f"(of type {type(name).__name__})."
            )
        self.__dict__["_variables"] = []
        self.__dict__["_metrics"] = []
        self.name = name or naming.auto_name(type(self).__name__)
        self._dtype_policy = dtype_policies.get(dtype or mb_ops.config.floatx())
        self._dtype = self._dtype_policy.compute_dtype

    # ----- state ---------------------------------------------------------------------

    def add_variable(self, shape, initializer, dtype=None, aggregation="sum", name=None):
        """Creates a non-trainable state variable tracked by this metric.

        Args:
            shape: the variable's shape (a tuple of ints).
            initializer: an initializer, its name (``"zeros"``) or a callable.
            dtype: the variable's dtype; default: `mb_ops.config.floatx()`.
            aggregation: how replicas combine it (``"sum"``, ``"mean"``, ...).
            name: the variable's name.
        """
        _check_super_called(self)
        init = initializers.get(initializer)
        if init is None:
            raise ValueError(
                f"{type(self).__name__}.add_variable needs an initializer, e.g. 'zeros'. "
                f"Received: initializer={initializer!r}."
            )
        dtype = dtype or mb_ops.config.floatx()
        with mb_ops.name_scope(self.name.replace("/", ">"), caller=self):
            variable = mb_ops.Variable(
                initializer=init,
                shape=tuple(shape),
                dtype=dtype,
                trainable=False,
                aggregation=aggregation,
                synchronization="on_read",
                name=name,
            )
        self._variables.append(variable)
        return variable

    def add_weight(self, shape=(), initializer=None, dtype=None, name=None):
        """Alias of `add_variable` (Keras 2 name); the initializer defaults to zeros."""
        return self.add_variable(
            shape=shape, initializer=initializer or "zeros", dtype=dtype, name=name
        )

    @property
    def variables(self):
        """This metric's state variables, then those of the metrics it holds."""
        out = list(self._variables)
        for metric in self._metrics:
            out.extend(metric.variables)
        return out

    def __setattr__(self, name, value):
        # Metrics held as attributes contribute their variables (as Keras tracks them).
        tracked = self.__dict__.get("_metrics")
        new = tracked is not None and isinstance(value, Metric)
        if new and not any(value is m for m in tracked):
            tracked.append(value)
        super().__setattr__(name, value)

    @property
    def dtype(self):
        """The compute dtype (a string such as ``"float32"``)."""
        return self._dtype

    # ----- the metric's logic ---------------------------------------------------------

    def update_state(self, *args, **kwargs):
        """Accumulates statistics for the metric (subclasses implement it)."""
        raise NotImplementedError(
            f"{type(self).__name__} must implement update_state(...) to accumulate its state."
        )

    def result(self):
        """The current value: a scalar tensor (or a tensor, or a dict of them)."""
        raise NotImplementedError(
            f"{type(self).__name__} must implement result() to compute its value."
        )

    def reset_state(self):
        """Sets every state variable back to zeros (called between epochs)."""
        for variable in self.variables:
            variable.assign(ops.zeros(variable.shape, dtype=variable.dtype))

    def __call__(self, *args, **kwargs):
        """`update_state` with the arguments, then returns `result()`."""
        _check_super_called(self)
        self.update_state(*args, **kwargs)
        return self.result()

    # ----- stateless use --------------------------------------------------------------

    def _mapping(self, metric_variables, method):
        variables = self.variables
        metric_variables = list(metric_variables)
        if len(metric_variables) != len(variables):
            raise ValueError(
                f"{type(self).__name__}.{method} expects `metric_variables` to match "
                f"{type(self).__name__}().variables one to one ({len(variables)} values). "
                f"Received {len(metric_variables)} values."
            )
        return list(zip(variables, metric_variables, strict=True))

    def _collect(self, scope):
        out = []
        for variable in self.variables:
            value = scope.get_current_value(variable)
            out.append(variable.value if value is None else value)
        return out

    def stateless_update_state(self, metric_variables, *args, **kwargs):
        """`update_state` on explicit values; returns the new values (variables untouched)."""
        mapping = self._mapping(metric_variables, "stateless_update_state")
        with mb_ops.StatelessScope(mapping) as scope:
            self.update_state(*args, **kwargs)
            return self._collect(scope)

    def stateless_result(self, metric_variables):
        """`result` computed from explicit values of `variables`."""
        mapping = self._mapping(metric_variables, "stateless_result")
        with mb_ops.StatelessScope(mapping):
            return self.result()

    def stateless_reset_state(self):
        """The values `reset_state` would assign, without changing the variables."""
        with mb_ops.StatelessScope() as scope:
            self.reset_state()
            return self._collect(scope)

    # ----- configuration --------------------------------------------------------------

    def get_config(self):
        """The constructor arguments that rebuild this metric."""
        return {"name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config):
        """A new metric from `get_config()`'s output."""
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"

    __str__ = __repr__
