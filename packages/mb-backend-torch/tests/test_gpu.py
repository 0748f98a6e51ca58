"""Accelerator checks: placement, zero-copy interchange on CUDA, the cuDNN LSTM path,
and the devices list. Skipped cleanly without CUDA (see conftest.py)."""

import numpy as np
import pytest
import torch

from mb_backend_torch import core, distribution, nn, rnn
from mb_backend_torch import numpy as tnp

pytestmark = pytest.mark.gpu


def test_new_tensors_and_variables_live_on_the_gpu_by_default():
    x = core.convert_to_tensor(np.ones(3, "float32"))
    v = core.Variable(np.ones(3, "float32"))
    assert x.device.type == "cuda" and v.value.device.type == "cuda"
    np.testing.assert_array_equal(core.convert_to_numpy(tnp.add(x, v)), [2.0, 2.0, 2.0])


class _ForeignCudaArray:
    """A non-torch producer of the DLPack protocol (as a jax or CuPy array is)."""

    def __init__(self, tensor):
        self._tensor = tensor

    def __dlpack__(self, **kwargs):
        return self._tensor.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._tensor.__dlpack_device__()


def test_foreign_cuda_arrays_convert_through_dlpack_without_copy():
    x = torch.arange(4.0, device="cuda")
    y = core.convert_to_tensor(_ForeignCudaArray(x))
    assert y.device.type == "cuda" and y.data_ptr() == x.data_ptr()


def test_cudnn_lstm_matches_generic_path_on_gpu():
    rng = np.random.default_rng(0)
    x = torch.tensor(rng.normal(size=(2, 4, 3)), dtype=torch.float32, device="cuda")
    kernel = torch.tensor(rng.normal(size=(3, 8)) * 0.5, dtype=torch.float32, device="cuda")
    recurrent = torch.tensor(rng.normal(size=(2, 8)) * 0.5, dtype=torch.float32, device="cuda")
    bias = torch.zeros(8, device="cuda")
    h0 = torch.zeros(2, 2, device="cuda")

    def step(x_t, states):
        h, c = states
        z = tnp.add(tnp.add(tnp.matmul(x_t, kernel), tnp.matmul(h, recurrent)), bias)
        i, f, g, o = torch.chunk(z, 4, dim=-1)
        c = nn.sigmoid(f) * c + nn.sigmoid(i) * tnp.tanh(g)
        h = nn.sigmoid(o) * tnp.tanh(c)
        return h, [h, c]

    last, _, _ = rnn.lstm(x, h0, h0, None, kernel, recurrent, bias, tnp.tanh, nn.sigmoid)
    expected, _, _ = rnn.rnn(step, x, [h0, h0])
    np.testing.assert_allclose(
        core.convert_to_numpy(last), core.convert_to_numpy(expected), atol=1e-4
    )


def test_gpu_is_listed():
    assert distribution.list_devices("gpu")
