"""Variables split over processes: their live value is a DTensor (FSDP2's storage).

Each process keeps its shard of the variable (``DTensor.to_local()``); a read
gathers the whole value from every process (an all-gather: a collective, so
every process reads the same variables in the same order, as a training step
does), and an assignment keeps this process's shard of the new, whole value (no
communication: every process computed the same value).
"""

import torch
from torch.distributed.tensor import DTensor
from torch.distributed.tensor import distribute_tensor as _distribute


def is_sharded(value):
    """Whether `value` is a DTensor (a variable split over processes)."""
    return isinstance(value, DTensor)


def whole(value):
    """The whole value of a DTensor, gathered from every process (a collective), as a
    plain tensor detached from the shard; other values as they are."""
    if not isinstance(value, DTensor):
        return value
    with torch.no_grad():
        return value.full_tensor()


def assign_shard(current, value):
    """Writes this process's shard of the whole `value` into the DTensor `current`."""
    if isinstance(value, DTensor):
        value = whole(value)
    value = value.detach().to(device=current.to_local().device, dtype=current.dtype)
    local = _distribute(value, current.device_mesh, current.placements, src_data_rank=None)
    with torch.no_grad():
        current.to_local().copy_(local.to_local())
