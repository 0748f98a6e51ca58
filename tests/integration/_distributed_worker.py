"""One process of a distributed run, for tests/integration/test_distribution.py.

``python _distributed_worker.py SCENARIO RANK WORLD PORT OUT_DIR`` runs one scenario
and writes what it measured to ``OUT_DIR/SCENARIO-RANK.json``; the test compares.
The backend is the one in ``MB_BACKEND`` (the test's own).
"""

from __future__ import annotations

import json
import os
import sys

SCENARIO, RANK, WORLD, PORT, OUT = sys.argv[1], *map(int, sys.argv[2:5]), sys.argv[5]

if SCENARIO.startswith("tf_"):
    # Two logical CPU devices, made before TensorFlow starts (MirroredStrategy's
    # replicas in one process).
    import tensorflow as tf

    _cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(_cpu, [tf.config.LogicalDeviceConfiguration()] * 2)

import numpy as np  # noqa: E402

import mb  # noqa: E402
from mb import distribution  # noqa: E402

if WORLD > 1:  # first of all: the engines want it before any computation
    # Every worker's address where the engine wants them all (tf.distribute), else
    # process 0's.
    ADDRESSES = os.environ.get("MB_TEST_JOB_ADDRESSES", f"127.0.0.1:{PORT}")
    distribution.initialize(ADDRESSES, num_processes=WORLD, process_id=RANK)

import mb_data  # noqa: E402


def data(n=44):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 4)).astype("float32")
    y = (x @ np.array([[1.0], [-2.0], [0.5], [3.0]]) + 0.1).astype("float32")
    return x, y


def make_model(layers=()):
    mb.utils.set_random_seed(3)
    model = mb.Sequential(
        [
            mb.Input((4,)),
            *layers,
            mb.layers.Dense(8, activation="relu", name="hidden"),
            mb.layers.Dense(1, name="head"),
        ]
    )
    model.compile(optimizer="adam", loss="mse", metrics=["mae"])
    return model


def weights(model):
    return [np.asarray(w).tolist() for w in model.get_weights()]


def train(
    dist,
    steps_per_execution=1,
    shuffle=False,
    callbacks=None,
    epochs=2,
    n=44,
    batch_size=8,
    layers=(),
    check=True,
):
    """Fit, evaluate and predict under `dist` (None: no distribution); with
    ``check=False`` only fit (the weights and history)."""
    x, y = data(n)
    scope = dist.scope() if dist is not None else _null()
    with scope:
        model = make_model(layers)
        if steps_per_execution > 1:
            model.compile(
                optimizer="adam",
                loss="mse",
                metrics=["mae"],
                steps_per_execution=steps_per_execution,
            )
        history = model.fit(
            x,
            y,
            batch_size=batch_size,
            epochs=epochs,
            shuffle=shuffle,
            verbose=0,
            callbacks=callbacks,
        )
        if check:
            evaluated = model.evaluate(x, y, batch_size=batch_size, verbose=0, return_dict=True)
            predicted = model.predict(x, batch_size=batch_size, verbose=0)
    result = {"weights": weights(model), "history": history.history}
    if check:
        result["evaluate"] = evaluated
        result["predict"] = np.asarray(predicted).tolist()
    return model, result


class _null:
    def __enter__(self):
        return None

    def __exit__(self, *args):
        return False


def local_rows(tensor):
    """This process's rows of a batch: a JAX global array's addressable shards, else all."""
    shards = getattr(tensor, "addressable_shards", None)
    if shards is None:
        return np.asarray(mb.ops.convert_to_numpy(tensor))
    parts = {}
    for shard in shards:
        start = shard.index[0].start or 0
        parts[start] = np.asarray(shard.data)
    return np.concatenate([parts[k] for k in sorted(parts)])


