"""The optimizer's own variables: creating, tracking, naming and saving them."""

import warnings

from mb_layers import initializers
from mb_ops import Variable, config, name_scope


class VariablesMixin:
    """Creation and bookkeeping of optimizer variables, in Keras 3's order and names."""

    def _track_variable(self, variable):
        if id(variable) not in self._tracked_ids:
            self._tracked_ids.add(id(variable))
            self._variables.append(variable)

    def _untrack_variable(self, variable):
        if id(variable) in self._tracked_ids:
            self._tracked_ids.discard(id(variable))
            self._variables = [v for v in self._variables if v is not variable]

    def __setattr__(self, name, value):
        # A Variable set as an attribute is the optimizer's (as in Keras), unless it
        # is a model's trainable variable.
        if isinstance(value, Variable) and not value.trainable and "_tracked_ids" in self.__dict__:
            self._track_variable(value)
        object.__setattr__(self, name, value)

    @property
    def variables(self):
        """Every optimizer variable, in Keras's (and the ``.keras`` file's) order."""
        return list(self._variables)

    def add_variable(
        self,
        shape,
        initializer="zeros",
        dtype=None,
        aggregation="none",
        layout=None,
        name=None,
    ):
        """Creates a non-trainable variable owned by the optimizer.

        Args:
            shape: the variable's (fully known) shape.
            initializer: an initializer or its name (default ``"zeros"``).
            dtype: the dtype (default: floatx).
            aggregation: the distribution aggregation hint.
            layout: a distribution layout.
            name: the variable's name.
        """
        initializer = initializers.get(initializer)
        with name_scope(self.name, caller=self):
            variable = Variable(
                initializer=initializer,
                shape=shape,
                dtype=dtype or config.floatx(),
                trainable=False,
                aggregation=aggregation,
                layout=layout,
                name=name,
            )
        self._track_variable(variable)
        return variable

    def add_variable_from_reference(self, reference_variable, name=None, initializer="zeros"):
        """A slot variable shaped like `reference_variable`, named ``{path}_{name}``.

        ``dense/kernel`` with ``name="momentum"`` gives ``dense_kernel_momentum``.
        """
        name = name or "var"
        path = getattr(reference_variable, "path", None)
        prefix = path.replace("/", "_") if path else str(reference_variable.name).replace("/", "_")
        return self.add_variable(
            shape=reference_variable.shape,
            initializer=initializer,
            dtype=reference_variable.dtype,
            name=f"{prefix.replace(':', '_')}_{name}",
            layout=getattr(reference_variable, "_layout", None),
        )

    def add_optimizer_variables(self, trainable_variables, name, initializer="zeros"):
        """Slot variables for each trainable variable, interleaved per variable.

        Args:
            trainable_variables: the model variables.
            name: one slot name, or a list of names (then one list per name).
            initializer: one initializer, or one per name.

        Returns:
            A list (one name) or a tuple of lists; variables with
            ``overwrite_with_gradient`` get None.
        """
        names = [name] if isinstance(name, str) else list(name)
        inits = initializer if isinstance(initializer, list | tuple) else [initializer] * len(names)
        if len(inits) != len(names):
            raise ValueError(
                "add_optimizer_variables: the number of names must match the number of "
                f"initializers. Received name={name!r}, initializer={initializer!r}."
            )
        columns = tuple([] for _ in names)
        for variable in trainable_variables:
            for column, slot_name, init in zip(columns, names, inits, strict=True):
                if variable.overwrite_with_gradient:
                    column.append(None)
                else:
                    column.append(
                        self.add_variable_from_reference(variable, slot_name, initializer=init)
                    )
        return columns[0] if isinstance(name, str) else columns

    def _get_variable_index(self, variable):
        return self._trainable_variables_indices[id(variable)]

    def _check_variables_are_known(self, variables):
        indices = self._trainable_variables_indices
        if all(map(indices.__contains__, map(id, variables))):
            return
        for variable in variables:
            if id(variable) not in indices:
                raise ValueError(
                    f"Unknown variable: {getattr(variable, 'path', variable)!r}. This optimizer "
                    "can only be called for the variables it was built with. When working "
                    "with a new set of variables, create a new optimizer instance."
                )

    def assign(self, variable, value):
        """``variable.assign(value)`` (the hook Keras optimizers write updates through)."""
        variable.assign(value)

    def assign_add(self, variable, value):
        variable.assign_add(value)

    def assign_sub(self, variable, value):
        variable.assign_sub(value)

    def set_weights(self, weights):
        """Sets every optimizer variable from a list of arrays (in `variables` order)."""
        if not self.built:
            raise ValueError(
                "set_weights() was called on an optimizer that has not been built. Call "
                "`optimizer.build(trainable_variables)` first."
            )
        weights = list(weights)
        if len(weights) != len(self.variables):
            raise ValueError(
                f"set_weights() received {len(weights)} arrays, but optimizer '{self.name}' "
                f"has {len(self.variables)} variables."
            )
        for variable, weight in zip(self.variables, weights, strict=True):
            if tuple(variable.shape) != tuple(getattr(weight, "shape", ())):
                raise ValueError(
                    f"Optimizer variable {variable.path!r} has shape {variable.shape}, not "
                    f"compatible with the provided weight of shape {tuple(weight.shape)}."
                )
            variable.assign(weight)

    def save_own_variables(self, store):
        """Writes ``store["0"], store["1"], ...`` in `variables` order (the .keras layout)."""
        for i, variable in enumerate(self.variables):
            store[str(i)] = variable.numpy()

    def load_own_variables(self, store):
        """Reads what `save_own_variables` wrote; warns and skips on a count mismatch."""
        variables = self.variables
        if len(store.keys()) != len(variables):
            message = (
                f"Skipping variable loading for optimizer '{self.name}', because it has "
                f"{len(variables)} variables whereas the saved optimizer has "
                f"{len(store.keys())} variables."
            )
            if not self.built:
                message += " The optimizer has not been built yet: build it first."
            warnings.warn(message, stacklevel=2)
            return
        for i, variable in enumerate(variables):
            variable.assign(store[str(i)])
