"""Optimizer step time: mb vs Keras 3 vs the engine's own optimizer, per optimizer.

    python bench/optimizer_bench.py                      # every backend and optimizer
    python bench/optimizer_bench.py --backends torch --optimizers adam,sgd
    python bench/optimizer_bench.py --variables 100 --steps 50 --rounds 3
    python bench/optimizer_bench.py --backends torch --baseline ../mb-old  # before/after

One optimizer step over a "model" of ``--variables`` float32 variables (shapes cycle
through 128x128, 128, 64x256, 256: ~1.2 M values for 100 variables) with fixed
gradients, timed after two warm-up steps (which build the optimizer and compile):

- **mb** and **Keras 3** run the very same code (``import mb as keras`` against
  ``import keras``): on torch ``optimizer.apply_gradients`` eagerly (mb's multi-tensor
  path: torch's ``_foreach_*`` kernels); on jax ``optimizer.stateless_apply`` under
  ``jax.jit`` with the values donated (as the trainers run it); on tensorflow
  ``apply_gradients`` in a ``tf.function``.
- **native**: torch ``torch.optim.<Name>(foreach=True)``; jax the optax transform
  under ``jax.jit`` (donated); tensorflow has no optimizer of its own outside Keras
  ("-").

Each (framework, backend) runs in its own subprocess with one thread; frameworks are
interleaved round by round, and the best round is kept. ``--baseline DIR`` adds the
column "mb before": mb imported from another checkout of mb (``DIR/packages/*/src``
first on ``PYTHONPATH``, e.g. ``git worktree add ../mb-old <commit>``), run in the same
interleaved rounds, so a change is compared on the same machine load. Reported: microseconds per
step (wall; CPU time beside it) and the ratios native/mb and Keras/mb (above 1: mb is
faster). The hyperparameters are each library's defaults except the learning rate
(1e-3) and SGD's momentum (0.9; "sgd0": none, "nesterov": Nesterov's): the step's work is
what is compared, not the math.
"""

import argparse
import json
import os
import subprocess
import sys
import time

BACKENDS = ("torch", "jax", "tensorflow")
FRAMEWORKS = ("mb", "keras", "native")
SHAPES = ((128, 128), (128,), (64, 256), (256,))

# mb/Keras class name: (torch.optim name or None, optax name or None). Lion, Ftrl,
# Lamb, Muon: no torch.optim of that name (torch's Muon is another algorithm); Ftrl, Muon:
# none in optax.
OPTIMIZERS = {
    "sgd": ("SGD", "SGD", "sgd"),
    "sgd0": ("SGD", "SGD", "sgd"),
    "nesterov": ("SGD", "SGD", "sgd"),
    "adam": ("Adam", "Adam", "adam"),
    "adamw": ("AdamW", "AdamW", "adamw"),
    "rmsprop": ("RMSprop", "RMSprop", "rmsprop"),
    "adagrad": ("Adagrad", "Adagrad", "adagrad"),
    "adadelta": ("Adadelta", "Adadelta", "adadelta"),
    "adamax": ("Adamax", "Adamax", "adamax"),
    "nadam": ("Nadam", "NAdam", "nadam"),
    "lion": ("Lion", None, "lion"),
    "lamb": ("Lamb", None, "lamb"),
    "ftrl": ("Ftrl", None, None),
    "adafactor": ("Adafactor", "Adafactor", "adafactor"),
    "muon": ("Muon", None, None),
}
# Arguments beside the learning rate (the same names in Keras, torch.optim and optax):
# "sgd" has momentum, "sgd0" none, "nesterov" Nesterov momentum.
ARGUMENTS = {"sgd": {"momentum": 0.9}, "nesterov": {"momentum": 0.9, "nesterov": True}}
LEARNING_RATE = 1e-3


def _values(n):
    import numpy as np

    rng = np.random.default_rng(0)
    shapes = [SHAPES[i % len(SHAPES)] for i in range(n)]
    params = [rng.normal(size=s).astype("float32") * 0.1 for s in shapes]
    grads = [rng.normal(size=s).astype("float32") * 0.01 for s in shapes]
    return params, grads


