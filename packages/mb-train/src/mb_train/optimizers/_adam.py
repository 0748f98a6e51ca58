"""Adam (with AMSGrad) and AdamW."""

from mb_ops import ops
from mb_train._arguments import passed_arguments
from mb_train.optimizers._apply import cast_to
from mb_train.optimizers._base import Optimizer, base_arguments
from mb_train.optimizers._rules import elementwise_rule


@elementwise_rule
def adam_rule(xp, param, grad, m, v, alpha, one_minus_beta_1, one_minus_beta_2, epsilon):
    m = xp.add(m, xp.multiply(xp.subtract(grad, m), one_minus_beta_1))
    v = xp.add(v, xp.multiply(xp.subtract(xp.square(grad), v), one_minus_beta_2))
    step = xp.divide(xp.multiply(m, alpha), xp.add(xp.sqrt(v), epsilon))
    return xp.subtract(param, step), m, v


@elementwise_rule
def amsgrad_rule(xp, param, grad, m, v, v_hat, alpha, one_minus_beta_1, one_minus_beta_2, epsilon):
    m = xp.add(m, xp.multiply(xp.subtract(grad, m), one_minus_beta_1))
    v = xp.add(v, xp.multiply(xp.subtract(xp.square(grad), v), one_minus_beta_2))
    v_hat = xp.maximum(v_hat, v)
    step = xp.divide(xp.multiply(m, alpha), xp.add(xp.sqrt(v_hat), epsilon))
    return xp.subtract(param, step), m, v, v_hat


def adam_alpha(optimizer, learning_rate, dtype, beta_1, beta_2):
    """``lr * sqrt(1 - beta_2**t) / (1 - beta_1**t)`` at the step ``t`` being taken."""
    local_step = ops.cast(ops.add(optimizer._iterations_value(), 1), dtype)
    beta_1_power = ops.power(ops.cast(beta_1, dtype), local_step)
    beta_2_power = ops.power(ops.cast(beta_2, dtype), local_step)
    lr = cast_to(learning_rate, dtype)
    return ops.divide(
        ops.multiply(lr, ops.sqrt(ops.subtract(1, beta_2_power))), ops.subtract(1, beta_1_power)
    )


class Adam(Optimizer):
    """Adam: adaptive moment estimation (``keras.optimizers.Adam``).

    ``m += (g - m) * (1 - beta_1)``; ``v += (g*g - v) * (1 - beta_2)``;
    ``w -= lr * sqrt(1 - beta_2**t) / (1 - beta_1**t) * m / (sqrt(v) + epsilon)``.

    Args:
        learning_rate: a float, a schedule or a callable (default 0.001).
        beta_1: decay of the first moment.
        beta_2: decay of the second moment.
        epsilon: added to the denominator.
        amsgrad: use the running maximum of the second moment (AMSGrad).
        **kwargs: the common optimizer arguments (see `Optimizer`).

    Example:
        >>> import mb_ops
        >>> w = mb_ops.Variable([1.0], name="w")
        >>> Adam(learning_rate=0.1).apply([ops.ones((1,))], [w])
        >>> round(float(w.numpy()[0]), 4)
        0.9
    """

    _config_names = ("beta_1", "beta_2", "epsilon", "amsgrad")

    def __init__(
        self,
        learning_rate=0.001,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-7,
        amsgrad=False,
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
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.amsgrad = amsgrad

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._momentums, self._velocities = self.add_optimizer_variables(
            var_list, ["momentum", "velocity"]
        )
        if self.amsgrad:
            self._velocity_hats = self.add_optimizer_variables(var_list, "velocity_hat")

    def _plan(self, index, variable):
        static = (1 - self.beta_1, 1 - self.beta_2, self.epsilon)
        slots = (self._momentums[index], self._velocities[index])
        if self.amsgrad:
            return amsgrad_rule, (*slots, self._velocity_hats[index]), static
        return adam_rule, slots, static

    def _rule_scalars(self, rule, learning_rate, dtype):
        return (adam_alpha(self, learning_rate, dtype, self.beta_1, self.beta_2),)


class AdamW(Adam):
    """Adam with decoupled weight decay (``keras.optimizers.AdamW``; default 0.004).

    Example:
        >>> import mb_ops
        >>> w = mb_ops.Variable([1.0], name="w")
        >>> AdamW(learning_rate=0.1, weight_decay=0.5).apply([ops.ones((1,))], [w])
        >>> round(float(w.numpy()[0]), 4)  # 1 - 1 * 0.5 * 0.1, then the Adam step
        0.85
    """

    def __init__(
        self,
        learning_rate=0.001,
        weight_decay=0.004,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-7,
        amsgrad=False,
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
        super().__init__(**passed_arguments(locals()))
        if self.weight_decay is None:
            raise ValueError(
                "AdamW: argument `weight_decay` must be a float. Received: weight_decay=None. "
                "Use Adam for no weight decay."
            )
