"""Exponential, inverse-time, polynomial and piecewise-constant decay (Keras 3's formulas)."""

import numbers

from mb_ops import Variable, ops
from mb_train.optimizers.schedules._base import (
    ArgumentSchedule,
    check_rate,
    check_steps,
    initial_rate,
    step_as,
)


class ExponentialDecay(ArgumentSchedule):
    """``initial_learning_rate * decay_rate ** (step / decay_steps)``.

    Args:
        initial_learning_rate: the rate at step 0.
        decay_steps: steps over which the rate is multiplied by `decay_rate` (> 0).
        decay_rate: the multiplier per `decay_steps`.
        staircase: use ``floor(step / decay_steps)``, so the rate drops in steps.
        name: the schedule's name.

    Example:
        >>> schedule = ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)
        >>> round(float(schedule(10)), 6)
        0.05
    """

    def __init__(
        self,
        initial_learning_rate,
        decay_steps,
        decay_rate,
        staircase=False,
        name="ExponentialDecay",
    ):
        check_rate(initial_learning_rate, "initial_learning_rate", "ExponentialDecay")
        check_steps(decay_steps, "decay_steps", "ExponentialDecay")
        self._keep(locals())

    def __call__(self, step):
        rate = initial_rate(self.initial_learning_rate, "ExponentialDecay")
        p = step_as(step, ops.dtype(rate)) / ops.cast(self.decay_steps, ops.dtype(rate))
        if self.staircase:
            p = ops.floor(p)
        return ops.multiply(rate, ops.power(ops.cast(self.decay_rate, ops.dtype(rate)), p))


class InverseTimeDecay(ArgumentSchedule):
    """``initial_learning_rate / (1 + decay_rate * step / decay_steps)``.

    Args:
        initial_learning_rate: the rate at step 0.
        decay_steps: the step scale (> 0).
        decay_rate: how fast the rate falls.
        staircase: use ``floor(step / decay_steps)``.
        name: the schedule's name.

    Example:
        >>> round(float(InverseTimeDecay(1.0, decay_steps=1, decay_rate=0.5)(2)), 6)
        0.5
    """

    def __init__(
        self,
        initial_learning_rate,
        decay_steps,
        decay_rate,
        staircase=False,
        name="InverseTimeDecay",
    ):
        check_rate(initial_learning_rate, "initial_learning_rate", "InverseTimeDecay")
        check_steps(decay_steps, "decay_steps", "InverseTimeDecay")
        self._keep(locals())

    def __call__(self, step):
        rate = initial_rate(self.initial_learning_rate, "InverseTimeDecay")
        p = step_as(step, ops.dtype(rate)) / ops.cast(self.decay_steps, ops.dtype(rate))
        if self.staircase:
            p = ops.floor(p)
        denominator = ops.add(1.0, ops.multiply(ops.cast(self.decay_rate, ops.dtype(rate)), p))
        return ops.divide(rate, denominator)


class PolynomialDecay(ArgumentSchedule):
    """From `initial_learning_rate` to `end_learning_rate` along ``(1 - step/decay_steps)**power``.

    After `decay_steps` the rate stays at `end_learning_rate`, unless `cycle`,
    which stretches the decay to the next multiple of `decay_steps`.

    Example:
        >>> schedule = PolynomialDecay(1.0, decay_steps=10, end_learning_rate=0.0)
        >>> round(float(schedule(5)), 6), round(float(schedule(20)), 6)
        (0.5, 0.0)
    """

    def __init__(
        self,
        initial_learning_rate,
        decay_steps,
        end_learning_rate=0.0001,
        power=1.0,
        cycle=False,
        name="PolynomialDecay",
    ):
        check_rate(initial_learning_rate, "initial_learning_rate", "PolynomialDecay")
        check_rate(end_learning_rate, "end_learning_rate", "PolynomialDecay")
        check_steps(decay_steps, "decay_steps", "PolynomialDecay")
        self._keep(locals())

    def __call__(self, step):
        rate = initial_rate(self.initial_learning_rate, "PolynomialDecay")
        dtype = ops.dtype(rate)
        end = ops.cast(self.end_learning_rate, dtype)
        step = step_as(step, dtype)
        decay_steps = ops.cast(self.decay_steps, dtype)
        if self.cycle:
            multiplier = ops.where(ops.equal(step, 0.0), 1.0, ops.ceil(step / decay_steps))
            decay_steps = decay_steps * multiplier
        else:
            step = ops.minimum(step, decay_steps)
        fraction = ops.divide(step, decay_steps)
        decayed = ops.power(1.0 - fraction, ops.cast(self.power, dtype))
        return ops.add(ops.multiply(rate - end, decayed), end)


class PiecewiseConstantDecay(ArgumentSchedule):
    """``values[0]`` up to ``boundaries[0]`` (inclusive), ``values[1]`` up to the next, ...

    Args:
        boundaries: increasing step numbers.
        values: one more value than boundaries.
        name: the schedule's name.

    Example:
        >>> schedule = PiecewiseConstantDecay([10, 20], [1.0, 0.5, 0.1])
        >>> [round(float(schedule(s)), 6) for s in (10, 11, 25)]
        [1.0, 0.5, 0.1]
    """

    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        boundaries, values = list(boundaries), list(values)
        if len(boundaries) != len(values) - 1:
            raise ValueError(
                "PiecewiseConstantDecay: the length of `boundaries` should be 1 less than the "
                f"length of `values`. Received: boundaries={boundaries} of length "
                f"{len(boundaries)}, and values={values} of length {len(values)}."
            )
        numeric = [b for b in boundaries if isinstance(b, numbers.Real)]
        if len(numeric) == len(boundaries) and numeric != sorted(numeric):
            raise ValueError(
                "PiecewiseConstantDecay: `boundaries` must be increasing. "
                f"Received: boundaries={boundaries}."
            )
        self._keep(locals())

    def __call__(self, step):
        step = ops.convert_to_tensor(step.value if isinstance(step, Variable) else step)
        values = [ops.convert_to_tensor(v) for v in self.values]
        dtype = values[0].dtype
        bounds = [ops.cast(b, ops.dtype(step)) for b in self.boundaries]
        result = ops.cast(step <= bounds[0], dtype) * values[0]
        result = result + ops.cast(step > bounds[-1], dtype) * values[-1]
        for low, high, value in zip(bounds[:-1], bounds[1:], values[1:-1], strict=True):
            inside = ops.logical_and(step > low, step <= high)
            result = result + ops.cast(inside, dtype) * value
        return result
