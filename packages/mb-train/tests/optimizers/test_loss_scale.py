"""LossScaleOptimizer's dynamic scaling against a NumPy walk through the same steps."""

import numpy as np
import pytest

from mb_train import optimizers

# Finite, finite (grow), inf (halve), nan (halve), finite, finite (grow), finite.
KINDS = ["ok", "ok", "inf", "nan", "ok", "ok", "ok"]


def _steps(h):
    params, true_grads = h.make_problem(shapes=((3, 2), (2,)), steps=len(KINDS), seed=5)
    scale, counter, scaled, scales = 4.0, 0, [], []
    for kind, grads in zip(KINDS, true_grads, strict=True):
        scales.append(scale)
        if kind == "ok":
            scaled.append([g * scale for g in grads])
            counter += 1
            if counter == 2:
                scale, counter = scale * 2, 0
        else:
            bad = np.inf if kind == "inf" else np.nan
            scaled.append([np.full_like(g, bad) for g in grads])
            scale, counter = scale / 2, 0
    finite = [g for kind, g in zip(KINDS, true_grads, strict=True) if kind == "ok"]
    return params, scaled, finite, scale, counter


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
def test_dynamic_scaling_matches_numpy(h, compiled):
    if compiled and not h.trainable:
        pytest.skip(f"the {h.backend} backend does not compile training steps")
    params, scaled, finite, scale, counter = _steps(h)
    optimizer = optimizers.LossScaleOptimizer(
        optimizers.SGD(0.1, momentum=0.5), initial_scale=4.0, dynamic_growth_steps=2
    )
    run = h.run_compiled if compiled else h.run_mb
    got, optimizer = run(optimizer, params, scaled)
    expected, _ = h.ref.run(h.ref.sgd, params, finite, learning_rate=0.1, momentum=0.5)
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)
    assert float(optimizer.dynamic_scale.numpy()) == scale == 4.0
    assert int(optimizer.step_counter.numpy()) == counter == 1
    assert int(optimizer.iterations.numpy()) == len(finite)
    assert all(np.isfinite(v.numpy()).all() for v in optimizer.inner_optimizer.variables)


def test_scale_loss_and_the_rate_go_to_the_inner_optimizer(h):
    inner = optimizers.Adam(0.01)
    optimizer = optimizers.LossScaleOptimizer(inner, initial_scale=16.0)
    assert float(optimizer.scale_loss(2.0)) == 32.0  # before building: the initial scale
    optimizer.learning_rate = 0.5
    assert float(inner.learning_rate.numpy()) == 0.5
    assert optimizer.learning_rate is inner.learning_rate
    params, _ = h.make_problem()
    optimizer.build(h.make_variables(params))
    optimizer.dynamic_scale.assign(8.0)
    assert float(optimizer.scale_loss(2.0)) == 16.0


def test_loss_scale_factor_scales_the_loss_and_unscales_the_gradients(h):
    params, grads = h.make_problem(steps=2)
    optimizer = optimizers.SGD(0.1, loss_scale_factor=8.0)
    assert float(optimizer.scale_loss(3.0)) == 24.0
    got, _ = h.run_mb(optimizer, params, [[g * 8.0 for g in step] for step in grads])
    expected, _ = h.ref.run(h.ref.sgd, params, grads, learning_rate=0.1)
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)
