"""The ``rnn`` contract module of the JAX backend: a generic recurrent loop over ``lax.scan``.

``lstm``/``gru`` (and their bidirectional forms) raise ``NotImplementedError``,
which tells recurrent layers to use their generic cell with ``rnn`` (the
protocol Keras 3 follows when no fused kernel applies). ``cudnn_ok`` is
therefore always False here.
"""

import contextlib

import jax
import jax.numpy as jnp

from mb_backend_jax.core import convert_to_tensor
from mb_ops import StatelessScope, in_stateless_scope, numpy_shaped

_FALLBACK = (
    "the jax backend of mb has no fused {name} kernel; the recurrent layer runs its "
    "cell through rnn() instead"
)


def _swap_batch_time(x):
    return jnp.swapaxes(x, 0, 1)


def rnn(
    step_function,
    inputs,
    initial_states,
    go_backwards=False,
    mask=None,
    constants=None,
    unroll=False,
    input_length=None,
    time_major=False,
    zero_output_for_mask=False,
    return_all_outputs=True,
):
    """Iterate ``step_function`` over the time axis of ``inputs``.

    Args:
        step_function: ``(input_t, states) -> (output_t, new_states)``;
            ``states`` is the tuple of states followed by ``constants``.
        inputs: a tensor (or nest of tensors) ``(batch, time, ...)``
            (``(time, batch, ...)`` when ``time_major``).
        initial_states: the list of initial state tensors.
        go_backwards: iterate from the last step to the first.
        mask: bool ``(batch, time)``; masked steps keep the previous state and
            output (zeros for the output when ``zero_output_for_mask``).
        constants: extra tensors passed to every step after the states.
        unroll: unroll the loop fully in the compiled program.
        input_length, return_all_outputs: accepted for compatibility; all
            outputs are always computed.

    Returns:
        ``(last_output, outputs, new_states)``; ``outputs`` is in iteration
        order (reversed time when ``go_backwards``), batch-major unless
        ``time_major``.
    """
    constants = tuple(constants or ())
    if not time_major:
        inputs = jax.tree_util.tree_map(_swap_batch_time, inputs)
    time_steps = jax.tree_util.tree_leaves(inputs)[0].shape[0]
    initial_states = tuple(initial_states)

    if mask is not None:
        mask = convert_to_tensor(mask).astype(bool)
        if mask.ndim == 2:
            mask = mask[..., None]
        if not time_major:
            mask = _swap_batch_time(mask)

        def step(states, xs):
            input_t, mask_t = xs
            output_t, new_states = step_function(input_t, states + constants)
            new_states = tuple(new_states)
            masked = jnp.all(jnp.logical_not(mask_t), axis=-1, keepdims=True)
            previous = jnp.zeros_like(output_t) if zero_output_for_mask else states[0]
            if isinstance(previous, list | tuple):
                previous = previous[0]
            output_t = jnp.where(masked, previous, output_t)
            new_states = jax.tree_util.tree_map(
                lambda old, new: jnp.where(masked, old, new), states, new_states
            )
            return new_states, output_t

        xs = (inputs, mask)
    else:

        def step(states, input_t):
            output_t, new_states = step_function(input_t, states + constants)
            return tuple(new_states), output_t

        xs = inputs

    # Assignments made by the step (e.g. seed generators) must not leak tracers
    # out of the scan: run it against a scope unless one is already active.
    scope = contextlib.nullcontext() if in_stateless_scope() else StatelessScope()
    with scope:
        new_states, outputs = jax.lax.scan(
            step,
            initial_states,
            xs,
            reverse=go_backwards,
            unroll=time_steps if unroll else 1,
        )
    if go_backwards:
        outputs = jnp.flip(outputs, axis=0)
    last_output = jax.lax.index_in_dim(outputs, -1, axis=0, keepdims=False)
    if not time_major:
        outputs = _swap_batch_time(outputs)
    return last_output, outputs, list(new_states)


lstm, gru, cudnn_ok = numpy_shaped.no_fused_kernels("jax")


def bidirectional_lstm(*args, **kwargs):
    """Fused bidirectional LSTM: not available (layers fall back)."""
    raise NotImplementedError(_FALLBACK.format(name="bidirectional lstm"))


def bidirectional_gru(*args, **kwargs):
    """Fused bidirectional GRU: not available (layers fall back)."""
    raise NotImplementedError(_FALLBACK.format(name="bidirectional gru"))