def _timed(step, steps):
    """Per-step wall and CPU seconds of `steps` calls of `step` (after 2 warm-ups)."""
    step()
    step()
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):
        step()
    return (time.perf_counter() - wall) / steps, (time.process_time() - cpu) / steps


def _block(backend, values):
    """Waits for asynchronous engines (jax) to finish the step's work."""
    if backend == "jax":
        import jax

        jax.block_until_ready(values)


def run_api(keras, backend, name, n, steps):
    """mb or Keras 3: one optimizer step through the Keras API."""
    params, grads = _values(n)
    cls = getattr(keras.optimizers, OPTIMIZERS[name][0])
    optimizer = cls(learning_rate=LEARNING_RATE, **ARGUMENTS.get(name, {}))
    variables = [keras.Variable(p) for p in params]
    grads = [keras.ops.convert_to_tensor(g) for g in grads]
    optimizer.build(variables)
    if backend == "jax":
        import jax

        def apply(opt_values, train_values, grad_values):
            return optimizer.stateless_apply(opt_values, grad_values, train_values)

        apply = jax.jit(apply, donate_argnums=(0, 1))
        state = {
            "train": [v.value for v in variables],
            "opt": [v.value for v in optimizer.variables],
        }

        def step():
            state["train"], state["opt"] = apply(state["opt"], state["train"], grads)
            _block(backend, state["train"])

    elif backend == "tensorflow":
        import tensorflow as tf

        @tf.function
        def apply():
            optimizer.apply_gradients(zip(grads, variables, strict=True))

        def step():
            apply()

    else:

        def step():
            optimizer.apply_gradients(zip(grads, variables, strict=True))

    return _timed(step, steps)


def run_native(backend, name, n, steps):
    """The engine's own optimizer, or None where it has none of that name."""
    params, grads = _values(n)
    torch_name, optax_name = OPTIMIZERS[name][1], OPTIMIZERS[name][2]
    if backend == "torch" and torch_name:
        import torch

        tensors = [torch.nn.Parameter(torch.from_numpy(p)) for p in params]
        for tensor, grad in zip(tensors, grads, strict=True):
            tensor.grad = torch.from_numpy(grad)
        kwargs = {"lr": LEARNING_RATE, **ARGUMENTS.get(name, {})}
        if name != "adafactor":  # torch's Adafactor has no multi-tensor path
            kwargs["foreach"] = True
        optimizer = getattr(torch.optim, torch_name)(tensors, **kwargs)
        return _timed(optimizer.step, steps)
    if backend == "jax" and optax_name:
        import jax
        import optax

        transform = getattr(optax, optax_name)(LEARNING_RATE, **ARGUMENTS.get(name, {}))
        values = [jax.numpy.asarray(p) for p in params]
        grad_values = [jax.numpy.asarray(g) for g in grads]

        def update(opt_state, values, grad_values):
            updates, opt_state = transform.update(grad_values, opt_state, values)
            return opt_state, optax.apply_updates(values, updates)

        apply = jax.jit(update, donate_argnums=(0, 1))
        state = {"opt": transform.init(values), "values": values}

        def step():
            state["opt"], state["values"] = apply(state["opt"], state["values"], grad_values)
            _block(backend, state["values"])

        return _timed(step, steps)
    return None


def child(spec):
    backend, framework = spec["backend"], spec["framework"]
    results = {}
    for name in spec["optimizers"]:
        if framework == "native":
            timing = run_native(backend, name, spec["variables"], spec["steps"])
        else:
            if framework in ("mb", "baseline"):
                import mb as keras
            else:
                import keras
            timing = run_api(keras, backend, name, spec["variables"], spec["steps"])
        results[name] = timing
    return results


