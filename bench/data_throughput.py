"""Batches per second of every mb_data adapter on every backend, against the raw pipeline.

For each adapter (arrays, generator, PyDataset with threads, tf.data, torch
DataLoader, grain) and each installed backend, times one epoch of the raw
pipeline iterated alone (batches as the pipeline makes them) and one epoch
through ``mb_data.EpochIterator`` (batches handed to the backend as its
tensors), each backend in its own subprocess. Prints batches/second for both,
the ratio mb / raw (1.0 = no overhead; the mb side also pays the transfer
into the backend, e.g. NumPy -> jax device buffer) and the time mb adds per
batch in microseconds. Raw in-memory pipelines (arrays, generator) cost well
under a microsecond a batch, so their ratio shows mb's fixed per-batch cost;
the added microseconds are the number to compare with a training step.

    uv run --no-sync python bench/data_throughput.py                 # every backend
    uv run --no-sync python bench/data_throughput.py torch jax       # some of them
    uv run --no-sync python bench/data_throughput.py --batches 400 --batch-size 128
    uv run --no-sync python bench/data_throughput.py jax tensorflow --step-matmul 256

With ``--step-matmul K`` every batch also goes through a small step on the engine
(``sum(x @ W)`` with a ``(features, K)`` W, waited for) and the reference is a native
loop running the same step over batches converted beforehand (data already on the
device): the last column is then what mb adds per step over that loop, the number
issue 25 bounds (5 us). ``--prefetch on`` makes `EpochIterator` build the next
batches on a background thread while the step runs (`mb_data._prefetch`; jax and
tensorflow; by default only when the batches go to an accelerator).

No assertion anywhere: this is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import time

# EpochIterator(prefetch=): None (the default: threads for accelerators), True, False.
_PREFETCH = {"auto": None, "on": True, "off": False}[os.environ.get("MB_BENCH_PREFETCH", "auto")]
BACKENDS = ("numpy", "jax", "torch", "tensorflow", "openvino")
ADAPTERS = ("arrays", "generator", "pydataset", "tf.data", "torch", "grain")


def _pipelines(batches: int, batch_size: int, features: int):
    """name -> (make_raw_pipeline, make_mb_input); both give fresh iterables each call."""
    import numpy as np

    import mb_data

    n = batches * batch_size
    x = np.random.default_rng(0).random((n, features), dtype="float32")
    y = np.arange(n, dtype="int64") % 10

    def raw_arrays():
        return ((x[i : i + batch_size], y[i : i + batch_size]) for i in range(0, n, batch_size))

    class Batches(mb_data.PyDataset):
        def __init__(self):
            super().__init__(workers=4, max_queue_size=16)

        def __len__(self):
            return batches

        def __getitem__(self, i):
            s = slice(i * batch_size, (i + 1) * batch_size)
            return x[s], y[s]

    out = {
        "arrays": (raw_arrays, lambda: (x, y, batch_size)),
        "generator": (raw_arrays, lambda: (raw_arrays(), None, None)),
        "pydataset": (
            lambda: (Batches()[i] for i in range(batches)),
            lambda: (Batches(), None, None),
        ),
    }
    if importlib.util.find_spec("tensorflow"):
        import tensorflow as tf

        dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(batch_size).prefetch(2)
        out["tf.data"] = (lambda: dataset, lambda: (dataset, None, None))
    if importlib.util.find_spec("torch"):
        import torch

        data = torch.utils.data.TensorDataset(torch.from_numpy(x), torch.from_numpy(y))
        loader = torch.utils.data.DataLoader(data, batch_size=batch_size)
        out["torch"] = (lambda: loader, lambda: (loader, None, None))
    if importlib.util.find_spec("grain"):
        import grain

        records = grain.MapDataset.range(n).map(lambda i: (x[i], y[i])).batch(batch_size)
        out["grain"] = (lambda: records, lambda: (records, None, None))
    return out


def _wait(batch) -> None:
    # jax dispatches transfers asynchronously: wait so both sides finish the same work.
    leaf = batch[0] if isinstance(batch, tuple) else batch
    ready = getattr(leaf, "block_until_ready", None)
    if ready is not None:
        ready()


def _step_fn(features: int, width: int):
    """A small step on the engine, waited for: ``sum(x @ W)``; None without --step-matmul."""
    if not width:
        return None
    import numpy as np

    from mb_ops import backends, ops

    core = backends.backend_module("core")
    w = core.convert_to_tensor(np.random.default_rng(1).random((features, width), "float32"))

    def step(batch):
        out = ops.sum(ops.matmul(batch[0], w))
        _wait((out,))
        return out

    return step


def measure(
    backend: str, batches: int, batch_size: int, features: int, repeats: int, width: int = 0
) -> list:
    """Runs inside the backend's own process."""
    import mb_data

    step = _step_fn(features, width)
    if step is not None:
        return _measure_with_step(backend, batches, batch_size, features, repeats, step)

    rows = []
    for name, (make_raw, make_mb) in _pipelines(batches, batch_size, features).items():
        raw_best = mb_best = float("inf")
        count = 0
        for _ in make_raw():  # warm-up: first-epoch costs (tf.data tracing, caches) untimed
            pass
        for _ in range(repeats):
            start = time.perf_counter()
            count = sum(1 for _ in make_raw())
            raw_best = min(raw_best, time.perf_counter() - start)
            source, y, size = make_mb()
            it = mb_data.EpochIterator(source, y, batch_size=size)
            start = time.perf_counter()
            last = None
            for _, _, chunk in it:
                last = chunk[-1]
            _wait(last)
            mb_best = min(mb_best, time.perf_counter() - start)
        rows.append(
            {
                "backend": backend,
                "adapter": name,
                "raw": count / raw_best,
                "mb": count / mb_best,
            }
        )
    return rows


