"""SGD with optional (Nesterov) momentum."""

from mb_ops import ops
from mb_train.optimizers import _checks, _fused
from mb_train.optimizers._base import Optimizer


def sgd_rule(param, grad, lr):
    return ops.subtract(param, ops.multiply(grad, lr))


def momentum_rule(param, grad, m, lr, momentum):
    m = ops.subtract(ops.multiply(m, momentum), ops.multiply(grad, lr))
    return ops.add(param, m), m


def nesterov_rule(param, grad, m, lr, momentum):
    m = ops.subtract(ops.multiply(m, momentum), ops.multiply(grad, lr))
    step = ops.subtract(ops.multiply(m, momentum), ops.multiply(grad, lr))
    return ops.add(param, step), m


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
        >>> w = mb_ops.Variable([1.0], name="w")
        >>> optimizer = SGD(learning_rate=0.1, momentum=0.9)
        >>> for _ in range(2):
        ...     optimizer.apply([ops.ones((1,))], [w])
        >>> round(float(w.numpy()[0]), 6)
        0.71
    """

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
        super().__init__(
            learning_rate=learning_rate,
            name=name,
            weight_decay=weight_decay,
            clipnorm=clipnorm,
            clipvalue=clipvalue,
            global_clipnorm=global_clipnorm,
            use_ema=use_ema,
            ema_momentum=ema_momentum,
            ema_overwrite_frequency=ema_overwrite_frequency,
            loss_scale_factor=loss_scale_factor,
            gradient_accumulation_steps=gradient_accumulation_steps,
            **kwargs,
        )
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

    def _kernel_update(self, grads, variables, learning_rate, weight_decay):
        kernel = _fused.training_primitive("foreach_sgd")
        if kernel is None:
            return False
        params = _fused.live_values(variables)
        momentums = None
        if self.momentum != 0:
            momentums = _fused.live_values(
                [self.momentums[self._get_variable_index(v)] for v in variables]
            )
        if params is None or (self.momentum != 0 and momentums is None):
            return False
        kernel(
            params,
            grads,
            momentums,
            learning_rate=learning_rate,
            momentum=self.momentum,
            nesterov=self.nesterov,
            weight_decay=weight_decay,
        )
        return True

    def get_config(self):
        config = super().get_config()
        config.update({"momentum": self.momentum, "nesterov": self.nesterov})
        return config
