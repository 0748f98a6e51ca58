"""Training speed: mb vs Keras 3 vs a hand-written native loop of the same engine.

    python bench/train_bench.py                       # small sizes, ~10 minutes
    python bench/train_bench.py --full                # 10x the samples (MLP: 60,000), 3 rounds
    python bench/train_bench.py --backends torch --models cnn,lstm
    python bench/train_bench.py --samples-scale 0.1 --epochs 2   # smoke test of every row
    python bench/train_bench.py --quick --backends jax,torch --models transformer,resnet,gru
    python bench/train_bench.py --steps-per-execution 8 --frameworks mb,keras
    python bench/train_bench.py --refit --epochs 3 --backends jax --models tiny  # fit(epochs=1) x 3
    python bench/train_bench.py --device gpu --models tiny,mlp   # on an NVIDIA GPU

``--device cpu`` (the default) hides every GPU from the runs (CUDA_VISIBLE_DEVICES="",
JAX_PLATFORMS=cpu) and pins one thread; ``--device gpu`` runs all three frameworks on the
GPU (the native torch loop moves its module and data to ``cuda``) with the engines'
default threads, and a run whose engine sees no GPU fails instead of timing the CPU.

Each (framework, backend, model) runs in its own subprocess with threads pinned to
one (torch collapses on a busy machine with its default threads); frameworks are
interleaved round by round. Reported: steady-state training samples/s (median of
the epochs after the first), first-epoch time (with compilation), predict samples/s,
peak RSS, and the ratios mb/native and mb/Keras.

All three frameworks train the same model with Adam (lr 1e-3, beta 0.9/0.999,
epsilon 1e-7) and the same loss, so the numbers measure the framework, not the math:

- ``tiny``: Dense(1) on 8 features, batch 32, MSE (per-step overhead).
- ``mlp``: 784-512-512-10 (relu), batch 128, sparse categorical cross-entropy from logits.
- ``cnn``: 28x28x1 -> Conv2D(32, 3, relu) -> MaxPool(2) -> Conv2D(64, 3, relu) ->
  MaxPool(2) -> Flatten -> Dense(10), batch 64, the same cross-entropy.
- ``lstm``: 50 steps x 32 features -> LSTM(64) -> Dense(1), batch 64, MSE.
- ``transformer``, ``resnet``, ``gru``: a 2-block transformer encoder over 128 tokens
  (width 128), a residual convnet with batch norm on 32x32x3, an Embedding+GRU
  classifier (``train_models.py`` builds them and their native versions).

``--quick`` runs a quarter of the samples for 3 epochs. Beside wall time, each row
reports CPU time (samples per CPU second), which a machine shared with other jobs
disturbs much less.

mb and Keras 3 run the very same model-building code (``import mb as keras`` against
``import keras``), channels_last on every backend. The native loops are: jax, a
``jax.jit`` step with Adam in ``jax.numpy`` (``lax.scan`` for the LSTM); torch,
``torch.nn`` modules (NCHW ``Conv2d``, ``nn.LSTM(batch_first=True)``) with
``torch.optim.Adam`` in a plain eager loop; tensorflow, a ``tf.function`` step over
``tf.Variable``s with Adam written by hand (a ``tf.range`` loop for the LSTM).
"""

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys

import train_models as extra
from train_models import now

# name: default samples, batch size, loss ("mse" or "sparse_ce"); --full uses 10x samples.
MODELS = {
    "tiny": (3200, 32, "mse"),
    "mlp": (6000, 128, "sparse_ce"),
    "cnn": (2560, 64, "sparse_ce"),
    "lstm": (1280, 64, "mse"),
    **extra.MODELS,  # transformer, resnet, gru
}
QUICK_FACTOR = 0.25
FULL_FACTOR = 10
LSTM_STEPS, LSTM_FEATURES, LSTM_UNITS = 50, 32, 64
LR, BETA_1, BETA_2, EPSILON = 1e-3, 0.9, 0.999, 1e-7
FRAMEWORKS = ("mb", "native", "keras")
BACKENDS = ("jax", "torch", "tensorflow")


def _samples(model, full, scale):
    default, batch, _ = MODELS[model]
    wanted = default * (FULL_FACTOR if full else 1) * scale
    return max(2 * batch, round(wanted))  # a ragged last batch is kept, as in Keras


