"""The backend's fused update and in-place kernels give the generic path's numbers.

The generic path runs each optimizer's rule tensor by tensor; ``fused_update``
runs the same rule over all tensors in one backend call; torch's
``foreach_update`` runs an elementwise rule over all tensors with multi-tensor
kernels, in place. Which of them a backend has decides what runs by default.
"""

import numpy as np
import pytest

import mb_ops
from mb_ops import ops
from mb_train import optimizers
from mb_train.optimizers import _fused
from mb_train.optimizers._rules import ELEMENTWISE, elementwise_rule

FACTORIES = [
    ("sgd", lambda: optimizers.SGD(0.1)),
    ("sgd_momentum", lambda: optimizers.SGD(0.1, momentum=0.9)),
    (
        "sgd_nesterov_decay",
        lambda: optimizers.SGD(0.1, momentum=0.9, nesterov=True, weight_decay=0.01),
    ),
    ("adam", lambda: optimizers.Adam(0.05)),
    ("adam_amsgrad", lambda: optimizers.Adam(0.05, amsgrad=True)),
    ("adamw", lambda: optimizers.AdamW(0.05)),
    ("rmsprop", lambda: optimizers.RMSprop(0.05, momentum=0.5, centered=True)),
    ("adadelta", lambda: optimizers.Adadelta(1.0)),
    ("adafactor", lambda: optimizers.Adafactor(0.05)),
    ("adagrad", lambda: optimizers.Adagrad(0.05)),
    ("adamax", lambda: optimizers.Adamax(0.05)),
    ("ftrl", lambda: optimizers.Ftrl(0.05)),
    ("lamb", lambda: optimizers.Lamb(0.05)),
    ("lion", lambda: optimizers.Lion(0.05)),
    ("nadam", lambda: optimizers.Nadam(0.05)),
    ("muon", lambda: optimizers.Muon(0.05)),
    ("schedule_free", lambda: optimizers.ScheduleFreeAdamW(0.05)),
]


def _generic(optimizer):
    optimizer._allow_fused_update = False
    optimizer._allow_kernels = False
    return optimizer


@pytest.mark.parametrize("factory", FACTORIES, ids=[f[0] for f in FACTORIES])
@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
def test_fast_path_matches_the_generic_path(h, factory, compiled):
    if compiled and not h.trainable:
        pytest.skip(f"the {h.backend} backend does not compile training steps")
    run = h.run_compiled if compiled else h.run_mb
    params, grads = h.make_problem(shapes=((5, 3), (3,), (2, 2, 3)), steps=4, seed=11)
    fast, fast_opt = run(factory[1](), params, grads)
    slow, slow_opt = run(_generic(factory[1]()), params, grads)
    # Same math. The in-place kernels order the float32 arithmetic differently (Adam:
    # ``m / (sqrt(v) + eps) * lr_t`` with lr_t in float64): a few 1e-6 after 4 steps.
    kernel = _fused.training_primitive("foreach_update") is not None and not compiled
    rtol, atol = (1e-5, 3e-6) if kernel else (2e-6, 1e-7)
    for f, s in zip(fast, slow, strict=True):
        np.testing.assert_allclose(f, s, rtol=rtol, atol=atol)
    for f, s in zip(fast_opt.variables, slow_opt.variables, strict=True):
        np.testing.assert_allclose(f.numpy(), s.numpy(), rtol=rtol, atol=atol)


class _Counting:
    def __init__(self, fn):
        self.fn, self.calls = fn, 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.fn(*args, **kwargs)


@pytest.fixture
def counted(monkeypatch):
    """Counts calls of the backend primitives the optimizers find through the contract."""
    counters = {}
    for name in ("fused_update", "foreach_update"):
        found = _fused.training_primitive(name)
        if found is not None:
            counters[name] = _Counting(found)
            monkeypatch.setitem(_fused._PRIMITIVES, name, counters[name])
    return counters


def test_the_backend_primitives_are_used_when_present(h, counted):
    params, grads = h.make_problem(steps=2)
    h.run_mb(optimizers.RMSprop(0.01), params, grads)
    h.run_mb(optimizers.SGD(0.01, momentum=0.5), params, grads)
    h.run_mb(optimizers.Adam(0.01), params, grads)
    h.run_mb(optimizers.Lamb(0.01), params, grads)  # not elementwise: its norms
    if "foreach_update" in counted:
        assert counted["foreach_update"].calls == 6
        assert counted["fused_update"].calls == 2  # Lamb
    elif "fused_update" in counted:
        assert counted["fused_update"].calls == 8
    else:
        assert h.backend in ("numpy", "openvino")  # the generic loop only


def test_kernels_are_not_used_where_a_step_may_be_discarded(h, counted):
    if "foreach_update" not in counted:
        pytest.skip(f"the {h.backend} backend has no in-place kernels")
    params, grads = h.make_problem(steps=2)
    h.run_mb(optimizers.SGD(0.1, gradient_accumulation_steps=2), params, grads)
    h.run_mb(optimizers.LossScaleOptimizer(optimizers.SGD(0.1)), params, grads)
    assert counted["foreach_update"].calls == 0


