"""Optimizer tests run on the backend of MB_BACKEND (default jax): helpers to drive mb
optimizers, the NumPy references, and Keras 3 run in a subprocess (KERAS_BACKEND=jax)."""

import importlib.util
import os
from types import SimpleNamespace

os.environ.setdefault("MB_BACKEND", "jax")

import numpy as np
import pytest

import mb_ops
from mb_ops import backends, ops, testing

_path = os.path.join(os.path.dirname(__file__), "numpy_reference.py")
_spec = importlib.util.spec_from_file_location("mb_train_optimizers_numpy_reference", _path)
numpy_reference = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(numpy_reference)

BACKEND = backends.resolve_backend_name()
TRAINABLE = BACKEND in ("jax", "torch", "tensorflow")


def make_problem(shapes=((3, 4), (4,)), steps=3, seed=0, names=None):
    """Initial values and `steps` lists of gradients for variables of `shapes`."""
    rng = np.random.default_rng(seed)
    params = [rng.normal(size=s).astype("float32") for s in shapes]
    grads = [[rng.normal(size=s).astype("float32") for s in shapes] for _ in range(steps)]
    return params, grads


def make_variables(params, names=None):
    names = names or [f"v{i}" for i in range(len(params))]
    return [mb_ops.Variable(p, name=n) for p, n in zip(params, names, strict=True)]


def run_mb(optimizer, params, grad_steps, names=None):
    """Eager ``optimizer.apply`` over the steps; returns (values, optimizer)."""
    variables = make_variables(params, names)
    for grads in grad_steps:
        optimizer.apply([ops.convert_to_tensor(g) for g in grads], variables)
    return [v.numpy() for v in variables], optimizer


def run_compiled(optimizer, params, grad_steps, names=None):
    """`stateless_apply` inside the backend's compiled function (jax.jit, tf.function)."""
    variables = make_variables(params, names)
    optimizer.build(variables)
    jit = backends.backend_module("training").jit

    def step(opt_values, values, grads):
        new_values, new_opt = optimizer.stateless_apply(opt_values, grads, values)
        return new_opt, new_values

    compiled = jit(step)
    # Plain tensors from the start, so that the function is traced once.
    opt_values = [ops.convert_to_tensor(v.numpy()) for v in optimizer.variables]
    values = [ops.convert_to_tensor(v.numpy()) for v in variables]
    for grads in grad_steps:
        opt_values, values = compiled(opt_values, values, [ops.convert_to_tensor(g) for g in grads])
        opt_values, values = list(opt_values), list(values)
    for v, value in zip(optimizer.variables, opt_values, strict=True):
        v.assign(value)
    return [np.asarray(ops.convert_to_numpy(v)) for v in values], optimizer


# ----- Keras 3 in a subprocess ---------------------------------------------------------

_KERAS_SCRIPT = r"""
out = {}
for i, case in enumerate(cases):
    # (keras.optimizers.deserialize returns the string 'Lamb' for Lamb's own config;
    # the saving function, which .keras loading uses, resolves every optimizer.)
    optimizer = keras.saving.deserialize_keras_object(case["config"])
    variables = [
        keras.Variable(arrays[f"{i}_p_{j}"], name=name) for j, name in enumerate(case["names"])
    ]
    optimizer.build(variables)
    values = [v.value for v in variables]
    opt_values = [v.value for v in optimizer.variables]
    for s in range(case["steps"]):
        grads = [keras.ops.convert_to_tensor(arrays[f"{i}_g_{s}_{j}"]) for j in range(len(values))]
        values, opt_values = optimizer.stateless_apply(opt_values, grads, values)
    for j, v in enumerate(values):
        out[f"{i}_p_{j}"] = np.asarray(v)
    for k, v in enumerate(opt_values):
        out[f"{i}_o_{k}"] = np.asarray(v)
    out[f"{i}_n"] = np.asarray(len(opt_values))
np.savez(f"{folder}/results.npz", **out)
"""


def keras_results(cases):
    """Runs each case in Keras 3 (jax backend): ``(config, params, grad_steps, names)``.

    Returns per case ``(values, optimizer_values)`` after the steps, via Keras's
    ``stateless_apply`` (what its jax trainer calls).
    """
    meta, arrays = [], {}
    for i, (config, params, grad_steps, names) in enumerate(cases):
        for j, p in enumerate(params):
            arrays[f"{i}_p_{j}"] = p
        for s, grads in enumerate(grad_steps):
            for j, g in enumerate(grads):
                arrays[f"{i}_g_{s}_{j}"] = g
        meta.append({"config": config, "names": names, "steps": len(grad_steps)})
    found = testing.keras_cases(_KERAS_SCRIPT, meta, arrays, backend="jax", timeout=900)
    out = []
    for i, (_, params, _, _) in enumerate(cases):
        values = [found[f"{i}_p_{j}"] for j in range(len(params))]
        count = int(found[f"{i}_n"])
        out.append((values, [found[f"{i}_o_{k}"] for k in range(count)]))
    return out


@pytest.fixture(scope="session")
def h():
    """The helpers above, for the test modules (conftest cannot be imported by name)."""
    return SimpleNamespace(
        backend=BACKEND,
        trainable=TRAINABLE,
        ref=numpy_reference,
        make_problem=make_problem,
        make_variables=make_variables,
        run_mb=run_mb,
        run_compiled=run_compiled,
        keras_results=keras_results,
    )


@pytest.fixture
def foreach_calls(monkeypatch):
    """``(calls, available)``: the backend's multi-tensor update kernel
    (``foreach_update``, torch's) is wrapped to append to ``calls`` each time it runs;
    ``available`` is whether the backend has one."""
    from mb_train.optimizers import _fused

    kernel = _fused.training_primitive("foreach_update")
    calls = []
    if kernel is not None:

        def counting(*args, **kwargs):
            calls.append(1)
            return kernel(*args, **kwargs)

        monkeypatch.setitem(_fused._PRIMITIVES, "foreach_update", counting)
    return calls, kernel is not None