def indices_seen(dist):
    """Per input kind, per epoch: the sample indices this process read.

    Every data adapter: arrays and PyDatasets (shuffled, split by mb), a generator,
    tf.data, a torch DataLoader and a grain dataset (split by mb), and the inputs that
    shard themselves (a DataLoader with a DistributedSampler, a grain DataLoader with
    ShardOptions). Each engine's own inputs on its own backend's run (tf.data on
    tensorflow, the torch loaders on torch, grain on jax): the split is mb-data's,
    the same on every backend, and importing another engine in each of the two
    processes cost more than the rest of the scenario (TensorFlow: ~12 s each).
    """
    n = 28  # the last batch (4) splits over 2 processes of 2 devices each, too
    ids = np.arange(n, dtype="float32").reshape(-1, 1)

    class Batches(mb_data.PyDataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            rows = ids[i * 8 : (i + 1) * 8]
            return rows, rows

    def generator():
        return ((ids[i : i + 8],) for i in range(0, n, 8))

    # name -> (a fresh input for an epoch, whether fit shuffles it)
    inputs = {"arrays": (lambda: ids, True), "py_dataset": (Batches, True)}
    inputs["generator"] = (generator, False)
    engine = mb.config.backend()
    try:
        if engine != "tensorflow":
            raise ImportError  # (tested on its own backend)
        import tensorflow as tf

        inputs["tf_data"] = (lambda: tf.data.Dataset.from_tensor_slices(ids).batch(8), False)
    except ImportError:
        pass
    try:
        if engine != "torch":
            raise ImportError  # (tested on its own backend)
        import torch
        from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

        samples = TensorDataset(torch.from_numpy(ids))
        inputs["torch_loader"] = (lambda: DataLoader(samples, batch_size=8), False)

        def sampled():
            sampler = DistributedSampler(samples, num_replicas=WORLD, rank=RANK, shuffle=False)
            return DataLoader(samples, batch_size=4, sampler=sampler)

        inputs["torch_sampler"] = (sampled, False)
    except ImportError:
        pass
    try:
        if engine != "jax":
            raise ImportError  # (tested on its own backend)
        import grain.python as grain

        inputs["grain"] = (lambda: grain.MapDataset.source(ids).batch(8), False)

        def grain_sharded():
            return grain.DataLoader(
                data_source=ids,
                sampler=grain.IndexSampler(n, grain.NoSharding(), shuffle=False, num_epochs=1),
                operations=[grain.Batch(4)],
                shard_options=grain.ShardOptions(shard_index=RANK, shard_count=WORLD),
            )

        inputs["grain_sharded"] = (grain_sharded, False)
    except ImportError:
        pass
    seen = {}
    with dist.scope():
        for name, (make, shuffle) in inputs.items():
            epochs = []
            for _ in range(2):
                iterator = mb_data.EpochIterator(make(), batch_size=8, shuffle=shuffle)
                batches = []
                for _, _, chunk in iterator.enumerate_epoch():
                    for batch in chunk:
                        x = batch[0] if isinstance(batch, tuple) else batch
                        batches.append(local_rows(x)[:, 0].astype(int).tolist())
                epochs.append(batches)
            seen[name] = {"shuffled": shuffle, "epochs": epochs}
    return seen


# ----- scenarios ---------------------------------------------------------------------


def jax_mesh():
    """8 simulated devices: DataParallel and ModelParallel against one device."""
    out = {}
    _, out["reference"] = train(None)
    _, out["data_parallel"] = train(distribution.DataParallel())
    mesh = distribution.DeviceMesh((2, 4), ["batch", "model"])
    layout_map = distribution.LayoutMap(mesh)
    layout_map[".*hidden/kernel"] = (None, "model")
    layout_map[".*hidden/bias"] = ("model",)
    layout_map[".*head/kernel"] = ("model", None)
    model_parallel = distribution.ModelParallel(layout_map=layout_map, batch_dim_name="batch")
    model, out["model_parallel"] = train(model_parallel, steps_per_execution=2)
    out["shardings"] = {v.path: _layout_of(v) for v in model.variables + model.optimizer.variables}
    path = os.path.join(OUT, "sharded.keras")
    with model_parallel.scope():
        model.save(path)
    loaded = mb.saving.load_model(path)  # no distribution: one device
    out["loaded"] = {
        "weights": weights(loaded),
        "devices": sorted({len(v.value.sharding.device_set) for v in loaded.variables}),
        "predict": np.asarray(loaded.predict(data()[0], verbose=0)).tolist(),
    }
    return out


def torch_model_parallel():
    """ModelParallel on torch: variables stored as DTensor shards, trained as one process."""
    written = _audit_writes()
    out = {}
    if RANK == 0:  # one process, the same global batches: the test's reference
        _, out["reference"] = train(None)
    # FSDP-style: the data and the variables split over the same axis of 2 processes.
    mesh = distribution.DeviceMesh((WORLD,), ["batch"])
    layout_map = distribution.LayoutMap(mesh)
    layout_map[".*hidden/kernel"] = (None, "batch")
    layout_map[".*hidden/bias"] = ("batch",)
    layout_map[".*head/kernel"] = ("batch", None)
    checkpoint = mb.callbacks.ModelCheckpoint(os.path.join(OUT, "sharded.keras"))
    fsdp = distribution.ModelParallel(layout_map=layout_map, batch_dim_name="batch")
    backup = mb.callbacks.BackupAndRestore(os.path.join(OUT, "backup"), delete_checkpoint=False)
    model, out["fsdp"] = train(fsdp, callbacks=[checkpoint, backup])
    out["shards"] = {v.path: _shard_of(v) for v in model.variables + model.optimizer.variables}
    # Every process calls save (its gather is a collective); process 0 alone writes.
    model.save(os.path.join(OUT, "every.keras"))
    model.save_weights(os.path.join(OUT, "every.weights.h5"))
    out["written"] = sorted(set(written))
    # Tensor-parallel layouts: the variables split over "model", the data whole on both.
    mesh = distribution.DeviceMesh((1, WORLD), ["batch", "model"])
    layout_map = distribution.LayoutMap(mesh)
    layout_map[".*hidden/kernel"] = (None, "model")
    layout_map[".*head/kernel"] = ("model", None)
    model, out["model"] = train(distribution.ModelParallel(layout_map=layout_map))
    out["model_shards"] = {v.path: _shard_of(v) for v in model.variables}
    # A mesh that lists the processes out of order (process 1 holds the first rows).
    devices = list(reversed(distribution.list_devices()))
    mesh = distribution.DeviceMesh((WORLD,), ["batch"], devices=devices)
    layout_map = distribution.LayoutMap(mesh)
    layout_map[".*hidden/kernel"] = (None, "batch")
    layout_map[".*head/kernel"] = ("batch", None)
    reordered = distribution.ModelParallel(layout_map=layout_map, batch_dim_name="batch")
    _, out["reordered"] = train(reordered)
    return out


def _shard_of(variable):
    """A torch variable's storage: its DTensor placements and this process's shard's
    shape, or None when it holds the whole value."""
    from torch.distributed.tensor import DTensor

    value = variable._value
    if not isinstance(value, DTensor):
        return None
    return [[str(p) for p in value.placements], list(value.to_local().shape)]


def torch_load_sharded():
    """The .keras file process 0 of `torch_model_parallel` wrote, loaded in one process."""
    loaded = mb.saving.load_model(os.path.join(OUT, "sharded.keras"))
    return {
        "weights": weights(loaded),
        "predict": np.asarray(loaded.predict(data()[0], verbose=0)).tolist(),
    }


def _layout_of(variable):
    """The axes a variable's layout asks for, whether its value is laid out so, and
    over how many devices."""
    asked = variable._layout.backend_layout
    sharding = variable.value.sharding
    return [
        list(variable._layout.axes),
        bool(sharding.is_equivalent_to(asked, variable.ndim)),
        len(sharding.device_set),
    ]


def two_processes():
    """Each of WORLD processes trains data-parallel over all; process 0 also trains one
    model alone (the reference)."""
    out = {"process_id": RANK, "devices": distribution.list_devices()}
    if RANK == 0:
        _, out["reference"] = train(None)
    dp = distribution.DataParallel()
    out["num_processes"] = dp.num_processes
    out["all_reduces"] = _count_all_reduces()
    _, out["data_parallel"] = train(dp)
    out["all_reduces"] = _count_all_reduces(out["all_reduces"])
    out["indices"] = indices_seen(dp)
    if mb.config.backend() in ("torch", "tensorflow"):  # the same processes: `writes`
        out["writes"] = writes()
    return out


def _count_all_reduces(counter=None):
    """Counts torch.distributed.all_reduce calls by size (torch only; else None)."""
    if counter is not None:
        counter["hook"].restore()
        return {k: v for k, v in counter.items() if k != "hook"}
    try:
        import torch.distributed as dist
    except ImportError:
        return None
    if mb.config.backend() != "torch":
        return None
    calls = {}
    original = dist.all_reduce

    def counting(tensor, *args, **kwargs):
        calls[str(tensor.numel())] = calls.get(str(tensor.numel()), 0) + 1
        return original(tensor, *args, **kwargs)

    class Hook:
        def restore(self):
            dist.all_reduce = original

    dist.all_reduce = counting
    calls["hook"] = Hook()
    return calls


def _audit_writes():
    """The files under OUT this process opens for writing or renames into place, as
    a list that grows while the process runs."""
    written = []

    def audit(event, args):
        if event == "open" and isinstance(args[0], str) and args[0].startswith(OUT):
            mode, flags = args[1], args[2]
            if (mode and any(c in mode for c in "wax+")) or (
                mode is None and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT)
            ):
                written.append(os.path.relpath(args[0], OUT))
        elif event in ("os.rename", "os.replace") and str(args[1]).startswith(OUT):
            written.append(os.path.relpath(str(args[1]), OUT))

    sys.addaudithook(audit)
    return written


