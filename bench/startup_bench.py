"""Start-up: `import mb` + a first op, against `import keras` + a first op and the engine alone.

Every measurement is a fresh Python process, and the three libraries are interleaved
round by round so that a busy machine slows each of them alike. A process reports the
wall time of its imports plus one small op brought back to NumPy, its CPU time, its
peak RSS, and which engines ended up imported. The ratios are mb's median over Keras's
and over the engine's own.

    uv run --no-sync python bench/startup_bench.py                 # numpy jax torch tensorflow
    uv run --no-sync python bench/startup_bench.py tensorflow --rounds 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

_CHILD = r"""
import json, resource, sys, time
library, backend = sys.argv[1], sys.argv[2]
start, cpu = time.perf_counter(), time.process_time()
if library == "mb":
    import mb
    mb.ops.convert_to_numpy(mb.ops.add(mb.ops.ones((2,)), 1.0))
elif library == "keras":
    import keras
    keras.ops.convert_to_numpy(keras.ops.add(keras.ops.ones((2,)), 1.0))
elif backend == "jax":
    import jax.numpy as jnp
    jnp.asarray(jnp.ones((2,)) + 1.0).block_until_ready()
elif backend == "torch":
    import torch
    (torch.ones(2) + 1.0).numpy()
elif backend == "tensorflow":
    import tensorflow as tf
    (tf.ones((2,)) + 1.0).numpy()
else:
    import numpy as np
    np.ones((2,)) + 1.0
wall, cpu = time.perf_counter() - start, time.process_time() - cpu
engines = [m for m in ("jax", "torch", "tensorflow", "keras", "tf_keras") if m in sys.modules]
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print("RESULT" + json.dumps({"wall": wall, "cpu": cpu, "rss_mb": rss, "engines": engines}))
"""

LIBRARIES = ("mb", "keras", "native")


def measure(backend: str, library: str) -> dict:
    env = {
        **os.environ,
        "MB_BACKEND": backend,
        "KERAS_BACKEND": backend,
        "TF_CPP_MIN_LOG_LEVEL": "3",
        "PYTHONWARNINGS": "ignore",
    }
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, library, backend], capture_output=True, text=True, env=env
    )
    if done.returncode != 0:
        raise RuntimeError(f"{library} on {backend} failed:\n{done.stderr[-3000:]}")
    line = next(x for x in done.stdout.splitlines() if x.startswith("RESULT"))
    return json.loads(line[6:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("backends", nargs="*", default=["numpy", "jax", "torch", "tensorflow"])
    parser.add_argument("--rounds", type=int, default=3, help="fresh processes per library")
    args = parser.parse_args()
    print(
        f"{'backend':<11}{'library':<8}{'wall s':>8}{'cpu s':>8}{'RSS MB':>8}"
        f"{'mb/this':>9}  engines imported"
    )
    for backend in args.backends:
        runs: dict[str, list[dict]] = {lib: [] for lib in LIBRARIES}
        for _ in range(args.rounds):
            for library in LIBRARIES:
                runs[library].append(measure(backend, library))
        medians = {
            lib: {k: statistics.median(r[k] for r in rs) for k in ("wall", "cpu", "rss_mb")}
            for lib, rs in runs.items()
        }
        for library in LIBRARIES:
            m = medians[library]
            ratio = medians["mb"]["wall"] / m["wall"]
            engines = ", ".join(runs[library][-1]["engines"]) or "-"
            print(
                f"{backend:<11}{library:<8}{m['wall']:>8.2f}{m['cpu']:>8.2f}{m['rss_mb']:>8.0f}"
                f"{ratio:>9.2f}  {engines}"
            )


if __name__ == "__main__":
    main()
