"""Cosine decay (with optional linear warmup) and cosine decay with warm restarts (SGDR)."""

import math

from mb_ops import ops
from mb_train.optimizers.schedules._base import (
    ArgumentSchedule,
    LearningRateSchedule,
    check_rate,
    check_steps,
    initial_rate,
    step_as,
)


class CosineDecay(ArgumentSchedule):
    """Half a cosine from the rate down to ``alpha * rate`` over `decay_steps`, after a warmup.

    Without `warmup_target` the rate starts at `initial_learning_rate`. With it,
    the rate first climbs linearly from `initial_learning_rate` to
    `warmup_target` over `warmup_steps`, then decays from `warmup_target`.

    Args:
        initial_learning_rate: the starting rate.
        decay_steps: steps of the cosine part (> 0).
        alpha: the final rate as a fraction of the decayed-from rate.
        name: the schedule's name.
        warmup_target: the rate reached at the end of the warmup, or None.
        warmup_steps: steps of the linear warmup.

    Example:
        >>> schedule = CosineDecay(0.0, decay_steps=10, warmup_target=1.0, warmup_steps=10)
        >>> [round(float(schedule(s)), 6) for s in (5, 10, 15, 20)]
        [0.5, 1.0, 0.5, 0.0]
    """

    def __init__(
        self,
        initial_learning_rate,
        decay_steps,
        alpha=0.0,
        name="CosineDecay",
        warmup_target=None,
        warmup_steps=0,
    ):
        check_rate(initial_learning_rate, "initial_learning_rate", "CosineDecay")
        check_steps(decay_steps, "decay_steps", "CosineDecay")
        if warmup_target is not None:
            check_rate(warmup_target, "warmup_target", "CosineDecay")
        if isinstance(warmup_steps, bool) or not warmup_steps >= 0:
            raise ValueError(
                "CosineDecay: `warmup_steps` must be >= 0. Received: "
                f"warmup_steps={warmup_steps!r}."
            )
        self._keep(locals())

    def _decay(self, step, decay_steps, start, dtype):
        fraction = ops.divide(step, decay_steps)
        cosine = 0.5 * (1.0 + ops.cos(ops.multiply(ops.cast(math.pi, dtype), fraction)))
        return ops.multiply(start, (1 - self.alpha) * cosine + self.alpha)

    def __call__(self, step):
        rate = initial_rate(self.initial_learning_rate, "CosineDecay")
        dtype = ops.dtype(rate)
        decay_steps = ops.cast(self.decay_steps, dtype)
        step = step_as(step, dtype)
        if self.warmup_target is None:
            return self._decay(ops.minimum(step, decay_steps), decay_steps, rate, dtype)
        target = ops.cast(self.warmup_target, dtype)
        warmup_steps = ops.cast(self.warmup_steps, dtype)
        step = ops.minimum(step, decay_steps + warmup_steps)
        # Both branches are computed and one is selected (no data-dependent
        # control flow); the warmup's divisor is kept >= 1 for the unused branch.
        warm = (target - rate) * (step / ops.maximum(warmup_steps, 1.0)) + rate
        decayed = self._decay(step - warmup_steps, decay_steps, target, dtype)
        return ops.where(step < warmup_steps, warm, decayed)


class CosineDecayRestarts(LearningRateSchedule):
    """Cosine decay restarted after each period (SGDR, Loshchilov & Hutter 2017).

    The first period lasts `first_decay_steps`; each next one is `t_mul` times
    longer and starts from `m_mul` times the previous peak.

    Args:
        initial_learning_rate: the first peak.
        first_decay_steps: length of the first period (> 0).
        t_mul: period growth factor.
        m_mul: peak decay factor per restart.
        alpha: the floor, as a fraction of `initial_learning_rate`.
        name: the schedule's name.

    Example:
        >>> schedule = CosineDecayRestarts(1.0, first_decay_steps=10, t_mul=1.0)
        >>> [round(float(schedule(s)), 6) for s in (0, 5, 10)]
        [1.0, 0.5, 1.0]
    """

    def __init__(
        self,
        initial_learning_rate,
        first_decay_steps,
        t_mul=2.0,
        m_mul=1.0,
        alpha=0.0,
        name="SGDRDecay",
    ):
        check_rate(initial_learning_rate, "initial_learning_rate", "CosineDecayRestarts")
        check_steps(first_decay_steps, "first_decay_steps", "CosineDecayRestarts")
        if not t_mul > 0:
            raise ValueError(f"CosineDecayRestarts: `t_mul` must be > 0. Received: t_mul={t_mul}.")
        self.initial_learning_rate = initial_learning_rate
        self.first_decay_steps = first_decay_steps
        self._t_mul = t_mul
        self._m_mul = m_mul
        self.alpha = alpha
        self.name = name

    def __call__(self, step):
        rate = initial_rate(self.initial_learning_rate, "CosineDecayRestarts")
        dtype = ops.dtype(rate)
        alpha = ops.cast(self.alpha, dtype)
        t_mul = ops.cast(self._t_mul, dtype)
        fraction = step_as(step, dtype) / ops.cast(self.first_decay_steps, dtype)
        if self._t_mul == 1.0:
            restart = ops.floor(fraction)
            fraction = fraction - restart
        else:
            # Periods grow geometrically: find the period the step falls in.
            restart = ops.floor(ops.log(1.0 - fraction * (1.0 - t_mul)) / ops.log(t_mul))
            elapsed = (1.0 - ops.power(t_mul, restart)) / (1.0 - t_mul)
            fraction = (fraction - elapsed) / ops.power(t_mul, restart)
        peak = ops.power(ops.cast(self._m_mul, dtype), restart)
        cosine = 0.5 * peak * (1.0 + ops.cos(ops.cast(math.pi, dtype) * fraction))
        return ops.multiply(rate, (1 - alpha) * cosine + alpha)

    def get_config(self):
        return {
            "initial_learning_rate": self.initial_learning_rate,
            "first_decay_steps": self.first_decay_steps,
            "t_mul": self._t_mul,
            "m_mul": self._m_mul,
            "alpha": self.alpha,
            "name": self.name,
        }