def test_kernels_decay_only_the_variables_weight_decay_applies_to(h, counted):
    params, grads = h.make_problem(steps=3)

    def adamw():
        optimizer = optimizers.AdamW(0.1, weight_decay=0.2)
        optimizer.exclude_from_weight_decay(var_names=["v1"])
        return optimizer

    fast, _ = h.run_mb(adamw(), params, grads)
    slow, _ = h.run_mb(_generic(adamw()), params, grads)
    if "foreach_update" in counted:
        assert counted["foreach_update"].calls == 3 * 2  # the decay, then Adam's rule
    for f, s in zip(fast, slow, strict=True):
        np.testing.assert_allclose(f, s, rtol=1e-5, atol=3e-6)


@elementwise_rule
def _every_function_rule(xp, param, grad, m, lr, decay):
    # A made-up optimizer using each elementwise function once.
    m = xp.maximum(xp.multiply(m, decay), xp.abs(grad))
    direction = xp.divide(grad, xp.add(xp.sqrt(xp.square(m)), 1e-3))
    bounded = xp.minimum(xp.sign(direction), xp.negative(xp.subtract(0.5, 1.0)))
    return xp.subtract(param, xp.multiply(lr, bounded)), m


class _NewOptimizer(optimizers.Optimizer):
    """An optimizer written only against mb-train: a rule over ``xp`` and its slot."""

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        self.maxima = self.add_optimizer_variables(variables, "maximum")

    def _plan(self, index, variable):
        return _every_function_rule, (self.maxima[index],), (0.9,)


def test_a_new_elementwise_optimizer_runs_on_the_kernels_without_backend_code(h, counted):
    # The rule is written once; a backend with multi-tensor kernels runs it over every
    # tensor at once, and the numbers are the per-tensor loop's.
    assert {"abs", "maximum", "minimum", "sign", "negative"} <= set(ELEMENTWISE)
    params, grads = h.make_problem(shapes=((4, 3), (3,)), steps=3, seed=5)
    fast, fast_opt = h.run_mb(_NewOptimizer(learning_rate=0.05), params, grads)
    slow, slow_opt = h.run_mb(_generic(_NewOptimizer(learning_rate=0.05)), params, grads)
    if "foreach_update" in counted:
        assert counted["foreach_update"].calls == 3
    elif "fused_update" in counted:
        assert counted["fused_update"].calls == 3
    for f, s in zip(fast, slow, strict=True):
        np.testing.assert_allclose(f, s, rtol=1e-6, atol=1e-7)
    for f, s in zip(fast_opt.variables, slow_opt.variables, strict=True):
        np.testing.assert_allclose(f.numpy(), s.numpy(), rtol=1e-6, atol=1e-7)
    # And the update is the rule's: one step from zero slots, by hand in NumPy.
    one, _ = h.run_mb(_generic(_NewOptimizer(learning_rate=0.05)), params, grads[:1])
    for p, g, got in zip(params, grads[0], one, strict=True):
        m = np.abs(g)
        direction = g / (np.abs(m) + 1e-3)
        np.testing.assert_allclose(
            got, p - 0.05 * np.minimum(np.sign(direction), 0.5), rtol=1e-5, atol=1e-6
        )


def test_stateless_apply_never_mutates_the_values_given(h):
    params, grads = h.make_problem(steps=1)
    variables = h.make_variables(params)
    optimizer = optimizers.SGD(0.1, momentum=0.9)
    optimizer.build(variables)
    values = [v.value for v in variables]
    opt_values = [v.value for v in optimizer.variables]
    before = [np.array(ops.convert_to_numpy(x)) for x in values]
    new_values, _ = optimizer.stateless_apply(
        opt_values, [ops.convert_to_tensor(g) for g in grads[0]], values
    )
    for value, old in zip(values, before, strict=True):
        np.testing.assert_array_equal(np.asarray(ops.convert_to_numpy(value)), old)
    for variable, old in zip(variables, before, strict=True):
        np.testing.assert_array_equal(variable.numpy(), old)
    expected = [p + (-0.1 * g) for p, g in zip(params, grads[0], strict=True)]
    for new, e in zip(new_values, expected, strict=True):
        np.testing.assert_allclose(np.asarray(ops.convert_to_numpy(new)), e, rtol=1e-6)


def test_adadelta_takes_kerass_grad_keyword_and_keeps_the_fused_update(h, counted):
    params, grads = h.make_problem(steps=2)
    h.run_mb(optimizers.Adadelta(1.0), params, grads)
    # One grouped call per step: torch's kernels (an elementwise rule), else fused_update.
    if "foreach_update" in counted:
        assert counted["foreach_update"].calls == 2
    elif "fused_update" in counted:
        assert counted["fused_update"].calls == 2
    by_apply, by_step = mb_ops.Variable([1.0, 2.0]), mb_ops.Variable([1.0, 2.0])
    first, second = optimizers.Adadelta(1.0), optimizers.Adadelta(1.0)
    first.apply([ops.ones((2,))], [by_apply])
    second.build([by_step])
    second.update_step(
        grad=ops.ones((2,)), variable=by_step, learning_rate=ops.convert_to_tensor(1.0)
    )
    np.testing.assert_allclose(by_step.numpy(), by_apply.numpy(), rtol=1e-6)
    assert not np.allclose(by_step.numpy(), [1.0, 2.0])
