"""The layer mixin: a toy layer built on this backend's ops is a torch.nn.Module whose
parameters are its trainable variables, trainable with torch.optim in a plain torch loop."""

import numpy as np
import pytest
import torch

from mb_backend_torch import core, layer, nn
from mb_backend_torch import numpy as tnp


class ToyDense(layer.BackendLayer):
    """A minimal host class with the attributes mb_layers.Layer provides."""

    def __init__(self, units, in_features, seed=0):
        layer.BackendLayer.__init__(self)
        rng = np.random.default_rng(seed)
        self.kernel = core.Variable(
            rng.normal(size=(in_features, units)).astype("float32"), name="kernel"
        )
        self.bias = core.Variable(np.zeros(units, "float32"), name="bias")
        self.calls = core.Variable(0, dtype="int32", trainable=False, name="calls")
        self.trainable = True
        self._post_build()

    @property
    def variables(self):
        return [self.kernel, self.bias, self.calls]

    @property
    def trainable_variables(self):
        return [v for v in self.variables if v.trainable] if self.trainable else []

    def __call__(self, x):
        self.calls.assign_add(1)
        return nn.relu(tnp.add(tnp.matmul(x, self.kernel), self.bias))


def test_parameters_are_the_trainable_variable_values():
    toy = ToyDense(3, 2)
    params = list(toy.parameters())
    assert len(params) == 2
    assert params[0] is toy.kernel.value and params[1] is toy.bias.value
    assert "_torch_buffers.calls" in dict(toy.named_buffers())
    assert set(toy.state_dict()) == {
        "_torch_params.kernel",
        "_torch_params.bias",
        "_torch_buffers.calls",
    }


def test_freezing_a_variable_removes_it_from_parameters():
    toy = ToyDense(3, 2)
    toy.bias.trainable = False
    assert [p is toy.kernel.value for p in toy.parameters()] == [True]


def test_plain_torch_training_loop_updates_mb_variables():
    torch.manual_seed(0)
    toy = ToyDense(1, 2, seed=1)
    x = torch.randn(64, 2)
    y = torch.relu(x @ torch.tensor([[1.5], [-0.5]]) + 0.3)
    optimizer = torch.optim.SGD(toy.parameters(), lr=0.1)
    kernel_before = toy.kernel.numpy().copy()
    first = None
    for _ in range(100):
        optimizer.zero_grad()
        loss = torch.mean((toy(x) - y) ** 2)
        loss.backward()
        optimizer.step()
        first = float(loss.detach()) if first is None else first
    assert float(loss.detach()) < 0.2 * first
    assert not np.allclose(toy.kernel.numpy(), kernel_before)
    assert int(toy.calls.numpy()) == 100
    # forward() runs the same call
    np.testing.assert_allclose(toy.forward(x).detach().numpy(), toy(x).detach().numpy())


def test_module_without_own_call_gets_a_clear_error():
    class Bare(layer.BackendLayer):
        variables = ()
        trainable_variables = ()

    with pytest.raises(TypeError, match="defines no __call__"):
        Bare().forward(1)
