"""The fast paths behind `_compat` (torch's private APIs) are taken, not silently lost.

Each test fails with a message naming the fast path when a torch upgrade (or a change
in mb) makes the backend fall back to its slower path.
"""

import numpy as np
import torch

from mb_backend_torch import _compat, nn, random, training


class _AtenLog(_compat.DispatchMode):
    """The aten ops that run inside the block, by name."""

    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(func.name().split(".")[0])  # aten::add, not aten::add.Tensor
        return func(*args, **(kwargs or {}))


def _tensors(seed, shapes=((4, 3), (3,), (2, 2))):
    rng = np.random.default_rng(seed)
    return [torch.tensor(rng.standard_normal(s), dtype=torch.float32) for s in shapes]


def _adam_rule(xp, param, grad, m, v, alpha, one_minus_beta_1, one_minus_beta_2, epsilon):
    m = xp.add(m, xp.multiply(xp.subtract(grad, m), one_minus_beta_1))
    v = xp.add(v, xp.multiply(xp.subtract(xp.square(grad), v), one_minus_beta_2))
    step = xp.divide(xp.multiply(m, alpha), xp.add(xp.sqrt(v), epsilon))
    return xp.subtract(param, step), m, v


def _adam_step(params, grads, m, v):
    alpha = torch.tensor(0.01 * np.sqrt(1 - 0.999) / (1 - 0.9))
    training.foreach_update(_adam_rule, params, grads, m, v, scalars=(alpha, 0.1, 0.001, 1e-7))


def _adam_ops(count):
    params, grads = _tensors(0, [(2, 3)] * count), _tensors(1, [(2, 3)] * count)
    m, v = [torch.zeros_like(p) for p in params], [torch.zeros_like(p) for p in params]
    with _AtenLog() as log:
        _adam_step(params, grads, m, v)
    return log.ops


def test_foreach_update_updates_all_tensors_with_multi_tensor_kernels():
    params, grads = _tensors(0), _tensors(1)
    m = [torch.zeros_like(p) for p in params]
    v = [torch.zeros_like(p) for p in params]
    expected = [p.clone() for p in params]
    for p, g in zip(expected, grads, strict=True):  # Keras's Adam, first step, per tensor
        m1, v1 = 0.1 * g, 0.001 * g * g
        lr_t = 0.01 * np.sqrt(1 - 0.999) / (1 - 0.9)
        p -= lr_t * m1 / (torch.sqrt(v1) + 1e-7)
    with _AtenLog() as log:
        _adam_step(params, grads, m, v)
    kernels = [op for op in log.ops if op.startswith("aten::_foreach_")]
    # As torch.optim's foreach Adam: m is one lerp, v one mul_ + addcmul_ (no g*g),
    # sqrt(v) the one list allocated, the parameters one addcdiv_ (no m*alpha), all in
    # place (no copy back).
    assert kernels == [
        "aten::_foreach_lerp_",
        "aten::_foreach_mul_",
        "aten::_foreach_addcmul_",
        "aten::_foreach_sqrt",
        "aten::_foreach_add_",
        "aten::_foreach_div_",
        "aten::_foreach_addcdiv_",
    ], f"foreach_update no longer runs Adam as torch.optim's kernels do (ran {log.ops})"
    # One launch per kernel for all tensors: twice the tensors, the same ops.
    assert _adam_ops(3) == _adam_ops(6)
    for p, e in zip(params, expected, strict=True):
        np.testing.assert_allclose(p.numpy(), e.numpy(), rtol=1e-5, atol=1e-7)


def test_fused_update_with_donation_writes_back_with_one_foreach_copy():
    params, grads = _tensors(4), _tensors(5)
    originals = [p for p in params]
    expected = [p - 0.5 * g for p, g in zip(params, grads, strict=True)]
    with _AtenLog() as log:
        out = training.fused_update(
            lambda p, g, lr: p - lr * g, params, grads, scalars=(0.5,), donate=True
        )
    assert log.ops.count("aten::_foreach_copy_") == 1, sorted(set(log.ops))
    assert log.ops.count("aten::copy_") == 0, "donated results copied tensor by tensor"
    assert all(o is p for o, p in zip(out, originals, strict=True)), "donated params not reused"
    for p, e in zip(originals, expected, strict=True):
        np.testing.assert_allclose(p.numpy(), e.numpy(), rtol=1e-6)


def test_recorded_step_replays_without_running_the_python_step_again():
    calls = []

    def step(w, x):
        calls.append(1)
        return w - 0.1 * (x @ w)

    replay = training.jit(step, pure=True)
    w, x = torch.ones(3, 3), torch.eye(3)
    for _ in range(4):
        w = replay(w, x)
    np.testing.assert_allclose(w.numpy(), np.eye(3) * 0 + 0.9**4, rtol=1e-6)
    assert replay.recorded == 1 and replay.refusals == [], replay.refusals
    # The recording run may call the step more than once (a probe and the recorded run);
    # replays never do.
    recorded_calls = len(calls)
    w = replay(w, x)
    assert len(calls) == recorded_calls, "the step's Python ran again: the replay is not taken"


def test_replay_calls_the_cpp_kernels_under_op_overloads():
    op = torch.ops.aten.add.Tensor
    kernel = _compat.overload_kernel(op)
    assert kernel is not op, "OpOverload._op is gone: replays pay a Python frame per op"
    assert torch.equal(kernel(torch.ones(2), torch.ones(2)), torch.full((2,), 2.0))
    assert _compat.is_mutable(torch.ops.aten.add_.Tensor)
    assert not _compat.is_mutable(op)


def test_int8_matmul_on_cpu_takes_torchs_integer_gemm(monkeypatch):
    calls = []
    real = _compat._int_mm
    monkeypatch.setattr(_compat, "_int_mm", lambda a, b: calls.append(1) or real(a, b))
    rng = np.random.default_rng(0)
    a = rng.integers(-127, 128, (32, 64)).astype(np.int8)
    b = rng.integers(-127, 128, (64, 16)).astype(np.int8)
    out = nn.int8_matmul(torch.tensor(a), torch.tensor(b))
    assert calls == [1], "int8_matmul no longer runs torch._int_mm on the CPU"
    np.testing.assert_array_equal(out.numpy(), a.astype(np.int32) @ b.astype(np.int32))


def test_seeded_gamma_draws_through_standard_gamma_repeat_and_have_the_right_mean():
    first = random.gamma((20000,), alpha=3.0, seed=7).numpy()
    again = random.gamma((20000,), alpha=3.0, seed=7).numpy()
    np.testing.assert_array_equal(first, again)
    assert abs(first.mean() - 3.0) < 0.05  # Gamma(3, 1): mean 3, std of the mean ~0.012
