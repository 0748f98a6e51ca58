"""The state side of `Layer`: variables, sub-layers, weights, losses, metrics, and
calls on given variable values."""

import numpy as np

from mb_graph import KerasTensor, tree
from mb_layers import _backend
from mb_layers import constraints as constraints_module
from mb_layers import initializers as initializers_module
from mb_layers import regularizers as regularizers_module
from mb_layers._tracking import structure_changed
from mb_ops import (
    StatelessScope,
    Variable,
    dtypes,
    get_stateless_scope,
    in_stateless_scope,
    in_symbolic_scope,
    name_scope,
)
from mb_ops.random import SeedGenerator


def _hook(layer, name):
    return getattr(type(layer), name, None)


def _is_metric(obj):
    # Metrics live in mb-train, above this package: recognised by their interface.
    return (
        not isinstance(obj, (type, LayerStateMixin))
        and hasattr(obj, "update_state")
        and hasattr(obj, "result")
        and hasattr(obj, "variables")
    )


def _held_values(value):
    if isinstance(value, (list, tuple)):
        return value
    if isinstance(value, dict):
        return list(value.values())
    return (value,)


def _positional_weight_args(args, shape, initializer, dtype):
    """``add_weight``'s Keras 2 positional ``(shape, initializer, dtype)``, checked."""
    if len(args) > 3:
        raise TypeError(
            f"add_weight() takes at most 3 positional arguments (shape, initializer, dtype); "
            f"{len(args)} were given. Pass the others by keyword, e.g. name='kernel'."
        )
    if isinstance(args[0], str):
        raise ValueError(
            f"add_weight() takes `name` as a keyword argument. Received: add_weight("
            f"{args[0]!r}, ...). Use: add_weight(shape=..., name={args[0]!r})."
        )
    given = {"shape": shape, "initializer": initializer, "dtype": dtype}
    for key, value in zip(given, args, strict=False):
        if given[key] is not None:
            raise ValueError(
                f"add_weight() received `{key}` both positionally and as a keyword argument."
            )
        given[key] = value
    return given["shape"], given["initializer"], given["dtype"]


