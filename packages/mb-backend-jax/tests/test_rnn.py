"""rnn: the generic loop against Keras 3's jax backend and a NumPy loop (rtol=1e-5)."""

import jax.numpy as jnp
import numpy as np
import pytest
from jax_keras_reference import rnn_module as krnn

from mb_backend_jax import rnn

RNG = np.random.default_rng(4)
W = jnp.asarray(RNG.normal(size=(3, 4)), "float32")
U = jnp.asarray(RNG.normal(size=(4, 4)) * 0.5, "float32")


def _cell(x_t, states):
    h = jnp.tanh(x_t @ W + states[0] @ U)
    return h, [h]


def _numpy_rnn(x, h0, reverse=False):
    h = np.asarray(h0, "float64")
    outs = []
    steps = range(x.shape[1] - 1, -1, -1) if reverse else range(x.shape[1])
    for t in steps:
        h = np.tanh(x[:, t] @ np.asarray(W, "float64") + h @ np.asarray(U, "float64"))
        outs.append(h)
    return np.stack(outs, axis=1), h


@pytest.mark.parametrize("go_backwards", [False, True])
@pytest.mark.parametrize("unroll", [False, True])
def test_rnn_matches_a_numpy_loop(go_backwards, unroll):
    x = RNG.normal(size=(2, 5, 3)).astype("float32")
    h0 = np.zeros((2, 4), "float32")
    last, outputs, states = rnn.rnn(
        _cell, jnp.asarray(x), [jnp.asarray(h0)], go_backwards=go_backwards, unroll=unroll
    )
    want_outputs, want_h = _numpy_rnn(x, h0, reverse=go_backwards)
    np.testing.assert_allclose(np.asarray(outputs), want_outputs, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(last), want_outputs[:, -1], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(states[0]), want_h, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("zero_output_for_mask", [False, True])
@pytest.mark.parametrize("go_backwards", [False, True])
def test_rnn_with_mask_matches_keras(go_backwards, zero_output_for_mask):
    x = jnp.asarray(RNG.normal(size=(3, 6, 3)), "float32")
    mask = jnp.asarray(np.arange(6)[None, :] < np.array([6, 4, 1])[:, None])
    h0 = jnp.asarray(RNG.normal(size=(3, 4)), "float32")
    kwargs = {"go_backwards": go_backwards, "mask": mask,
              "zero_output_for_mask": zero_output_for_mask}  # fmt: skip
    got = rnn.rnn(_cell, x, [h0], **kwargs)
    want = krnn.rnn(_cell, x, [h0], **kwargs)
    for a, b in zip((got[0], got[1], got[2][0]), (want[0], want[1], want[2][0]), strict=True):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-6)


def test_rnn_time_major_and_constants():
    x = RNG.normal(size=(5, 2, 3)).astype("float32")

    def cell(x_t, states):
        h, offset = states
        h = jnp.tanh(x_t @ W + h @ U) + offset
        return h, [h]

    offset = jnp.full((2, 4), 0.5)
    _, outputs, _ = rnn.rnn(
        cell, jnp.asarray(x), [jnp.zeros((2, 4))], constants=[offset], time_major=True
    )
    h = np.zeros((2, 4))
    for t in range(5):
        h = np.tanh(x[t] @ np.asarray(W) + h @ np.asarray(U)) + 0.5
    np.testing.assert_allclose(np.asarray(outputs[-1]), h, rtol=1e-5, atol=1e-5)
    assert outputs.shape == (5, 2, 4)


def test_fused_kernels_ask_layers_to_fall_back():
    assert rnn.cudnn_ok("tanh", "sigmoid", False) is False
    with pytest.raises(NotImplementedError, match="no fused lstm kernel"):
        rnn.lstm(None, None, None, None, None, None, None, None, None)
    with pytest.raises(NotImplementedError):
        rnn.gru(None, None, None, None, None, None, None, None)
    with pytest.raises(NotImplementedError):
        rnn.bidirectional_lstm()
    with pytest.raises(NotImplementedError):
        rnn.bidirectional_gru()
