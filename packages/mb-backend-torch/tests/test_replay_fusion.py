"""A recorded step hands a layer's bias to the kernel before it (`_replay_fusion`)."""

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

from mb_backend_torch._training_replay import GraphReplay

aten = torch.ops.aten


class _Calls(TorchDispatchMode):
    """The aten ops a call runs, with their arguments."""

    def __init__(self):
        super().__init__()
        self.calls = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.calls.append((func, args))
        return func(*args, **(kwargs or {}))


def _channels_last_forward(x, kernel, bias, dense, dense_bias):
    """What mb's Conv2D(relu) -> Flatten -> Dense does on torch, channels_last."""
    conv = F.conv2d(x.permute(0, 3, 1, 2), kernel.permute(3, 2, 0, 1))
    h = torch.relu(conv.permute(0, 2, 3, 1) + bias.reshape(1, 1, 1, -1))
    return h.reshape(h.shape[0], -1) @ dense + dense_bias


def _inputs(seed=0):
    rng = np.random.default_rng(seed)
    shapes = [(4, 6, 6, 2), (3, 3, 2, 5), (5,), (4 * 4 * 5, 3), (3,)]
    return [torch.tensor(rng.standard_normal(s), dtype=torch.float32) for s in shapes]


def test_bias_additions_run_inside_the_convolution_and_the_matmul():
    replay = GraphReplay(_channels_last_forward)
    for seed in range(3):  # eager, recording, then replays
        args = _inputs(seed)
        with _Calls() as seen:
            got = replay(*args)
        x, kernel, bias, dense, dense_bias = args
        conv = F.conv2d(x.permute(0, 3, 1, 2), kernel.permute(3, 2, 0, 1), bias)
        want = torch.relu(conv).permute(0, 2, 3, 1).reshape(4, -1) @ dense + dense_bias
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)
    assert replay.recorded == 1
    ops = [func for func, _ in seen.calls]
    assert aten.add.Tensor not in ops and aten.mm.default not in ops, ops
    assert aten.addmm.default in ops
    convolutions = [args for func, args in seen.calls if func is aten.convolution.default]
    assert len(convolutions) == 1 and convolutions[0][2] is not None


def test_a_bias_add_whose_result_is_returned_stays_an_addition():
    def conv_only(x, kernel, bias):
        conv = F.conv2d(x.permute(0, 3, 1, 2), kernel.permute(3, 2, 0, 1))
        return conv.permute(0, 2, 3, 1) + bias.reshape(1, 1, 1, -1)

    replay = GraphReplay(conv_only)
    for seed in range(3):
        x, kernel, bias = _inputs(seed)[:3]
        got = replay(x, kernel, bias)
    want = F.conv2d(x.permute(0, 3, 1, 2), kernel.permute(3, 2, 0, 1), bias).permute(0, 2, 3, 1)
    torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)
    assert got.is_contiguous()  # a tensor of its own, not a view of the convolution's output
