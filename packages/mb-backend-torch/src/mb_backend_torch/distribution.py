"""The ``distribution`` contract module of the PyTorch backend: ``torch.distributed``.

Data parallelism as DDP does it: one process per device (``torchrun``, or
``mb.distribution.initialize``), each holding the whole model and computing on its
part of every batch; the gradients are averaged over the processes with one
bucketed all-reduce per step (gloo on CPUs, NCCL on GPUs), so every replica
applies the same update. The device of a process is ``"<type>:<rank>"``.

Model parallelism as FSDP2 does it (``ModelParallel``, one process per device of
its mesh): a variable whose layout splits it is stored as a DTensor over a torch
``DeviceMesh`` of the processes (``Shard(dim)`` on the mesh axes its layout
names, ``Replicate()`` on the others), so each process keeps only its shard, the
optimizer's state included. A training step gathers the whole values once (one
all-gather for all the split variables), computes on this process's rows of the batch,
averages the gradients over the processes, and each process keeps its shard of
the new values. The memory of the variables and the optimizer's state is split;
the step's computation is not (no tensor parallelism). Layouts the DTensor
storage cannot hold are refused with a ValueError that says why.
"""

import atexit
import contextlib
import datetime
import os
from typing import NamedTuple

import numpy as np
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh as _TorchMesh
from torch.distributed.tensor import Replicate, Shard

from mb_backend_torch import _compat, _device, _sharded
from mb_backend_torch._training_replay import RecordingRefused, _recording
from mb_backend_torch._variable import ShardedVariable
from mb_backend_torch.core import convert_to_tensor

UNSUPPORTED = {}

_TIMEOUT = datetime.timedelta(minutes=30)
_SHUTDOWN_WAIT = datetime.timedelta(seconds=60)  # for the peers, at exit


def _active():
    return dist.is_available() and dist.is_initialized()


def _local_type(device_type):
    if device_type is None:
        return "gpu" if torch.cuda.is_available() else "cpu"
    return device_type.lower()


def list_devices(device_type=None):
    """The devices of the computation, as ``"cpu:0"``/``"gpu:0"``-style strings.

    One process: its CPU, or every CUDA device (the default when there is one).
    Several processes: one device per process, named by its rank.

    Args:
        device_type: ``"cpu"`` or ``"gpu"``; default: the GPUs when there are
            any, else the CPU (never a mix).
    """
    kind = _local_type(device_type)
    if kind in ("gpu", "cuda"):
        if not torch.cuda.is_available():
            return []
        count = dist.get_world_size() if _active() else torch.cuda.device_count()
        return [f"gpu:{i}" for i in range(count)]
    if kind != "cpu":
        return []
    return [f"cpu:{i}" for i in range(dist.get_world_size() if _active() else 1)]


def get_device_count(device_type=None):
    """How many devices `list_devices(device_type)` lists."""
    return len(list_devices(device_type))


def num_processes():
    """The world size of ``torch.distributed`` (1 before it is initialized)."""
    return dist.get_world_size() if _active() else 1


def process_id():
    """This process's rank (0 before ``torch.distributed`` is initialized)."""
    return dist.get_rank() if _active() else 0


def initialize(job_addresses, num_processes, process_id):
    """Starts ``torch.distributed`` (gloo on CPUs, NCCL when a GPU is visible).

    Args:
        job_addresses: ``"host:port"`` of process 0, or every process's,
            comma-separated (the first is used); None reads ``MASTER_ADDR`` and
            ``MASTER_PORT`` (set by ``torchrun``).
        num_processes: the world size; None reads ``WORLD_SIZE``.
        process_id: this process's rank; None reads ``RANK``.
    """
    if _active():
        return
    world = num_processes if num_processes is not None else _env_int("WORLD_SIZE")
    rank = process_id if process_id is not None else _env_int("RANK")
    if job_addresses:
        host, _, port = job_addresses.split(",")[0].strip().rpartition(":")
        init_method = f"tcp://{host}:{port}"
    elif os.environ.get("MASTER_ADDR") and os.environ.get("MASTER_PORT"):
        init_method = "env://"
    else:
        raise ValueError(
            "initialize() on the torch backend needs the address of process 0: pass "
            'job_addresses="host:port", set KERAS_DISTRIBUTION_JOB_ADDRESSES, or launch '
            "with torchrun (which sets MASTER_ADDR and MASTER_PORT)."
        )
    if world is None or rank is None:
        raise ValueError(
            "initialize() on the torch backend needs num_processes and process_id (or "
            f"WORLD_SIZE and RANK, as torchrun sets). Received num_processes={world!r}, "
            f"process_id={rank!r}."
        )
    _compat.load_dynamo()  # before the group exists: see its docstring
    use_cuda = torch.cuda.is_available()
    if use_cuda:
        torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", rank)) % torch.cuda.device_count())
    dist.init_process_group(
        backend="nccl" if use_cuda else "gloo",
        init_method=init_method,
        world_size=int(world),
        rank=int(rank),
        timeout=_TIMEOUT,
    )
    atexit.register(_shutdown)


