"""Recurrent loops of the TensorFlow backend.

``rnn`` is the generic loop every recurrent layer uses: a ``tf.while_loop``
(symbolic, so it compiles inside ``tf.function``) or a Python loop when
``unroll=True``. ``lstm`` and ``gru`` raise ``NotImplementedError``, which
makes the layers fall back to ``rnn`` with their own cells (as Keras does when
cuDNN cannot be used).
"""

import tensorflow as tf

from mb_backend_tensorflow._convert import convert_to_tensor

UNSUPPORTED = {
    "lstm": "no fused kernel is wired in; layers fall back to the generic rnn loop",
    "gru": "no fused kernel is wired in; layers fall back to the generic rnn loop",
}


def _swap_time_batch(x):
    return tf.transpose(x, [1, 0, *range(2, x.shape.rank)])


def _where_mask(mask_t, new, old):
    """``new`` where the (batch,) mask holds, else ``old`` (broadcast over feature axes)."""
    m = tf.reshape(mask_t, [-1] + [1] * (new.shape.rank - 1))
    return tf.where(m, new, old)


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
        ``(last_output, outputs, new_states)``; ``outputs`` is ``(batch, time, ...)``
        (time-major when ``time_major``), or only the last step (length-1 time
        axis) when ``return_all_outputs=False``.
    """
    flat_inputs = [convert_to_tensor(x) for x in tf.nest.flatten(inputs)]
    if not time_major:
        flat_inputs = [_swap_time_batch(x) for x in flat_inputs]
    if go_backwards:
        flat_inputs = [tf.reverse(x, [0]) for x in flat_inputs]
    states = [convert_to_tensor(s) for s in tf.nest.flatten(initial_states)]
    constants = list(constants or [])
    if mask is not None:
        mask = tf.cast(convert_to_tensor(mask), "bool")
        if mask.shape.rank == 3:
            mask = mask[..., 0]
        if not time_major:
            mask = tf.transpose(mask)
        if go_backwards:
            mask = tf.reverse(mask, [0])

    def step(t, states, prev_output=None):
        x_t = tf.nest.pack_sequence_as(inputs, [tf.gather(x, t) for x in flat_inputs])
        flat_states = tf.nest.flatten(tf.nest.pack_sequence_as(initial_states, states))
        out, new_states = step_function(x_t, tuple(flat_states) + tuple(constants))
        out = convert_to_tensor(out)
        new_states = [convert_to_tensor(s) for s in tf.nest.flatten(new_states)]
        if mask is not None:
            m = tf.gather(mask, t)
            if zero_output_for_mask or prev_output is None:
                fallback = tf.zeros_like(out)
            else:
                fallback = prev_output
            out = _where_mask(m, out, fallback)
            new_states = [_where_mask(m, n, o) for n, o in zip(new_states, states, strict=True)]
        return out, new_states

    # The first step runs outside the loop: it fixes the output's dtype and shape.
    last, states = step(0, states)
    n = flat_inputs[0].shape[0]
    if unroll:
        if n is None:
            raise ValueError("rnn(unroll=True) needs a static number of time steps.")
        outputs = [last]
        for t in range(1, n):
            last, states = step(t, states, last)
            outputs.append(last)
        stacked = tf.stack(outputs) if return_all_outputs else last[None]
    elif n == 1:
        stacked = last[None]
    elif return_all_outputs:
        # Steps 1.. go to a fresh TensorArray (one written before the loop is no scan output
        # to exporters such as tf2onnx); step 0 is put in front after the loop.
        steps = tf.shape(flat_inputs[0])[0]
        ta = tf.TensorArray(last.dtype, size=steps - 1, element_shape=last.shape)
        first = last

        def body(t, states, prev, ta):
            out, new_states = step(t, list(states), prev)
            return t + 1, new_states, out, ta.write(t - 1, out)

        _, states, last, ta = tf.while_loop(
            lambda t, *_: t < steps, body, (tf.constant(1), states, last, ta)
        )

        def stack():
            return tf.concat([first[None], ta.stack()], axis=0)

        if n is None:  # an empty TensorArray does not stack where the batch axis is unknown
            stacked = tf.cond(steps > 1, stack, lambda: first[None])
        else:
            stacked = stack()
        states = list(states)
    else:
        # Only the last output is kept, and the loop carries it: no TensorArray (exporters
        # such as tf2onnx and OpenVINO's TF frontend read this loop as a scan).
        steps = tf.shape(flat_inputs[0])[0]

        def body(t, states, prev):
            out, new_states = step(t, list(states), prev)
            return t + 1, new_states, out

        _, states, last = tf.while_loop(
            lambda t, *_: t < steps, body, (tf.constant(1), states, last)
        )
        stacked = last[None]
        states = list(states)
    outputs = stacked if time_major else _swap_time_batch(stacked)
    new_states = tf.nest.pack_sequence_as(initial_states, states)
    del input_length
    return last, outputs, new_states


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
    raise NotImplementedError(
        "lstm is not supported on the tensorflow backend: no fused kernel is wired in. "
        "The LSTM layer falls back to the generic rnn loop."
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
    raise NotImplementedError(
        "gru is not supported on the tensorflow backend: no fused kernel is wired in. "
        "The GRU layer falls back to the generic rnn loop."
    )


def cudnn_ok(activation, recurrent_activation, unroll, use_bias=True):
    """Whether the fused cuDNN path applies: never, since lstm/gru are not fused here."""
    return False
