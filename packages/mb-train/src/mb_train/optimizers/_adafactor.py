"""Adafactor: Adam-like steps with a factored (row x column) second moment."""

from mb_ops import Variable, name_scope, ops
from mb_train.optimizers._apply import cast_to
from mb_train.optimizers._base import Optimizer, base_arguments


def _rms(x):
    return ops.sqrt(ops.mean(ops.square(x)))


def adafactor_rule(param, grad, r, c, v, rho_t, beta_2_t, epsilon_1, epsilon_2, clip_threshold):
    alpha_t = ops.multiply(ops.maximum(epsilon_2, _rms(param)), rho_t)
    regulated = ops.add(ops.square(grad), epsilon_1)
    keep = ops.subtract(1, beta_2_t)
    if len(param.shape) >= 2:
        # Factored: running means over the last axis (r) and the one before (c).
        r = ops.add(ops.multiply(beta_2_t, r), ops.multiply(keep, ops.mean(regulated, axis=-1)))
        c = ops.add(ops.multiply(beta_2_t, c), ops.multiply(keep, ops.mean(regulated, axis=-2)))
        row = ops.expand_dims(ops.divide(r, ops.mean(r, axis=-1, keepdims=True)), axis=-1)
        v = ops.multiply(row, ops.expand_dims(c, -2))
    else:
        v = ops.add(ops.multiply(beta_2_t, v), ops.multiply(keep, regulated))
    u = ops.divide(grad, ops.sqrt(v))
    u_hat = ops.divide(u, ops.maximum(1.0, ops.divide(_rms(u), clip_threshold)))
    return ops.subtract(param, ops.multiply(alpha_t, u_hat)), r, c, v


adafactor_rule.needs_static_shapes = True  # factoring depends on the rank


class Adafactor(Optimizer):
    """Adafactor (``keras.optimizers.Adafactor``, Shazeer & Stern 2018).

    For variables of rank >= 2 the second moment is kept as a row vector and a
    column vector over the last two axes instead of a full tensor.

    Args:
        learning_rate: default 0.001.
        beta_2_decay: exponent of the second-moment decay ``1 - t**beta_2_decay``.
        epsilon_1: added to the squared gradients.
        epsilon_2: lower bound of the relative step scale.
        clip_threshold: threshold of the update's RMS clipping.
        relative_step: cap the rate by ``1 / sqrt(t)``.
        **kwargs: the common optimizer arguments (see `Optimizer`).

    Example:
        >>> import mb_ops
        >>> w = mb_ops.Variable([[1.0, 1.0]], name="w")
        >>> Adafactor(learning_rate=0.1).apply([ops.ones((1, 2))], [w])
        >>> [round(x, 4) for x in w.numpy()[0].tolist()]
        [0.9, 0.9]
    """

    _config_names = ("beta_2_decay", "epsilon_1", "epsilon_2", "clip_threshold", "relative_step")

    def __init__(
        self,
        learning_rate=0.001,
        beta_2_decay=-0.8,
        epsilon_1=1e-30,
        epsilon_2=1e-3,
        clip_threshold=1.0,
        relative_step=True,
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
        self.beta_2_decay = beta_2_decay
        self.epsilon_1 = epsilon_1
        self.epsilon_2 = epsilon_2
        self.clip_threshold = clip_threshold
        self.relative_step = relative_step

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._r, self._c, self._v = [], [], []
        for var in var_list:
            if len(var.shape) < 2:
                # Not factored; int placeholders keep Keras's variable layout.
                for column in (self._r, self._c):
                    with name_scope(self.name, caller=self):
                        dummy = Variable(0, name=var.name, dtype="int32", trainable=False)
                    self._track_variable(dummy)
                    column.append(dummy)
            elif var.overwrite_with_gradient:
                self._r.append(None)
                self._c.append(None)
            else:
                row_shape = var.shape[:-1]
                column_shape = (*var.shape[:-2], var.shape[-1])
                self._r.append(self.add_variable(row_shape, dtype=var.dtype, name=var.name))
                self._c.append(self.add_variable(column_shape, dtype=var.dtype, name=var.name))
            if var.overwrite_with_gradient:
                self._v.append(None)
            else:
                self._v.append(self.add_variable_from_reference(var, name="velocity"))

    def _plan(self, index, variable):
        slots = (self._r[index], self._c[index], self._v[index])
        return adafactor_rule, slots, (self.epsilon_1, self.epsilon_2, self.clip_threshold)

    def _rule_scalars(self, rule, learning_rate, dtype):
        lr = cast_to(learning_rate, dtype)
        local_step = ops.cast(ops.add(self._iterations_value(), 1), dtype)
        inverse_sqrt = ops.divide(1.0, ops.sqrt(local_step))
        if not callable(self._learning_rate) and self.relative_step:
            lr = ops.minimum(lr, inverse_sqrt)
        rho_t = ops.minimum(lr, inverse_sqrt)
        beta_2_t = ops.subtract(1, ops.power(local_step, self.beta_2_decay))
        return rho_t, beta_2_t
