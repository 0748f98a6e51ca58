"""Per-step cost of `mb.distribution.DataParallel` against one device and against a
hand-written data-parallel loop on the same engine and devices.

    python bench/distribution_bench.py                   # jax and tensorflow
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

The model: 64 -> 256 (relu) -> 256 (relu) -> 1, MSE, SGD (lr 0.01), global batch 256.
Reported: milliseconds per step (median of the epochs after the first: compilation
excluded) of mb on one device, mb with DataParallel over every device, and the native
loop over every device; then ``dp/one`` (what distributing costs or saves in mb) and
``dp/native`` (mb's overhead over the hand-written loop). Simulated devices share the
host's cores, so no speed-up is expected on a small machine: the ratios measure the
framework's overhead, not scaling.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

FEATURES, HIDDEN, BATCH, LR = 64, 256, 256, 0.01
DEVICES = {"jax": 8, "tensorflow": 2}


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

    dist = mb.distribution.DataParallel() if distributed else None
    if dist is not None:
        assert len(dist.device_mesh.devices.reshape(-1)) == DEVICES[backend]
        mb.distribution.set_distribution(dist)
    try:
        mb.utils.set_random_seed(0)
        model = mb.Sequential(
            [
                mb.Input((FEATURES,)),
                mb.layers.Dense(HIDDEN, activation="relu"),
                mb.layers.Dense(HIDDEN, activation="relu"),
                mb.layers.Dense(1),
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


def child(backend, mode, epochs, steps):
    if backend == "tensorflow":
        import tensorflow as tf

        cpu = tf.config.list_physical_devices("CPU")[0]
        count = DEVICES["tensorflow"]
        tf.config.set_logical_device_configuration(
            cpu, [tf.config.LogicalDeviceConfiguration()] * count
        )
    if mode == "native":
        native = {"jax": _native_jax, "tensorflow": _native_tensorflow}[backend]
        seconds = native(epochs, steps)
    else:
        seconds = _mb(backend, mode == "dp", epochs, steps)
    print(f"RESULT {seconds}")


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
        f"{'backend':<11}{'devices':>8}{'one (ms)':>10}{'dp (ms)':>10}{'native':>10}"
        f"{'dp/one':>9}{'dp/native':>11}"
    )
    for backend in args.backends:
        env = {**os.environ, "MB_BACKEND": backend, "TF_CPP_MIN_LOG_LEVEL": "3"}
        if backend == "jax":
            env["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={DEVICES['jax']}"
        r = {}
        for mode in ("one", "dp", "native"):  # each in its own process (one runtime each)
            command = [sys.executable, __file__, "--child", backend, mode]
            command += ["--epochs", str(args.epochs), "--steps", str(args.steps)]
            run = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
            lines = [line for line in run.stdout.splitlines() if line.startswith("RESULT ")]
            if run.returncode or not lines:
                print(f"{backend} {mode}: failed\n{run.stderr[-3000:]}")
                break
            r[mode] = float(lines[-1][7:]) * 1000
        if len(r) < 3:
            continue
        print(
            f"{backend:<11}{DEVICES[backend]:>8}{r['one']:>10.2f}{r['dp']:>10.2f}"
            f"{r['native']:>10.2f}{r['dp'] / r['one']:>9.2f}{r['dp'] / r['native']:>11.2f}"
        )


if __name__ == "__main__":
    main()
