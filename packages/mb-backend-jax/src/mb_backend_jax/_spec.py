"""``compute_output_spec``: the outputs a function would return, without running it for real."""

import jax
from jax import export as jax_export

import mb_ops
from mb_ops import StatelessScope, SymbolicScope

_STATIC_TYPES = (type(None), int, float, str, bool, complex, bytes)


def refused_symbolic(error):
    """Whether ``error`` is JAX refusing a KerasTensor handed to a ``jax.numpy`` function.

    JAX raises its own ``ValueError`` about ``__jax_array__`` during abstractification
    (before asking the KerasTensor, which would raise ``mb_graph.EngineConversionError``),
    or a ``TypeError`` naming the type. A layer whose ``call`` uses ``jnp.*`` directly is
    then traced with `compute_output_spec` instead, as Keras does.
    """
    message = str(error)
    if isinstance(error, ValueError):
        return "__jax_array__" in message
    return isinstance(error, TypeError) and "KerasTensor" in message


def compute_output_spec(fn, *args, **kwargs):
    """Run ``fn`` on abstract values to get its output shapes and dtypes.

    ``KerasTensor`` arguments (anywhere in nested args) become
    ``jax.ShapeDtypeStruct``; unknown dimensions share one symbolic size
    (at least 2, so JAX neither broadcasts nor squeezes it). Nothing is
    computed. Returns the outputs as ``KerasTensor`` in the same structure.
    """
    # mb_ops re-exports mb_graph's KerasTensor (the only mb import allowed here).
    KerasTensor = mb_ops.KerasTensor
    with StatelessScope(), SymbolicScope():
        dynamic = jax_export.symbolic_shape("(d)", constraints=["d>=2"])[0]

        def is_leaf(x):
            return isinstance(x, KerasTensor)

        def to_jax(x):
            if isinstance(x, KerasTensor):
                dims = tuple(dynamic if d is None else d for d in x.shape)
                return jax.ShapeDtypeStruct(dims, x.dtype)
            return x

        leaves, treedef = jax.tree_util.tree_flatten((args, kwargs), is_leaf=is_leaf)
        dynamic_positions = [
            i for i, leaf in enumerate(leaves) if not isinstance(leaf, _STATIC_TYPES)
        ]
        dynamic_leaves = [to_jax(leaves[i]) for i in dynamic_positions]

        def wrapped(*dynamic_values):
            filled = list(leaves)
            for i, value in zip(dynamic_positions, dynamic_values, strict=True):
                filled[i] = value
            call_args, call_kwargs = jax.tree_util.tree_unflatten(treedef, filled)
            with StatelessScope():
                return fn(*call_args, **call_kwargs)

        out = jax.eval_shape(wrapped, *dynamic_leaves)

        def to_keras(x):
            if isinstance(x, jax.ShapeDtypeStruct):
                dims = tuple(d if isinstance(d, int) else None for d in x.shape)
                return KerasTensor(dims, dtype=str(x.dtype))
            return x

        return jax.tree_util.tree_map(to_keras, out)