def _data(model, samples):
    """Inputs and targets (float32 regression targets or int32 class labels)."""
    import numpy as np

    if model in extra.MODELS:
        return extra.data(model, samples)
    rng = np.random.default_rng(0)
    shape = {"tiny": (8,), "mlp": (784,), "cnn": (28, 28, 1), "lstm": (50, 32)}[model]
    x = rng.normal(size=(samples, *shape)).astype("float32")
    flat = x.reshape(samples, -1)
    projection = rng.normal(size=(flat.shape[1], 10)).astype("float32")
    if MODELS[model][2] == "sparse_ce":
        return x, np.argmax(flat @ projection, axis=1).astype("int32")
    return x, (flat @ projection[:, :1] / np.sqrt(flat.shape[1])).astype("float32")


def _epoch_times(start, ends):
    """(wall, CPU) seconds of each epoch, the first counted from ``start`` (the ``fit`` call);
    ``start`` and ``ends`` are ``now()`` pairs."""
    marks = [start, *ends]
    return [(b[0] - a[0], b[1] - a[1]) for a, b in itertools.pairwise(marks)]


def _second_pass_s(predict_pass, passes=3):
    """(wall, CPU) seconds of the fastest of `passes` full predict passes after a first
    one (which compiles every shape): one pass of a quick run is a few milliseconds,
    within this machine's noise."""
    predict_pass()
    times = []
    for _ in range(passes):
        start = now()
        predict_pass()
        end = now()
        times.append((end[0] - start[0], end[1] - start[1]))
    return min(times)


# ----- mb and Keras 3: one model-building function for both ------------------------


def _build(keras, model):
    layers = keras.layers
    if model in extra.MODELS:
        net = extra.build(keras, model)
        return net, keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    if model == "tiny":
        stack = [keras.Input((8,)), layers.Dense(1)]
    elif model == "mlp":
        stack = [keras.Input((784,)), layers.Dense(512, activation="relu")]
        stack += [layers.Dense(512, activation="relu"), layers.Dense(10)]
    elif model == "cnn":
        stack = [keras.Input((28, 28, 1)), layers.Conv2D(32, 3, activation="relu")]
        stack += [layers.MaxPooling2D(2), layers.Conv2D(64, 3, activation="relu")]
        stack += [layers.MaxPooling2D(2), layers.Flatten(), layers.Dense(10)]
    else:
        stack = [keras.Input((LSTM_STEPS, LSTM_FEATURES)), layers.LSTM(LSTM_UNITS)]
        stack += [layers.Dense(1)]
    net = keras.Sequential(stack)
    if MODELS[model][2] == "sparse_ce":
        loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    else:
        loss = "mse"
    return net, loss


