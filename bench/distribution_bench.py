"""Per-step cost of `mb.distribution.DataParallel` (torch: `ModelParallel`) against one
device and against a hand-written loop on the same engine and devices.

    python bench/distribution_bench.py                   # jax, tensorflow and torch
    python bench/distribution_bench.py jax --epochs 6 --steps 40

Each backend runs in its own process, on simulated devices of the host CPU:

- jax: 8 devices (``XLA_FLAGS=--xla_force_host_platform_device_count=8``). The
  native loop is a ``jax.jit`` step on a batch placed with a ``NamedSharding`` over
  the batch axis, replicated parameters, SGD in ``jax.numpy``.
- tensorflow: 2 logical CPU devices (``tf.config.set_logical_device_configuration``).
  The native loop is one ``tf.function`` per epoch iterating a distributed
  ``tf.data`` dataset and calling ``MirroredStrategy.run`` on each batch; variables
  made in the strategy's scope, the gradients all-reduced in one call, SGD by
  ``assign_sub``.
- torch: 2 processes on 127.0.0.1 (gloo), `ModelParallel` with FSDP-style layouts:
  the hidden layers' kernels and biases split on their output axis, the head's
  kernel on its rows, over the mesh's one axis (``"batch"``), which also splits the
  data; these variables (and their optimizer state) are DTensor shards. The
  native loop is the same model as a ``torch.nn.Sequential`` wrapped by FSDP2's
  ``fully_shard`` on a 2-process ``DeviceMesh``, each process stepping on its half of
  every global batch, ``torch.optim.SGD``.

The model: 64 -> 256 (relu) -> 256 (relu) -> 1, MSE, SGD (lr 0.01), global batch 256.
Reported: milliseconds per step (median of the epochs after the first: compilation
excluded) of mb on one device, mb with the distribution over every device (``dist``:
DataParallel, torch ModelParallel), and the native loop over every device; then
``dist/one`` (what distributing costs or saves in mb) and ``dist/native`` (mb's
overhead over the hand-written loop). Simulated devices share the
host's cores, so no speed-up is expected on a small machine: the ratios measure the
framework's overhead, not scaling.
"""

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time

FEATURES, HIDDEN, BATCH, LR = 64, 256, 256, 0.01
DEVICES = {"jax": 8, "tensorflow": 2, "torch": 2}
STRATEGY = {"jax": "DataParallel", "tensorflow": "DataParallel", "torch": "ModelParallel"}


def _data(steps):
    import numpy as np

    rng = np.random.default_rng(0)
    x = rng.normal(size=(steps * BATCH, FEATURES)).astype("float32")
    y = (x[:, :1] * 2.0 - x[:, 1:2]).astype("float32")
    return x, y


def _epoch_median(times):
    return statistics.median(times[1:]) if len(times) > 1 else times[0]


def _mb(backend, distributed, epochs, steps):
    import mb

    x, y = _data(steps)
    times = []

    class Timer(mb.callbacks.Callback):
        def on_epoch_begin(self, epoch, logs=None):
            self.start = time.perf_counter()

        def on_epoch_end(self, epoch, logs=None):
            times.append(time.perf_counter() - self.start)

    dist = None
    if distributed and backend == "torch":
        # FSDP-style: the variables split over the axis that splits the data.
        mesh = mb.distribution.DeviceMesh((DEVICES["torch"],), ["batch"])
        layout_map = mb.distribution.LayoutMap(mesh)
        layout_map[".*hidden./kernel"] = (None, "batch")
        layout_map[".*hidden./bias"] = ("batch",)
        layout_map[".*head/kernel"] = ("batch", None)  # (256, 1): split its rows
        dist = mb.distribution.ModelParallel(layout_map=layout_map, batch_dim_name="batch")
    elif distributed:
        dist = mb.distribution.DataParallel()
    if dist is not None:
        assert len(dist.device_mesh.devices.reshape(-1)) == DEVICES[backend]
        mb.distribution.set_distribution(dist)
    try:
        mb.utils.set_random_seed(0)
        model = mb.Sequential(
            [
                mb.Input((FEATURES,)),
                mb.layers.Dense(HIDDEN, activation="relu", name="hidden1"),
                mb.layers.Dense(HIDDEN, activation="relu", name="hidden2"),
                mb.layers.Dense(1, name="head"),
            ]
        )
        model.compile(optimizer=mb.optimizers.SGD(LR), loss="mse")
        model.fit(
            x, y, batch_size=BATCH, epochs=epochs, shuffle=False, verbose=0, callbacks=[Timer()]
        )
    finally:
        mb.distribution.set_distribution(None)
    return _epoch_median(times) / steps


