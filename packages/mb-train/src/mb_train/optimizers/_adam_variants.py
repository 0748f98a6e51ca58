"""Adam's relatives: Adamax (infinity norm), Nadam (Nesterov momentum), Lamb (layer-wise)."""

from mb_ops import Variable, ops
from mb_train.optimizers._apply import cast_to
from mb_train.optimizers._base import Optimizer, base_arguments
from mb_train.optimizers._rules import elementwise_rule


@elementwise_rule
def adamax_rule(xp, param, grad, m, u, lr, one_minus_beta_1_power, one_minus_beta_1, beta_2, eps):
    m = xp.add(m, xp.multiply(xp.subtract(grad, m), one_minus_beta_1))
    u = xp.maximum(xp.multiply(beta_2, u), xp.abs(grad))
    step = xp.divide(xp.multiply(lr, m), xp.multiply(one_minus_beta_1_power, xp.add(u, eps)))
    return xp.subtract(param, step), m, u


@elementwise_rule
def nadam_rule(
    xp, param, grad, m, v, lr, u_t, u_t_1, u_prod, u_prod_1, b2_power, one_b1, one_b2, eps
):
    m = xp.add(m, xp.multiply(xp.subtract(grad, m), one_b1))
    v = xp.add(v, xp.multiply(xp.subtract(xp.square(grad), v), one_b2))
    m_hat = xp.add(
        xp.divide(xp.multiply(u_t_1, m), xp.subtract(1, u_prod_1)),
        xp.divide(xp.multiply(xp.subtract(1, u_t), grad), xp.subtract(1, u_prod)),
    )
    v_hat = xp.divide(v, xp.subtract(1, b2_power))
    step = xp.divide(xp.multiply(m_hat, lr), xp.add(xp.sqrt(v_hat), eps))
    return xp.subtract(param, step), m, v


def lamb_rule(param, grad, m, v, lr, b1_power, b2_power, one_b1, one_b2, eps):
    m = ops.add(m, ops.multiply(ops.subtract(grad, m), one_b1))
    v = ops.add(v, ops.multiply(ops.subtract(ops.square(grad), v), one_b2))
    m_hat = ops.divide(m, ops.subtract(1.0, b1_power))
    v_sqrt = ops.add(ops.sqrt(ops.divide(v, ops.subtract(1.0, b2_power))), eps)
    update = ops.divide(m_hat, v_sqrt)
    w_norm = ops.sqrt(ops.sum(ops.power(param, 2)))
    g_norm = ops.sqrt(ops.sum(ops.power(update, 2)))
    # The trust ratio ||w|| / ||update||, 1 where either norm is 0.
    ratio = ops.where(
        ops.greater(w_norm, 0),
        ops.where(ops.greater(g_norm, 0), ops.divide(w_norm, g_norm), 1.0),
        1.0,
    )
    return ops.subtract(param, ops.multiply(ops.multiply(ratio, lr), update)), m, v


def _momentum_schedule(decay, step):
    return ops.subtract(1.0, ops.multiply(0.5, ops.power(decay, step)))


def _powers(optimizer, dtype, *bases):
    local_step = ops.cast(ops.add(optimizer._iterations_value(), 1), dtype)
    return [ops.power(ops.cast(base, dtype), local_step) for base in bases]


