"""SGD with optional (Nesterov) momentum."""

from mb_train.optimizers import _checks
from mb_train.optimizers._base import Optimizer, base_arguments
from mb_train.optimizers._rules import elementwise_rule


@elementwise_rule
def sgd_rule(xp, param, grad, lr):
    return xp.subtract(param, xp.multiply(grad, lr))


@elementwise_rule
def momentum_rule(xp, param, grad, m, lr, momentum):
    m = xp.subtract(xp.multiply(m, momentum), xp.multiply(grad, lr))
    return xp.add(param, m), m


@elementwise_rule
def nesterov_rule(xp, param, grad, m, lr, momentum):
    m = xp.subtract(xp.multiply(m, momentum), xp.multiply(grad, lr))
    step = xp.subtract(xp.multiply(m, momentum), xp.multiply(grad, lr))
    return xp.add(param, step), m


class SGD(Optimizer):
    """Gradient descent, with momentum and Nesterov momentum (``keras.optimizers.SGD``).

    Without momentum: ``w -= learning_rate * g``. With it:
    ``velocity = momentum * velocity - learning_rate * g`` and ``w += velocity``
    (Nesterov: ``w += momentum * velocity - learning_rate * g``).

    Args:
        learning_rate: a float, a schedule or a callable (default 0.01).
        momentum: a float in [0, 1].
        nesterov: use Nesterov momentum.
        **kwargs: the common optimizer arguments (see `Optimizer`).

    Example:
        >>> import mb_ops
        >>> from mb_ops import ops
        >>> w = mb_ops.Variable([1.0], name="w")
        >>> optimizer = SGD(learning_rate=0.1, momentum=0.9)
        >>> for _ in range(2):
        ...     optimizer.apply([ops.ones((1,))], [w])
        >>> round(float(w.numpy()[0]), 6)
        0.71
    """

    _config_names = ("momentum", "nesterov")

    def __init__(
        self,
        learning_rate=0.01,
        momentum=0.0,
        nesterov=False,
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
        self.momentum = float(_checks.check_range(momentum, "momentum", 0, 1, "SGD"))
        self.nesterov = bool(nesterov)

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        self.momentums = []
        if self.momentum != 0:
            self.momentums = self.add_optimizer_variables(variables, "momentum")

    def _plan(self, index, variable):
        if self.momentum == 0:
            return sgd_rule, (), ()
        rule = nesterov_rule if self.nesterov else momentum_rule
        return rule, (self.momentums[index],), (self.momentum,)
