"""The ``layer`` contract module of the JAX backend: mb layers inside JAX transformations.

Two ways to use an mb layer (or any object holding ``mb_ops.Variable``) inside
``jax.jit``/``jax.grad``/``jax.vmap`` written by the user:

1. Pass the layer itself. ``BackendLayer`` (mixed into ``mb_layers.Layer``)
   registers every layer class as a JAX pytree whose leaves are the current
   values of ``layer.variables``. Inside the transformation the layer arrives
   as a ``BoundLayer``: calling it runs the real layer with its variables
   reading the traced leaves, and any ``assign`` (batch-norm statistics, seed
   generators) updates the bound leaves. Return the bound layer to get the new
   state out, and ``commit()`` it to write the values into the variables::

       @jax.jit
       def step(model, x):
           return model(x), model          # outputs and the updated state

       y, new_model = step(model, x)
       new_model.commit()                  # variables now hold the new state

       grads = jax.grad(lambda m: loss(m(x)))(model)   # a BoundLayer of gradients
       grads.values_by_path()              # {"dense/kernel": ..., ...}

2. The explicit stateless pattern: ``functional(fn, variables)`` returns a
   pure ``f(values, *args) -> (outputs, new_values)``.

Variables are never changed by code running under a transformation: the
results come out as values and are written back explicitly, so reading a
variable from ordinary code always gives its live value.
"""

import inspect

import jax

from mb_ops import StatelessScope


def _variables_of(layer):
    variables = getattr(layer, "variables", None)
    if variables is None:
        raise TypeError(
            f"{type(layer).__name__} has no `variables` attribute, so JAX cannot see its "
            "state. BackendLayer expects the host class to list its mb_ops.Variable objects "
            "in `variables` (as mb_layers.Layer does)."
        )
    return list(variables)


def functional(fn, variables):
    """Turn ``fn`` (which reads/assigns ``variables``) into a pure function.

    Args:
        fn: any callable that reads or assigns the given variables.
        variables: the ``mb_ops.Variable`` objects to make explicit.

    Returns:
        ``pure(values, *args, **kwargs) -> (outputs, new_values)``, where
        ``values``/``new_values`` are lists in the order of ``variables``.
        ``pure`` can be wrapped in ``jax.jit``/``jax.grad``.
    """
    variables = list(variables)

    def pure(values, *args, **kwargs):
        values = list(values)
        if len(values) != len(variables):
            raise ValueError(
                f"functional: expected {len(variables)} values (one per variable), "
                f"received {len(values)}."
            )
        with StatelessScope(state_mapping=list(zip(variables, values, strict=True))) as scope:
            outputs = fn(*args, **kwargs)
        return outputs, [scope.get_current_value(v) for v in variables]

    return pure


class BoundLayer:
    """A layer whose variables read explicit values (what a layer is inside ``jax.jit``).

    Calling it runs the layer against the bound values; assignments made by the
    call update the bound values. Attribute access falls through to the layer.
    """

    def __init__(self, layer, variables, values):
        self.layer = layer
        self.variables = variables
        self.values = list(values)

    def __call__(self, *args, **kwargs):
        pure = functional(self.layer, self.variables)
        outputs, self.values = pure(self.values, *args, **kwargs)
        return outputs

    def with_values(self, values):
        """The same layer bound to other ``values`` (e.g. after an optimizer step)."""
        return BoundLayer(self.layer, self.variables, values)

    def values_by_path(self):
        """``{variable.path: value}`` for every bound variable."""
        return {v.path: value for v, value in zip(self.variables, self.values, strict=True)}

    def commit(self):
        """Write the bound values into the layer's variables (outside transformations)."""
        for variable, value in zip(self.variables, self.values, strict=True):
            if isinstance(value, jax.core.Tracer):
                raise ValueError(
                    f"BoundLayer.commit() was called inside a JAX transformation (variable "
                    f"{variable.path!r} holds a tracer). Return the bound layer from the "
                    "transformed function and commit the result outside."
                )
            variable.assign(value)
        return self.layer

    def __getattr__(self, name):
        return getattr(self.layer, name)

    def __repr__(self):
        return f"<BoundLayer of {self.layer!r}: {len(self.values)} values>"


