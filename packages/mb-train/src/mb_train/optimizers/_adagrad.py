"""Adagrad and Adadelta: per-coordinate rates from accumulated squared gradients."""

from mb_layers import initializers
from mb_train.optimizers._apply import builtin_update_step
from mb_train.optimizers._base import Optimizer, base_arguments
from mb_train.optimizers._rules import elementwise_rule


@elementwise_rule
def adagrad_rule(xp, param, grad, accumulator, lr, epsilon):
    accumulator = xp.add(accumulator, xp.square(grad))
    step = xp.divide(xp.multiply(lr, grad), xp.sqrt(xp.add(accumulator, epsilon)))
    return xp.subtract(param, step), accumulator


@elementwise_rule
def adadelta_rule(xp, param, grad, acc_grad, acc_delta, lr, rho, one_minus_rho, epsilon):
    acc_grad = xp.add(xp.multiply(rho, acc_grad), xp.multiply(one_minus_rho, xp.square(grad)))
    rms_delta = xp.sqrt(xp.add(acc_delta, epsilon))
    rms_grad = xp.sqrt(xp.add(acc_grad, epsilon))
    delta = xp.negative(xp.divide(xp.multiply(rms_delta, grad), rms_grad))
    acc_delta = xp.add(xp.multiply(rho, acc_delta), xp.multiply(one_minus_rho, xp.square(delta)))
    return xp.add(param, xp.multiply(lr, delta)), acc_grad, acc_delta


class Adagrad(Optimizer):
    """Adagrad (``keras.optimizers.Adagrad``): ``acc += g*g``; ``w -= lr * g / sqrt(acc + eps)``.

    Args:
        learning_rate: default 0.001.
        initial_accumulator_value: the accumulators' starting value (>= 0).
        epsilon: added inside the square root.
        **kwargs: the common optimizer arguments (see `Optimizer`).

    Example:
        >>> import mb_ops
        >>> from mb_ops import ops
        >>> w = mb_ops.Variable([1.0], name="w")
        >>> Adagrad(learning_rate=0.1, initial_accumulator_value=0.0).apply([ops.ones((1,))], [w])
        >>> round(float(w.numpy()[0]), 4)
        0.9
    """

    _config_names = ("initial_accumulator_value", "epsilon")

    def __init__(
        self,
        learning_rate=0.001,
        initial_accumulator_value=0.1,
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
        if not initial_accumulator_value >= 0:
            raise ValueError(
                "Adagrad: `initial_accumulator_value` must be >= 0. Received: "
                f"initial_accumulator_value={initial_accumulator_value!r}."
            )
        self.initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        initializer = initializers.Constant(self.initial_accumulator_value)
        self._accumulators = self.add_optimizer_variables(
            var_list, "accumulator", initializer=initializer
        )

    def _plan(self, index, variable):
        return adagrad_rule, (self._accumulators[index],), (self.epsilon,)


class Adadelta(Optimizer):
    """Adadelta (``keras.optimizers.Adadelta``): steps scaled by the RMS of past steps.

    Args:
        learning_rate: default 0.001 (Keras's; the original paper uses 1.0).
        rho: decay of the running averages.
        epsilon: added inside the square roots.
        **kwargs: the common optimizer arguments (see `Optimizer`).

    Example:
        >>> import mb_ops
        >>> from mb_ops import ops
        >>> w = mb_ops.Variable([1.0], name="w")
        >>> Adadelta(learning_rate=1.0, epsilon=1e-2).apply([ops.ones((1,))], [w])
        >>> round(float(w.numpy()[0]), 4)  # 1 - sqrt(0.01) / sqrt(0.05 + 0.01)
        0.5918
    """

    _config_names = ("rho", "epsilon")

    def __init__(
        self,
        learning_rate=0.001,
        rho=0.95,
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
        self.rho = rho
        self.epsilon = epsilon

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._accumulated_grads, self._accumulated_delta_vars = self.add_optimizer_variables(
            var_list, ["accumulated_grad", "accumulated_delta_var"]
        )

    @builtin_update_step
    def update_step(self, grad, variable, learning_rate):
        """Updates one variable from its gradient (Keras's Adadelta names it ``grad``)."""
        super().update_step(grad, variable, learning_rate)

    def _plan(self, index, variable):
        slots = (self._accumulated_grads[index], self._accumulated_delta_vars[index])
        return adadelta_rule, slots, (self.rho, 1 - self.rho, self.epsilon)
