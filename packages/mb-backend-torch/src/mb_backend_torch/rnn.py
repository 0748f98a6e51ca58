"""Recurrent loops on torch: the generic ``rnn`` step loop and fused ``lstm``/``gru``.

``lstm``/``gru`` run torch's native multi-step kernels (cuDNN on CUDA, ATen's
fused cell on the CPU) when the layer's configuration is the standard one
(tanh / sigmoid, bias, no mask, not unrolled; GRU with ``reset_after``). They
give the numbers of the generic path with Keras's cell equations. Otherwise they
raise ``NotImplementedError`` and the layer falls back to ``rnn``, as in Keras.
"""

import torch

from mb_backend_torch import _training_replay
from mb_backend_torch.numpy._common import t
from mb_ops import tree

# Every rnn function is provided (lstm/gru decline unusual configs by design).
UNSUPPORTED = {}


def _time_first(x):
    return x.transpose(0, 1)


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
    """Run ``step_function(input_t, states) -> (output_t, new_states)`` over time.

    Returns:
        ``(last_output, outputs, new_states)``; ``outputs`` is batch-major unless
        ``time_major`` (length 1 along time when ``return_all_outputs`` is False).
    """
    flat_inputs = [t(x) for x in tree.flatten(inputs)]
    if not time_major:
        flat_inputs = [_time_first(x) for x in flat_inputs]
    steps = flat_inputs[0].shape[0]
    if mask is None and input_length is not None and not isinstance(input_length, int):
        lengths = t(input_length)
        mask = torch.arange(steps, device=lengths.device)[None, :] < lengths[:, None]
        if time_major:
            mask = _time_first(mask)
    if mask is not None:
        mask = t(mask).to(torch.bool)
        if mask.ndim == 3:
            mask = mask[..., 0]
        if not time_major:
            mask = _time_first(mask)
    constants = tuple(tree.map_structure(t, list(constants or ())))
    states = tuple(tree.map_structure(t, list(initial_states)))
    nested = tree.is_nested(inputs)
    order = range(steps - 1, -1, -1) if go_backwards else range(steps)
    outputs = []
    prev_output = None
    for i in order:
        step_input = [x[i] for x in flat_inputs]
        step_input = tree.pack_sequence_as(inputs, step_input) if nested else step_input[0]
        output, new_states = step_function(step_input, states + constants)
        new_states = tuple(new_states) if isinstance(new_states, list | tuple) else (new_states,)
        if mask is not None:
            keep = mask[i]
            if prev_output is None:
                prev_output = torch.zeros_like(output)
            fallback = torch.zeros_like(output) if zero_output_for_mask else prev_output
            output = torch.where(_expand(keep, output), output, fallback)
            flat_new = [
                torch.where(_expand(keep, n), n, o)
                for n, o in zip(tree.flatten(new_states), tree.flatten(states), strict=True)
            ]
            new_states = tree.pack_sequence_as(new_states, flat_new)
            prev_output = output
        states = tuple(new_states)
        if return_all_outputs or not outputs:
            outputs.append(output)
        else:
            outputs[0] = output
    last_output = outputs[-1]
    stacked = torch.stack(outputs)
    if not time_major:
        stacked = _time_first(stacked)
    return last_output, stacked, list(states)


def _expand(mask_t, like):
    return mask_t.reshape(mask_t.shape + (1,) * (like.ndim - mask_t.ndim))


def _named(fn, names):
    return getattr(fn, "__name__", None) in names


def cudnn_ok(activation, recurrent_activation, unroll, use_bias=True):
    """Whether ``lstm``/``gru`` can use torch's fused kernel for this configuration.

    On torch the fused kernel also runs on the CPU, so this does not require CUDA.
    """
    return (
        (activation is torch.tanh or _named(activation, ("tanh",)))
        and (recurrent_activation is torch.sigmoid or _named(recurrent_activation, ("sigmoid",)))
        and not unroll
        and bool(use_bias)
    )


def _decline(op, reason):
    raise NotImplementedError(
        f"{op} is not supported on the torch backend for this configuration ({reason}); "
        "the layer falls back to the generic rnn loop."
    )


def _h0(state, dtype):
    state = t(state).to(dtype)
    return state.unsqueeze(0) if state.ndim == 2 else state


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
    """Keras's LSTM (gates i, f, c, o) over ``torch.lstm``; returns (last, outputs, [h, c])."""
    if mask is not None:
        _decline("lstm", "a mask is given")
    if not cudnn_ok(activation, recurrent_activation, unroll, bias is not None):
        _decline("lstm", "it needs tanh/sigmoid activations, a bias and unroll=False")
    kernel = t(kernel)
    dtype = kernel.dtype
    x = t(inputs).to(dtype)
    if go_backwards:
        x = torch.flip(x, dims=[1])
    # Keras's gate order (i, f, c, o) is torch's (i, f, g, o).
    params = [
        kernel.T,
        t(recurrent_kernel).to(dtype).T,
        t(bias).to(dtype),
        torch.zeros_like(t(bias), dtype=dtype),
    ]
    hx = (_h0(initial_state_h, dtype), _h0(initial_state_c, dtype))
    outputs, h_n, c_n = _training_replay.opaque_call(
        torch.lstm, x, hx, params, True, 1, 0.0, torch.is_grad_enabled(), False, True
    )
    last = outputs[:, -1]
    if not return_sequences:
        outputs = last.unsqueeze(1)
    return last, outputs, [h_n.squeeze(0), c_n.squeeze(0)]


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
    """Keras's GRU (gates z, r, h; reset_after) over ``torch.gru``: (last, outputs, [h])."""
    if mask is not None:
        _decline("gru", "a mask is given")
    if not reset_after:
        _decline("gru", "torch's kernel implements reset_after=True only")
    if not cudnn_ok(activation, recurrent_activation, unroll, bias is not None):
        _decline("gru", "it needs tanh/sigmoid activations, a bias and unroll=False")
    kernel = t(kernel)
    dtype = kernel.dtype
    x = t(inputs).to(dtype)
    if go_backwards:
        x = torch.flip(x, dims=[1])
    recurrent_kernel = t(recurrent_kernel).to(dtype)
    bias = t(bias).to(dtype).reshape(2, -1)

    def reorder(w, dim):
        z, r, h = torch.chunk(w, 3, dim=dim)
        return torch.cat([r, z, h], dim=dim)

    params = [
        reorder(kernel, 1).T,
        reorder(recurrent_kernel, 1).T,
        reorder(bias[0], 0),
        reorder(bias[1], 0),
    ]
    outputs, h_n = _training_replay.opaque_call(
        torch.gru,
        x,
        _h0(initial_state, dtype),
        params,
        True,
        1,
        0.0,
        torch.is_grad_enabled(),
        False,
        True,
    )
    last = outputs[:, -1]
    if not return_sequences:
        outputs = last.unsqueeze(1)
    return last, outputs, [h_n.squeeze(0)]