def writes():
    """Only process 0 writes checkpoints and logs; layouts the torch backend cannot
    store are refused clearly."""
    written = _audit_writes()
    callbacks = [
        mb.callbacks.ModelCheckpoint(os.path.join(OUT, "model.keras")),
        mb.callbacks.CSVLogger(os.path.join(OUT, "log.csv")),
        mb.callbacks.TensorBoard(os.path.join(OUT, "tb")),
    ]
    train(distribution.DataParallel(), callbacks=callbacks)
    out = {"written": sorted(set(written))}
    mesh = distribution.DeviceMesh((1, WORLD), ["batch", "model"])
    layout_map = distribution.LayoutMap(mesh)
    layout_map[".*kernel"] = (None, "model")
    try:
        with distribution.ModelParallel(layout_map=layout_map).scope():
            make_model().build((None, 4))
        out["model_parallel"] = "accepted"
    except ValueError as error:
        out["model_parallel"] = str(error)
    return out


class _ReplicaSpy(mb.layers.Layer):
    """Records, each time its step is traced, how many replicas run it and how many
    rows each of them computes (tf.distribute only)."""

    def __init__(self, seen):
        super().__init__()
        self.seen = seen

    def call(self, x):
        import tensorflow as tf

        if tf.distribute.has_strategy() and not tf.distribute.in_cross_replica_context():
            context = tf.distribute.get_replica_context()
            self.seen.add(context.num_replicas_in_sync)
        return x


