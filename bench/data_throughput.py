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
    uv run --no-sync python bench/data_throughput.py jax --adapters pydataset arrays

With ``--step-matmul K`` every batch also goes through a small step on the engine
(``sum(x @ W)`` with a ``(features, K)`` W, waited for) and the reference is a native
loop running the same step over batches converted beforehand (data already on the
device): the last column is then what mb adds per step over that loop, the number
issue 25 bounds (5 us). ``--prefetch on`` makes `EpochIterator` build the next
batches on a background thread while the step runs (`mb_data._prefetch`; jax and
tensorflow; by default only when the batches go to an accelerator). ``--jit`` compiles
the step with the backend's ``training.jit``, as ``fit`` compiles its steps, and feeds it
as ``fit`` does: where the backend's compiled functions place NumPy arguments themselves
(jax: ``training.JIT_PLACES_HOST_ARRAYS``), `EpochIterator(host_arrays=True)` hands the
batches over as NumPy arrays.

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
_JIT = os.environ.get("MB_BENCH_JIT") == "1"
# --adapters: the adapters to time (all of them when empty)
_ONLY = tuple(filter(None, os.environ.get("MB_BENCH_ADAPTERS", "").split(",")))
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
    return {name: pipes for name, pipes in out.items() if not _ONLY or name in _ONLY}


def _wait(batch) -> None:
    # jax dispatches transfers asynchronously: wait so both sides finish the same work.
    leaf = batch[0] if isinstance(batch, tuple) else batch
    ready = getattr(leaf, "block_until_ready", None)
    if ready is not None:
        ready()


def _native_feed(backend: str):
    """How a loop written for the engine alone hands it a batch of the raw pipeline:
    its own tensors as they are; another engine's through NumPy, then the engine's
    public conversion (``jnp.asarray``, ``tf.convert_to_tensor``, ``torch.as_tensor``),
    or none for a compiled jax step (``jax.jit`` takes NumPy arrays itself)."""
    import numpy as np

    convert = np.asarray
    if backend == "jax" and not _JIT:
        import jax.numpy as jnp

        convert = jnp.asarray
    elif backend == "tensorflow":
        import tensorflow as tf

        convert = tf.convert_to_tensor
    elif backend == "torch":
        import torch

        convert = torch.as_tensor
    own = {"jax": "jax", "tensorflow": "tensorflow", "torch": "torch"}.get(backend)

    def leaf(x):
        if type(x).__module__.split(".")[0] in (own, "jaxlib" if own == "jax" else own):
            return x
        return convert(np.asarray(x))

    return lambda batch: tuple(leaf(x) for x in batch)


def _step_fn(features: int, width: int):
    """A small step on the engine, waited for: ``sum(x @ W)`` (plus the labels' sum,
    so that a compiled step takes both arrays); None without --step-matmul. With
    ``--jit``, compiled by the backend's ``training.jit`` as fit's steps are."""
    if not width:
        return None
    import numpy as np

    from mb_ops import backends, ops

    core = backends.backend_module("core")
    w = core.convert_to_tensor(np.random.default_rng(1).random((features, width), "float32"))

    def body(w, x, y):
        return ops.sum(ops.matmul(x, w)) + ops.cast(ops.sum(y), "float32")

    jit = backends.lookup("training", "jit") if _JIT else None
    run = jit(body) if jit is not None else body

    def step(batch):
        out = run(w, batch[0], batch[1])
        _wait((out,))
        return out

    return step


