"""The ``rnn`` contract module of the NumPy-shaped backends, written once.

``rnn`` is the eager step loop; `unfused_rnn_functions` gives a backend its four
contract functions over it.

Neither the numpy nor the openvino backend has a fused LSTM/GRU kernel: their
``lstm`` and ``gru`` raise ``NotImplementedError``, which tells mb's LSTM and GRU
layers to fall back to their cell-by-cell path over ``rnn`` (as Keras does for
backends without one).
"""

from __future__ import annotations

from typing import Any

from mb_graph import tree


def rnn(
    xp: Any,
    to_tensor: Any,
    step_function: Any,
    inputs: Any,
    initial_states: Any,
    go_backwards: bool = False,
    mask: Any = None,
    constants: Any = None,
    time_major: bool = False,
    zero_output_for_mask: bool = False,
) -> tuple[Any, Any, Any]:
    """The contract's ``rnn``: ``step_function(input_t, states + constants)`` over time.

    Returns ``(last_output, outputs, new_states)``; ``outputs`` are in the order the
    steps ran (reversed time when ``go_backwards``), batch-major unless
    ``time_major``. Where ``mask`` is False a step keeps the previous states and
    outputs zeros (``zero_output_for_mask``) or the previous output (the first
    state), as JAX's and Keras's scan-based loop does.

    Example (the numpy backend's loop: a running sum):

    >>> import numpy as np
    >>> last, outputs, states = rnn(
    ...     np, np.asarray, lambda x, s: (s[0] + x, [s[0] + x]),
    ...     np.ones((1, 3, 2)), [np.zeros((1, 2))])
    >>> outputs[0, :, 0].tolist(), states[0].tolist()
    ([1.0, 2.0, 3.0], [[3.0, 3.0]])
    """
    inputs = tree.map_structure(to_tensor, inputs)
    if not time_major:
        inputs = tree.map_structure(lambda x: xp.swapaxes(x, 0, 1), inputs)
    flat_inputs = tree.flatten(inputs)
    steps = flat_inputs[0].shape[0]
    if mask is not None:
        mask = xp.array(to_tensor(mask), dtype="bool")
        if mask.ndim == 2:
            mask = xp.expand_dims(mask, -1)
        if not time_major:
            mask = xp.swapaxes(mask, 0, 1)
    constants = tuple(constants or ())
    states = tuple(initial_states)
    order = range(steps - 1, -1, -1) if go_backwards else range(steps)
    outputs = []
    for t in order:
        step_input = tree.pack_sequence_as(inputs, [x[t] for x in flat_inputs])
        output, new_states = step_function(step_input, states + constants)
        new_states = tuple(new_states) if isinstance(new_states, list | tuple) else (new_states,)
        if mask is not None:
            masked = xp.all(xp.logical_not(mask[t]), axis=-1, keepdims=True)
            if zero_output_for_mask:
                output = xp.where(masked, xp.zeros_like(output), output)
            else:
                previous = states[0]
                if tree.is_nested(previous):  # stacked cells: first state of the last cell
                    previous = states[-1][0]
                output = xp.where(masked, previous, output)
            new_states = tree.map_structure(
                lambda old, new, m=masked: xp.where(m, old, new), states, new_states
            )
        states = new_states
        outputs.append(output)
    stacked = xp.stack(outputs) if outputs else xp.zeros((0,))
    last_output = outputs[-1] if outputs else None
    if not time_major and outputs:
        stacked = xp.swapaxes(stacked, 0, 1)
    return last_output, stacked, states


# The factory's own ``rnn`` (the contract's signature) shadows the loop's name.
_loop = rnn


def unfused_rnn_functions(xp: Any, to_tensor: Any, backend: str) -> tuple[Any, Any, Any, Any]:
    """``(rnn, lstm, gru, cudnn_ok)`` of a backend whose ops are NumPy-shaped.

    Args:
        xp: the backend's NumPy-like namespace (see `mb_ops.numpy_shaped`).
        to_tensor: the backend's conversion of an input to its tensor.
        backend: the backend's name, for the messages of ``lstm`` and ``gru``.
    """

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
        """Run ``step_function(input_t, states + constants) -> (output_t, new_states)`` over time.

        The loop is mb_ops's NumPy-shaped one (`mb_ops.numpy_shaped.rnn`) over this
        backend's ops; ``unroll`` and ``input_length`` change nothing in an eager loop.
        """
        return _loop(
            xp,
            to_tensor,
            step_function,
            inputs,
            initial_states,
            go_backwards=go_backwards,
            mask=mask,
            constants=constants,
            time_major=time_major,
            zero_output_for_mask=zero_output_for_mask,
        )

    lstm, gru, cudnn_ok = no_fused_kernels(backend)
    rnn.__module__ = f"mb_backend_{backend}.rnn"
    rnn.__qualname__ = rnn.__name__
    return rnn, lstm, gru, cudnn_ok


def no_fused_kernels(backend: str) -> tuple[Any, Any, Any]:
    """``(lstm, gru, cudnn_ok)`` of a backend without fused recurrent kernels: ``lstm``
    and ``gru`` raise ``NotImplementedError``, which sends the LSTM and GRU layers to
    their generic cell over ``rnn()``; ``cudnn_ok`` is always False.

    >>> lstm, gru, cudnn_ok = no_fused_kernels("jax")
    >>> lstm(*[None] * 9)
    Traceback (most recent call last):
    NotImplementedError: the jax backend has no fused lstm kernel; the LSTM layer falls back to its cell-by-cell loop over rnn().
    """  # noqa: E501

    def lstm(
        inputs,
        initial_state_h,
        initial_state_c,
        mask,
        kernel,
        recurrent_kernel,
        bias,
        activation,
        recurrent_activation,
        return_sequences=False,
        go_backwards=False,
        unroll=False,
    ):
        """No fused kernel: raises so the LSTM layer uses its generic path."""
        raise NotImplementedError(
            f"the {backend} backend has no fused lstm kernel; the LSTM layer falls back to "
            "its cell-by-cell loop over rnn()."
        )

    def gru(
        inputs,
        initial_state,
        mask,
        kernel,
        recurrent_kernel,
        bias,
        activation,
        recurrent_activation,
        return_sequences=False,
        go_backwards=False,
        unroll=False,
        reset_after=True,
    ):
        """No fused kernel: raises so the GRU layer uses its generic path."""
        raise NotImplementedError(
            f"the {backend} backend has no fused gru kernel; the GRU layer falls back to "
            "its cell-by-cell loop over rnn()."
        )

    def cudnn_ok(activation, recurrent_activation, unroll, use_bias=True):
        """Never: there is no cuDNN on this backend."""
        return False

    functions = (lstm, gru, cudnn_ok)
    for function in functions:
        function.__module__ = f"mb_backend_{backend}.rnn"
        function.__qualname__ = function.__name__
    return functions