def _init_params(np):
    rng = np.random.default_rng(0)
    shapes = [(FEATURES, HIDDEN), (HIDDEN,), (HIDDEN, HIDDEN), (HIDDEN,), (HIDDEN, 1), (1,)]
    return [(rng.normal(size=s) * 0.05).astype("float32") for s in shapes]


def _native_jax(epochs, steps):
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    mesh = Mesh(np.array(jax.devices()), ("batch",))
    batch_sharding = NamedSharding(mesh, PartitionSpec("batch"))
    replicated = NamedSharding(mesh, PartitionSpec())
    params = jax.device_put(_init_params(np), replicated)

    def loss(params, x, y):
        w1, b1, w2, b2, w3, b3 = params
        h = jax.nn.relu(x @ w1 + b1)
        h = jax.nn.relu(h @ w2 + b2)
        return jnp.mean((h @ w3 + b3 - y) ** 2)

    @jax.jit
    def step(params, x, y):
        value, grads = jax.value_and_grad(loss)(params, x, y)
        return [p - LR * g for p, g in zip(params, grads, strict=True)], value

    x, y = _data(steps)
    times = []
    for _ in range(epochs):
        start = time.perf_counter()
        for i in range(steps):
            rows = slice(i * BATCH, (i + 1) * BATCH)
            xb = jax.device_put(x[rows], batch_sharding)
            yb = jax.device_put(y[rows], batch_sharding)
            params, _ = step(params, xb, yb)
        jax.block_until_ready(params)
        times.append(time.perf_counter() - start)
    return _epoch_median(times) / steps


def _native_tensorflow(epochs, steps):
    import numpy as np
    import tensorflow as tf

    devices = [d.name for d in tf.config.list_logical_devices("CPU")]
    strategy = tf.distribute.MirroredStrategy(devices)
    with strategy.scope():
        params = [
            tf.Variable(p, aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA)
            for p in _init_params(np)
        ]
    x, y = _data(steps)
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(BATCH)
    distributed = strategy.experimental_distribute_dataset(dataset)

    def replica(xb, yb):
        with tf.GradientTape() as tape:
            w1, b1, w2, b2, w3, b3 = params
            h = tf.nn.relu(xb @ w1 + b1)
            h = tf.nn.relu(h @ w2 + b2)
            value = tf.reduce_mean((h @ w3 + b3 - yb) ** 2)
        grads = tape.gradient(value, params)
        # One all-reduce of every gradient; the replicas' updates are then identical.
        grads = tf.distribute.get_replica_context().all_reduce("MEAN", grads)
        for p, g in zip(params, grads, strict=True):
            p.assign_sub(LR * g)
        return value

    @tf.function
    def epoch(iterator):
        # The whole epoch in one call, the distributed dataset iterated in the graph.
        for xb, yb in iterator:
            strategy.run(replica, args=(xb, yb))

    times = []
    for _ in range(epochs):
        start = time.perf_counter()
        epoch(iter(distributed))
        times.append(time.perf_counter() - start)
    return _epoch_median(times) / steps