def run_api(keras, model, samples, epochs, spe, jit, refit=False):
    """Trains with ``fit`` (one call, every epoch timed by a callback) and ``predict``;
    with `refit`, ``fit(epochs=1)`` is called `epochs` times, each call timed from its
    start (what a second call pays for compiling again, if it does)."""
    _, batch, _ = MODELS[model]
    net, loss = _build(keras, model)
    optimizer = keras.optimizers.Adam(LR, beta_1=BETA_1, beta_2=BETA_2, epsilon=EPSILON)
    net.compile(optimizer=optimizer, loss=loss, steps_per_execution=spe, jit_compile=jit)

    ends = []

    class EpochClock(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            float(logs["loss"])  # waits for the epoch's last step (jax dispatches async)
            ends.append(now())

    x, y = _data(model, samples)
    kwargs = {"batch_size": batch, "verbose": 0, "shuffle": False, "callbacks": [EpochClock()]}
    if refit:
        times = []
        for _ in range(epochs):
            start = now()
            net.fit(x, y, epochs=1, **kwargs)
            times += _epoch_times(start, ends[-1:])
    else:
        start = now()
        net.fit(x, y, epochs=epochs, **kwargs)
        times = _epoch_times(start, ends)
    return times, _second_pass_s(lambda: net.predict(x, batch_size=batch, verbose=0))


def run_mb(backend, model, samples, epochs, spe, jit, refit=False):
    os.environ["MB_BACKEND"] = backend
    import mb

    return run_api(mb, model, samples, epochs, spe, jit, refit)


def run_keras(backend, model, samples, epochs, spe, jit, refit=False):
    os.environ["KERAS_BACKEND"] = backend
    import keras

    return run_api(keras, model, samples, epochs, spe, jit, refit)


# ----- native loops: jax and tensorflow share the parameters and the forward pass ----


def _glorot(rng, shape, fan_in, fan_out):
    limit = (6 / (fan_in + fan_out)) ** 0.5
    return rng.uniform(-limit, limit, size=shape).astype("float32")


def _init_params(model):
    """NumPy parameters: dense kernels (in, out), conv kernels HWIO, LSTM gates i,f,g,o."""
    import numpy as np

    rng = np.random.default_rng(0)

    def dense(a, b):
        return [_glorot(rng, (a, b), a, b), np.zeros(b, "float32")]

    def conv(cin, cout):
        return [_glorot(rng, (3, 3, cin, cout), 9 * cin, 9 * cout), np.zeros(cout, "float32")]

    if model == "tiny":
        return dense(8, 1)
    if model == "mlp":
        return dense(784, 512) + dense(512, 512) + dense(512, 10)
    if model == "cnn":
        return conv(1, 32) + conv(32, 64) + dense(5 * 5 * 64, 10)
    gates = 4 * LSTM_UNITS
    return [
        _glorot(rng, (LSTM_FEATURES, gates), LSTM_FEATURES, gates),
        _glorot(rng, (LSTM_UNITS, gates), LSTM_UNITS, gates),
        np.zeros(gates, "float32"),
        *dense(LSTM_UNITS, 1),
    ]


def _forward(nn, model, p, x):
    """The model's logits / predictions over an engine's ``nn`` namespace (below)."""
    if model == "tiny":
        return x @ p[0] + p[1]
    if model == "mlp":
        x = nn.relu(x @ p[0] + p[1])
        x = nn.relu(x @ p[2] + p[3])
        return x @ p[4] + p[5]
    if model == "cnn":
        x = nn.pool(nn.relu(nn.conv(x, p[0]) + p[1]))
        x = nn.pool(nn.relu(nn.conv(x, p[2]) + p[3]))
        return nn.flatten(x) @ p[4] + p[5]
    return nn.lstm(x, p[0], p[1], p[2]) @ p[3] + p[4]


def _lstm_cell(nn, x_t, h, c, kernel, recurrent, bias):
    i, f, g, o = nn.split4(x_t @ kernel + h @ recurrent + bias)
    c = nn.sigmoid(f) * c + nn.sigmoid(i) * nn.tanh(g)
    return nn.sigmoid(o) * nn.tanh(c), c


def _jax_nn():
    import jax
    import jax.numpy as jnp
    from jax import lax

    class JaxNN:
        relu, sigmoid, tanh = jax.nn.relu, jax.nn.sigmoid, jnp.tanh

        @staticmethod
        def conv(x, w):
            return lax.conv_general_dilated(
                x, w, (1, 1), "VALID", dimension_numbers=("NHWC", "HWIO", "NHWC")
            )

        @staticmethod
        def pool(x):
            return lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")

        @staticmethod
        def flatten(x):
            return x.reshape(x.shape[0], -1)

        @staticmethod
        def split4(z):
            return jnp.split(z, 4, axis=-1)

        @staticmethod
        def lstm(x, kernel, recurrent, bias):
            def step(carry, x_t):
                return _lstm_cell(JaxNN, x_t, *carry, kernel, recurrent, bias), None

            zeros = jnp.zeros((x.shape[0], LSTM_UNITS), x.dtype)
            (h, _), _ = lax.scan(step, (zeros, zeros), jnp.swapaxes(x, 0, 1))
            return h

    return JaxNN


def _native_parts(model, nn_old, nn_new):
    """``forward(params, stats, x, training) -> (out, stats)``, the NumPy parameters and
    batch-norm statistics of a model, over the namespace ``nn_old()`` or ``nn_new()``."""
    if model in extra.MODELS:
        nn = nn_new()
        params, stats = extra.init_params(model)

        def forward(p, s, x, training):
            return extra.forward(nn, model, p, s, x, training)

        return forward, params, stats
    nn = nn_old()

    def forward(p, s, x, training):
        del training
        return _forward(nn, model, p, x), s

    return forward, _init_params(model), {}


def _native_jax(model, samples, epochs, jit):
    del jit  # the native jax step is always jitted
    import jax
    import jax.numpy as jnp
    import numpy as np

    _, batch, loss_name = MODELS[model]
    forward, params, stats = _native_parts(model, _jax_nn, extra.jax_nn)

    def loss_fn(params, stats, x, y):
        out, stats = forward(params, stats, x, True)
        if loss_name == "mse":
            return jnp.mean((out - y) ** 2), stats
        logp = jax.nn.log_softmax(out)
        return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1)), stats

    def adam(p, g, m, v, alpha):
        m = m + (g - m) * (1 - BETA_1)
        v = v + (g * g - v) * (1 - BETA_2)
        return p - alpha * m / (jnp.sqrt(v) + EPSILON), m, v

    def step(state, x, y):
        params, stats, ms, vs, t = state
        (loss, stats), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, stats, x, y)
        t = t + 1
        alpha = LR * jnp.sqrt(1 - BETA_2**t) / (1 - BETA_1**t)
        flat, tree = jax.tree.flatten(params)
        leaves = [jax.tree.leaves(a) for a in (grads, ms, vs)]
        new = [adam(*a, alpha) for a in zip(flat, *leaves, strict=True)]
        params, ms, vs = (jax.tree.unflatten(tree, [n[i] for n in new]) for i in range(3))
        return (params, stats, ms, vs, t), loss

    step = jax.jit(step, donate_argnums=0)  # the state is donated, as Keras's jax trainer does
    predict = jax.jit(lambda params, stats, x: forward(params, stats, x, False)[0])
    params = jax.tree.map(jnp.asarray, params)
    stats = jax.tree.map(jnp.asarray, stats)
    zeros = [jax.tree.map(jnp.zeros_like, params) for _ in range(2)]
    state = (params, stats, *zeros, jnp.float32(0))
    x, y = _data(model, samples)
    start, ends = now(), []
    for _ in range(epochs):
        for i in range(0, samples, batch):
            state, loss = step(state, jnp.asarray(x[i : i + batch]), jnp.asarray(y[i : i + batch]))
        float(loss)
        ends.append(now())
    times = _epoch_times(start, ends)

    def predict_pass():
        for i in range(0, samples, batch):
            np.asarray(predict(state[0], state[1], jnp.asarray(x[i : i + batch])))

    return times, _second_pass_s(predict_pass)


