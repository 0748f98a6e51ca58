"""The generic rnn loop against a NumPy loop, and the fused lstm/gru against the generic path
with Keras's cell equations (tolerance 1e-5, float32)."""

import numpy as np
import pytest
import torch

from mb_backend_torch import nn, rnn
from mb_backend_torch import numpy as tnp

RNG = np.random.default_rng(4)
B, T, F, U = 3, 5, 4, 6


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def test_generic_rnn_matches_numpy_loop_with_mask():
    x = RNG.normal(size=(B, T, F)).astype("float32")
    w = RNG.normal(size=(F, U)).astype("float32")
    mask = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1], [1, 0, 1, 0, 1]], bool)

    def step(x_t, states):
        h = tnp.tanh(tnp.matmul(x_t, w) + states[0])
        return h, [h]

    last, outputs, (state,) = rnn.rnn(step, x, [np.zeros((B, U), "float32")], mask=mask)
    h = np.zeros((B, U), "float32")
    expected = []
    for i in range(T):
        new = np.tanh(x[:, i] @ w + h)
        h = np.where(mask[:, i : i + 1], new, h)
        expected.append(h)
    np.testing.assert_allclose(outputs.numpy(), np.stack(expected, 1), atol=1e-5)
    np.testing.assert_allclose(state.numpy(), h, atol=1e-5)
    np.testing.assert_allclose(last.numpy(), expected[-1], atol=1e-5)


def _lstm_step(kernel, recurrent, bias):
    def step(x_t, states):
        h, c = states
        z = tnp.add(tnp.add(tnp.matmul(x_t, kernel), tnp.matmul(h, recurrent)), bias)
        i, f, g, o = torch.chunk(z, 4, dim=-1)
        c = nn.sigmoid(f) * c + nn.sigmoid(i) * tnp.tanh(g)
        h = nn.sigmoid(o) * tnp.tanh(c)
        return h, [h, c]

    return step


@pytest.mark.parametrize("go_backwards", [False, True])
@pytest.mark.parametrize("return_sequences", [False, True])
def test_fused_lstm_matches_generic_path(go_backwards, return_sequences):
    x = RNG.normal(size=(B, T, F)).astype("float32")
    kernel = RNG.normal(size=(F, 4 * U)).astype("float32") * 0.5
    recurrent = RNG.normal(size=(U, 4 * U)).astype("float32") * 0.5
    bias = RNG.normal(size=(4 * U,)).astype("float32")
    h0 = RNG.normal(size=(B, U)).astype("float32")
    c0 = RNG.normal(size=(B, U)).astype("float32")
    last, outputs, (h, c) = rnn.lstm(
        x,
        h0,
        c0,
        None,
        kernel,
        recurrent,
        bias,
        tnp.tanh,
        nn.sigmoid,
        return_sequences=return_sequences,
        go_backwards=go_backwards,
    )
    g_last, g_outputs, (g_h, g_c) = rnn.rnn(
        _lstm_step(kernel, recurrent, bias), x, [h0, c0], go_backwards=go_backwards
    )
    np.testing.assert_allclose(last.detach().numpy(), g_last.numpy(), atol=1e-5)
    np.testing.assert_allclose(h.detach().numpy(), g_h.numpy(), atol=1e-5)
    np.testing.assert_allclose(c.detach().numpy(), g_c.numpy(), atol=1e-5)
    expected = g_outputs.numpy() if return_sequences else g_last.numpy()[:, None]
    np.testing.assert_allclose(outputs.detach().numpy(), expected, atol=1e-5)


def test_fused_gru_matches_keras_reset_after_equations():
    x = RNG.normal(size=(B, T, F)).astype("float32")
    kernel = RNG.normal(size=(F, 3 * U)).astype("float32") * 0.5
    recurrent = RNG.normal(size=(U, 3 * U)).astype("float32") * 0.5
    bias = RNG.normal(size=(2, 3 * U)).astype("float32")
    h0 = RNG.normal(size=(B, U)).astype("float32")
    _, outputs, (h,) = rnn.gru(
        x, h0, None, kernel, recurrent, bias, tnp.tanh, nn.sigmoid, return_sequences=True
    )
    expected_h = h0
    steps = []
    for i in range(T):
        xz, xr, xh = np.split(x[:, i] @ kernel + bias[0], 3, axis=-1)
        hz, hr, hh = np.split(expected_h @ recurrent + bias[1], 3, axis=-1)
        z = _sigmoid(xz + hz)
        r = _sigmoid(xr + hr)
        candidate = np.tanh(xh + r * hh)
        expected_h = z * expected_h + (1 - z) * candidate
        steps.append(expected_h)
    np.testing.assert_allclose(outputs.detach().numpy(), np.stack(steps, 1), atol=1e-5)
    np.testing.assert_allclose(h.detach().numpy(), expected_h, atol=1e-5)


def test_fused_paths_decline_unusual_configs():
    assert rnn.cudnn_ok(tnp.tanh, nn.sigmoid, unroll=False)
    assert not rnn.cudnn_ok(nn.relu, nn.sigmoid, unroll=False)
    args = (np.zeros((1, 2, 3), "float32"), np.zeros((1, 4), "float32"))
    with pytest.raises(NotImplementedError, match="generic rnn"):
        rnn.gru(
            *args,
            np.ones((1, 2)),
            np.zeros((3, 12)),
            np.zeros((4, 12)),
            np.zeros((2, 12)),
            tnp.tanh,
            nn.sigmoid,
        )
    with pytest.raises(NotImplementedError, match="reset_after"):
        rnn.gru(
            *args,
            None,
            np.zeros((3, 12)),
            np.zeros((4, 12)),
            np.zeros((2, 12)),
            tnp.tanh,
            nn.sigmoid,
            reset_after=False,
        )
