"""The ``distribution`` contract module of the TensorFlow backend: ``tf.distribute``.

Data parallelism as TensorFlow's own strategies run it:

- in one process, a ``tf.distribute.MirroredStrategy`` over the mesh's devices
  (GPUs, or logical CPU devices made with
  ``tf.config.set_logical_device_configuration``);
- over several processes (workers, possibly on several machines), the
  ``tf.distribute.MultiWorkerMirroredStrategy`` that `initialize` creates from
  ``TF_CONFIG`` (written from its arguments), its collectives over gRPC.

The trainer's compiled step calls `run_replicas`: the step runs once per local
replica under ``strategy.run``, each on its rows of this process's batch; the
gradients are summed over every replica of every worker inside the step
(``ReplicaContext.all_reduce``), each weighted by its share of the global
batch, so every replica applies the same update and training matches one
device on the global batch. The state the replicas return is joined as each
variable's ``aggregation`` says (metrics' ``"sum"`` state: the sum of the
replicas' increments). Variables are TensorFlow variables of the process,
read and written in the step's cross-replica part.

Device names are ``"<type>:<index>"`` strings: ``"cpu:0"``, ``"gpu:1"``; in a
multi-worker run, one per replica of the whole run, in replica order.
"""

import json
import os
import threading

import numpy as np
import tensorflow as tf

from mb_backend_tensorflow._convert import convert_to_tensor

UNSUPPORTED = {}

# Seconds a collective waits for the other workers before it fails (instead of
# hanging when a worker has died).
COLLECTIVE_TIMEOUT_S = 300


class _Cluster:
    """The multi-worker strategy `initialize` made (None in a one-process run)."""

    strategy = None
    num_workers = 1
    task_id = 0


_mirrored = {}  # tuple of TensorFlow device names -> MirroredStrategy
_replica = threading.local()  # this replica's share of the global batch, in a step


def _kind(name):
    # "/job:worker/replica:0/task:1/device:CPU:0" or "/device:GPU:0" -> "cpu"/"gpu"
    return name.rsplit("device:", 1)[-1].split(":")[0].lower()


def _default_kind():
    return "gpu" if tf.config.list_logical_devices("GPU") else "cpu"


def list_devices(device_type=None):
    """The devices of the computation, as ``"cpu:0"``/``"gpu:0"``-style strings.

    One process: TensorFlow's logical devices of `device_type` (split a CPU into
    several with ``tf.config.set_logical_device_configuration`` before TensorFlow
    starts). After `initialize`: one device per replica of the multi-worker run.

    Args:
        device_type: ``"cpu"`` or ``"gpu"``; default: the GPUs when there are
            any, else the CPUs (never a mix).
    """
    kind = (device_type or _default_kind()).lower()
    if kind == "cuda":
        kind = "gpu"
    strategy = _Cluster.strategy
    if strategy is not None:
        local = strategy.extended.worker_devices
        if not local or _kind(local[0]) != kind:
            return []
        return [f"{kind}:{i}" for i in range(strategy.num_replicas_in_sync)]
    if kind not in ("cpu", "gpu", "tpu"):
        return []
    return [f"{kind}:{i}" for i, _ in enumerate(tf.config.list_logical_devices(kind.upper()))]


def get_device_count(device_type=None):
    """How many devices `list_devices(device_type)` lists."""
    return len(list_devices(device_type))


def num_processes():
    """The number of workers (1 unless `initialize` joined several)."""
    return _Cluster.num_workers


def process_id():
    """This worker's index (its ``TF_CONFIG`` task index; 0 when alone)."""
    return _Cluster.task_id


