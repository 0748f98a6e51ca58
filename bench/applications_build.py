"""How long building ResNet50 (``weights=None``) takes in mb and in Keras 3, per backend.

Each (backend, library) pair runs in its own process, one after the other. A process
imports the engine (one small op), builds the model once ("first": includes what an
engine compiles or caches on first use, e.g. jax's random kernels per variable shape),
then `--repeats` more times after ``clear_session()`` ("again": the median). The ratio
is mb's time over Keras's.

    uv run --no-sync python bench/applications_build.py                # numpy jax torch tensorflow
    uv run --no-sync python bench/applications_build.py torch --repeats 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

_CHILD = r"""
import json, sys, time
library, repeats = sys.argv[1], int(sys.argv[2])
if library == "keras":
    import keras as lib
    build, clear = lib.applications.ResNet50, lib.backend.clear_session
else:
    import mb as lib
    build, clear = lib.applications.ResNet50, lib.utils.clear_session
lib.ops.convert_to_numpy(lib.ops.ones((2,)) + 1)  # the engine is imported before timing
times = []
for _ in range(repeats + 1):
    clear()
    start = time.perf_counter()
    model = build(weights=None)
    times.append(time.perf_counter() - start)
assert model.count_params() == 25636712
print("TIMES" + json.dumps(times))
"""


def measure(backend: str, library: str, repeats: int) -> list[float]:
    env = {
        **os.environ,
        "MB_BACKEND": backend,
        "KERAS_BACKEND": backend,
        "TF_CPP_MIN_LOG_LEVEL": "3",
        "PYTHONWARNINGS": "ignore",
    }
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, library, str(repeats)],
        capture_output=True,
        text=True,
        env=env,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{library} on {backend} failed:\n{done.stderr[-3000:]}")
    line = next(x for x in done.stdout.splitlines() if x.startswith("TIMES"))
    return json.loads(line[5:])


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("backends", nargs="*", default=["numpy", "jax", "torch", "tensorflow"])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"{'backend':<11} {'library':<6} {'first (s)':>9} {'again (s)':>9}")
    for backend in args.backends:
        results = {}
        for library in ("keras", "mb"):
            times = measure(backend, library, args.repeats)
            results[library] = (times[0], statistics.median(times[1:]))
            print(f"{backend:<11} {library:<6} {times[0]:9.2f} {results[library][1]:9.2f}")
        first = results["mb"][0] / results["keras"][0]
        again = results["mb"][1] / results["keras"][1]
        print(f"{backend:<11} {'mb/keras':<6} {first:9.2f} {again:9.2f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
