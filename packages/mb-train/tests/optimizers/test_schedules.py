"""Learning rate schedules against their NumPy formulas, serialization, and errors."""

import math

import numpy as np
import pytest

import mb_ops
from mb_ops import backends, ops
from mb_train.optimizers import schedules

STEPS = [0, 1, 3, 7, 10, 15, 20, 33, 100]


def _cosine(step, initial, decay_steps, alpha):
    step = min(step, decay_steps)
    return initial * ((1 - alpha) * 0.5 * (1 + math.cos(math.pi * step / decay_steps)) + alpha)


def _restarts(step, initial, first, t_mul, m_mul, alpha):
    fraction, period, i = step / first, 1.0, 0
    while fraction >= period:  # walk the periods of length first * t_mul**i
        fraction -= period
        period *= t_mul
        i += 1
    fraction /= period
    return initial * ((1 - alpha) * 0.5 * m_mul**i * (1 + math.cos(math.pi * fraction)) + alpha)


def _poly(step, initial, decay_steps, end, power, cycle):
    if cycle:
        decay_steps = decay_steps * max(1.0, math.ceil(step / decay_steps))
    else:
        step = min(step, decay_steps)
    return (initial - end) * (1 - step / decay_steps) ** power + end


CASES = [
    (
        "exponential",
        schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5),
        lambda s: 0.1 * 0.5 ** (s / 10),
    ),
    (
        "exponential_staircase",
        schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5, staircase=True),
        lambda s: 0.1 * 0.5 ** (s // 10),
    ),
    (
        "inverse_time",
        schedules.InverseTimeDecay(0.2, decay_steps=5, decay_rate=0.5),
        lambda s: 0.2 / (1 + 0.5 * s / 5),
    ),
    (
        "inverse_time_staircase",
        schedules.InverseTimeDecay(0.2, decay_steps=5, decay_rate=0.5, staircase=True),
        lambda s: 0.2 / (1 + 0.5 * (s // 5)),
    ),
    (
        "polynomial",
        schedules.PolynomialDecay(0.1, decay_steps=20, end_learning_rate=0.01, power=2.0),
        lambda s: _poly(s, 0.1, 20, 0.01, 2.0, False),
    ),
    (
        "polynomial_cycle",
        schedules.PolynomialDecay(0.1, decay_steps=15, end_learning_rate=0.01, cycle=True),
        lambda s: _poly(s, 0.1, 15, 0.01, 1.0, True),
    ),
    (
        "piecewise",
        schedules.PiecewiseConstantDecay([3, 10, 20], [1.0, 0.5, 0.25, 0.1]),
        lambda s: 1.0 if s <= 3 else 0.5 if s <= 10 else 0.25 if s <= 20 else 0.1,
    ),
    (
        "cosine",
        schedules.CosineDecay(0.1, decay_steps=20, alpha=0.1),
        lambda s: _cosine(s, 0.1, 20, 0.1),
    ),
    (
        "cosine_warmup",
        schedules.CosineDecay(0.0, decay_steps=20, warmup_target=0.2, warmup_steps=10),
        lambda s: 0.2 * s / 10 if s < 10 else _cosine(s - 10, 0.2, 20, 0.0),
    ),
    (
        "restarts",
        schedules.CosineDecayRestarts(0.1, first_decay_steps=5, alpha=0.05),
        lambda s: _restarts(s, 0.1, 5, 2.0, 1.0, 0.05),
    ),
    (
        "restarts_constant_period",
        schedules.CosineDecayRestarts(0.1, first_decay_steps=6, t_mul=1.0, m_mul=0.5),
        lambda s: _restarts(s, 0.1, 6, 1.0, 0.5, 0.0),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_schedule_matches_its_formula(case):
    _, schedule, formula = case
    got = [float(schedule(step)) for step in STEPS]
    np.testing.assert_allclose(got, [formula(s) for s in STEPS], rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_schedule_reads_a_variable_step_and_round_trips(case):
    _, schedule, formula = case
    step = mb_ops.Variable(7, dtype="int32", trainable=False, name="step")
    np.testing.assert_allclose(float(schedule(step)), formula(7), rtol=1e-5, atol=1e-7)
    config = schedules.serialize(schedule)
    assert config["module"] == "keras.optimizers.schedules"
    assert config["class_name"] == type(schedule).__name__
    again = schedules.deserialize(config)
    assert type(again) is type(schedule) and again.get_config() == schedule.get_config()


def test_schedules_trace_inside_a_compiled_function():
    if backends.resolve_backend_name() not in ("jax", "torch", "tensorflow"):
        pytest.skip("the backend does not compile functions")
    jit = backends.backend_module("training").jit
    warm = schedules.CosineDecay(0.0, decay_steps=20, warmup_target=0.2, warmup_steps=10)
    piecewise = schedules.PiecewiseConstantDecay([3, 10], [1.0, 0.5, 0.1])
    compiled = jit(lambda step: (warm(step), piecewise(step)))
    for s in (2, 12):
        a, b = compiled(ops.convert_to_tensor(s, "int32"))
        np.testing.assert_allclose(float(a), float(warm(s)), rtol=1e-6)
        assert float(b) == float(piecewise(s))


def test_schedule_errors():
    with pytest.raises(ValueError, match=r"`decay_steps` must be > 0.*decay_steps=0"):
        schedules.ExponentialDecay(0.1, decay_steps=0, decay_rate=0.5)
    with pytest.raises(ValueError, match="`initial_learning_rate` must be a finite number >= 0"):
        schedules.CosineDecay(-1.0, decay_steps=10)
    with pytest.raises(ValueError, match="should be 1 less than the length of `values`"):
        schedules.PiecewiseConstantDecay([1, 2], [0.1, 0.2])
    with pytest.raises(ValueError, match="`boundaries` must be increasing"):
        schedules.PiecewiseConstantDecay([5, 2], [0.3, 0.2, 0.1])
    with pytest.raises(ValueError, match="`first_decay_steps` must be > 0"):
        schedules.CosineDecayRestarts(0.1, first_decay_steps=-3)
    with pytest.raises(TypeError, match="expects a LearningRateSchedule"):
        schedules.serialize(0.1)
    with pytest.raises(ValueError, match="Unknown learning rate schedule class 'Nope'"):
        schedules.deserialize({"class_name": "Nope", "config": {}})
    with pytest.raises(NotImplementedError, match="must override `__call__"):
        schedules.LearningRateSchedule()(3)