def tf_mirrored():
    """One process, two logical CPUs: DataParallel is a MirroredStrategy over them."""
    out = {"devices": distribution.list_devices(), "count": distribution.get_device_count()}
    runs = {
        "even": {"n": 44, "batch_size": 8, "steps_per_execution": 1},
        # Batches of 5 split 3 + 2; the last has 1 row (41 % 5), so the second replica
        # computes none. Three steps per compiled call.
        "uneven": {"n": 41, "batch_size": 5, "steps_per_execution": 3},
    }
    for name, kwargs in runs.items():
        seen = set()
        _, reference = train(None, **kwargs, layers=[_ReplicaSpy(seen)])
        out[f"{name}_reference"] = reference
        out[f"{name}_reference_replicas"] = sorted(seen)
        seen = set()
        _, out[name] = train(distribution.DataParallel(), **kwargs, layers=[_ReplicaSpy(seen)])
        out[f"{name}_replicas"] = sorted(seen)
    try:
        with distribution.DataParallel(devices=["cpu:0", "cpu:7"]).scope():
            make_model().fit(*data(), batch_size=8, verbose=0)
        out["bad_devices"] = "accepted"
    except ValueError as error:
        out["bad_devices"] = str(error)
    return out


def tf_two_cpus():
    """Both single-process tf.distribute checks in one process (one TensorFlow start)."""
    return {"mirrored": tf_mirrored(), "synchronized_batch_norm": tf_synchronized_batch_norm()}


