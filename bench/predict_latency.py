"""Per-call latency of inference: mb vs Keras 3 vs the engine's own code.

What a server answering one request at a time pays: ``predict(x)`` on one batch,
``predict_on_batch(x)``, an eager ``model(x)`` brought back to NumPy, and, for
comparison, ``predict`` over 100 batches per batch. Each (backend, framework, model)
runs in its own process with one thread; rounds are interleaved and the best CPU
microseconds per call are kept (CPU time moves less than wall time on a shared
machine).

    python bench/predict_latency.py                        # torch and jax, tiny and mlp
    python bench/predict_latency.py --backends torch --models tiny --rounds 5
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import time

BACKENDS = ("torch", "jax")
FRAMEWORKS = ("mb", "keras", "native")
MODELS = ("tiny", "mlp")
BATCH, BATCHES = 32, 100
FEATURES = {"tiny": 8, "mlp": 784}
FORMS = ("predict", "predict_on_batch", "call", "predict/batch")


def _cpu_us(fn, calls):
    """Best CPU microseconds per call of `fn` over 5 repeats of `calls` calls."""
    fn()
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        for _ in range(calls):
            fn()
        best = min(best, (time.process_time() - start) / calls)
    return best * 1e6


def _api_forms(keras, model, x_one, x_many):
    layers = keras.layers
    if model == "tiny":
        stack = [keras.Input((FEATURES[model],)), layers.Dense(1)]
    else:
        stack = [keras.Input((FEATURES[model],)), layers.Dense(512, activation="relu")]
        stack += [layers.Dense(512, activation="relu"), layers.Dense(10)]
    net = keras.Sequential(stack)
    to_numpy = keras.ops.convert_to_numpy
    return {
        "predict": lambda: net.predict(x_one, verbose=0),
        "predict_on_batch": lambda: net.predict_on_batch(x_one),
        "call": lambda: to_numpy(net(x_one)),
        "predict/batch": lambda: net.predict(x_many, batch_size=BATCH, verbose=0),
    }


def _native_forms(backend, model, x_one, x_many):
    import numpy as np

    rng = np.random.default_rng(0)
    sizes = [FEATURES[model], 1] if model == "tiny" else [FEATURES[model], 512, 512, 10]
    pairs = itertools.pairwise(sizes)
    weights = [rng.normal(size=(a, b)).astype("float32") * 0.05 for a, b in pairs]
    if backend == "torch":
        import torch

        net = torch.nn.Sequential(
            *[
                m
                for i, w in enumerate(weights)
                for m in (
                    [torch.nn.Linear(*w.shape)]
                    + ([torch.nn.ReLU()] if i < len(weights) - 1 else [])
                )
            ]
        ).eval()

        def one(x):
            with torch.no_grad():
                return net(torch.from_numpy(x)).numpy()

        def many():
            with torch.no_grad():
                xt = torch.from_numpy(x_many)
                return np.concatenate(
                    [net(xt[i : i + BATCH]).numpy() for i in range(0, len(x_many), BATCH)]
                )

    else:
        import jax
        import jax.numpy as jnp

        params = [(jnp.asarray(w), jnp.zeros((w.shape[1],), "float32")) for w in weights]

        @jax.jit
        def forward(params, x):
            for i, (w, b) in enumerate(params):
                x = x @ w + b
                if i < len(params) - 1:
                    x = jax.nn.relu(x)
            return x

        def one(x):
            return np.asarray(forward(params, x))

        def many():
            return np.concatenate(
                [one(x_many[i : i + BATCH]) for i in range(0, len(x_many), BATCH)]
            )

    return {
        "predict": lambda: one(x_one),
        "predict_on_batch": lambda: one(x_one),
        "call": lambda: one(x_one),
        "predict/batch": many,
    }


def child(backend, framework, model):
    import numpy as np

    if backend == "torch":
        import torch

        torch.set_num_threads(1)
    rng = np.random.default_rng(1)
    x_one = rng.normal(size=(BATCH, FEATURES[model])).astype("float32")
    x_many = rng.normal(size=(BATCH * BATCHES, FEATURES[model])).astype("float32")
    if framework == "native":
        forms = _native_forms(backend, model, x_one, x_many)
    else:
        os.environ["MB_BACKEND" if framework == "mb" else "KERAS_BACKEND"] = backend
        keras = __import__("mb" if framework == "mb" else "keras")
        forms = _api_forms(keras, model, x_one, x_many)
    calls = {"predict": 200, "predict_on_batch": 500, "call": 500, "predict/batch": 3}
    result = {form: _cpu_us(forms[form], calls[form]) for form in FORMS}
    result["predict/batch"] /= BATCHES
    print(json.dumps(result))


def _one_thread_env():
    env = dict(os.environ)
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        env[name] = "1"
    env["XLA_FLAGS"] = (
        env.get("XLA_FLAGS", "")
        + " --xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
    ).strip()
    env["TF_CPP_MIN_LOG_LEVEL"] = "3"
    return env


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--frameworks", default=",".join(FRAMEWORKS))
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--child", nargs=3, metavar=("BACKEND", "FRAMEWORK", "MODEL"))
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    best = {}
    specs = [
        (b, f, m)
        for m in args.models.split(",")
        for b in args.backends.split(",")
        for f in args.frameworks.split(",")
    ]
    for _ in range(args.rounds):
        for spec in specs:
            out = subprocess.run(
                [sys.executable, __file__, "--child", *spec],
                capture_output=True,
                text=True,
                env=_one_thread_env(),
                check=False,
            )
            lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
            if not lines:
                print(f"# {'/'.join(spec)} failed: {out.stderr.strip()[-300:]}", file=sys.stderr)
                continue
            result = json.loads(lines[-1])
            kept = best.setdefault(spec, result)
            for form in FORMS:
                kept[form] = min(kept[form], result[form])
    print("CPU us per call, best of rounds; ratio = native / framework (1.0 = native speed)")
    print(f"{'model':6} {'backend':8} {'framework':9} " + " ".join(f"{f:>17}" for f in FORMS))
    for (backend, framework, model), r in best.items():
        native = best.get((backend, "native", model))
        cells = []
        for form in FORMS:
            ratio = f" ({native[form] / r[form]:.2f})" if native and framework != "native" else ""
            cells.append(f"{r[form]:>10.1f}{ratio:>7}")
        print(f"{model:6} {backend:8} {framework:9} " + " ".join(cells))


if __name__ == "__main__":
    main()
