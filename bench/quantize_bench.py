"""Quantization: weight memory, predict speed and accuracy, mb against Keras 3.15.

    python bench/quantize_bench.py --quick             # ~5 minutes on 2 cores
    python bench/quantize_bench.py                     # more epochs, samples, rounds, backends
    python bench/quantize_bench.py --backends torch --frameworks mb --modes int8,int4

Two models classify scikit-learn's digits (8x8 images, 10 classes; 1,437 training and
360 test images), both taking the 64 raw pixel values (0-16) and scaling them first:

- ``mlp``: 64 -> Dense(256, relu) -> Dense(256, relu) -> Dense(256, relu) -> Dense(10),
  four Dense layers.
- ``transformer``: the image as 8 tokens of 8 pixels -> Dense(128) embedding -> one
  transformer block (MultiHeadAttention with 4 heads of 32, residual, LayerNorm,
  Dense(512, relu) -> Dense(128), residual, LayerNorm) -> Flatten -> Dense(10).

One float32 model of each is trained once (mb, jax backend) and its weights are shared:
every (framework, backend) process builds the same model with the same code (``import mb
as keras`` against ``import keras``), loads those weights, and measures the float32 model
and each quantized copy (``model.quantize(mode)``):

- weight memory: bytes of all the model's variables (``size * itemsize``) and its
  ratio to the float32 model's;
- accuracy on the 360 test images and its drop from float32 (percentage points);
- predict throughput: samples per CPU-second of ``model.predict`` on tiled test images
  (best of several rounds after a warm-up), and its ratio to float32 in the same
  process. CPU time of the process, not wall time: each process runs one thread, and
  on a shared machine wall time mostly measures the other jobs.

``gptq`` and ``awq`` calibrate on the training images' pixels, given as "pre-tokenized"
sequences of 64 values (Keras's calibration loader takes token windows); where
``model.quantize`` does not support a mode, its row says "not available" and why.
float8 is Keras's float8 *training* mode: it keeps the float32 kernels and adds scaling
state, and its scales start at 1 and move only during training, so it is measured as
quantized, without training.

Each (framework, backend) runs in its own subprocess with one thread (the machine's two
cores are shared) and no GPU.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

MODES = ("int8", "int4", "float8", "gptq", "awq")
# Not in the default run: int4 with one scale per output channel
# (`Int4QuantizationConfig(block_size=None)`) instead of Keras's default groups.
EXTRA_MODES = ("int4-per-channel",)
MODELS = ("mlp", "transformer")


# ----- shared by every process -----------------------------------------------------------


def digits():
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    data = load_digits()
    x = data.data.astype("float32")
    y = data.target.astype("int32")
    return train_test_split(x, y, test_size=0.2, random_state=0, stratify=y)


def build(k, name):
    """The same model for `k` = mb or keras."""
    inputs = k.Input((64,), name="pixels")
    x = k.layers.Rescaling(1 / 16, name="scale")(inputs)
    if name == "mlp":
        for i in range(3):
            x = k.layers.Dense(256, activation="relu", name=f"dense_{i}")(x)
    else:
        x = k.layers.Reshape((8, 8), name="tokens")(x)
        x = k.layers.Dense(128, name="embed")(x)
        attention = k.layers.MultiHeadAttention(4, 32, name="attention")(x, x)
        x = k.layers.LayerNormalization(name="norm_1")(k.layers.Add()([x, attention]))
        hidden = k.layers.Dense(512, activation="relu", name="ffn_1")(x)
        hidden = k.layers.Dense(128, name="ffn_2")(hidden)
        x = k.layers.LayerNormalization(name="norm_2")(k.layers.Add()([x, hidden]))
        x = k.layers.Flatten(name="flat")(x)
    outputs = k.layers.Dense(10, name="logits")(x)
    return k.Model(inputs, outputs, name=name)


# ----- the child: one framework on one backend ------------------------------------------


def _itemsize(dtype):
    import ml_dtypes  # noqa: F401  (registers bfloat16 and float8 with NumPy)

    return np.dtype(str(dtype)).itemsize


def weight_bytes(model):
    return int(sum(int(np.prod(v.shape)) * _itemsize(v.dtype) for v in model.weights))


def accuracy(model, x, y):
    logits = np.asarray(model.predict(x, batch_size=256, verbose=0))
    return float((logits.argmax(axis=-1) == y).mean())


def throughput(model, x, rounds):
    """Samples per CPU-second (the process's CPU time: every thread it runs)."""
    model.predict(x, batch_size=256, verbose=0)  # warm-up (tracing, compilation)
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        model.predict(x, batch_size=256, verbose=0)
        best = min(best, time.process_time() - start)
    return len(x) / best


def quantize(k, model, mode, x_train, num_samples):
    if mode in ("gptq", "awq"):
        config_class = k.quantizers.GPTQConfig if mode == "gptq" else k.quantizers.AWQConfig
        config = config_class(
            dataset=x_train.astype("int32"),
            tokenizer=lambda text: text,
            weight_bits=4,
            num_samples=num_samples,
            sequence_length=64,
            group_size=64,
            # Keras feeds each block (1, 1, 64) windows: the block is the whole model
            # behind a Reshape.
            quantization_layer_structure={
                "pre_block_layers": [],
                "sequential_blocks": [
                    k.Sequential([k.Input((1, 64)), k.layers.Reshape((64,)), model])
                ],
            },
        )
        model.quantize(mode, config=config)
    elif mode == "int4-per-channel":
        model.quantize("int4", config=k.quantizers.Int4QuantizationConfig(block_size=None))
    else:
        model.quantize(mode)


def child(spec):
    import warnings

    warnings.filterwarnings("ignore")
    if spec["framework"] == "mb":
        import mb as k
    else:
        import keras as k
    x_train, x_test, _, y_test = digits()
    x_bench = np.tile(x_test, (spec["tile"], 1))
    rows = []
    for name in spec["models"]:
        weights = list(np.load(os.path.join(spec["weights"], f"{name}.npz")).values())
        model = build(k, name)
        model.set_weights(weights)
        base = {
            "bytes": weight_bytes(model),
            "accuracy": accuracy(model, x_test, y_test),
            "per_s": throughput(model, x_bench, spec["rounds"]),
        }
        rows.append({"model": name, "mode": "float32", **base})
        for mode in spec["modes"]:
            model = build(k, name)
            model.set_weights(weights)
            row = {"model": name, "mode": mode}
            try:
                quantize(k, model, mode, x_train, spec["calibration_samples"])
                row["bytes"] = weight_bytes(model)
                row["accuracy"] = accuracy(model, x_test, y_test)
                row["per_s"] = throughput(model, x_bench, spec["rounds"])
            except Exception as error:  # a mode this framework/backend does not run
                text = f"{type(error).__name__}: {error}".splitlines()[0]
                row["error"] = text[:160]
            rows.append(row)
        for row in rows:
            if row["model"] == name and "bytes" in row:
                row["memory_ratio"] = row["bytes"] / base["bytes"]
                row["accuracy_drop"] = 100 * (base["accuracy"] - row["accuracy"])
                row["speed_ratio"] = row["per_s"] / base["per_s"]
    print(json.dumps({"rows": rows}))


def train_float_models(folder, epochs):
    """Trains each float32 model once (mb, jax) and saves its weights for every process."""
    import mb as k

    x_train, x_test, y_train, y_test = digits()
    for name in MODELS:
        k.utils.set_random_seed(0)
        model = build(k, name)
        model.compile(
            optimizer=k.optimizers.Adam(1e-3),
            loss=k.losses.SparseCategoricalCrossentropy(from_logits=True),
        )
        model.fit(x_train, y_train, epochs=epochs, batch_size=64, verbose=0)
        np.savez(os.path.join(folder, f"{name}.npz"), *model.get_weights())
        print(f"float32 {name}: accuracy {accuracy(model, x_test, y_test):.3f}", file=sys.stderr)
    print(json.dumps({"trained": list(MODELS)}))


# ----- the parent ------------------------------------------------------------------------


def _env(backend):
    return {
        **os.environ,
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "TF_NUM_INTRAOP_THREADS": "1",
        "TF_NUM_INTEROP_THREADS": "1",
        "XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1",
        "TF_CPP_MIN_LOG_LEVEL": "3",
        "CUDA_VISIBLE_DEVICES": "",
        "JAX_PLATFORMS": "cpu",
        "MB_BACKEND": backend,
        "KERAS_BACKEND": backend,
    }


def _run(args, backend):
    done = subprocess.run(
        [sys.executable, __file__, *args],
        capture_output=True,
        text=True,
        env=_env(backend),
        timeout=3600,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        tail = "\n".join(done.stderr.strip().splitlines()[-10:])
        return {"error": f"exit {done.returncode}: {tail[-400:]}"}
    return json.loads(lines[-1])


def _fmt(row, key, fmt):
    if "error" in row:
        return "n/a"
    return format(row[key], fmt)


def report(results, backends, frameworks):
    """Markdown tables: memory and accuracy (first backend), speed ratios (every backend)."""
    first = backends[0]
    by = {}
    for (framework, backend), rows in results.items():
        for row in rows:
            by[(framework, backend, row["model"], row["mode"])] = row
    keys = sorted(
        {(m, mode) for (_, _, m, mode) in by},
        key=lambda t: (MODELS.index(t[0]), ("float32", *MODES, *EXTRA_MODES).index(t[1])),
    )
    lines = [
        f"Weight memory and accuracy ({first} backend; accuracy on 360 test images):",
        "",
        "| model | mode | "
        + " | ".join(f"{fw} MiB | {fw} ratio | {fw} acc | {fw} drop (pts)" for fw in frameworks)
        + " |",
        "|---|---|" + "---|" * (4 * len(frameworks)),
    ]
    for model, mode in keys:
        cells = []
        for fw in frameworks:
            row = by.get((fw, first, model, mode), {"error": "missing"})
            cells += [
                _fmt({**row, "mib": row.get("bytes", 0) / 2**20}, "mib", ".3f"),
                _fmt(row, "memory_ratio", ".3f") if mode != "float32" else "1",
                _fmt(row, "accuracy", ".3f"),
                _fmt(row, "accuracy_drop", "+.1f") if mode != "float32" else "",
            ]
        lines.append(f"| {model} | {mode} | " + " | ".join(cells) + " |")
    columns = [(fw, b) for fw in frameworks for b in backends]
    lines += [
        "",
        "Predict throughput: float32 samples per CPU-second, and each mode's speed relative",
        "to float32 in the same process (>1: faster):",
        "",
        "| model | mode | " + " | ".join(f"{fw} {b}" for fw, b in columns) + " |",
        "|---|---|" + "---|" * len(columns),
    ]
    for model, mode in keys:
        cells = []
        for fw, b in columns:
            row = by.get((fw, b, model, mode), {"error": "missing"})
            key, fmt = ("per_s", ".0f") if mode == "float32" else ("speed_ratio", ".2f")
            cells.append(_fmt(row, key, fmt))
        lines.append(f"| {model} | {mode} | " + " | ".join(cells) + " |")
    missing = {}
    for (fw, b), rows in results.items():
        for row in rows:
            if "error" in row:
                where = missing.setdefault((fw, row["mode"], row["error"]), [set(), set()])
                where[0].add(b)
                where[1].add(row["model"])
    if missing:
        lines += ["", "Not available:", ""]
        for (fw, mode, error), (where, models) in sorted(missing.items()):
            lines.append(
                f"- {fw} {mode} ({', '.join(sorted(where))}; {', '.join(sorted(models))}): {error}"
            )
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer epochs, samples, rounds")
    parser.add_argument("--backends", default=None, help="comma-separated (default: by --quick)")
    parser.add_argument("--frameworks", default="mb,keras")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--json", default=None, help="also write the raw results here")
    parser.add_argument("--report", default=None, help="print the tables of a --json file")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--train", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(json.loads(args.child))
    if args.train:
        folder, epochs = args.train.rsplit(":", 1)
        return train_float_models(folder, int(epochs))
    if args.report:
        with open(args.report) as f:
            saved = {tuple(key.split("/")): rows for key, rows in json.load(f).items()}
        backends = list(dict.fromkeys(b for _, b in saved))
        frameworks = list(dict.fromkeys(fw for fw, _ in saved))
        return print(report(saved, backends, frameworks))
    backends = (
        args.backends or ("jax,torch,tensorflow" if args.quick else "jax,torch,tensorflow,numpy")
    ).split(",")
    frameworks = args.frameworks.split(",")
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        trained = _run(["--train", f"{folder}:{8 if args.quick else 30}"], "jax")
        if "error" in trained:
            sys.exit(f"training the float32 models failed: {trained['error']}")
        spec = {
            "weights": folder,
            "models": args.models.split(","),
            "modes": args.modes.split(","),
            "tile": 6 if args.quick else 30,
            "rounds": 3 if args.quick else 5,
            "calibration_samples": 8 if args.quick else 64,
        }
        results = {}
        for framework in frameworks:
            for backend in backends:
                out = _run(["--child", json.dumps({**spec, "framework": framework})], backend)
                if "error" in out:
                    print(f"{framework} {backend} failed: {out['error']}", file=sys.stderr)
                    out = {"rows": []}
                results[(framework, backend)] = out["rows"]
                print(
                    f"{framework} {backend} done ({time.perf_counter() - start:.0f} s)",
                    file=sys.stderr,
                )
    if args.json:
        with open(args.json, "w") as f:
            json.dump({f"{fw}/{b}": rows for (fw, b), rows in results.items()}, f, indent=1)
    print(report(results, backends, frameworks))


if __name__ == "__main__":
    main()
