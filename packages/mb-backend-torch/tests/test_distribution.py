"""The torch backend's ``distribution`` module in one process.

Training over several processes (DDP, DTensor-sharded ModelParallel) runs in fresh
processes on 127.0.0.1: tests/integration/test_distribution.py.
"""

import pytest
import torch

from mb_backend_torch import distribution
from mb_ops.distribution import DeviceMesh, TensorLayout


def _mesh():
    return DeviceMesh((1, 2), ["batch", "model"], devices=["cpu:0", "cpu:1"])


def test_layouts_that_split_nothing_keep_the_whole_value():
    mesh = _mesh()
    layout = TensorLayout((None, "batch"), mesh)  # "batch" has one device
    assert distribution.to_backend_layout(layout) == (None, "batch")
    value = torch.ones(3, 4)
    assert distribution.distribute_variable(value, layout) is value


def test_a_split_needs_one_process_per_device_of_the_mesh():
    with pytest.raises(ValueError) as error:
        distribution.to_backend_layout(TensorLayout((None, "model"), _mesh()))
    message = str(error.value)
    assert "it needs 2 processes, this run has 1" in message
    assert "torchrun --nproc-per-node 2" in message


def test_devices_are_named_by_rank():
    assert distribution._rank_of("gpu:3") == 3
    with pytest.raises(ValueError, match="'cpu:<rank>' or 'gpu:<rank>'; received 'tpu'"):
        distribution._rank_of("tpu")