class _Binding:
    """Pytree aux data: the layer and its variables, compared by identity."""

    __slots__ = ("layer", "variables")

    def __init__(self, layer, variables):
        self.layer = layer
        self.variables = tuple(variables)

    def __eq__(self, other):
        return (
            isinstance(other, _Binding)
            and other.layer is self.layer
            and len(other.variables) == len(self.variables)
            and all(a is b for a, b in zip(other.variables, self.variables, strict=True))
        )

    def __hash__(self):
        return hash((id(self.layer), *map(id, self.variables)))


def _flatten_layer(layer):
    variables = _variables_of(layer)
    return [v.value for v in variables], _Binding(layer, variables)


def _flatten_bound(bound):
    return list(bound.values), _Binding(bound.layer, bound.variables)


def _unflatten(binding, leaves):
    return BoundLayer(binding.layer, list(binding.variables), leaves)


jax.tree_util.register_pytree_node(BoundLayer, _flatten_bound, _unflatten)


class BackendLayer:
    """Mixin for ``mb_layers.Layer`` on JAX: every layer class becomes a JAX pytree.

    The host class provides ``variables`` (its ``mb_ops.Variable`` objects) and
    ``__call__``. See the module docstring for how layers behave inside
    ``jax.jit``/``jax.grad``.
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        jax.tree_util.register_pytree_node(cls, _flatten_layer, _unflatten)

    def bind(self, values):
        """This layer with its variables reading ``values`` (list, in ``variables`` order)."""
        return BoundLayer(self, _variables_of(self), values)


# ----- JaxLayer / FlaxLayer: JAX functions and Flax modules inside an mb layer ---------


def jax_tree_flatten(tree):
    """``(leaves, treedef)`` of a JAX pytree (``mb_layers.layers.JaxLayer``'s weights)."""
    return jax.tree_util.tree_flatten(tree)


def jax_tree_unflatten(treedef, leaves):
    """The pytree of `treedef` holding `leaves`."""
    return jax.tree_util.tree_unflatten(treedef, list(leaves))


def jax_rng_key(seed):
    """A raw ``uint32[2]`` JAX key from an mb seed (a tensor of shape (2,))."""
    return jax.numpy.asarray(seed, dtype="uint32")


def flax_functions(module, method=None):
    """``(init_fn, call_fn)`` of a ``flax.linen.Module`` in ``JaxLayer``'s conventions.

    The ``"params"`` collection is trainable; every other collection (batch
    statistics, ...) is state, updated by each call (``mutable`` is every
    collection but ``"params"``). ``rng`` feeds the ``"params"`` and ``"dropout"``
    streams. ``method`` is a method name, a function taking the module first, or
    None for ``__call__``; ``training`` is passed when the method takes it.
    """
    import flax  # an optional extra of this backend: mb-backend-jax[flax]

    if not isinstance(module, flax.linen.Module):
        raise TypeError(
            "FlaxLayer wraps a flax.linen.Module. Received: "
            f"{module!r} (of type {type(module).__name__})."
        )
    if method is None:
        target = module.__call__
    elif isinstance(method, str):
        target = getattr(module, method)
    else:
        target = method
    takes_training = "training" in inspect.signature(target).parameters
    apply_method = method if method is not None else None

    def options(training):
        return {"training": training} if takes_training else {}

    def split(variables):
        variables = flax.core.unfreeze(variables)
        params = variables.pop("params", {})
        return params, variables

    def init_fn(rng, inputs, training):
        keys = dict(zip(("params", "dropout"), jax.random.split(rng), strict=True))
        variables = module.init(keys, inputs, method=apply_method, **options(training))
        return split(variables)

    def call_fn(params, state, rng, inputs, training):
        variables = {"params": params, **state}
        rngs = {"dropout": rng} if rng is not None else None
        outputs, new_state = module.apply(
            variables,
            inputs,
            rngs=rngs,
            method=apply_method,
            mutable=flax.core.DenyList(["params"]),
            **options(training),
        )
        return outputs, flax.core.unfreeze(new_state)

    return init_fn, call_fn


UNSUPPORTED = {}
