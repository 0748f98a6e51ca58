"""RMSprop, plain or centered, with optional momentum."""

import functools

from mb_train.optimizers._base import Optimizer, base_arguments
from mb_train.optimizers._rules import elementwise_rule


@functools.cache
def rmsprop_rule(centered, with_momentum):
    """The per-tensor rule for one combination of options (one function object each)."""

    @elementwise_rule
    def rule(xp, param, grad, velocity, *rest):
        rest = list(rest)
        momentum_slot = rest.pop(0) if with_momentum else None
        average = rest.pop(0) if centered else None
        lr, rho, one_minus_rho, epsilon, momentum = rest
        velocity = xp.add(xp.multiply(rho, velocity), xp.multiply(one_minus_rho, xp.square(grad)))
        if centered:
            average = xp.add(xp.multiply(rho, average), xp.multiply(one_minus_rho, grad))
            denominator = xp.add(xp.subtract(velocity, xp.square(average)), epsilon)
        else:
            denominator = xp.add(velocity, epsilon)
        increment = xp.divide(xp.multiply(lr, grad), xp.sqrt(denominator))
        slots = [velocity]
        if with_momentum:
            momentum_slot = xp.add(xp.multiply(momentum, momentum_slot), increment)
            param = xp.subtract(param, momentum_slot)
            slots.append(momentum_slot)
        else:
            param = xp.subtract(param, increment)
        if centered:
            slots.append(average)
        return (param, *slots)

    return rule


class RMSprop(Optimizer):
    """RMSprop (``keras.optimizers.RMSprop``): divide by a running RMS of the gradients.

    ``v = rho * v + (1 - rho) * g*g``; ``w -= lr * g / sqrt(v + epsilon)``;
    centered: subtract the squared running mean of ``g`` from ``v`` first;
    with momentum: ``mom = momentum * mom + step`` and ``w -= mom``.

    Args:
        learning_rate: default 0.001.
        rho: decay of the running averages.
        momentum: momentum (0 disables it).
        epsilon: added inside the square root.
        centered: normalize by the gradient's estimated variance.
        **kwargs: the common optimizer arguments (see `Optimizer`).

    Example:
        >>> import mb_ops
        >>> from mb_ops import ops
        >>> w = mb_ops.Variable([1.0], name="w")
        >>> RMSprop(learning_rate=0.1).apply([ops.ones((1,))], [w])
        >>> round(float(w.numpy()[0]), 4)  # 1 - 0.1 / sqrt(0.1)
        0.6838
    """

    _config_names = ("rho", "momentum", "epsilon", "centered")

    def __init__(
        self,
        learning_rate=0.001,
        rho=0.9,
        momentum=0.0,
        epsilon=1e-7,
        centered=False,
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
        self.momentum = momentum
        self.epsilon = epsilon
        self.centered = centered

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._velocities = self.add_optimizer_variables(var_list, "velocity")
        self._momentums = []
        if self.momentum > 0:
            self._momentums = self.add_optimizer_variables(var_list, "momentum")
        self._average_gradients = []
        if self.centered:
            self._average_gradients = self.add_optimizer_variables(var_list, "average_gradient")

    def _plan(self, index, variable):
        with_momentum = self.momentum > 0
        slots = [self._velocities[index]]
        if with_momentum:
            slots.append(self._momentums[index])
        if self.centered:
            slots.append(self._average_gradients[index])
        static = (self.rho, 1 - self.rho, self.epsilon, self.momentum)
        return rmsprop_rule(bool(self.centered), with_momentum), slots, static