def _native_torch(epochs, steps):
    import numpy as np
    import torch
    import torch.distributed as dist
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.fsdp import fully_shard

    rank, world = dist.get_rank(), dist.get_world_size()
    mesh = init_device_mesh("cpu", (world,))
    layers = [torch.nn.Linear(FEATURES, HIDDEN), torch.nn.Linear(HIDDEN, HIDDEN)]
    layers.append(torch.nn.Linear(HIDDEN, 1))
    params = _init_params(np)
    with torch.no_grad():
        for i, layer in enumerate(layers):
            layer.weight.copy_(torch.from_numpy(params[2 * i].T.copy()))
            layer.bias.copy_(torch.from_numpy(params[2 * i + 1]))
    model = torch.nn.Sequential(layers[0], torch.nn.ReLU(), layers[1], torch.nn.ReLU(), layers[2])
    for layer in layers:
        fully_shard(layer, mesh=mesh)
    fully_shard(model, mesh=mesh)
    optimizer = torch.optim.SGD(model.parameters(), lr=LR)
    x, y = (torch.from_numpy(a) for a in _data(steps))
    half = BATCH // world
    times = []
    for _ in range(epochs):
        dist.barrier()
        start = time.perf_counter()
        for i in range(steps):
            rows = slice(i * BATCH + rank * half, i * BATCH + (rank + 1) * half)
            loss = torch.mean((model(x[rows]) - y[rows]) ** 2)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        dist.barrier()
        times.append(time.perf_counter() - start)
    return _epoch_median(times) / steps


def child(backend, mode, epochs, steps):
    if backend == "tensorflow":
        import tensorflow as tf

        cpu = tf.config.list_physical_devices("CPU")[0]
        count = DEVICES["tensorflow"]
        tf.config.set_logical_device_configuration(
            cpu, [tf.config.LogicalDeviceConfiguration()] * count
        )
    if backend == "torch" and mode != "one":
        import mb

        rank, world = int(os.environ["BENCH_RANK"]), DEVICES["torch"]
        address = f"127.0.0.1:{os.environ['BENCH_PORT']}"
        mb.distribution.initialize(address, num_processes=world, process_id=rank)
    if mode == "native":
        native = {"jax": _native_jax, "tensorflow": _native_tensorflow}
        native = {**native, "torch": _native_torch}[backend]
        seconds = native(epochs, steps)
    else:
        seconds = _mb(backend, mode == "dp", epochs, steps)
    if os.environ.get("BENCH_RANK", "0") == "0":
        print(f"RESULT {seconds}")


def _run_child(backend, mode, env, epochs, steps):
    """One measurement: a process (torch's distributed modes: one per device, on a free
    port of 127.0.0.1); returns the first process's (stdout, stderr, failed)."""
    command = [sys.executable, __file__, "--child", backend, mode]
    command += ["--epochs", str(epochs), "--steps", str(steps)]
    if backend != "torch" or mode == "one":
        run = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
        return run.stdout, run.stderr, run.returncode != 0
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    processes = [
        subprocess.Popen(
            command,
            env={**env, "BENCH_RANK": str(rank), "BENCH_PORT": str(port)},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for rank in range(DEVICES["torch"])
    ]
    outputs = [p.communicate() for p in processes]
    failed = any(p.returncode for p in processes)
    return outputs[0][0], "".join(err for _, err in outputs), failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("backends", nargs="*", default=list(DEVICES))
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child, args.epochs, args.steps)
        return
    print(
        f"{'backend':<11}{'strategy':>14}{'devices':>8}{'one (ms)':>10}{'dist (ms)':>10}"
        f"{'native':>10}{'dist/one':>9}{'dist/native':>12}"
    )
    for backend in args.backends:
        env = {**os.environ, "MB_BACKEND": backend, "TF_CPP_MIN_LOG_LEVEL": "3"}
        if backend == "jax":
            env["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={DEVICES['jax']}"
        r = {}
        for mode in ("one", "dp", "native"):  # each in its own process (one runtime each)
            stdout, stderr, failed = _run_child(backend, mode, env, args.epochs, args.steps)
            lines = [line for line in stdout.splitlines() if line.startswith("RESULT ")]
            if failed or not lines:
                print(f"{backend} {mode}: failed\n{stderr[-3000:]}")
                break
            r[mode] = float(lines[-1][7:]) * 1000
        if len(r) < 3:
            continue
        print(
            f"{backend:<11}{STRATEGY[backend]:>14}{DEVICES[backend]:>8}{r['one']:>10.2f}"
            f"{r['dp']:>10.2f}{r['native']:>10.2f}{r['dp'] / r['one']:>9.2f}"
            f"{r['dp'] / r['native']:>12.2f}"
        )


if __name__ == "__main__":
    main()
