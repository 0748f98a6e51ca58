"""Gradient helpers, shape inference, device placement and name scopes."""

import contextlib

import jax
from jax import export as jax_export

import mb_ops
from mb_backend_jax.core._convert import convert_to_tensor
from mb_ops import StatelessScope, SymbolicScope
from mb_ops import Variable as BaseVariable


def _unwrap_variables(tree):
    return jax.tree_util.tree_map(
        lambda x: x.value if isinstance(x, BaseVariable) else x,
        tree,
        is_leaf=lambda x: isinstance(x, BaseVariable),
    )


def stop_gradient(variable):
    """``variable`` with its gradient blocked (``lax.stop_gradient``)."""
    return jax.lax.stop_gradient(convert_to_tensor(variable))


def custom_gradient(fun):
    """Decorate ``fun(*args)`` that returns ``(output, grad_fn)``.

    ``grad_fn(*upstream)`` returns the gradients with respect to ``args``, as
    in ``jax.custom_gradient``. ``mb_ops.Variable`` arguments are unwrapped.
    """
    with_custom = jax.custom_gradient(fun=fun)

    def wrapper(*args, **kwargs):
        args, kwargs = _unwrap_variables((args, kwargs))
        return with_custom(*args, **kwargs)

    return wrapper


def remat(f):
    """``f`` recomputed in the backward pass instead of storing activations."""
    return jax.checkpoint(f)


_STATIC_TYPES = (type(None), int, float, str, bool, complex, bytes)


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


def _to_jax_device(device_name):
    if isinstance(device_name, jax.Device):
        return device_name
    if not isinstance(device_name, str):
        raise ValueError(
            "device_scope expects a string like 'cpu:0' / 'gpu:1' or a jax.Device. "
            f"Received: {device_name!r}."
        )
    kind, _, index = device_name.lower().partition(":")
    try:
        devices = jax.devices(kind)
    except RuntimeError as exc:
        raise ValueError(
            f"device_scope received {device_name!r} but JAX sees no {kind!r} device. "
            f"Available: {[f'{d.platform}:{d.id}' for d in jax.devices()]}."
        ) from exc
    position = int(index) if index else 0
    for device in devices:
        if device.id == position:
            return device
    if position < len(devices):
        return devices[position]
    raise ValueError(
        f"device_scope received {device_name!r} but JAX sees only {len(devices)} {kind} device(s)."
    )


def device_scope(device_name):
    """A context in which new arrays are placed on ``device_name`` ("gpu:0")."""
    return jax.default_device(_to_jax_device(device_name))


@contextlib.contextmanager
def name_scope(name, **kwargs):
    """A JAX named scope (names the operations in profiles and HLO dumps)."""
    with jax.named_scope(name):
        yield