def _measure_with_step(backend, batches, batch_size, features, repeats, step) -> list:
    """Per adapter: a native loop stepping over batches already converted, against the
    same steps fed by `EpochIterator` from the adapter."""
    import mb_data

    rows = []
    for name, (_, make_mb) in _pipelines(batches, batch_size, features).items():
        source, y, size = make_mb()
        ready = [c[0] for _, _, c in mb_data.EpochIterator(source, y, batch_size=size)]
        native_best = mb_best = float("inf")
        for batch in ready[:5]:  # warm-up: compile the step
            step(batch)
        for _ in range(repeats):
            start = time.perf_counter()
            for batch in ready:
                step(batch)
            native_best = min(native_best, time.perf_counter() - start)
            source, y, size = make_mb()
            it = mb_data.EpochIterator(source, y, batch_size=size, prefetch=_PREFETCH)
            start = time.perf_counter()
            for _, _, chunk in it:
                for batch in chunk:
                    step(batch)
            mb_best = min(mb_best, time.perf_counter() - start)
        count = len(ready)
        rows.append(
            {"backend": backend, "adapter": name, "raw": count / native_best, "mb": count / mb_best}
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("backends", nargs="*", default=list(BACKENDS))
    parser.add_argument("--batches", type=int, default=200)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--features", type=int, default=256)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--step-matmul",
        type=int,
        default=0,
        metavar="K",
        help="run a sum(x @ W) step of width K on each batch; compare with a native loop "
        "over batches already converted",
    )
    parser.add_argument(
        "--prefetch",
        choices=("auto", "on", "off"),
        default="auto",
        help="EpochIterator(prefetch=None|True|False): the default (a background thread "
        "for accelerators only), always, never",
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sizes = (args.batches, args.batch_size, args.features, args.repeats, args.step_matmul)
    if args.child:
        print(json.dumps(measure(args.backends[0], *sizes)))
        return
    rows = []
    for backend in args.backends:
        env = {**os.environ, "MB_BACKEND": backend}
        env["MB_BENCH_PREFETCH"] = args.prefetch
        cmd = [sys.executable, __file__, backend, "--child"]
        cmd += ["--batches", str(args.batches), "--batch-size", str(args.batch_size)]
        cmd += ["--features", str(args.features), "--repeats", str(args.repeats)]
        cmd += ["--step-matmul", str(args.step_matmul)]
        result = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if result.returncode != 0:
            print(f"{backend}: failed\n{result.stderr[-1500:]}", file=sys.stderr)
            continue
        rows.extend(json.loads(result.stdout.strip().splitlines()[-1]))
    print(
        f"{args.batches} batches of ({args.batch_size}, {args.features}) float32 + int64 labels; "
        "batches/second, best of repeats"
    )
    stepped = args.step_matmul > 0
    if stepped:
        print(
            f"each with a sum(x @ W) step, W ({args.features}, {args.step_matmul}); "
            "'raw' = native loop over batches already converted"
        )
    header = f"{'backend':<11} {'adapter':<10} {'raw':>10} {'mb':>10} {'mb/raw':>7}"
    print(f"{header} {'added us/step' if stepped else 'added us/batch':>15}")
    for row in rows:
        added = 1e6 * (1.0 / row["mb"] - 1.0 / row["raw"])
        print(
            f"{row['backend']:<11} {row['adapter']:<10} {row['raw']:>10.0f} {row['mb']:>10.0f} "
            f"{row['mb'] / row['raw']:>7.2f} {added:>15.1f}"
        )


if __name__ == "__main__":
    main()
