"""Training speed: mb vs Keras 3 vs a hand-written native loop of the same engine.

    python bench/train_bench.py                      # small sizes, a few minutes
    python bench/train_bench.py --full               # MLP on 60,000 samples, 3 rounds
    python bench/train_bench.py --backends torch --models tiny

Each (backend, framework, model) runs in its own subprocess with threads pinned to
one (torch collapses on a busy machine with its default threads); frameworks are
interleaved round by round. Reported: steady-state training samples/s (epochs after
the first), first-epoch time (with compilation), predict samples/s, peak RSS, and
the ratios mb/native and mb/Keras. All three use the same model, plain SGD and a
mean-squared-error loss, so the numbers measure the framework, not the math.

Models: ``mlp`` (784-512-512-10), ``tiny`` (Dense(1) on 8 features, batch 32:
per-step overhead). The CNN and LSTM rows of issue 8 are not in this version.
"""

import argparse
import itertools
import json
import os
import subprocess
import sys
import time

MODELS = {
    # name: (input features, hidden sizes, outputs, samples, batch size)
    "mlp": (784, (512, 512), 10, 6000, 128),
    "tiny": (8, (), 1, 3200, 32),
}
FULL_SAMPLES = {"mlp": 60000, "tiny": 32000}


def _data(model, samples):
    import numpy as np

    d_in, _, d_out, _, _ = MODELS[model]
    rng = np.random.default_rng(0)
    return (
        rng.normal(size=(samples, d_in)).astype("float32"),
        rng.normal(size=(samples, d_out)).astype("float32"),
    )


def _timed_epochs(run_epoch, epochs):
    times = []
    for _ in range(epochs):
        start = time.perf_counter()
        run_epoch()
        times.append(time.perf_counter() - start)
    return times


# ----- the three frameworks (each function runs in its own subprocess) -------------


def run_mb(backend, model, samples, epochs):
    os.environ["MB_BACKEND"] = backend
    import mb_layers
    import mb_ops
    from mb_ops import ops
    from mb_train.models import Sequential

    class SGD:
        def __init__(self, lr):
            self.iterations = mb_ops.Variable(0, dtype="int32", trainable=False)
            self.learning_rate = mb_ops.Variable(lr, trainable=False)
            self.built = True

        @property
        def variables(self):
            return [self.iterations, self.learning_rate]

        def build(self, variables):
            pass

        def apply(self, grads, variables):
            for g, v in zip(grads, variables, strict=True):
                v.assign(v.value - self.learning_rate.value * g)
            self.iterations.assign(self.iterations.value + 1)

    def mse(y_true, y_pred):
        return ops.mean(ops.square(y_true - y_pred), axis=-1)

    d_in, hidden, d_out, _, batch = MODELS[model]
    net = Sequential(
        [mb_layers.Input((d_in,))]
        + [mb_layers.layers.Dense(h, activation="relu") for h in hidden]
        + [mb_layers.layers.Dense(d_out)]
    )
    net.compile(optimizer=SGD(0.01), loss=mse)
    x, y = _data(model, samples)
    times = _timed_epochs(
        lambda: net.fit(x, y, batch_size=batch, epochs=1, verbose=0, shuffle=False), epochs
    )
    start = time.perf_counter()
    net.predict(x, batch_size=batch, verbose=0)
    return times, time.perf_counter() - start


def run_keras(backend, model, samples, epochs):
    os.environ["KERAS_BACKEND"] = backend
    import keras

    d_in, hidden, d_out, _, batch = MODELS[model]
    net = keras.Sequential(
        [keras.Input((d_in,))]
        + [keras.layers.Dense(h, activation="relu") for h in hidden]
        + [keras.layers.Dense(d_out)]
    )
    net.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse")
    x, y = _data(model, samples)
    times = _timed_epochs(
        lambda: net.fit(x, y, batch_size=batch, epochs=1, verbose=0, shuffle=False), epochs
    )
    start = time.perf_counter()
    net.predict(x, batch_size=batch, verbose=0)
    return times, time.perf_counter() - start