def _tf_nn():
    import tensorflow as tf

    class TfNN:
        relu, sigmoid, tanh = tf.nn.relu, tf.sigmoid, tf.tanh

        @staticmethod
        def conv(x, w):
            return tf.nn.conv2d(x, w, 1, "VALID")

        @staticmethod
        def pool(x):
            return tf.nn.max_pool2d(x, 2, 2, "VALID")

        @staticmethod
        def flatten(x):
            return tf.reshape(x, (tf.shape(x)[0], -1))

        @staticmethod
        def split4(z):
            return tf.split(z, 4, axis=-1)

        @staticmethod
        def lstm(x, kernel, recurrent, bias):
            h = c = tf.zeros((tf.shape(x)[0], LSTM_UNITS))
            for t in tf.range(LSTM_STEPS):  # AutoGraph: a tf.while_loop carrying h, c
                h, c = _lstm_cell(TfNN, x[:, t], h, c, kernel, recurrent, bias)
            return h

    return TfNN


def _native_tensorflow(model, samples, epochs, jit):
    import tensorflow as tf

    _, batch, loss_name = MODELS[model]
    forward, params, stats = _native_parts(model, _tf_nn, extra.tf_nn)
    params = tf.nest.map_structure(tf.Variable, params)
    stats = tf.nest.map_structure(tf.Variable, stats)
    flat = tf.nest.flatten(params)
    ms = [tf.Variable(tf.zeros_like(p)) for p in flat]
    vs = [tf.Variable(tf.zeros_like(p)) for p in flat]
    t = tf.Variable(0.0)
    xla = jit is True

    @tf.function(jit_compile=xla)
    def step(x, y):
        with tf.GradientTape() as tape:
            out, new_stats = forward(params, stats, x, True)
            if loss_name == "mse":
                loss = tf.reduce_mean((out - y) ** 2)
            else:
                ce = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=out)
                loss = tf.reduce_mean(ce)
        grads = tape.gradient(loss, flat)
        for name, value in new_stats.items():
            stats[name].assign(value)
        t.assign_add(1.0)
        alpha = LR * tf.sqrt(1 - BETA_2**t) / (1 - BETA_1**t)
        for p, g, m, v in zip(flat, grads, ms, vs, strict=True):
            g = tf.convert_to_tensor(g)  # an embedding's gradient comes as IndexedSlices
            m.assign_add((g - m) * (1 - BETA_1))
            v.assign_add((g * g - v) * (1 - BETA_2))
            p.assign_sub(alpha * m / (tf.sqrt(v) + EPSILON))
        return loss

    predict = tf.function(lambda x: forward(params, stats, x, False)[0], jit_compile=xla)
    x, y = _data(model, samples)
    start, ends = now(), []
    for _ in range(epochs):
        for i in range(0, samples, batch):
            loss = step(tf.constant(x[i : i + batch]), tf.constant(y[i : i + batch]))
        float(loss)
        ends.append(now())
    times = _epoch_times(start, ends)

    def predict_pass():
        for i in range(0, samples, batch):
            predict(tf.constant(x[i : i + batch])).numpy()

    return times, _second_pass_s(predict_pass)