def initialize(job_addresses, num_processes, process_id):
    """Joins the workers in a ``tf.distribute.MultiWorkerMirroredStrategy``.

    Call it first of all, before TensorFlow computes anything: the strategy
    configures TensorFlow's runtime for the cluster.

    Args:
        job_addresses: every worker's ``"host:port"``, comma-separated, in
            process order (``TF_CONFIG``'s ``cluster.worker``); a single address
            stands for ``num_processes`` consecutive ports from it. None with the
            other two None uses the ``TF_CONFIG`` environment variable as set.
        num_processes: how many workers; None: as many as addresses.
        process_id: this worker's index among them.
    """
    if _Cluster.strategy is not None:
        return
    if job_addresses is None and num_processes is None and process_id is None:
        if not os.environ.get("TF_CONFIG"):
            raise ValueError(
                "initialize() on the tensorflow backend needs the workers' addresses: pass "
                'job_addresses="host0:port,host1:port", num_processes and process_id (or '
                "set KERAS_DISTRIBUTION_JOB_ADDRESSES, ..._NUM_PROCESSES, ..._PROCESS_ID), "
                "or set TF_CONFIG."
            )
    else:
        os.environ["TF_CONFIG"] = json.dumps(_tf_config(job_addresses, num_processes, process_id))
    options = tf.distribute.experimental.CommunicationOptions(
        implementation=tf.distribute.experimental.CommunicationImplementation.RING,
        timeout_seconds=COLLECTIVE_TIMEOUT_S,
    )
    strategy = tf.distribute.MultiWorkerMirroredStrategy(communication_options=options)
    resolver = strategy.cluster_resolver
    _Cluster.strategy = strategy
    _Cluster.num_workers = int(resolver.cluster_spec().num_tasks("worker"))
    _Cluster.task_id = int(resolver.task_id or 0)


def _tf_config(job_addresses, num_processes, process_id):
    addresses = [a.strip() for a in (job_addresses or "").split(",") if a.strip()]
    if not addresses:
        raise ValueError(
            "initialize() on the tensorflow backend needs job_addresses: every worker's "
            f'"host:port", comma-separated. Received job_addresses={job_addresses!r}.'
        )
    world = int(num_processes) if num_processes is not None else len(addresses)
    if len(addresses) == 1 and world > 1:
        host, _, port = addresses[0].rpartition(":")
        addresses = [f"{host}:{int(port) + i}" for i in range(world)]
    if len(addresses) != world:
        raise ValueError(
            f"initialize() got {len(addresses)} addresses for num_processes={world}. Give "
            "one address per worker (or a single one: consecutive ports are used)."
        )
    if process_id is None or not 0 <= int(process_id) < world:
        raise ValueError(
            f"initialize() needs process_id in [0, {world}). Received process_id={process_id!r}."
        )
    return {
        "cluster": {"worker": addresses},
        "task": {"type": "worker", "index": int(process_id)},
    }


# ----- layouts ------------------------------------------------------------------------


def to_backend_layout(tensor_layout):
    """The layout's axes, checked: tf.distribute's data parallelism replicates every
    variable on every replica (a layout may not split one)."""
    mesh = tensor_layout.device_mesh
    for axis in tensor_layout.axes:
        if axis is not None and mesh.shape[mesh.axis_names.index(axis)] > 1:
            raise ValueError(
                f"The tensorflow backend cannot split a tensor over mesh axis {axis!r} "
                f"(layout {tensor_layout.axes} on a mesh of shape {mesh.shape}): "
                "tf.distribute's MirroredStrategy replicates every variable (its "
                "variable partitioning needs a ParameterServerStrategy cluster, which mb "
                "does not run). Use DataParallel on tensorflow, or the jax or torch "
                "backend for ModelParallel."
            )
    return tuple(tensor_layout.axes)


def distribute_tensor(tensor, layout):
    """``tensor`` as a replica computes on it: whole (tf.distribute replicates every
    tensor; a layout that splits one is refused, as `to_backend_layout` says)."""
    if hasattr(layout, "backend_layout"):
        layout.backend_layout  # noqa: B018  (raises for a layout that splits)
    return tensor if tf.is_tensor(tensor) else convert_to_tensor(tensor)


def distribute_variable(value, layout):
    """A variable's value, replicated (layouts that split it are refused)."""
    if hasattr(layout, "backend_layout"):
        layout.backend_layout  # noqa: B018  (raises for a layout that splits)
    return value


# ----- the replicated step -----------------------------------------------------------


def _tf_device(name):
    kind, _, index = str(name).partition(":")
    return f"/device:{kind.upper()}:{index or 0}"


