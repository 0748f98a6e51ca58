"""The features every optimizer shares, against the NumPy driver: weight decay, clipping,
EMA, gradient accumulation, loss scale factor, schedules, constraints."""

import numpy as np
import pytest

import mb_ops
from mb_ops import ops
from mb_train import optimizers

FEATURES = [
    ("weight_decay", {"weight_decay": 0.1}),
    ("clipnorm", {"clipnorm": 0.5}),
    ("clipvalue", {"clipvalue": 0.3}),
    ("global_clipnorm", {"global_clipnorm": 0.7}),
    ("ema", {"use_ema": True, "ema_momentum": 0.9}),
    ("ema_overwrite", {"use_ema": True, "ema_momentum": 0.8, "ema_overwrite_frequency": 2}),
    ("accumulation", {"gradient_accumulation_steps": 2}),
    ("accumulation_3", {"gradient_accumulation_steps": 3}),
    ("loss_scale_factor", {"loss_scale_factor": 4.0}),
    (
        "all_together",
        {
            "weight_decay": 0.05,
            "global_clipnorm": 1.0,
            "use_ema": True,
            "ema_overwrite_frequency": 3,
            "gradient_accumulation_steps": 2,
        },
    ),
]

OPTIMIZERS = [
    ("sgd", optimizers.SGD, {}),
    ("sgd_momentum", optimizers.SGD, {"momentum": 0.9}),
    ("adam", optimizers.Adam, {}),
    ("nadam", optimizers.Nadam, {}),
]


def _check(h, cls, hyper, features, runner, steps=6):
    params, grads = h.make_problem(shapes=((3, 2), (2,)), steps=steps, seed=3)
    optimizer = cls(learning_rate=0.1, **hyper, **features)
    got, optimizer = runner(optimizer, params, grads)
    rule = getattr(h.ref, cls.__name__.lower())
    expected, averages = h.ref.run(rule, params, grads, learning_rate=0.1, **features, **hyper)
    # Six float32 steps of size ~0.1: round-off reaches a few 1e-6 in absolute terms.
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-5)
    if features.get("use_ema"):
        ema = [v.numpy() for v in optimizer._model_variables_moving_average]
        for g, e in zip(ema, averages, strict=True):
            np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-5)
    return optimizer


@pytest.mark.parametrize("feature", FEATURES, ids=[f[0] for f in FEATURES])
@pytest.mark.parametrize("opt", OPTIMIZERS, ids=[o[0] for o in OPTIMIZERS])
def test_feature_matches_numpy(h, opt, feature):
    _, cls, hyper = opt
    _check(h, cls, hyper, feature[1], h.run_mb)


@pytest.mark.parametrize("feature", FEATURES, ids=[f[0] for f in FEATURES])
def test_feature_inside_a_compiled_step_matches_numpy(h, feature):
    if not h.trainable:
        pytest.skip(f"the {h.backend} backend does not compile training steps")
    _check(h, optimizers.Adam, {}, feature[1], h.run_compiled)


def test_accumulation_counts_real_updates(h):
    params, grads = h.make_problem(steps=5)
    optimizer = optimizers.SGD(learning_rate=0.1, gradient_accumulation_steps=2)
    h.run_mb(optimizer, params, grads)
    assert int(optimizer._iterations.numpy()) == 5
    assert int(optimizer.iterations) == 2


def test_weight_decay_skips_excluded_variables(h):
    params, grads = h.make_problem(shapes=((3, 2), (2,), (2,)), steps=3)
    optimizer = optimizers.AdamW(learning_rate=0.1, weight_decay=0.2)
    variables = h.make_variables(params, names=["kernel", "bias", "scale"])
    optimizer.exclude_from_weight_decay(var_list=[variables[2]], var_names=["bias"])
    for step in grads:
        optimizer.apply([ops.convert_to_tensor(g) for g in step], variables)
    expected, _ = h.ref.run(
        h.ref.adam,
        params,
        grads,
        learning_rate=0.1,
        weight_decay=0.2,
        decay_mask=[True, False, False],
    )
    for v, e in zip(variables, expected, strict=True):
        np.testing.assert_allclose(v.numpy(), e, rtol=1e-5, atol=1e-6)