def _torch_net(model):
    import torch
    from torch import nn

    if model in extra.MODELS:
        return extra.torch_net(model)
    if model == "tiny":
        return nn.Linear(8, 1)
    if model == "mlp":
        return nn.Sequential(
            nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10)
        )
    if model == "cnn":
        return nn.Sequential(
            nn.Conv2d(1, 32, 3),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Flatten(),
            nn.Linear(5 * 5 * 64, 10),
        )

    class LSTMRegressor(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lstm = nn.LSTM(LSTM_FEATURES, LSTM_UNITS, batch_first=True)
            self.head = nn.Linear(LSTM_UNITS, 1)

        def forward(self, x):
            _, (h, _) = self.lstm(x)
            return self.head(h[-1])

    return LSTMRegressor()


def _native_torch(model, samples, epochs, jit):
    del jit  # the native torch loop always runs eagerly
    import numpy as np
    import torch
    import torch.nn.functional as F

    _, batch, loss_name = MODELS[model]
    torch.manual_seed(0)
    device = "cuda" if os.environ.get("MB_BENCH_DEVICE") == "gpu" else "cpu"
    net = _torch_net(model).to(device)
    opt = torch.optim.Adam(net.parameters(), lr=LR, betas=(BETA_1, BETA_2), eps=EPSILON)
    x, y = _data(model, samples)
    if model in ("cnn", "resnet"):
        x = np.ascontiguousarray(x.transpose(0, 3, 1, 2))  # NHWC -> NCHW, outside the clock
    x, y = (
        torch.from_numpy(x.astype("int64") if x.dtype.kind == "i" else x),
        torch.from_numpy(y.astype("int64" if loss_name != "mse" else "float32")),
    )
    x, y = x.to(device), y.to(device)  # on the device before the clock, as mb's are not
    loss_fn = F.mse_loss if loss_name == "mse" else F.cross_entropy
    net.train()
    start, ends = now(), []
    for _ in range(epochs):
        for i in range(0, samples, batch):
            opt.zero_grad()
            loss = loss_fn(net(x[i : i + batch]), y[i : i + batch])
            loss.backward()
            opt.step()
        float(loss)
        ends.append(now())
    times = _epoch_times(start, ends)
    net.eval()  # batch norm on its moving statistics, torch's attention fast path

    def predict_pass():
        with torch.no_grad():
            for i in range(0, samples, batch):
                net(x[i : i + batch]).cpu().numpy()

    return times, _second_pass_s(predict_pass)


def run_native(backend, model, samples, epochs, spe, jit):
    del spe  # one step per call: the native loops are the per-step reference
    runner = {"jax": _native_jax, "torch": _native_torch, "tensorflow": _native_tensorflow}
    return runner[backend](model, samples, epochs, jit)


RUNNERS = {"mb": run_mb, "keras": run_keras, "native": run_native}


# ----- one row per subprocess ------------------------------------------------------


def _pin_threads(backend):
    if backend == "torch":
        import torch

        torch.set_num_threads(1)
        torch.set_num_interop_threads(1)
    elif backend == "tensorflow":
        import tensorflow as tf

        tf.config.threading.set_intra_op_parallelism_threads(1)
        tf.config.threading.set_inter_op_parallelism_threads(1)


def _check_gpu(backend):
    """Raises when the engine sees no GPU: a --device gpu row never times the CPU."""
    if backend == "jax":
        import jax

        seen = [d for d in jax.devices() if d.platform != "cpu"]
    elif backend == "torch":
        import torch

        seen = list(range(torch.cuda.device_count()))
    else:
        import tensorflow as tf

        seen = tf.config.list_physical_devices("GPU")
    if not seen:
        raise RuntimeError(f"--device gpu: {backend} sees no GPU")


def child(spec):
    import resource
    import traceback

    if spec.get("device") == "gpu":
        try:
            _check_gpu(spec["backend"])
        except RuntimeError as error:
            print(json.dumps({"error": str(error)}))
            return
    else:
        _pin_threads(spec["backend"])
    os.environ["MB_BENCH_DEVICE"] = spec.get("device", "cpu")
    args = [spec[k] for k in ("backend", "model", "samples", "epochs", "spe", "jit")]
    try:
        refit = {"refit": True} if spec.get("refit") and spec["framework"] != "native" else {}
        times, predict_s = RUNNERS[spec["framework"]](*args, **refit)
    except Exception as error:  # reported in the table, traceback on stderr
        traceback.print_exc()
        lines = [line.strip() for line in str(error).splitlines() if line.strip()] or [""]
        text = lines[0] if len(lines) == 1 else f"{lines[0]} ... {lines[-1]}"  # TF: cause last
        text = f"{type(error).__name__}: {text}"
        refused = spec["framework"] == "keras" and "steps_per_execution" in str(error)
        print(json.dumps({"refused" if refused else "error": text}))
        return
    steady = [statistics.median(t[i] for t in times[1:] or times) for i in (0, 1)]
    result = {
        "first_epoch_s": times[0][0],
        "first_epoch_cpu_s": times[0][1],
        "samples_per_s": spec["samples"] / steady[0],
        "samples_per_cpu_s": spec["samples"] / steady[1],
        "predict_per_s": spec["samples"] / predict_s[0],
        "predict_per_cpu_s": spec["samples"] / predict_s[1],
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "epoch_s": [round(t[0], 4) for t in times],  # with --refit: each fit call's
    }
    print(json.dumps(result))


def _spawn(spec):
    env = {
        **os.environ,
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "TF_NUM_INTRAOP_THREADS": "1",
        "TF_NUM_INTEROP_THREADS": "1",
        "XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1",
        "TF_CPP_MIN_LOG_LEVEL": "3",
        "MB_BACKEND": spec["backend"],
        "KERAS_BACKEND": spec["backend"],
    }
    if spec.get("device") == "gpu":
        for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "XLA_FLAGS"):
            env.pop(name, None)
        env.pop("TF_NUM_INTRAOP_THREADS", None)
        env.pop("TF_NUM_INTEROP_THREADS", None)
    else:  # the CPU rows see no GPU, whatever the machine has
        env.update(CUDA_VISIBLE_DEVICES="", JAX_PLATFORMS="cpu")
    args = [sys.executable, __file__, "--child", json.dumps(spec)]
    try:
        result = subprocess.run(args, capture_output=True, text=True, env=env, timeout=3600)
    except subprocess.TimeoutExpired:
        return {"error": "timed out after 3600 s"}
    lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
    if result.returncode != 0 or not lines or "error" in json.loads(lines[-1]):
        tail = "\n".join(result.stderr.strip().splitlines()[-15:])
        print(
            f"--- {spec['framework']}/{spec['backend']}/{spec['model']} failed:\n{tail}",
            file=sys.stderr,
        )
    if not lines:
        return {"error": (result.stderr.strip().splitlines() or ["no output"])[-1]}
    return json.loads(lines[-1])


