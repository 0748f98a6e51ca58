"""The jax fast paths (the private transfer in `_compat`, buffer donation, the compile
cache) are taken, not silently lost.

Each test fails with a message naming the fast path when a jax upgrade (or a change in
mb) makes the backend fall back to its slower path.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from mb_backend_jax import _compat, _convert, core, training


def test_the_private_host_transfer_still_resolves():
    put = _compat.resolve_device_put()
    assert put is not None, (
        f"jax {jax.__version__}: jax._src.interpreters.pxla.batched_device_put is gone or "
        "changed; convert_to_tensor now takes jnp.asarray (~3x the per-batch cost). "
        "Update _compat.resolve_device_put."
    )
    host = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = put(host)
    host[...] = -1  # the transfer copies: the caller may reuse its buffer
    assert isinstance(out, jax.Array)
    np.testing.assert_array_equal(np.asarray(out), np.arange(6).reshape(2, 3))


@pytest.mark.parametrize("dtype", ["float32", "int32", "uint8", "bool"])
def test_convert_to_tensor_of_a_numpy_batch_takes_the_private_transfer(dtype, monkeypatch):
    def public_path(*args, **kwargs):
        raise AssertionError("convert_to_tensor fell back to jnp.asarray for a NumPy batch")

    monkeypatch.setattr(_convert, "_FAST_PUT", [])  # resolve again, as a fresh process
    monkeypatch.setattr(jnp, "asarray", public_path)
    host = (np.arange(12).reshape(3, 4) % 2).astype(dtype)
    x = core.convert_to_tensor(host)
    assert str(x.dtype) == dtype
    np.testing.assert_array_equal(np.asarray(x), host)


def test_jit_donates_the_state_it_is_told_to():
    step = training.jit(lambda state, x: [s + x for s in state], donate_argnums=0)
    state = [jnp.ones((4, 4)), jnp.zeros((4, 4))]
    new = step(state, jnp.ones((4, 4)))
    assert all(s.is_deleted() for s in state), (
        "jit(donate_argnums=0) no longer donates: every step copies the whole state"
    )
    np.testing.assert_array_equal(np.asarray(new[0]), 2.0)


def test_a_jitted_step_traces_once_per_input_signature():
    traces = []

    def step(state, x):
        traces.append(1)
        return state + x.sum()

    jitted = training.jit(step, donate_argnums=0)
    state = jnp.zeros(())
    for _ in range(5):
        state = jitted(state, jnp.ones((8, 3)))
    assert float(state) == 120.0
    assert len(traces) == 1, f"the step was traced {len(traces)} times for one signature"
    jitted(state, jnp.ones((4, 3)))  # a new batch shape: one more trace
    assert len(traces) == 2


def test_multi_step_compiles_once_and_donates_its_state():
    traces = []

    def step(state, batch):
        traces.append(1)
        return state + batch.sum(), {"total": state}

    run = training.multi_step(step, 3)
    state = jnp.zeros(())
    for _ in range(4):
        old = state
        state, logs = run(state, [jnp.ones(2)] * 3)
        assert old.is_deleted(), "multi_step no longer donates the state between calls"
    assert float(state) == 24.0 and float(logs["total"]) == 22.0
    assert len(traces) == 1, f"multi_step retraced its body ({len(traces)} traces)"


def test_fused_update_compiles_once_whatever_the_learning_rate():
    traces = []

    def sgd(p, g, lr):
        traces.append(1)
        return p - lr * g

    params = [jnp.ones(3), jnp.ones((2, 2))]
    grads = [jnp.ones(3), jnp.ones((2, 2))]
    params = training.fused_update(sgd, params, grads, scalars=(0.5,), donate=True)
    first = len(traces)
    old = params
    params = training.fused_update(sgd, params, grads, scalars=(0.25,), donate=True)
    assert len(traces) == first, "a new learning rate recompiled the fused update"
    assert all(p.is_deleted() for p in old), "fused_update(donate=True) copied the params"
    np.testing.assert_allclose(np.asarray(params[0]), 0.25)