def _spawn(spec):
    env = dict(os.environ)
    env.update(
        MB_BACKEND=spec["backend"],
        KERAS_BACKEND=spec["backend"],
        CUDA_VISIBLE_DEVICES="",
        JAX_PLATFORMS="cpu",
        OMP_NUM_THREADS="1",
        MKL_NUM_THREADS="1",
        XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1",
        TF_NUM_INTRAOP_THREADS="1",
        TF_NUM_INTEROP_THREADS="1",
        TF_CPP_MIN_LOG_LEVEL="3",
    )
    if spec["backend"] == "torch":
        env["MB_BENCH_TORCH_THREADS"] = "1"
    if spec["framework"] == "baseline":
        packages = os.path.join(spec["baseline"], "packages")
        paths = [os.path.join(packages, d, "src") for d in sorted(os.listdir(packages))]
        env["PYTHONPATH"] = os.pathsep.join(p for p in paths if os.path.isdir(p))
    out = subprocess.run(
        [sys.executable, __file__, "--child", json.dumps(spec)],
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if out.returncode != 0:
        raise RuntimeError(
            f"{spec['framework']} on {spec['backend']} failed:\n{out.stderr[-3000:]}"
        )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _ratio(a, b):
    return f"{a / b:.2f}" if a and b else "-"


def main():
    parser = argparse.ArgumentParser(description="optimizer step: mb vs Keras 3 vs native")
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--optimizers", default=",".join(OPTIMIZERS))
    parser.add_argument("--frameworks", default=",".join(FRAMEWORKS))
    parser.add_argument("--variables", type=int, default=100)
    parser.add_argument("--steps", type=int, default=30, help="timed steps per round")
    parser.add_argument("--rounds", type=int, default=2, help="interleaved rounds (best kept)")
    parser.add_argument("--baseline", help="a checkout of mb to compare mb with (before)")
    parser.add_argument("--child")
    args = parser.parse_args()
    if args.child:
        spec = json.loads(args.child)
        if os.environ.get("MB_BENCH_TORCH_THREADS"):
            import torch

            torch.set_num_threads(1)
        print(json.dumps(child(spec)))
        return
    optimizers = [o for o in args.optimizers.split(",") if o]
    unknown = sorted(set(optimizers) - set(OPTIMIZERS))
    if unknown:
        parser.error(f"unknown optimizers {unknown}; choose from {sorted(OPTIMIZERS)}")
    frameworks = [f for f in args.frameworks.split(",") if f]
    if args.baseline:
        if not os.path.isdir(os.path.join(args.baseline, "packages")):
            parser.error(f"--baseline {args.baseline!r}: expected a checkout of mb (packages/)")
        frameworks = ["baseline", *frameworks]
    best = {}
    for _ in range(args.rounds):
        for backend in args.backends.split(","):
            for framework in frameworks:
                spec = {
                    "backend": backend,
                    "framework": framework,
                    "optimizers": optimizers,
                    "variables": args.variables,
                    "steps": args.steps,
                    "baseline": os.path.abspath(args.baseline or "."),
                }
                for name, timing in _spawn(spec).items():
                    key = (backend, name, framework)
                    if timing and (key not in best or timing[0] < best[key][0]):
                        best[key] = timing
    print(
        f"\none step over {args.variables} float32 variables; best of {args.rounds} "
        f"rounds, {args.steps} steps each; us per step (wall / CPU)\n"
    )
    before = ("baseline",) if args.baseline else ()
    header = "| backend | optimizer | " + ("mb before | " if before else "")
    print(header + "mb | Keras 3 | native | native/mb | Keras/mb |")
    print("|---" * (header.count("|") + 4) + "|")
    for backend in args.backends.split(","):
        for name in optimizers:
            cells = [best.get((backend, name, f)) for f in (*before, *FRAMEWORKS)]
            text = [f"{c[0] * 1e6:.0f} / {c[1] * 1e6:.0f}" if c else "-" for c in cells]
            mb_t, keras_t, native_t = (c[0] if c else None for c in cells[len(before) :])
            print(
                f"| {backend} | {name} | {' | '.join(text)} | {_ratio(native_t, mb_t)} "
                f"| {_ratio(keras_t, mb_t)} |"
            )


if __name__ == "__main__":
    main()