def _native_jax(model, samples, epochs):
    import jax
    import jax.numpy as jnp
    import numpy as np

    d_in, hidden, d_out, _, batch = MODELS[model]
    sizes = [d_in, *hidden, d_out]
    rng = np.random.default_rng(0)
    params = [
        (jnp.asarray(rng.normal(size=(a, b)).astype("float32") * np.sqrt(2 / a)), jnp.zeros(b))
        for a, b in itertools.pairwise(sizes)
    ]

    def forward(params, x):
        for i, (w, b) in enumerate(params):
            x = x @ w + b
            if i < len(params) - 1:
                x = jax.nn.relu(x)
        return x

    @jax.jit
    def step(params, x, y):
        loss, grads = jax.value_and_grad(lambda p: jnp.mean((forward(p, x) - y) ** 2))(params)
        return jax.tree_util.tree_map(lambda p, g: p - 0.01 * g, params, grads), loss

    predict = jax.jit(forward)
    x, y = _data(model, samples)
    state = {"params": params}

    def epoch():
        p = state["params"]
        for i in range(0, samples, batch):
            p, loss = step(p, jnp.asarray(x[i : i + batch]), jnp.asarray(y[i : i + batch]))
        float(loss)
        state["params"] = p

    times = _timed_epochs(epoch, epochs)
    start = time.perf_counter()
    for i in range(0, samples, batch):
        np.asarray(predict(state["params"], jnp.asarray(x[i : i + batch])))
    return times, time.perf_counter() - start


def _native_torch(model, samples, epochs):
    import torch

    d_in, hidden, d_out, _, batch = MODELS[model]
    layers, prev = [], d_in
    for h in hidden:
        layers += [torch.nn.Linear(prev, h), torch.nn.ReLU()]
        prev = h
    net = torch.nn.Sequential(*layers, torch.nn.Linear(prev, d_out))
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    x, y = (torch.from_numpy(a) for a in _data(model, samples))

    def epoch():
        for i in range(0, samples, batch):
            opt.zero_grad()
            loss = torch.mean((net(x[i : i + batch]) - y[i : i + batch]) ** 2)
            loss.backward()
            opt.step()
        float(loss)

    times = _timed_epochs(epoch, epochs)
    start = time.perf_counter()
    with torch.no_grad():
        for i in range(0, samples, batch):
            net(x[i : i + batch]).numpy()
    return times, time.perf_counter() - start


def _native_tensorflow(model, samples, epochs):
    import numpy as np
    import tensorflow as tf

    d_in, hidden, d_out, _, batch = MODELS[model]
    sizes = [d_in, *hidden, d_out]
    rng = np.random.default_rng(0)
    params = []
    for a, b in itertools.pairwise(sizes):
        params += [
            tf.Variable((rng.normal(size=(a, b)) * np.sqrt(2 / a)).astype("float32")),
            tf.Variable(tf.zeros(b)),
        ]

    def forward(x):
        for i in range(0, len(params), 2):
            x = x @ params[i] + params[i + 1]
            if i < len(params) - 2:
                x = tf.nn.relu(x)
        return x

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((forward(x) - y) ** 2)
        for p, g in zip(params, tape.gradient(loss, params), strict=True):
            p.assign_sub(0.01 * g)
        return loss

    predict = tf.function(forward)
    x, y = _data(model, samples)

    def epoch():
        for i in range(0, samples, batch):
            loss = step(tf.constant(x[i : i + batch]), tf.constant(y[i : i + batch]))
        float(loss)

    times = _timed_epochs(epoch, epochs)
    start = time.perf_counter()
    for i in range(0, samples, batch):
        predict(tf.constant(x[i : i + batch])).numpy()
    return times, time.perf_counter() - start


