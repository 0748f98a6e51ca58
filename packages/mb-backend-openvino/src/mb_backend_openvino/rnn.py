"""Recurrent loops on OpenVINO: the generic ``rnn`` step loop over eager ops.

``lstm`` and ``gru`` raise ``NotImplementedError``, which tells mb's LSTM and GRU
layers to fall back to their cell-by-cell path over ``rnn`` (as Keras does for
backends without a fused kernel). Each step's ops are cached compiled models, so
a loop compiles once and then only runs.
"""

from mb_backend_openvino import numpy as ovnp
from mb_backend_openvino._convert import to_tensor
from mb_ops import tree

# No entry: lstm/gru raising NotImplementedError is the documented fallback signal.
UNSUPPORTED = {}


def _swap_batch_time(x):
    return ovnp.swapaxes(x, 0, 1)


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

    Returns ``(last_output, outputs, new_states)``; ``outputs`` are in the order
    the steps ran (reversed time when ``go_backwards``), batch-major unless
    ``time_major``. Where ``mask`` is False a step keeps the previous states and
    outputs zeros (``zero_output_for_mask``) or the previous output.
    """
    inputs = tree.map_structure(to_tensor, inputs)
    if not time_major:
        inputs = tree.map_structure(_swap_batch_time, inputs)
    flat_inputs = tree.flatten(inputs)
    steps = flat_inputs[0].shape[0]
    if mask is not None:
        mask = ovnp.array(to_tensor(mask), dtype="bool")
        if mask.ndim == 2:
            mask = ovnp.expand_dims(mask, -1)
        if not time_major:
            mask = _swap_batch_time(mask)
    constants = tuple(constants or ())
    states = tuple(initial_states)
    order = range(steps - 1, -1, -1) if go_backwards else range(steps)
    outputs = []
    for t in order:
        step_input = tree.pack_sequence_as(inputs, [x[t] for x in flat_inputs])
        output, new_states = step_function(step_input, states + constants)
        new_states = tuple(new_states) if isinstance(new_states, list | tuple) else (new_states,)
        if mask is not None:
            masked = ovnp.all(ovnp.logical_not(mask[t]), axis=-1, keepdims=True)
            if zero_output_for_mask:
                output = ovnp.where(masked, ovnp.zeros_like(output), output)
            else:
                previous = states[0]
                if tree.is_nested(previous):  # stacked cells: first state of the last cell
                    previous = states[-1][0]
                output = ovnp.where(masked, previous, output)
            new_states = tree.map_structure(
                lambda old, new, m=masked: ovnp.where(m, old, new), states, new_states
            )
        states = new_states
        outputs.append(output)
    stacked = ovnp.stack(outputs) if outputs else ovnp.zeros((0,))
    last_output = outputs[-1] if outputs else None
    if not time_major and outputs:
        stacked = _swap_batch_time(stacked)
    return last_output, stacked, states


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
    """No fused kernel here: raises so the LSTM layer uses its generic path."""
    raise NotImplementedError(
        "lstm has no fused implementation on the openvino backend; the LSTM layer falls "
        "back to its cell-by-cell loop over rnn()."
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
    """No fused kernel here: raises so the GRU layer uses its generic path."""
    raise NotImplementedError(
        "gru has no fused implementation on the openvino backend; the GRU layer falls back "
        "to its cell-by-cell loop over rnn()."
    )


def cudnn_ok(activation, recurrent_activation, unroll, use_bias=True):
    """Never: there is no cuDNN here."""
    return False