def _shutdown():
    """Tears the process group down before the interpreter does.

    Left to the interpreter's own teardown, gloo's worker threads can still be running
    when their C++ objects are destroyed, and the process aborts ("terminate called
    without an active exception", exit status -6) after a run that succeeded. The
    processes meet first, so that none tears its connections down while a peer's
    last asynchronous work (a DTensor gather, a gradient bucket) still uses them; a
    peer that is gone only shortens the wait. The meshes of DTensor variables keep
    the group alive past ``destroy_process_group``: they let go of it here, so that
    its threads are joined while the interpreter still runs.
    """
    if not _active():
        return
    if dist.get_world_size() > 1:
        # A peer already gone (a raised barrier): tear down all the same.
        with contextlib.suppress(Exception):
            if dist.get_backend() == "gloo":
                dist.monitored_barrier(timeout=_SHUTDOWN_WAIT)
            else:
                dist.barrier()
    dist.destroy_process_group()
    _compat.release_mesh_process_groups()


def _env_int(name):
    value = os.environ.get(name)
    return int(value) if value else None


def broadcast_int(value):
    """Process 0's `value` on every process (a collective)."""
    if not _active() or dist.get_world_size() == 1:
        return int(value)
    box = [int(value)]
    dist.broadcast_object_list(box, src=0)
    return int(box[0])


# ----- layouts -----------------------------------------------------------------------


class ShardedLayout(NamedTuple):
    """A layout that splits a tensor: a torch ``DeviceMesh`` and DTensor placements."""

    mesh: object
    placements: tuple
    axes: tuple


def to_backend_mesh(device_mesh):
    """A torch ``DeviceMesh`` of the processes, in the mesh's shape and axis names.

    Device ``"cpu:r"`` (or ``"gpu:r"``) is the process of rank ``r``. Making it is a
    collective when the mesh has several axes (each axis gets its process group).
    """
    ranks = [_rank_of(name) for name in device_mesh.devices.flatten()]
    grid = torch.tensor(ranks, dtype=torch.int64).reshape(tuple(device_mesh.devices.shape))
    kind = "cuda" if torch.cuda.is_available() else "cpu"
    return _TorchMesh(kind, grid, mesh_dim_names=tuple(device_mesh.axis_names))


def _rank_of(name):
    _, _, index = str(name).rpartition(":")
    if not index.isdigit():
        raise ValueError(
            f"The torch backend names a device 'cpu:<rank>' or 'gpu:<rank>'; received "
            f"{name!r} in a DeviceMesh. Use mb.distribution.list_devices()."
        )
    return int(index)


def to_backend_layout(tensor_layout):
    """The layout's axes where it splits nothing, else a `ShardedLayout` (DTensor).

    Raises:
        ValueError: the mesh's devices are not this run's processes (one process
            per device).
    """
    mesh = tensor_layout.device_mesh
    axes = tuple(tensor_layout.axes)
    names = list(mesh.axis_names)
    splits = [a for a in axes if a is not None and mesh.shape[names.index(a)] > 1]
    if not splits:
        return axes
    # (TensorLayout names each mesh axis once, as a DTensor shards it: checked there.)
    world = num_processes()
    if world != mesh.devices.size:
        raise ValueError(
            f"The torch backend splits a tensor over mesh axis {splits[0]!r} (layout "
            f"{axes} on a mesh of shape {mesh.shape}) with one process per device of "
            f"the mesh: it needs {mesh.devices.size} processes, this run has {world}. "
            f"Launch {mesh.devices.size} processes (torchrun --nproc-per-node "
            f"{mesh.devices.size}, or mb.distribution.initialize(...) in each), or use "
            "a mesh of mb.distribution.list_devices()."
        )
    placements = [Replicate()] * len(names)
    for dim, axis in enumerate(axes):
        if axis is not None:
            placements[names.index(axis)] = Shard(dim)
    return ShardedLayout(mesh.backend_mesh, tuple(placements), axes)


