"""A few steps of every optimizer against Keras 3 (jax backend, in a subprocess).

Keras builds each optimizer from mb's serialized config, so reading mb's config
is part of the check; both the variables and every optimizer variable (count,
order, values) must match.
"""

import numpy as np
import pytest

from mb_train import optimizers
from mb_train.optimizers import schedules

_SCHEDULE = schedules.CosineDecay(0.05, decay_steps=4, warmup_target=0.1, warmup_steps=2)

# (id, optimizer factory, rtol)
CASES = [
    ("sgd", lambda: optimizers.SGD(0.1), 1e-5),
    ("sgd_nesterov", lambda: optimizers.SGD(0.1, momentum=0.9, nesterov=True), 1e-5),
    ("adam_amsgrad", lambda: optimizers.Adam(0.05, amsgrad=True), 1e-5),
    ("adamw", lambda: optimizers.AdamW(0.05, weight_decay=0.1), 1e-5),
    ("rmsprop_centered", lambda: optimizers.RMSprop(0.05, momentum=0.5, centered=True), 1e-5),
    ("adadelta", lambda: optimizers.Adadelta(1.0), 1e-5),
    ("adafactor", lambda: optimizers.Adafactor(0.05), 1e-5),
    ("adagrad", lambda: optimizers.Adagrad(0.05), 1e-5),
    ("adamax", lambda: optimizers.Adamax(0.05), 1e-5),
    ("ftrl", lambda: optimizers.Ftrl(0.05, l1_regularization_strength=0.01, beta=0.1), 1e-5),
    ("lamb", lambda: optimizers.Lamb(0.05), 1e-5),
    ("lion", lambda: optimizers.Lion(0.05), 1e-5),
    ("nadam", lambda: optimizers.Nadam(0.05), 1e-5),
    ("muon", lambda: optimizers.Muon(0.05), 1e-4),
    ("schedule_free", lambda: optimizers.ScheduleFreeAdamW(0.05, warmup_steps=2), 1e-5),
    (
        "adam_ema_accumulation",
        lambda: optimizers.Adam(
            0.05, use_ema=True, ema_overwrite_frequency=2, gradient_accumulation_steps=2
        ),
        1e-5,
    ),
    ("sgd_global_clipnorm", lambda: optimizers.SGD(0.1, momentum=0.5, global_clipnorm=0.5), 1e-5),
    ("rmsprop_clipnorm", lambda: optimizers.RMSprop(0.05, clipnorm=0.3), 1e-5),
    ("adagrad_clipvalue", lambda: optimizers.Adagrad(0.05, clipvalue=0.2), 1e-5),
    ("nadam_schedule", lambda: optimizers.Nadam(_SCHEDULE, weight_decay=0.05), 1e-5),
    ("loss_scale", lambda: optimizers.LossScaleOptimizer(optimizers.Adam(0.05), 8.0, 2), 1e-5),
]

_NAMES = ["kernel", "bias", "matrix_embedding"]
_SHAPES = ((4, 3), (3,), (3, 2))
_STEPS = 5


def _gradients(h, case_id):
    params, grads = h.make_problem(shapes=_SHAPES, steps=_STEPS, seed=7)
    if case_id == "loss_scale":
        grads[2][1] = np.full_like(grads[2][1], np.inf)  # one overflowing step
        grads = [[g * 8.0 for g in step] for step in grads]
    return params, grads


@pytest.fixture(scope="module")
def keras_reference(h):
    cases = []
    for case_id, factory, _ in CASES:
        params, grads = _gradients(h, case_id)
        cases.append((optimizers.serialize(factory()), params, grads, _NAMES))
    results = h.keras_results(cases)
    return {case_id: result for (case_id, _, _), result in zip(CASES, results, strict=True)}


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_matches_keras(h, keras_reference, case):
    case_id, factory, rtol = case
    params, grads = _gradients(h, case_id)
    got, optimizer = h.run_mb(factory(), params, grads, names=_NAMES)
    keras_values, keras_optimizer_values = keras_reference[case_id]
    for g, k in zip(got, keras_values, strict=True):
        np.testing.assert_allclose(g, k, rtol=rtol, atol=1e-6)
    ours = [v.numpy() for v in optimizer.variables]
    assert [o.shape for o in ours] == [k.shape for k in keras_optimizer_values]
    for i, (o, k) in enumerate(zip(ours, keras_optimizer_values, strict=True)):
        np.testing.assert_allclose(
            o, k, rtol=rtol, atol=1e-6, err_msg=f"{optimizer.variables[i].path} differs"
        )


def test_loss_scale_case_saw_the_overflow(h):
    _, grads = _gradients(h, "loss_scale")
    optimizer = optimizers.LossScaleOptimizer(optimizers.Adam(0.05), 8.0, 2)
    h.run_mb(optimizer, *_gradients(h, "loss_scale"), names=_NAMES)
    # Steps: finite, finite (scale 8 -> 16), inf (-> 8), finite, finite (-> 16).
    assert float(optimizer.dynamic_scale.numpy()) == 16.0
    assert int(optimizer.inner_optimizer.iterations.numpy()) == len(grads) - 1