def _host_arrays() -> bool:
    """Whether fit would hand this backend's compiled step NumPy batches."""
    from mb_ops import backends

    return _JIT and bool(backends.lookup("training", "JIT_PLACES_HOST_ARRAYS"))


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
    """Per adapter, step by step in turn: a native loop stepping over batches already
    converted, a native loop over the same pipeline converting each batch itself, and
    the steps fed by `EpochIterator`. Each step is timed on its own (wall clock and the
    calling thread's CPU time) and the medians are kept: on a busy machine bursts of
    other work then fall on all three alike, and the median skips them."""
    import statistics

    import mb_data

    feed_native = _native_feed(backend)
    feed = {"host_arrays": True} if _host_arrays() else {}
    clock, cpu_clock = time.perf_counter, time.thread_time
    rows = []
    for name, (make_raw, make_mb) in _pipelines(batches, batch_size, features).items():
        source, y, size = make_mb()
        ready = [c[0] for _, _, c in mb_data.EpochIterator(source, y, batch_size=size)]
        for batch in ready[:5]:  # warm-up: compile the step
            step(batch)
        times = {"raw": [], "pipeline": [], "mb": []}
        cpus = {"raw": [], "pipeline": [], "mb": []}
        for _ in range(repeats + 1):  # the first pass warms the pipelines up, untimed
            source, y, size = make_mb()
            it = mb_data.EpochIterator(source, y, batch_size=size, prefetch=_PREFETCH, **feed)
            chunks = it.enumerate_epoch()
            raw = iter(make_raw())
            samples = {"raw": [], "pipeline": [], "mb": []}
            for batch in ready:
                t, c = clock(), cpu_clock()
                step(batch)
                samples["raw"].append((clock() - t, cpu_clock() - c))
                t, c = clock(), cpu_clock()
                step(feed_native(next(raw)))
                samples["pipeline"].append((clock() - t, cpu_clock() - c))
                t, c = clock(), cpu_clock()
                step(next(chunks)[2][0])
                samples["mb"].append((clock() - t, cpu_clock() - c))
            chunks.close()
            for key, values in samples.items():
                if _ > 0:
                    times[key] += [v[0] for v in values]
                    cpus[key] += [v[1] for v in values]
        med = {k: statistics.median(v) for k, v in times.items()}
        cpu = {k: statistics.median(v) for k, v in cpus.items()}
        rows.append(
            {
                "backend": backend,
                "adapter": name,
                "raw": 1.0 / med["raw"],
                "mb": 1.0 / med["mb"],
                "pipeline": 1.0 / med["pipeline"],
                # the calling thread's CPU time per step, mb's side minus the native one's
                "cpu_added": cpu["mb"] - cpu["raw"],
                "cpu_pipeline_added": cpu["mb"] - cpu["pipeline"],
            }
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
    parser.add_argument(
        "--jit",
        action="store_true",
        help="compile the step with the backend's training.jit and feed it as fit does",
    )
    parser.add_argument(
        "--adapters",
        nargs="+",
        choices=ADAPTERS,
        default=[],
        help="time only these adapters (default: all)",
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
        env["MB_BENCH_JIT"] = "1" if args.jit else "0"
        env["MB_BENCH_ADAPTERS"] = ",".join(args.adapters)
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
            f"each with a {'compiled ' if args.jit else ''}sum(x @ W) step, "
            f"W ({args.features}, {args.step_matmul}); "
            "'raw' = native loop over batches already converted"
        )
    header = f"{'backend':<11} {'adapter':<10} {'raw':>10} {'mb':>10} {'mb/raw':>7}"
    header += f" {'added us/step' if stepped else 'added us/batch':>15}"
    if stepped:
        header += f" {'added CPU us':>13} {'pipeline':>9} {'over it us':>11} {'CPU us':>7}"
    print(header)
    for row in rows:
        added = 1e6 * (1.0 / row["mb"] - 1.0 / row["raw"])
        line = (
            f"{row['backend']:<11} {row['adapter']:<10} {row['raw']:>10.0f} {row['mb']:>10.0f} "
            f"{row['mb'] / row['raw']:>7.2f} {added:>15.1f}"
        )
        if "cpu_added" in row:
            over = 1e6 * (1.0 / row["mb"] - 1.0 / row["pipeline"])
            line += f" {1e6 * row['cpu_added']:>13.1f} {row['pipeline']:>9.0f} {over:>11.1f}"
            line += f" {1e6 * row['cpu_pipeline_added']:>7.1f}"
        print(line)


if __name__ == "__main__":
    main()
