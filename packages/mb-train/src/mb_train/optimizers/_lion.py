"""Lion: the sign of an interpolated momentum (Chen et al. 2023)."""

from mb_train.optimizers import _checks
from mb_train.optimizers._base import Optimizer, base_arguments
from mb_train.optimizers._rules import elementwise_rule


@elementwise_rule
def lion_rule(xp, param, grad, m, lr, beta_1, one_minus_beta_1, beta_2, one_minus_beta_2):
    direction = xp.sign(xp.add(xp.multiply(m, beta_1), xp.multiply(grad, one_minus_beta_1)))
    param = xp.subtract(param, xp.multiply(lr, direction))
    m = xp.add(xp.multiply(m, beta_2), xp.multiply(grad, one_minus_beta_2))
    return param, m


class Lion(Optimizer):
    """Lion (``keras.optimizers.Lion``): ``w -= lr * sign(beta_1 * m + (1 - beta_1) * g)``,
    then ``m = beta_2 * m + (1 - beta_2) * g``.

    Args:
        learning_rate: default 0.001 (Lion usually wants 3-10x less than AdamW).
        beta_1: interpolation of the update direction, in (0, 1].
        beta_2: decay of the momentum.
        **kwargs: the common optimizer arguments (see `Optimizer`).

    Example:
        >>> import mb_ops
        >>> from mb_ops import ops
        >>> w = mb_ops.Variable([1.0, 1.0], name="w")
        >>> Lion(learning_rate=0.1).apply([ops.convert_to_tensor([2.0, -3.0])], [w])
        >>> [round(x, 4) for x in w.numpy().tolist()]
        [0.9, 1.1]
    """

    _config_names = ("beta_1", "beta_2")

    def __init__(
        self,
        learning_rate=0.001,
        beta_1=0.9,
        beta_2=0.99,
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
        _checks.check_range(beta_1, "beta_1", 0, 1, "Lion", low_open=True)
        self.beta_1 = beta_1
        self.beta_2 = beta_2

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._momentums = self.add_optimizer_variables(var_list, "momentum")

    def _plan(self, index, variable):
        static = (self.beta_1, 1.0 - self.beta_1, self.beta_2, 1.0 - self.beta_2)
        return lion_rule, (self._momentums[index],), static
