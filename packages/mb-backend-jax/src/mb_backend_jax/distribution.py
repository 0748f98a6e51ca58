"""The ``distribution`` contract module of the JAX backend: XLA's SPMD partitioner.

A `DeviceMesh` becomes a ``jax.sharding.Mesh`` and a `TensorLayout` a
``NamedSharding``. Variables are created sharded, each batch becomes one global
array split over the mesh's batch axis (``jax.make_array_from_process_local_data``
from this process's rows), and the compiled step computes on global arrays: XLA
inserts the collectives (the gradients' all-reduce among them), so the step
itself is the single-device one. Several processes (hosts) join through
``jax.distributed``; on CPUs their collectives go through gloo.

Device names are ``"<platform>:<id>"`` strings, e.g. ``"cpu:0"``, ``"gpu:1"``.
"""

import jax
import numpy as np
from jax.experimental import multihost_utils

from mb_backend_jax._device import _to_jax_device
from mb_backend_jax._sharding import is_placed, place, to_sharding

UNSUPPORTED = {}


def list_devices(device_type=None):
    """The devices of every process, as ``"cpu:0"``/``"gpu:0"``-style strings.

    Args:
        device_type: ``"cpu"``, ``"gpu"`` or ``"tpu"``, or None for JAX's
            default platform (the accelerators when there are any, else the CPUs).
    """
    try:
        devices = jax.devices(device_type.lower()) if device_type else jax.devices()
    except RuntimeError:
        return []
    return [f"{d.platform}:{d.id}" for d in devices]


def get_device_count(device_type=None):
    """How many devices `list_devices(device_type)` lists."""
    return len(list_devices(device_type))


def num_processes():
    """The number of JAX processes (hosts) in this computation."""
    return jax.process_count()


def process_id():
    """The index of this process among ``num_processes()``."""
    return jax.process_index()


def initialize(job_addresses, num_processes, process_id):
    """Joins the processes with ``jax.distributed.initialize``.

    Args:
        job_addresses: ``"host:port"`` of the coordinator (process 0), or every
            process's, comma-separated (the first is used); None lets JAX find
            them (cloud TPUs, SLURM, Open MPI).
        num_processes: how many processes; None lets JAX find it.
        process_id: this process's index; None lets JAX find it.
    """
    coordinator = job_addresses.split(",")[0].strip() if job_addresses else None
    # CPU collectives between processes go through gloo (accelerators keep their own);
    # without it a multi-process CPU computation fails at its first all-reduce.
    jax.config.update("jax_cpu_collectives_implementation", "gloo")
    jax.distributed.initialize(
        coordinator_address=coordinator, num_processes=num_processes, process_id=process_id
    )


def broadcast_int(value):
    """Process 0's `value` on every process (a collective: every process calls it)."""
    if jax.process_count() == 1:
        return int(value)
    return int(multihost_utils.broadcast_one_to_all(np.asarray(value, dtype=np.int64)))


# ----- meshes and layouts ------------------------------------------------------------


def to_backend_mesh(device_mesh):
    """A ``jax.sharding.Mesh`` of `device_mesh`'s devices and axis names."""
    devices = [_to_jax_device(name) for name in device_mesh.devices.flatten()]
    grid = np.empty(len(devices), dtype=object)
    grid[:] = devices
    return jax.sharding.Mesh(grid.reshape(device_mesh.devices.shape), tuple(device_mesh.axis_names))


def to_backend_layout(tensor_layout):
    """A ``NamedSharding`` of `tensor_layout` on its mesh."""
    spec = jax.sharding.PartitionSpec(*tensor_layout.axes)
    return jax.sharding.NamedSharding(tensor_layout.device_mesh.backend_mesh, spec)


def distribute_tensor(tensor, layout):
    """``tensor`` placed as ``layout`` says (a sharding constraint under ``jax.jit``).

    ``layout`` may be an mb ``TensorLayout``, a device name (``"gpu:0"``), a
    ``jax.Device``, or a ``jax.sharding.Sharding``.
    """
    return place(tensor, layout)


def distribute_variable(value, layout):
    """A variable's value placed as its ``layout`` says (see `distribute_tensor`)."""
    return place(value, layout)


def distribute_data_input(per_process_batch, layout, batch_dim_name):
    """This process's rows of a batch, made one global array laid out as `layout`.

    Args:
        per_process_batch: this process's rows (the whole batch in one process, or
            when `layout` replicates it).
        layout: the batch's layout (split on `batch_dim_name`, or replicated).
        batch_dim_name: the mesh axis the batch is split over.
    """
    sharding = to_sharding(layout)
    if isinstance(per_process_batch, jax.core.Tracer):
        return jax.lax.with_sharding_constraint(per_process_batch, sharding)
    if isinstance(per_process_batch, jax.Array):
        if jax.process_count() == 1:
            return (
                per_process_batch
                if is_placed(per_process_batch, sharding)
                else jax.device_put(per_process_batch, sharding)
            )
        per_process_batch = np.asarray(per_process_batch)
    host = np.asarray(per_process_batch)
    host = host.astype(jax.dtypes.canonicalize_dtype(host.dtype), copy=False)
    if jax.process_count() == 1:
        return jax.device_put(host, sharding)  # one transfer, straight to the devices
    return jax.make_array_from_process_local_data(sharding, host)


def gather_batch(tensor, replicated):
    """A batch the step computed, whole, as a NumPy array on every process.

    The step's outputs are global arrays already; only one split over several
    processes needs their parts gathered (a collective: every process calls it).
    """
    del replicated  # global arrays know their own layout
    if isinstance(tensor, jax.Array) and not (
        tensor.is_fully_addressable or tensor.is_fully_replicated
    ):
        return np.asarray(multihost_utils.process_allgather(tensor, tiled=True))
    return np.asarray(tensor)