def tf_synchronized_batch_norm():
    """Two logical CPUs: BatchNormalization(synchronized=True) under DataParallel
    trains as one device; unsynchronized, each replica normalizes by its own rows."""

    def layers(synchronized):
        # No bias before the normalization: its gradient is zero up to rounding, which
        # Adam would turn into steps of any sign.
        init = mb.initializers.GlorotUniform(1)
        return [
            mb.layers.Dense(6, use_bias=False, kernel_initializer=init, name="pre"),
            mb.layers.BatchNormalization(synchronized=synchronized, name="norm"),
        ]

    out = {}
    _, out["reference"] = train(None, layers=layers(True))
    _, out["synchronized"] = train(distribution.DataParallel(), layers=layers(True))
    # (Only its weights are compared: no evaluate/predict to trace.)
    _, out["local"] = train(distribution.DataParallel(), layers=layers(False), check=False)
    return out


class _KillAfter(mb.callbacks.Callback):
    def __init__(self, epoch):
        super().__init__()
        self.epoch = epoch

    def on_epoch_end(self, epoch, logs=None):
        if epoch == self.epoch:
            os._exit(17)  # killed: no cleanup, no on_train_end


class _Epochs(mb.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.seen = []

    def on_epoch_begin(self, epoch, logs=None):
        self.seen.append(epoch)


def _backup_distribution():
    """The run's distribution: DataParallel, or (MB_TEST_BACKUP=model_parallel) a
    ModelParallel whose variables and optimizer state are DTensor shards."""
    if os.environ.get("MB_TEST_BACKUP") != "model_parallel":
        return distribution.DataParallel()
    mesh = distribution.DeviceMesh((WORLD,), ["batch"])
    layout_map = distribution.LayoutMap(mesh)
    layout_map[".*hidden/kernel"] = (None, "batch")
    layout_map[".*hidden/bias"] = ("batch",)
    layout_map[".*head/kernel"] = ("batch", None)
    return distribution.ModelParallel(layout_map=layout_map, batch_dim_name="batch")


def backup_killed():
    """A 2-process run killed after its second epoch (BackupAndRestore has backed up)."""
    backup = mb.callbacks.BackupAndRestore(os.path.join(OUT, "backup"))
    train(_backup_distribution(), callbacks=[backup, _KillAfter(1)], epochs=4)
    return {"error": "the run was not killed"}


def backup_resumed():
    """The same run started again: it resumes from the backup and ends as one run would
    (process 0 also trains the uninterrupted run alone: the test's reference)."""
    reference = train(None, epochs=4)[1] if RANK == 0 else None
    epochs = _Epochs()
    backup = mb.callbacks.BackupAndRestore(os.path.join(OUT, "backup"))
    model, result = train(_backup_distribution(), callbacks=[backup, epochs], epochs=4)
    out = {"reference": reference, "resumed": result, "epochs": epochs.seen}
    if mb.config.backend() == "torch":
        variables = model.variables + model.optimizer.variables
        out["shards"] = {v.path: _shard_of(v) for v in variables}
    return out


if __name__ == "__main__":
    result = globals()[SCENARIO]()
    with open(os.path.join(OUT, f"{SCENARIO}-{RANK}.json"), "w") as f:
        json.dump(result, f)