def _sharded_layout(layout):
    if not hasattr(layout, "backend_layout"):
        return None
    backend = layout.backend_layout
    return backend if isinstance(backend, ShardedLayout) else None


def distribute_tensor(tensor, layout):
    """``tensor`` as this process computes on it: whole (layouts are checked).

    A step computes on whole values on every process; only the variables' storage
    is split (`distribute_variable`).
    """
    _sharded_layout(layout)
    return _sharded.whole(convert_to_tensor(tensor))


def distribute_variable(value, layout):
    """A new variable's value: a DTensor of this process's shard where `layout`
    splits it (process 0's value is scattered), else the value (replicated).

    Raises:
        ValueError: a split dimension is not a multiple of its mesh axis's size.
    """
    sharded = _sharded_layout(layout)
    if sharded is None:
        return value
    tensor = convert_to_tensor(value)
    mesh = layout.device_mesh
    shape = tuple(tensor.shape)
    if len(sharded.axes) != len(shape):
        raise ValueError(
            f"Layout {sharded.axes} has {len(sharded.axes)} axes but the variable has "
            f"shape {shape}: give one mesh axis name (or None) per dimension."
        )
    for dim, axis in enumerate(sharded.axes):
        size = mesh.shape[mesh.axis_names.index(axis)] if axis is not None else 1
        if shape[dim] % size:
            raise ValueError(
                f"Cannot split dimension {dim} (size {shape[dim]}) of a variable of shape "
                f"{shape} over mesh axis {axis!r} of {size} devices: the torch backend "
                "splits evenly (each process keeps an equal shard). Change the layout "
                f"of this variable in the LayoutMap (None for dimension {dim}), or its size."
            )
    tensor = tensor.detach().to(device=_device.get_device())
    # Process 0's value: every process starts from the same variable.
    return _sharded.shard(tensor, sharded.mesh, sharded.placements)


def whole_values(variables):
    """The variables' whole values on every process (a collective), or None when no
    variable is split over processes (nothing to gather)."""
    if not any(_sharded.is_sharded(getattr(v, "_value", None)) for v in variables):
        return None
    # One all-gather for all the split ones (not one per variable).
    return _sharded.whole_many([_stored_value(v) for v in variables])


def _stored_value(variable):
    """What a read of `variable` starts from: its shard (a DTensor) where it is split
    (and no stateless scope gives it a value), else its value."""
    if isinstance(variable, ShardedVariable):
        return variable.local_value
    return variable.value


def distribute_data_input(per_process_batch, layout, batch_dim_name):
    """This process's rows of a batch: its tensor, as the step computes on it."""
    return convert_to_tensor(per_process_batch)


# ----- collectives -------------------------------------------------------------------


def all_reduce(values, reduction="mean"):
    """`values` (tensors) summed or averaged over the processes, in one all-reduce.

    Args:
        values: a list of tensors (any shapes and float dtypes).
        reduction: ``"mean"`` or ``"sum"``.

    Returns:
        A list of tensors of the same shapes and dtypes.
    """
    if reduction not in ("mean", "sum"):
        raise ValueError(f"all_reduce: reduction must be 'mean' or 'sum'. Received {reduction!r}.")
    if not _active() or dist.get_world_size() == 1 or not values:
        return list(values)
    if _recording.active:
        # A recorded step could not replay a collective: the step stays eager.
        raise RecordingRefused("the step all-reduces across processes; it runs eagerly")
    tensors = [convert_to_tensor(v) for v in values]
    common = tensors[0].dtype
    for t in tensors[1:]:
        common = torch.promote_types(common, t.dtype)
    flat = torch.cat([t.detach().reshape(-1).to(common) for t in tensors])
    dist.all_reduce(flat, op=dist.ReduceOp.SUM)
    if reduction == "mean":
        flat = flat / dist.get_world_size()
    out, start = [], 0
    for t in tensors:
        part = flat[start : start + t.numel()].reshape(t.shape).to(t.dtype)
        out.append(part)
        start += t.numel()
    return out


def gather_batch(tensor, replicated):
    """The step's outputs on this process's rows, gathered into the whole batch
    (rank order) as a NumPy array on every process; as is when `replicated`."""
    tensor = convert_to_tensor(tensor).detach()
    if replicated or not _active() or dist.get_world_size() == 1:
        return tensor.cpu().numpy()
    parts = [None] * dist.get_world_size()
    dist.all_gather_object(parts, tensor.cpu().numpy())
    return np.concatenate(parts, axis=0)