class LayerStateMixin:
    """Tracking of variables and sub-layers, weights, and losses (mixed into `Layer`)."""

    # ----- creating weights -------------------------------------------------------------------

    def add_weight(
        self,
        *args,
        shape=None,
        initializer=None,
        dtype=None,
        trainable=True,
        autocast=True,
        regularizer=None,
        constraint=None,
        aggregation="none",
        overwrite_with_gradient=False,
        name=None,
    ):
        """Creates a variable of the active backend and tracks it.

        Args:
            shape: the variable's shape (default: a scalar).
            initializer: an initializer (name, dict config, callable or
                instance); default ``"glorot_uniform"`` for floats, else
                ``"zeros"``.
            dtype: default: the layer's variable dtype.
            trainable: whether optimizers update it.
            autocast: whether it reads as the compute dtype under mixed precision.
            regularizer: a penalty added to `losses`.
            constraint: applied by optimizers after each update.
            aggregation: distribution hint.
            overwrite_with_gradient: optimizers assign the gradient instead.
            name: the variable's name; its path is ``<layer name>/<name>``.

        The Keras 2 positional form ``add_weight(shape, initializer, dtype)`` is accepted;
        every other argument is keyword-only, as in Keras 3.

        Returns:
            The Variable.
        """
        self._check_super_called()
        if args:
            shape, initializer, dtype = _positional_weight_args(args, shape, initializer, dtype)
        shape = () if shape is None else shape
        dtype = self.variable_dtype if dtype is None else dtypes.standardize_dtype(dtype)
        if initializer is None:
            initializer = "glorot_uniform" if dtypes.is_float_dtype(dtype) else "zeros"
        initializer = initializers_module.get(initializer)
        variable_class = _backend.variable_class()
        with name_scope(self.name, caller=self):
            variable = variable_class(
                initializer,
                shape=shape,
                dtype=dtype,
                trainable=trainable,
                autocast=autocast,
                aggregation=aggregation,
                name=name,
            )
        variable.regularizer = regularizers_module.get(regularizer)
        if constraint is not None:
            variable.constraint = constraints_module.get(constraint)
        variable.overwrite_with_gradient = bool(overwrite_with_gradient)
        self._track_variable(variable)
        return variable

    def add_variable(
        self,
        shape,
        initializer,
        dtype=None,
        trainable=True,
        autocast=True,
        regularizer=None,
        constraint=None,
        name=None,
    ):
        """Same as `add_weight` (positional shape and initializer first)."""
        return self.add_weight(
            shape=shape,
            initializer=initializer,
            dtype=dtype,
            trainable=trainable,
            autocast=autocast,
            regularizer=regularizer,
            constraint=constraint,
            name=name,
        )

    # ----- tracking ------------------------------------------------------------------

    def _track_object(self, value):
        if isinstance(value, LayerStateMixin):
            if not any(value is layer for layer in self._layers):
                self._layers.append(value)
                structure_changed()
        elif isinstance(value, Variable):
            self._track_variable(value)
        elif isinstance(value, SeedGenerator) and not any(
            value is g for g in self._seed_generators
        ):
            self._seed_generators.append(value)
            structure_changed()

    def _untrack_object(self, value):
        if isinstance(value, LayerStateMixin):
            self._layers[:] = [layer for layer in self._layers if layer is not value]
            structure_changed()
        elif isinstance(value, Variable):
            self._untrack_variable(value)
        elif isinstance(value, SeedGenerator):
            self._seed_generators[:] = [g for g in self._seed_generators if g is not value]
            structure_changed()

    def _track_variable(self, variable):
        own = self._trainable_variables + self._non_trainable_variables
        if any(variable is v for v in own):
            return
        if variable.trainable:
            self._trainable_variables.append(variable)
        else:
            self._non_trainable_variables.append(variable)
        if not self.trainable:  # a layer frozen before it built makes frozen variables
            variable.trainable = False
        structure_changed()
        post = _hook(self, "_post_track_variable")
        if post is not None:
            post(self, variable)

    def _untrack_variable(self, variable):
        for group in (self._trainable_variables, self._non_trainable_variables):
            group[:] = [v for v in group if v is not variable]
        structure_changed()
        post = _hook(self, "_post_untrack_variable")
        if post is not None:
            post(self, variable)

    def _flatten_layers(self, include_self=True, recursive=True):
        """This layer (optionally) and its sub-layers, depth first, each once."""
        layers = [self] if include_self else []
        seen = {id(self)}
        stack = list(reversed(self._layers))
        while stack:
            layer = stack.pop()
            if id(layer) in seen:
                continue
            seen.add(id(layer))
            layers.append(layer)
            if recursive:
                stack.extend(reversed(layer._layers))
        return layers

    @property
    def layers(self):
        """Direct sub-layers, in the order they were assigned."""
        return list(self._layers)

    # ----- variables and weights -----------------------------------------------------

    def _collect(self, own, child_attribute):
        out, seen = [], set()
        for v in own:
            if id(v) not in seen:
                seen.add(id(v))
                out.append(v)
        for layer in self._layers:
            for v in getattr(layer, child_attribute):
                if id(v) not in seen:
                    seen.add(id(v))
                    out.append(v)
        return out

    @property
    def variables(self):
        """Every variable of the layer and its sub-layers, seed generator states included."""
        own = self._trainable_variables + self._non_trainable_variables
        own = own + [g.state for g in self._seed_generators]
        return self._collect(own, "variables")

    @property
    def trainable_variables(self):
        if not self.trainable:
            return []
        return [v for v in self.variables if v.trainable]

    @property
    def non_trainable_variables(self):
        if not self.trainable:
            return self.variables
        return [v for v in self.variables if not v.trainable]

    @property
    def weights(self):
        """The layer's weight variables (seed generator states excluded)."""
        return self._collect(self._trainable_variables + self._non_trainable_variables, "weights")

    @property
    def trainable_weights(self):
        if not self.trainable:
            return []
        return [v for v in self.weights if v.trainable]

    @property
    def non_trainable_weights(self):
        if not self.trainable:
            return self.weights
        return [v for v in self.weights if not v.trainable]

    def get_weights(self):
        """The values of `weights`, as NumPy arrays."""
        return [np.asarray(v.numpy()) for v in self.weights]

    def set_weights(self, weights):
        """Assigns `weights` (arrays, in the order of `weights`) to the layer's weights.

        Raises:
            ValueError: when the number of arrays or a shape does not match;
                the error names the variable.
        """
        variables = self.weights
        if len(weights) != len(variables):
            raise ValueError(
                f"Layer '{self.name}' has {len(variables)} weights "
                f"({', '.join(v.path for v in variables) or 'none'}), but set_weights "
                f"received {len(weights)} arrays. Pass one array per weight, in the order "
                "of `layer.weights`."
            )
        values = []
        for variable, value in zip(variables, weights, strict=True):
            shape = tuple(np.shape(value))
            if shape != tuple(variable.shape):
                raise ValueError(
                    f"Layer '{self.name}': cannot assign an array of shape {shape} to weight "
                    f"'{variable.path}' of shape {tuple(variable.shape)}."
                )
            values.append(value)
        for variable, value in zip(variables, values, strict=True):
            variable.assign(value)

    def count_params(self):
        """The number of scalars in the layer's weights."""
        if not self.built:
            raise ValueError(
                f"Layer '{self.name}' is not built yet, so it has no weights to count. "
                "Call it on data or call `build(input_shape)` first."
            )
        return int(sum(int(np.prod(v.shape)) for v in self.weights))

    def save_own_variables(self, store):
        """Writes this layer's own variables into `store` as ``"0"``, ``"1"``, ... ."""
        for i, v in enumerate(self._trainable_variables + self._non_trainable_variables):
            store[str(i)] = v.numpy()

    def load_own_variables(self, store):
        """Assigns this layer's own variables from `store` (written by `save_own_variables`)."""
        own = self._trainable_variables + self._non_trainable_variables
        if len(store) != len(own):
            raise ValueError(
                f"Layer '{self.name}' expected {len(own)} variables "
                f"({', '.join(v.path for v in own) or 'none'}), but received {len(store)} "
                "variables during loading."
            )
        for i, v in enumerate(own):
            v.assign(store[str(i)])

    # ----- losses --------------------------------------------------------------------

    def add_loss(self, loss):
        """Records a loss tensor (activity regularization, custom penalties)."""
        losses = tree.flatten(loss)
        if any(isinstance(x, KerasTensor) for x in losses):
            # A symbolic call (building a functional graph) has no values to record;
            # the loss is added when the graph runs on data.
            return
        for x in losses:
            if not _backend.is_tensor(x):
                raise ValueError(
                    f"Layer '{self.name}': add_loss() takes tensors of the active backend. "
                    f"Received: {x!r} (of type {type(x).__name__})."
                )
        if in_stateless_scope():
            scope = get_stateless_scope()
            if scope.collect_losses:
                for x in losses:
                    scope.add_loss(x)
                    self._loss_ids.add(id(x))
        else:
            self._losses.extend(losses)

    def _get_own_losses(self):
        if in_stateless_scope():
            scope = get_stateless_scope()
            return [x for x in scope.losses if id(x) in self._loss_ids]
        return list(self._losses)

    def _clear_losses(self):
        stateless = in_stateless_scope()
        for layer in self._flatten_layers():
            # Replaced only when not empty already: an attribute set goes through the
            # layer's tracking and the engine's __setattr__, on every model call.
            if stateless:
                if layer._loss_ids:
                    layer._loss_ids = set()
            elif layer._losses:
                layer._losses = []

    @property
    def losses(self):
        """Losses added during the last call, plus the weight regularization penalties."""
        losses = []
        for layer in self._flatten_layers():
            losses.extend(layer._get_own_losses())
        for variable in self.trainable_weights:
            if variable.regularizer is None:
                continue
            if in_stateless_scope() and not in_symbolic_scope():
                value = get_stateless_scope().get_current_value(variable)
                value = variable if value is None else value
            else:
                value = variable
            losses.append(variable.regularizer(value))
        return losses

    # ----- metrics -------------------------------------------------------------------

    @property
    def metrics(self):
        """The metric objects the layer holds (as attributes, or in lists, tuples and
        dicts held as attributes), then its sub-layers', in Keras's order."""
        found = []
        for value in vars(self).values():
            for item in _held_values(value):
                if _is_metric(item) and not any(item is m for m in found):
                    found.append(item)
        for layer in self._layers:
            found.extend(m for m in layer.metrics if not any(m is f for f in found))
        return found

    @property
    def metrics_variables(self):
        """The variables of `metrics`, each once."""
        seen, out = set(), []
        for metric in self.metrics:
            for v in metric.variables:
                if id(v) not in seen:
                    seen.add(id(v))
                    out.append(v)
        return out

    # ----- stateless call ------------------------------------------------------------

    def stateless_call(
        self, trainable_variables, non_trainable_variables, *args, return_losses=False, **kwargs
    ):
        """Calls the layer with the given variable values, mutating nothing.

        Returns:
            ``(outputs, non_trainable_variables)`` with the new values of the
            non-trainable variables, and the losses as a third element when
            `return_losses`.
        """
        trainable = self.trainable_variables
        non_trainable = self.non_trainable_variables
        if len(trainable_variables) != len(trainable) or len(non_trainable_variables) != len(
            non_trainable
        ):
            raise ValueError(
                f"Layer '{self.name}' has {len(trainable)} trainable and "
                f"{len(non_trainable)} non-trainable variables, but stateless_call received "
                f"{len(trainable_variables)} and {len(non_trainable_variables)} values."
            )
        mapping = list(zip(trainable, trainable_variables, strict=True)) + list(
            zip(non_trainable, non_trainable_variables, strict=True)
        )
        with StatelessScope(state_mapping=mapping, collect_losses=return_losses) as scope:
            outputs = self(*args, **kwargs)
            losses = self.losses if return_losses else None
        new_values = []
        for variable, value in zip(non_trainable, non_trainable_variables, strict=True):
            current = scope.get_current_value(variable)
            new_values.append(value if current is None else current)
        if return_losses:
            return outputs, new_values, losses
        return outputs, new_values