# (column, result key) of the ratios of mb's row over another framework's
RATIOS = (
    ("mb/native", "native", "samples_per_s"),
    ("mb/keras", "keras", "samples_per_s"),
    ("CPU mb/native", "native", "samples_per_cpu_s"),
    ("predict mb/native", "native", "predict_per_s"),
    ("predict mb/keras", "keras", "predict_per_s"),
    ("CPU predict mb/native", "native", "predict_per_cpu_s"),
)


def _table(results, names):
    rows = [
        "| model | backend | framework | samples/s | samples/CPU s | first epoch s (CPU s) "
        "| predict/s | peak RSS MB | " + " | ".join(r[0] for r in RATIOS) + " |",
        "|---|---|---|---|---|---|---|---|" + "---|" * len(RATIOS),
    ]
    for (model, backend), by_fw in results.items():
        best = {}
        for fw, runs in by_fw.items():
            ok = [r for r in runs if "samples_per_s" in r]
            best[fw] = max(ok, key=lambda r: r["samples_per_s"]) if ok else runs[0]
        for fw in names:
            if fw not in best:
                continue
            r = best[fw]
            if "samples_per_s" not in r:
                kind = "refused" if "refused" in r else "error"
                blank = " |" * (4 + len(RATIOS))
                rows.append(f"| {model} | {backend} | {fw} | {kind}: {r[kind][:240]} |{blank}")
                continue
            ratios = []
            for _, other, key in RATIOS:
                ours, theirs = best.get("mb", {}).get(key), best.get(other, {}).get(key)
                ratios.append(f"{ours / theirs:.2f}" if fw == "mb" and ours and theirs else "")
            rows.append(
                f"| {model} | {backend} | {fw} | {r['samples_per_s']:.0f} | "
                f"{r.get('samples_per_cpu_s', 0):.0f} | "
                f"{r['first_epoch_s']:.2f} ({r.get('first_epoch_cpu_s', 0):.2f}) | "
                f"{r['predict_per_s']:.0f} | {r['peak_rss_mb']:.0f} | " + " | ".join(ratios) + " |"
            )
    return "\n".join(rows)