def test_schedule_as_learning_rate_matches_numpy(h):
    params, grads = h.make_problem(steps=5)
    schedule = optimizers.schedules.ExponentialDecay(0.2, decay_steps=2, decay_rate=0.5)
    optimizer = optimizers.SGD(learning_rate=schedule, momentum=0.5, weight_decay=0.1)
    got, _ = h.run_mb(optimizer, params, grads)
    expected, _ = h.ref.run(
        h.ref.sgd,
        params,
        grads,
        schedule=lambda step: 0.2 * 0.5 ** (step / 2),
        weight_decay=0.1,
        momentum=0.5,
    )
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)
    assert "learning_rate" not in [v.name for v in optimizer.variables]
    np.testing.assert_allclose(float(optimizer.learning_rate), 0.2 * 0.5**2.5, rtol=1e-6)


def test_callable_learning_rate_is_called_each_step(h):
    params, grads = h.make_problem(steps=2)
    rates = iter([0.1, 0.01])
    optimizer = optimizers.SGD(learning_rate=lambda: next(rates))
    got, _ = h.run_mb(optimizer, params, grads)
    expected = [p - 0.1 * g0 - 0.01 * g1 for p, g0, g1 in zip(params, *grads, strict=True)]
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)


def test_constraints_apply_after_the_update():
    w = mb_ops.Variable([1.0, -2.0], name="w")
    w.constraint = lambda x: ops.maximum(x, 0.0)
    optimizers.SGD(learning_rate=0.5).apply([ops.convert_to_tensor([-1.0, -1.0])], [w])
    np.testing.assert_allclose(w.numpy(), [1.5, 0.0])


def test_learning_rate_is_a_settable_variable():
    optimizer = optimizers.Adam(learning_rate=0.01)
    assert isinstance(optimizer.learning_rate, mb_ops.Variable)
    np.testing.assert_allclose(float(optimizer.learning_rate), 0.01, rtol=1e-6)
    optimizer.learning_rate = 0.5
    assert float(optimizer.learning_rate.numpy()) == 0.5
    assert optimizer.get_config()["learning_rate"] == 0.5
    optimizer.learning_rate = optimizers.schedules.InverseTimeDecay(1.0, 1, 1.0)
    assert "learning_rate" not in [v.name for v in optimizer.variables]


def test_missing_gradients_are_skipped_with_a_warning():
    a = mb_ops.Variable([1.0], name="a")
    b = mb_ops.Variable([1.0], name="b")
    optimizer = optimizers.SGD(learning_rate=0.5)
    with pytest.warns(UserWarning, match="Gradients do not exist for variables"):
        optimizer.apply([ops.ones((1,)), None], [a, b])
    np.testing.assert_allclose([a.numpy()[0], b.numpy()[0]], [0.5, 1.0])
    with pytest.raises(ValueError, match="No gradients provided"):
        optimizer.apply([None, None], [a, b])


def test_overwrite_with_gradient_assigns_the_gradient():
    a = mb_ops.Variable([1.0], name="a")
    scale = mb_ops.Variable([5.0], name="scale")
    scale.overwrite_with_gradient = True
    optimizer = optimizers.Adam(learning_rate=0.1)
    optimizer.apply([ops.ones((1,)), ops.convert_to_tensor([7.0])], [a, scale])
    assert scale.numpy()[0] == 7.0
    assert a.numpy()[0] < 1.0
    assert "scale_momentum" not in [v.name for v in optimizer.variables]


def test_finalize_variable_values_writes_the_average(h):
    params, grads = h.make_problem(steps=3)
    optimizer = optimizers.SGD(learning_rate=0.1, use_ema=True, ema_momentum=0.5)
    variables = h.make_variables(params)
    for step in grads:
        optimizer.apply([ops.convert_to_tensor(g) for g in step], variables)
    _, averages = h.ref.run(
        h.ref.sgd, params, grads, learning_rate=0.1, use_ema=True, ema_momentum=0.5
    )
    optimizer.finalize_variable_values(variables)
    for v, e in zip(variables, averages, strict=True):
        np.testing.assert_allclose(v.numpy(), e, rtol=1e-5, atol=1e-6)
