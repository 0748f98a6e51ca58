"""Schedule-free AdamW (Defazio et al. 2024): no learning-rate schedule needed."""

from mb_ops import ops
from mb_train.optimizers._apply import cast_to
from mb_train.optimizers._base import Optimizer, base_arguments


def schedule_free_rule(
    param, grad, z, v, lr, bias_correction_2, weight, one_minus_b2, beta_1, one_minus_b1, eps
):
    z_old = z
    v = ops.add(v, ops.multiply(ops.subtract(ops.square(grad), v), one_minus_b2))
    denominator = ops.add(ops.sqrt(ops.divide(v, bias_correction_2)), eps)
    z = ops.subtract(z, ops.divide(ops.multiply(lr, grad), denominator))
    # The averaged point x is recovered from y (the variable) and the old z.
    x_old = ops.divide(ops.subtract(param, ops.multiply(one_minus_b1, z_old)), beta_1)
    x_new = ops.add(ops.multiply(ops.subtract(1.0, weight), x_old), ops.multiply(weight, z))
    y_new = ops.add(ops.multiply(one_minus_b1, z), ops.multiply(beta_1, x_new))
    return y_new, z, v


class ScheduleFreeAdamW(Optimizer):
    """Schedule-free AdamW (``keras.optimizers.ScheduleFreeAdamW``).

    The variable holds the interpolation ``y`` between the averaged iterate
    ``x`` and the base sequence ``z`` (the "momentum" slot, started at the
    initial weights).

    Args:
        learning_rate: default 0.0025.
        beta_1: interpolation between ``z`` and ``x``.
        beta_2: decay of the second moment.
        epsilon: added to the denominator.
        warmup_steps: linear warmup of the rate over this many steps.
        **kwargs: the common optimizer arguments (see `Optimizer`).

    Example:
        >>> import mb_ops
        >>> w = mb_ops.Variable([1.0], name="w")
        >>> ScheduleFreeAdamW(learning_rate=0.1).apply([ops.ones((1,))], [w])
        >>> round(float(w.numpy()[0]), 4)  # z = 0.9, x = z, y = 0.1 * z + 0.9 * x
        0.9
    """

    _config_names = ("beta_1", "beta_2", "epsilon", "warmup_steps")

    def __init__(
        self,
        learning_rate=0.0025,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-8,
        warmup_steps=0,
        weight_decay=None,
        clipnorm=None,
        clipvalue=None,
        global_clipnorm=None,
        use_ema=False,
        ema_momentum=0.99,
        ema_overwrite_frequency=None,
        loss_scale_factor=None,
        gradient_accumulation_steps=None,
        name=None,
        **kwargs,
    ):
        super().__init__(**base_arguments(locals()))
        if not 0 < beta_1 <= 1:
            raise ValueError(
                f"ScheduleFreeAdamW: `beta_1` must be in (0, 1]. Received: beta_1={beta_1}."
            )
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.warmup_steps = warmup_steps

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._momentums, self._velocities = self.add_optimizer_variables(
            var_list, ["momentum", "velocity"]
        )
        for momentum, var in zip(self._momentums, var_list, strict=True):
            if momentum is not None:
                momentum.assign(ops.copy(var.value))

    def _plan(self, index, variable):
        static = (1 - self.beta_2, self.beta_1, 1 - self.beta_1, self.epsilon)
        return schedule_free_rule, (self._momentums[index], self._velocities[index]), static

    def _rule_scalars(self, rule, learning_rate, dtype):
        lr = cast_to(learning_rate, dtype)
        local_step = ops.cast(ops.add(self._iterations_value(), 1), dtype)
        if self.warmup_steps > 0:
            warmup = ops.minimum(ops.divide(local_step, float(self.warmup_steps)), 1.0)
            lr = ops.multiply(lr, warmup)
        bias_correction_2 = ops.subtract(1, ops.power(ops.cast(self.beta_2, dtype), local_step))
        return lr, bias_correction_2, ops.divide(1.0, local_step)
