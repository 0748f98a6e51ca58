"""Recurrent loops on NumPy: the generic ``rnn`` step loop; no fused LSTM/GRU kernels.

``lstm`` and ``gru`` raise ``NotImplementedError``, which tells mb's LSTM and GRU
layers to fall back to their cell-by-cell path over ``rnn`` (as Keras does).
"""

import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_ops import numpy_shaped

# No entry: lstm/gru raising NotImplementedError is the documented fallback signal.
UNSUPPORTED = {}


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
    return numpy_shaped.rnn(
        np,
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
    """No fused kernel on NumPy: raises so the LSTM layer uses its generic path."""
    raise NotImplementedError(
        "lstm has no fused implementation on the numpy backend; the LSTM layer falls back "
        "to its cell-by-cell loop over rnn()."
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
    """No fused kernel on NumPy: raises so the GRU layer uses its generic path."""
    raise NotImplementedError(
        "gru has no fused implementation on the numpy backend; the GRU layer falls back "
        "to its cell-by-cell loop over rnn()."
    )


def cudnn_ok(activation, recurrent_activation, unroll, use_bias=True):
    """Never: there is no cuDNN on the NumPy backend."""
    return False