def run_native(backend, model, samples, epochs):
    return {"jax": _native_jax, "torch": _native_torch, "tensorflow": _native_tensorflow}[backend](
        model, samples, epochs
    )


RUNNERS = {"mb": run_mb, "keras": run_keras, "native": run_native}


def _pin_threads(backend):
    if backend == "torch":
        import torch

        torch.set_num_threads(1)
        torch.set_num_interop_threads(1)
    elif backend == "tensorflow":
        import tensorflow as tf

        tf.config.threading.set_intra_op_parallelism_threads(1)
        tf.config.threading.set_inter_op_parallelism_threads(1)


def child(framework, backend, model, samples, epochs):
    import resource

    _pin_threads(backend)
    times, predict_s = RUNNERS[framework](backend, model, samples, epochs)
    steady = sorted(times[1:])[len(times[1:]) // 2] if len(times) > 1 else times[0]
    print(
        json.dumps(
            {
                "first_epoch_s": times[0],
                "samples_per_s": samples / steady,
                "predict_per_s": samples / predict_s,
                "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            }
        )
    )


def _spawn(framework, backend, model, samples, epochs):
    env = {
        **os.environ,
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1",
        "TF_CPP_MIN_LOG_LEVEL": "3",
        "MB_BACKEND": backend,
        "KERAS_BACKEND": backend,
    }
    args = [sys.executable, __file__, "--child", framework, backend, model, str(samples)]
    args.append(str(epochs))
    result = subprocess.run(args, capture_output=True, text=True, env=env, timeout=1800)
    lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
    if result.returncode != 0 or not lines:
        return {"error": (result.stderr.strip().splitlines() or ["no output"])[-1][:120]}
    return json.loads(lines[-1])


def main():
    parser = argparse.ArgumentParser(description="mb vs Keras 3 vs native training speed")
    parser.add_argument("--backends", default="jax,torch,tensorflow")
    parser.add_argument("--models", default="tiny,mlp")
    parser.add_argument("--frameworks", default="mb,native,keras")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--full", action="store_true")
    parser.add_argument("--child", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        framework, backend, model, samples, epochs = args.child
        child(framework, backend, model, int(samples), int(epochs))
        return
    results = {}
    for _ in range(args.rounds if not args.full else max(args.rounds, 3)):
        for model in args.models.split(","):
            samples = FULL_SAMPLES[model] if args.full else MODELS[model][3]
            for backend in args.backends.split(","):
                for framework in args.frameworks.split(","):  # interleaved
                    r = _spawn(framework, backend, model, samples, args.epochs)
                    results.setdefault((model, backend), {}).setdefault(framework, []).append(r)
    print(
        "| model | backend | framework | samples/s | first epoch s | predict/s | peak RSS MB "
        "| mb/native | mb/keras |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for (model, backend), by_fw in results.items():
        best = {}
        for fw, runs in by_fw.items():
            ok = [r for r in runs if "error" not in r]
            best[fw] = max(ok, key=lambda r: r["samples_per_s"]) if ok else runs[0]
        mb = best.get("mb", {}).get("samples_per_s")
        for fw, r in best.items():
            if "error" in r:
                print(f"| {model} | {backend} | {fw} | error: {r['error']} | | | | | |")
                continue
            ratio_n = ratio_k = ""
            if fw == "mb" and mb:
                for other, name in (("native", "n"), ("keras", "k")):
                    o = best.get(other, {}).get("samples_per_s")
                    if o:
                        if name == "n":
                            ratio_n = f"{mb / o:.2f}"
                        else:
                            ratio_k = f"{mb / o:.2f}"
            print(
                f"| {model} | {backend} | {fw} | {r['samples_per_s']:.0f} | "
                f"{r['first_epoch_s']:.2f} | {r['predict_per_s']:.0f} | "
                f"{r['peak_rss_mb']:.0f} | {ratio_n} | {ratio_k} |"
            )


if __name__ == "__main__":
    main()
