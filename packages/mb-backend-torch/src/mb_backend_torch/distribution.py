"""The ``distribution`` contract module of the PyTorch backend: ``torch.distributed``.

Data parallelism as DDP does it: one process per device (``torchrun``, or
``mb.distribution.initialize``), each holding the whole model and computing on its
part of every batch; the gradients are averaged over the processes with one
bucketed all-reduce per step (gloo on CPUs, NCCL on GPUs), so every replica
applies the same update. The device of a process is ``"<type>:<rank>"``.

Layouts that split a variable (``ModelParallel`` over a mesh axis of more than one
device) are refused with a ValueError: the trainer's functional step does not run
on DTensors yet.
"""

import atexit
import datetime
import os

import numpy as np
import torch
import torch.distributed as dist

from mb_backend_torch._training_replay import RecordingRefused, _recording
from mb_backend_torch.core import convert_to_tensor

UNSUPPORTED = {}

_TIMEOUT = datetime.timedelta(minutes=30)


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
    without an active exception", exit status -6) after a run that succeeded.
    """
    if _active():
        dist.destroy_process_group()


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


def to_backend_mesh(device_mesh):
    """The mesh as torch sees it: the process group's ranks, in the mesh's shape."""
    return np.arange(device_mesh.devices.size).reshape(device_mesh.devices.shape)


def to_backend_layout(tensor_layout):
    """The layout's axes, checked: the torch trainer runs replicated variables only."""
    mesh = tensor_layout.device_mesh
    for axis in tensor_layout.axes:
        if axis is not None and mesh.shape[mesh.axis_names.index(axis)] > 1:
            raise ValueError(
                f"The torch backend cannot split a tensor over mesh axis {axis!r} "
                f"(layout {tensor_layout.axes} on a mesh of shape {mesh.shape}): its "
                "trainer replicates every variable (DataParallel, as DDP does). Use "
                "DataParallel on torch, or the jax backend for ModelParallel."
            )
    return tuple(tensor_layout.axes)


def _check(layout):
    if hasattr(layout, "backend_layout"):
        layout.backend_layout  # noqa: B018  (raises for a layout that splits)


def distribute_tensor(tensor, layout):
    """``tensor`` as this process's replica holds it (layouts are checked)."""
    _check(layout)
    return convert_to_tensor(tensor)


def distribute_variable(value, layout):
    """A variable's value, replicated (each process holds the whole variable)."""
    _check(layout)
    return value


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
