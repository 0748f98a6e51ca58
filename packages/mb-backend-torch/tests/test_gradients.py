"""Gradients of backend ops against central finite differences (float64, step 1e-6,
tolerance 1e-5), and the trainer's pattern: value_and_grad over variable values mapped
into a StatelessScope."""

import numpy as np
import pytest
import torch

import mb_ops
from mb_backend_torch import core, math, nn, rnn, training
from mb_backend_torch import numpy as tnp

RNG = np.random.default_rng(5)


def _check(fn, *arrays):
    """Compare value_and_grad(fn) w.r.t. every argument with finite differences."""
    grad_fn = training.value_and_grad(lambda args: fn(*args))
    _, grads = grad_fn([torch.tensor(a) for a in arrays])
    for k, a in enumerate(arrays):
        numeric = np.zeros_like(a)
        for i in np.ndindex(a.shape):
            up = [b.copy() for b in arrays]
            down = [b.copy() for b in arrays]
            up[k][i] += 1e-6
            down[k][i] -= 1e-6
            f_up = float(fn(*[torch.tensor(b) for b in up]))
            f_down = float(fn(*[torch.tensor(b) for b in down]))
            numeric[i] = (f_up - f_down) / 2e-6
        np.testing.assert_allclose(grads[k].numpy(), numeric, atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
def test_conv_and_pool_gradients(data_format):
    x = RNG.normal(size=(1, 5, 5, 2))
    if data_format == "channels_first":
        x = np.moveaxis(x, -1, 1).copy()
    k = RNG.normal(size=(3, 3, 2, 2))

    def fn(x, k):
        y = nn.conv(x, k, strides=1, padding="same", data_format=data_format)
        y = nn.average_pool(nn.relu(y) + y, 2, strides=2, padding="same", data_format=data_format)
        return tnp.sum(tnp.square(y))

    _check(fn, x, k)


def test_softmax_logsumexp_and_crossentropy_gradients():
    logits = RNG.normal(size=(3, 4))
    target = np.eye(4)[[0, 2, 3]]

    def fn(z):
        loss = nn.categorical_crossentropy(target, z, from_logits=True)
        return tnp.mean(loss) + tnp.sum(math.logsumexp(z, axis=-1)) + tnp.sum(nn.softmax(z)[:, 0])

    _check(fn, logits)


def test_fused_lstm_gradients():
    x = RNG.normal(size=(2, 3, 2))
    kernel = RNG.normal(size=(2, 8)) * 0.5
    recurrent = RNG.normal(size=(2, 8)) * 0.5
    bias = RNG.normal(size=(8,))
    h0 = np.zeros((2, 2))

    def fn(x, kernel, recurrent, bias):
        _, outputs, _ = rnn.lstm(
            x, h0, h0, None, kernel, recurrent, bias, tnp.tanh, nn.sigmoid, return_sequences=True
        )
        return tnp.sum(outputs)

    _check(fn, x, kernel, recurrent, bias)


def test_value_and_grad_through_variables_in_a_stateless_scope():
    kernel = core.Variable(RNG.normal(size=(3, 2)).astype("float32"), name="kernel")
    counter = core.Variable(0.0, trainable=False, name="counter")
    x = torch.tensor(RNG.normal(size=(4, 3)).astype("float32"))

    def loss_fn(trainable_values, non_trainable_values):
        mapping = [(kernel, trainable_values[0]), (counter, non_trainable_values[0])]
        with mb_ops.StatelessScope(mapping) as scope:
            counter.assign_add(1.0)
            loss = tnp.sum(tnp.square(tnp.matmul(x, kernel)))
        return loss, [scope.get_current_value(counter)]

    grad_fn = training.value_and_grad(loss_fn, has_aux=True)
    (_, (new_counter,)), (g,) = grad_fn([kernel.value], [counter.value])
    expected = 2 * x.numpy().T @ (x.numpy() @ kernel.numpy())
    np.testing.assert_allclose(g.numpy(), expected, rtol=1e-5)
    assert float(new_counter) == 1.0 and float(counter.numpy()) == 0.0
    assert kernel.value.grad is None  # the live parameter was not touched