def strategy_for(device_mesh):
    """The ``tf.distribute`` strategy a mesh runs on, or None for a single device."""
    if _Cluster.strategy is not None:
        return _Cluster.strategy
    devices = tuple(_tf_device(d) for d in np.asarray(device_mesh.devices).reshape(-1))
    if len(devices) < 2:
        return None
    strategy = _mirrored.get(devices)
    if strategy is None:
        known = {d.name.replace("/job:localhost/replica:0/task:0", "") for d in _logical()}
        missing = [d for d in devices if d not in known]
        if missing:
            raise ValueError(
                f"The mesh's devices {missing} are not devices TensorFlow sees "
                f"({sorted(known)}). Use devices from mb.distribution.list_devices(); to "
                "split a CPU into N devices, call tf.config.set_logical_device_configuration("
                "tf.config.list_physical_devices('CPU')[0], "
                "[tf.config.LogicalDeviceConfiguration()] * N) before TensorFlow starts."
            )
        strategy = tf.distribute.MirroredStrategy(devices=list(devices))
        _mirrored[devices] = strategy
    return strategy


def _logical():
    return tf.config.list_logical_devices()


def _local_value(strategy, value, index):
    values = strategy.experimental_local_results(value)
    return values[index] if len(values) > 1 else values[0]


def run_replicas(fn, read_only, mutable, data, aggregations, gather_outputs, device_mesh):
    """One step of `fn` on every replica of the mesh's strategy, joined.

    Args:
        fn: ``fn(read_only, mutable, data) -> (new_mutable, outputs)``, the
            trainer's step on explicit state.
        read_only, mutable: the state's values (lists of tensors).
        data: this process's batch; each local replica computes on a contiguous
            part of its rows.
        aggregations: each mutable variable's ``aggregation``: ``"sum"`` joins
            the replicas' increments, ``"mean"`` averages their values, others
            take the first replica's value (identical on every replica: weights
            and optimizer state, the gradients being all-reduced).
        gather_outputs: concatenate the replicas' outputs (predictions) in
            replica order; else the first replica's outputs are returned.
        device_mesh: the distribution's mesh.

    Returns:
        ``(new_mutable, outputs)``, as `fn` returns them on one device.
    """
    strategy = strategy_for(device_mesh)
    if strategy is None:
        return fn(read_only, mutable, data)
    local = len(strategy.extended.worker_devices)
    first = _Cluster.task_id * local

    def replica(read_only, mutable, data):
        context = tf.distribute.get_replica_context()
        index = tf.cast(context.replica_id_in_sync_group, tf.int32) - first
        part, size = _part(data, index, local)
        count = tf.cast(size, tf.float32)
        total = context.all_reduce(tf.distribute.ReduceOp.SUM, count)
        _replica.weight = count / total
        try:
            new, outputs = fn(read_only, mutable, part)
        finally:
            _replica.weight = None
        return new, outputs, size

    results = strategy.run(replica, args=(read_only, mutable, data))
    per_replica = [
        tf.nest.map_structure(lambda v, i=i: _local_value(strategy, v, i), results)
        for i in range(local)
    ]
    sizes = [r[2] for r in per_replica]
    new = [
        _join(old, [r[0][j] for r in per_replica], aggregation, sizes)
        for j, (old, aggregation) in enumerate(zip(mutable, aggregations, strict=True))
    ]
    outputs = [r[1] for r in per_replica]
    if gather_outputs:
        return new, tf.nest.map_structure(_concat, *outputs)
    return new, outputs[0]


def _part(data, index, local):
    """This replica's rows of `data`: ``local`` nearly equal contiguous parts, the
    first ones a row longer when they do not split evenly."""
    leaves = [x for x in tf.nest.flatten(data) if x is not None]
    ranked = [x for x in leaves if getattr(x, "shape", None) is not None and x.shape.rank]
    if not ranked:
        return data, tf.constant(1, tf.int32)
    rows = tf.shape(ranked[0], out_type=tf.int32)[0]
    base, extra = rows // local, rows % local
    start = index * base + tf.minimum(index, extra)
    size = base + tf.cast(index < extra, tf.int32)

    def take(x):
        if x is None or getattr(x, "shape", None) is None or not x.shape.rank:
            return x
        return x[start : start + size]

    return tf.nest.map_structure(take, data), size


def _join(old, values, aggregation, sizes):
    if len(values) == 1:
        return values[0]
    old = convert_to_tensor(old)
    valid = [s > 0 for s in sizes]
    if aggregation == "sum":
        total = old
        for value, ok in zip(values, valid, strict=True):
            delta = convert_to_tensor(value) - old
            total = total + tf.where(ok, delta, tf.zeros_like(delta))
        return total
    if aggregation == "mean" and old.dtype.is_floating:
        total = tf.zeros_like(old)
        count = tf.zeros((), old.dtype)
        for value, ok in zip(values, valid, strict=True):
            total = total + tf.where(ok, convert_to_tensor(value), tf.zeros_like(old))
            count = count + tf.cast(ok, old.dtype)
        return total / count
    return values[0]


