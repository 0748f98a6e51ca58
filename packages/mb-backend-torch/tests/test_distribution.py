"""The torch backend's ``distribution`` module in one process.

Training over several processes (DDP, DTensor-sharded ModelParallel) runs in fresh
processes on 127.0.0.1: tests/integration/test_distribution.py.
"""

import os
import subprocess
import sys

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


_EXIT_PROGRAM = """
import os, socket
import torch
from torch.distributed.tensor import Shard
from mb import distribution
from mb_backend_torch import _sharded, distribution as backend

def gloo_threads():
    tasks = os.listdir("/proc/self/task")
    names = [open(f"/proc/self/task/{t}/comm").read().strip() for t in tasks]
    return names.count("pt_gloo_runloop")

with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
distribution.initialize(f"127.0.0.1:{port}", num_processes=1, process_id=0)
mesh = backend.to_backend_mesh(distribution.DeviceMesh((1,), ["batch"], devices=["cpu:0"]))
value = _sharded.shard(torch.arange(6.0).reshape(2, 3), mesh, [Shard(0)])  # a DTensor
assert _sharded.whole(value).tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
running = gloo_threads()
backend._shutdown()
print(running, gloo_threads())
"""


def test_shutdown_joins_gloo_threads_while_dtensors_live():
    # A gloo group left alive into the interpreter's teardown aborted the process
    # ("terminate called without an active exception") when one of its threads let go
    # of a finished collective's tensor late. DTensors keep their mesh, and the mesh
    # (and torch._dynamo, imported by the first DTensor) kept the group alive past
    # destroy_process_group: the shutdown must still stop its threads.
    result = subprocess.run(
        [sys.executable, "-c", _EXIT_PROGRAM],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "MB_BACKEND": "torch"},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    running, left = map(int, result.stdout.split()[-2:])
    assert running > 0  # the group had worker threads...
    assert left == 0  # ...and none survive the shutdown
