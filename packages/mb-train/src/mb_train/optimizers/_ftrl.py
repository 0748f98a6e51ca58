"""FTRL-proximal (McMahan et al. 2013), with L1, L2 and L2-shrinkage regularization."""

from mb_layers import initializers
from mb_ops import ops
from mb_train.optimizers._apply import cast_to
from mb_train.optimizers._base import Optimizer, base_arguments


def ftrl_rule(param, grad, accum, linear, lr, l2_reg, power, low, high, two_shrinkage):
    grad_to_use = ops.add(grad, ops.multiply(two_shrinkage, param))
    new_accum = ops.add(accum, ops.square(grad))
    new_power = ops.power(new_accum, power)
    sigma = ops.divide(ops.subtract(new_power, ops.power(accum, power)), lr)
    linear = ops.add(linear, ops.subtract(grad_to_use, ops.multiply(sigma, param)))
    quadratic = ops.add(ops.divide(new_power, lr), ops.multiply(2, l2_reg))
    clipped = ops.minimum(ops.maximum(linear, low), high)
    return ops.divide(ops.subtract(clipped, linear), quadratic), new_accum, linear


def _non_negative(value, name):
    if not value >= 0.0:
        raise ValueError(f"Ftrl: `{name}` needs to be positive or zero. Received: {name}={value}.")


class Ftrl(Optimizer):
    """FTRL (``keras.optimizers.Ftrl``), suited to wide, sparse linear models.

    Args:
        learning_rate: default 0.001.
        learning_rate_power: how the per-coordinate rate falls (<= 0; -0.5 is Adagrad-like).
        initial_accumulator_value: the accumulators' starting value (>= 0).
        l1_regularization_strength: L1 strength (>= 0).
        l2_regularization_strength: L2 strength (>= 0).
        l2_shrinkage_regularization_strength: L2 shrinkage added to the gradient (>= 0).
        beta: the FTRL beta (adds ``beta / (2 * lr)`` to the L2 strength).
        **kwargs: the common optimizer arguments (see `Optimizer`).

    Example:
        >>> import mb_ops
        >>> w = mb_ops.Variable([0.0], name="w")
        >>> Ftrl(learning_rate=0.1, initial_accumulator_value=1.0).apply([ops.ones((1,))], [w])
        >>> round(float(w.numpy()[0]), 4)  # -(1 - 0) / (sqrt(2) / 0.1)
        -0.0707
    """

    _config_names = (
        "learning_rate_power",
        "initial_accumulator_value",
        "l1_regularization_strength",
        "l2_regularization_strength",
        "l2_shrinkage_regularization_strength",
        "beta",
    )

    def __init__(
        self,
        learning_rate=0.001,
        learning_rate_power=-0.5,
        initial_accumulator_value=0.1,
        l1_regularization_strength=0.0,
        l2_regularization_strength=0.0,
        l2_shrinkage_regularization_strength=0.0,
        beta=0.0,
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
        _non_negative(initial_accumulator_value, "initial_accumulator_value")
        if not learning_rate_power <= 0.0:
            raise ValueError(
                "Ftrl: `learning_rate_power` needs to be negative or zero. Received: "
                f"learning_rate_power={learning_rate_power}."
            )
        _non_negative(l1_regularization_strength, "l1_regularization_strength")
        _non_negative(l2_regularization_strength, "l2_regularization_strength")
        _non_negative(l2_shrinkage_regularization_strength, "l2_shrinkage_regularization_strength")
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = initial_accumulator_value
        self.l1_regularization_strength = l1_regularization_strength
        self.l2_regularization_strength = l2_regularization_strength
        self.l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self.beta = beta

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._accumulators, self._linears = self.add_optimizer_variables(
            var_list,
            ["accumulator", "linear"],
            initializer=[initializers.Constant(self.initial_accumulator_value), "zeros"],
        )

    def _plan(self, index, variable):
        l1 = self.l1_regularization_strength
        shrinkage = self.l2_shrinkage_regularization_strength
        static = (-self.learning_rate_power, -l1, l1, 2 * shrinkage)
        return ftrl_rule, (self._accumulators[index], self._linears[index]), static

    def _rule_scalars(self, rule, learning_rate, dtype):
        lr = cast_to(learning_rate, dtype)
        l2_reg = ops.add(
            self.l2_regularization_strength, ops.divide(self.beta, ops.multiply(2.0, lr))
        )
        return lr, l2_reg
