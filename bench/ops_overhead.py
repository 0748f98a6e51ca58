"""Dispatch overhead of mb ops over the engine's own call, per backend.

Times ``mb.ops`` ``add``, ``matmul`` and ``relu`` on small arrays (eager) against the
raw engine call on the same engine tensors, each backend in its own subprocess (the
backend is fixed per process). Prints microseconds per call for mb, for the backend
package's function called directly (so the op layer's own dispatch cost shows as
``mb / backend``) and for the raw engine call, and the ratio mb / raw.

    uv run --no-sync python bench/ops_overhead.py            # every installed backend
    uv run --no-sync python bench/ops_overhead.py numpy jax  # some of them

No assertion anywhere: this is a measurement, not a test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import timeit

import numpy as np

import mb_ops

BACKENDS = ("numpy", "jax", "torch", "tensorflow")
SHAPE = (8, 8)

_RAW = {
    "numpy": ("numpy", "np.add(x, y)", "np.matmul(x, y)", "np.maximum(x, 0)"),
    "jax": ("jax.numpy", "jnp.add(x, y)", "jnp.matmul(x, y)", "jax.nn.relu(x)"),
    "torch": ("torch", "torch.add(x, y)", "torch.matmul(x, y)", "torch.relu(x)"),
    "tensorflow": ("tensorflow", "tf.add(x, y)", "tf.matmul(x, y)", "tf.nn.relu(x)"),
}
_IMPORTS = {
    "numpy": "import numpy as np",
    "jax": "import jax, jax.numpy as jnp",
    "torch": "import torch",
    "tensorflow": "import tensorflow as tf",
}


def _block(backend: str) -> str:
    # JAX dispatches asynchronously: wait for the result so both sides do the same work.
    return ".block_until_ready()" if backend == "jax" else ""


def measure(backend: str, number: int) -> dict:
    """Run inside the backend's own process."""
    core = mb_ops.backends.backend_module("core")
    rng = np.random.default_rng(0)
    x = core.convert_to_tensor(rng.standard_normal(SHAPE).astype("float32"))
    y = core.convert_to_tensor(rng.standard_normal(SHAPE).astype("float32"))
    namespace = {
        "x": x,
        "y": y,
        "ops": mb_ops.ops,
        "bnp": mb_ops.backends.backend_module("numpy"),
        "bnn": mb_ops.backends.backend_module("nn"),
    }
    exec(_IMPORTS[backend], namespace)  # fixed import lines from _IMPORTS
    _, raw_add, raw_matmul, raw_relu = _RAW[backend]
    block = _block(backend)
    triples = {
        "add": ("ops.add(x, y)", "bnp.add(x, y)", raw_add),
        "matmul": ("ops.matmul(x, y)", "bnp.matmul(x, y)", raw_matmul),
        "relu": ("ops.relu(x)", "bnn.relu(x)", raw_relu),
    }
    out = {}
    for name, statements in triples.items():
        times = []
        for statement in statements:
            statement += block
            eval(statement, namespace)  # warm up (the first call resolves the backend function)
            best = min(timeit.repeat(statement, globals=namespace, number=number, repeat=5))
            times.append(best / number * 1e6)
        t_ours, t_backend, t_raw = times
        out[name] = {
            "mb_us": t_ours,
            "backend_us": t_backend,
            "raw_us": t_raw,
            "dispatch": t_ours / t_backend,
            "ratio": t_ours / t_raw,
        }
    return out


def main(argv: list[str]) -> None:
    if len(argv) >= 2 and argv[0] == "--child":
        print(json.dumps(measure(argv[1], int(argv[2]))))
        return
    wanted = argv or list(BACKENDS)
    print(
        f"{'backend':<11} {'op':<7} {'mb (us)':>9} {'backend':>9} {'raw (us)':>9} "
        f"{'mb/backend':>10} {'mb/raw':>7}"
    )
    for backend in wanted:
        env = dict(os.environ, MB_BACKEND=backend)
        proc = subprocess.run(
            [sys.executable, __file__, "--child", backend, "2000"],
            capture_output=True,
            text=True,
            env=env,
        )
        if proc.returncode != 0:
            reason = (proc.stderr.strip().splitlines() or ["failed"])[-1]
            print(f"{backend:<11} n/a: {reason[:90]}")
            continue
        result = json.loads(proc.stdout.strip().splitlines()[-1])
        for name, row in result.items():
            print(
                f"{backend:<11} {name:<7} {row['mb_us']:9.2f} {row['backend_us']:9.2f} "
                f"{row['raw_us']:9.2f} {row['dispatch']:10.2f} {row['ratio']:7.2f}"
            )


if __name__ == "__main__":
    main(sys.argv[1:])