class _BetasOptimizer(Optimizer):
    """Shared constructor of the optimizers with beta_1, beta_2 and epsilon."""

    _config_names = ("beta_1", "beta_2", "epsilon")

    def __init__(
        self,
        learning_rate=0.001,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-7,
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


class Adamax(_BetasOptimizer):
    """Adamax (``keras.optimizers.Adamax``): Adam with the infinity norm.

    ``m += (g - m) * (1 - beta_1)``; ``u = max(beta_2 * u, |g|)``;
    ``w -= lr * m / ((1 - beta_1**t) * (u + epsilon))``.

    Example:
        >>> import mb_ops
        >>> w = mb_ops.Variable([1.0], name="w")
        >>> Adamax(learning_rate=0.1).apply([ops.ones((1,))], [w])
        >>> round(float(w.numpy()[0]), 4)
        0.9
    """

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._m, self._u = self.add_optimizer_variables(var_list, ["momentum", "norm"])

    def _plan(self, index, variable):
        static = (1 - self.beta_1, self.beta_2, self.epsilon)
        return adamax_rule, (self._m[index], self._u[index]), static

    def _rule_scalars(self, rule, learning_rate, dtype):
        (beta_1_power,) = _powers(self, dtype, self.beta_1)
        return cast_to(learning_rate, dtype), ops.subtract(1, beta_1_power)


class Nadam(_BetasOptimizer):
    """Nadam (``keras.optimizers.Nadam``): Adam with Nesterov momentum (Dozat 2016).

    Example:
        >>> import mb_ops
        >>> w = mb_ops.Variable([1.0], name="w")
        >>> Nadam(learning_rate=0.1).apply([ops.ones((1,))], [w])
        >>> round(float(w.numpy()[0]), 4)  # the Nesterov look-ahead steps past 0.1
        0.8937
    """

    def build(self, var_list):
        if self.built:
            return
        dtype = var_list[0].dtype if var_list else None
        super().build(var_list)
        self._momentums, self._velocities = self.add_optimizer_variables(
            var_list, ["momentum", "velocity"]
        )
        # The running product of the momentum schedule (one scalar per optimizer).
        self._u_product = Variable(1.0, dtype=dtype, trainable=False)

    def _advance_state(self):
        dtype = self._u_product.dtype
        step = ops.cast(ops.add(self._iterations_value(), 1), dtype)
        schedule = ops.subtract(1.0, ops.multiply(0.5, ops.power(0.96, step)))
        self._u_product.assign(
            ops.multiply(ops.multiply(self._u_product.value, self.beta_1), schedule)
        )

    def _plan(self, index, variable):
        static = (1 - self.beta_1, 1 - self.beta_2, self.epsilon)
        return nadam_rule, (self._momentums[index], self._velocities[index]), static

    def _rule_scalars(self, rule, learning_rate, dtype):
        local_step = ops.cast(ops.add(self._iterations_value(), 1), dtype)
        next_step = ops.add(local_step, 1)
        beta_1 = ops.cast(self.beta_1, dtype)
        decay = ops.cast(0.96, dtype)
        u_t = ops.multiply(beta_1, _momentum_schedule(decay, local_step))
        u_t_1 = ops.multiply(beta_1, _momentum_schedule(decay, next_step))
        u_product = cast_to(self._u_product.value, dtype)
        b2_power = ops.power(ops.cast(self.beta_2, dtype), local_step)
        lr = cast_to(learning_rate, dtype)
        return lr, u_t, u_t_1, u_product, ops.multiply(u_product, u_t_1), b2_power


class Lamb(_BetasOptimizer):
    """LAMB (``keras.optimizers.Lamb``): Adam steps scaled per tensor by ``||w|| / ||step||``.

    Example:
        >>> import mb_ops
        >>> w = mb_ops.Variable([3.0, 4.0], name="w")
        >>> Lamb(learning_rate=0.1).apply([ops.ones((2,))], [w])
        >>> [round(x, 4) for x in w.numpy().tolist()]  # trust ratio 5 / sqrt(2)
        [2.6464, 3.6464]
    """

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._momentums, self._velocities = self.add_optimizer_variables(
            var_list, ["momentum", "velocity"]
        )

    def _plan(self, index, variable):
        static = (1 - self.beta_1, 1 - self.beta_2, self.epsilon)
        return lamb_rule, (self._momentums[index], self._velocities[index]), static

    def _rule_scalars(self, rule, learning_rate, dtype):
        b1_power, b2_power = _powers(self, dtype, self.beta_1, self.beta_2)
        return cast_to(learning_rate, dtype), b1_power, b2_power