def _concat(*parts):
    first = parts[0]
    if first is None or not getattr(first, "shape", None) or not first.shape.rank:
        return first
    return tf.concat(list(parts), axis=0)


# ----- collectives -------------------------------------------------------------------


def _in_replica():
    return tf.distribute.has_strategy() and not tf.distribute.in_cross_replica_context()


def all_reduce(values, reduction="mean"):
    """`values` (tensors) summed or averaged over the replicas.

    Inside a replicated step (a replica of `run_replicas`) it reduces over every
    replica of every worker; ``"mean"`` weights each replica by its share of the
    global batch (its gradient is the mean over its rows). Outside a step it
    reduces over the workers of a multi-worker run (each worker's value once),
    and returns `values` unchanged in one process.

    Args:
        values: a list of tensors.
        reduction: ``"mean"`` or ``"sum"``.
    """
    if reduction not in ("mean", "sum"):
        raise ValueError(f"all_reduce: reduction must be 'mean' or 'sum'. Received {reduction!r}.")
    values = [convert_to_tensor(v) for v in values]
    if not values:
        return values
    if _in_replica():
        context = tf.distribute.get_replica_context()
        if context.num_replicas_in_sync == 1:
            return values
        weight = getattr(_replica, "weight", None)
        if reduction == "mean" and weight is None:
            return list(context.all_reduce(tf.distribute.ReduceOp.MEAN, values))
        if reduction == "mean":
            values = [tf.math.multiply_no_nan(v, tf.cast(weight, v.dtype)) for v in values]
        return list(context.all_reduce(tf.distribute.ReduceOp.SUM, values))
    if _Cluster.strategy is None or _Cluster.num_workers == 1:
        return values
    return _across_workers(values, reduction)


def _across_workers(values, reduction):
    """Each worker's `values` reduced over the workers (its first local replica
    contributes them; the others zeros, for sums)."""
    strategy = _Cluster.strategy
    local = len(strategy.extended.worker_devices)
    first = _Cluster.task_id * local
    dtypes = [v.dtype for v in values]
    values = [tf.cast(v, tf.float64) for v in values]

    def value_fn(context):
        keep = reduction == "mean" or context.replica_id_in_sync_group == first
        return [v if keep else tf.zeros_like(v) for v in values]

    op = tf.distribute.ReduceOp.MEAN if reduction == "mean" else tf.distribute.ReduceOp.SUM
    per_replica = strategy.experimental_distribute_values_from_function(value_fn)
    reduced = strategy.run(
        lambda vs: tf.distribute.get_replica_context().all_reduce(op, vs), args=(per_replica,)
    )
    out = [strategy.experimental_local_results(r)[0] for r in reduced]
    return [tf.cast(v, d) for v, d in zip(out, dtypes, strict=True)]


def broadcast_int(value):
    """Worker 0's `value` on every worker (a collective: every worker calls it)."""
    if _Cluster.strategy is None or _Cluster.num_workers == 1:
        return int(value)
    keep = float(value) if _Cluster.task_id == 0 else 0.0
    (total,) = _across_workers([tf.constant(keep, tf.float64)], "sum")
    return round(float(total.numpy()))


def gather_batch(tensor, replicated):
    """This worker's rows of a batch's outputs joined with the other workers' (in
    worker order), as a NumPy array; this worker's as they are when `replicated`."""
    tensor = convert_to_tensor(tensor)
    if replicated or _Cluster.strategy is None or _Cluster.num_workers == 1:
        return tensor.numpy()
    strategy = _Cluster.strategy
    local = len(strategy.extended.worker_devices)
    first = _Cluster.task_id * local
    parts = np.array_split(tensor.numpy(), local) if tensor.shape.rank else [tensor.numpy()]

    def value_fn(context):
        return tf.constant(parts[context.replica_id_in_sync_group - first])

    per_replica = strategy.experimental_distribute_values_from_function(value_fn)
    gathered = strategy.run(
        lambda v: tf.distribute.get_replica_context().all_gather(v, axis=0), args=(per_replica,)
    )
    return strategy.experimental_local_results(gathered)[0].numpy()