def _jit_value(text):
    return {"auto": "auto", "on": True, "off": False}[text]


def main():
    parser = argparse.ArgumentParser(description="mb vs Keras 3 vs native training speed")
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--frameworks", default=",".join(FRAMEWORKS))
    parser.add_argument("--epochs", type=int, default=4, help="epochs per run (>= 2)")
    parser.add_argument("--rounds", type=int, default=1, help="interleaved rounds (best kept)")
    parser.add_argument("--full", action="store_true", help="10x samples, at least 3 rounds")
    parser.add_argument("--samples-scale", type=float, default=1.0, help="multiply the sizes")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_FACTOR}x samples, 3 epochs")
    parser.add_argument("--steps-per-execution", type=int, default=1, help="mb and Keras")
    parser.add_argument(
        "--jit",
        choices=("auto", "on", "off"),
        default="auto",
        help="jit_compile of mb and Keras; 'on' also puts XLA on native TF",
    )
    parser.add_argument(
        "--device", choices=("cpu", "gpu"), default="cpu", help="where every run computes"
    )
    parser.add_argument(
        "--refit",
        action="store_true",
        help="mb and Keras call fit(epochs=1) --epochs times (epoch_s: each call's seconds)",
    )
    parser.add_argument("--json", help="also write the raw results to this file")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(json.loads(args.child))
        return
    names = args.frameworks.split(",")
    for value, known in (
        (names, FRAMEWORKS),
        (args.backends.split(","), BACKENDS),
        (args.models.split(","), tuple(MODELS)),
    ):
        if unknown := sorted(set(value) - set(known)):
            parser.error(f"unknown {unknown}; choose among {', '.join(known)}")
    if args.quick:
        args.samples_scale *= QUICK_FACTOR
        args.epochs = min(args.epochs, 3)
    if args.epochs < 2:
        parser.error("--epochs must be >= 2: the first epoch compiles, the others are timed")
    rounds = max(args.rounds, 3) if args.full else args.rounds
    results, raw = {}, []
    print(
        f"# {rounds} round(s), {args.epochs} epochs, steps_per_execution="
        f"{args.steps_per_execution}, jit={args.jit}, device={args.device}"
        + (", fit(epochs=1) per epoch" if args.refit else "")
        + (", 1 thread per run" if args.device == "cpu" else ""),
        flush=True,
    )
    for _ in range(rounds):
        for model in args.models.split(","):
            samples = _samples(model, args.full, args.samples_scale)
            for backend in args.backends.split(","):
                for framework in names:  # interleaved
                    spec = {
                        "framework": framework,
                        "backend": backend,
                        "model": model,
                        "samples": samples,
                        "epochs": args.epochs,
                        "spe": args.steps_per_execution,
                        "jit": _jit_value(args.jit),
                        "device": args.device,
                        "refit": args.refit,
                    }
                    r = _spawn(spec)
                    raw.append({**spec, **r})
                    print(f"# {framework}/{backend}/{model} ({samples} samples): {r}", flush=True)
                    results.setdefault((model, backend), {}).setdefault(framework, []).append(r)
    print(_table(results, names))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(raw, f, indent=1)


if __name__ == "__main__":
    main()
