"""Muon: orthogonalized momentum for matrices, AdamW for everything else."""

import math
import re

from mb_ops import ops
from mb_train.optimizers._adam import adam_alpha, adam_rule
from mb_train.optimizers._apply import cast_to
from mb_train.optimizers._base import Optimizer, base_arguments


def muon_rule(optimizer):
    """The Muon update of one matrix, through `optimizer`'s (overridable) methods."""
    steps = optimizer.ns_steps
    nesterov = bool(optimizer.nesterov)

    def rule(param, grad, m, lr, momentum, momentum_minus_one):
        m = ops.add(m, ops.add(grad, ops.multiply(m, momentum_minus_one)))
        g = ops.add(grad, ops.multiply(momentum, m)) if nesterov else m
        update = ops.multiply(lr, optimizer.zeropower_via_newtonschulz5(g, steps))
        return ops.subtract(param, optimizer.lr_adjust(update)), m

    rule.needs_static_shapes = True  # the orientation and the RMS scale read the dims
    return rule


class Muon(Optimizer):
    """Muon (``keras.optimizers.Muon``): momentum orthogonalized by Newton-Schulz steps.

    Variables of rank 2 are updated by Muon; the others, embeddings (when
    `exclude_embeddings`) and those whose path matches a pattern of
    `exclude_layers` are updated by AdamW with ``learning_rate * adam_lr_ratio``.

    Args:
        learning_rate: default 0.001.
        adam_beta_1, adam_beta_2, epsilon: the AdamW part's moments and epsilon.
        adam_weight_decay: weight decay of the AdamW part.
        weight_decay: weight decay of the Muon part.
        exclude_layers: regular expressions of variable paths left to AdamW.
        exclude_embeddings: leave variables with "embedding" in their path to AdamW.
        muon_a, muon_b, muon_c: the Newton-Schulz polynomial's coefficients.
        adam_lr_ratio: the AdamW part's rate relative to `learning_rate`.
        momentum: Muon's momentum.
        ns_steps: Newton-Schulz iterations.
        nesterov: use Nesterov momentum.
        rms_rate: scale the update to this RMS (None: no scaling).
        **kwargs: the common optimizer arguments (see `Optimizer`).
    """

    _config_names = (
        "adam_beta_1",
        "adam_beta_2",
        "epsilon",
        "exclude_layers",
        "muon_a",
        "muon_b",
        "muon_c",
        "adam_lr_ratio",
        "momentum",
        "ns_steps",
        "nesterov",
        "exclude_embeddings",
        "adam_weight_decay",
        "rms_rate",
    )

    def __init__(
        self,
        learning_rate=0.001,
        adam_beta_1=0.9,
        adam_beta_2=0.999,
        adam_weight_decay=0.004,
        epsilon=1e-7,
        weight_decay=0.004,
        clipnorm=None,
        clipvalue=None,
        global_clipnorm=None,
        use_ema=False,
        ema_momentum=0.99,
        ema_overwrite_frequency=None,
        loss_scale_factor=None,
        gradient_accumulation_steps=None,
        name=None,
        exclude_layers=None,
        exclude_embeddings=True,
        muon_a=3.4445,
        muon_b=-4.7750,
        muon_c=2.0315,
        adam_lr_ratio=1,
        momentum=0.95,
        ns_steps=5,
        nesterov=True,
        rms_rate=0.2,
        **kwargs,
    ):
        super().__init__(**base_arguments(locals()))
        if not isinstance(ns_steps, int) or isinstance(ns_steps, bool) or ns_steps < 0:
            raise ValueError(f"Muon: `ns_steps` must be an int >= 0. Received: {ns_steps!r}.")
        self.adam_beta_1 = adam_beta_1
        self.adam_beta_2 = adam_beta_2
        self.epsilon = epsilon
        self.muon_a = muon_a
        self.muon_b = muon_b
        self.muon_c = muon_c
        self.adam_lr_ratio = adam_lr_ratio
        self.momentum = momentum
        self.ns_steps = ns_steps
        self.nesterov = nesterov
        self.exclude_embeddings = exclude_embeddings
        self.exclude_layers = list(exclude_layers or [])
        self.adam_weight_decay = adam_weight_decay
        self.rms_rate = rms_rate

    def _should_use_adamw(self, variable):
        if len(variable.shape) != 2:
            return True
        if self.exclude_embeddings and "embedding" in variable.path.lower():
            return True
        return any(re.search(pattern, variable.path) for pattern in self.exclude_layers)

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self.momentums = [None] * len(var_list)
        self.adam_velocities = [None] * len(var_list)
        for i, var in enumerate(var_list):
            if var.overwrite_with_gradient:
                continue
            self.momentums[i] = self.add_variable_from_reference(var, name="momentum")
            if self._should_use_adamw(var):
                self.adam_velocities[i] = self.add_variable_from_reference(var, name="velocity")

    def _plan(self, index, variable):
        if self.adam_velocities[index] is not None:
            slots = (self.momentums[index], self.adam_velocities[index])
            return adam_rule, slots, (1 - self.adam_beta_1, 1 - self.adam_beta_2, self.epsilon)
        if getattr(self, "_muon_rule", None) is None:
            self._muon_rule = muon_rule(self)  # one rule object: its variables update together
        return self._muon_rule, (self.momentums[index],), (self.momentum, self.momentum - 1)

    def transpose_last_axis(self, X):
        """`X` with its last two axes swapped."""
        order = list(range(len(X.shape)))
        order[-2], order[-1] = order[-1], order[-2]
        return ops.transpose(X, order)

    def lr_adjust(self, x):
        """Scales the update `x` of a matrix by ``sqrt(max(rows, cols)) * rms_rate``.

        The Moonlight scaling (https://arxiv.org/abs/2502.16982): it gives Muon's update
        the RMS of AdamW's, so both can share a learning rate and weight decay. With
        ``rms_rate=None``, `x` is returned unchanged.
        """
        if self.rms_rate is None:
            return x
        return ops.multiply(ops.multiply(x, math.sqrt(max(x.shape[0], x.shape[1]))), self.rms_rate)

    def zeropower_via_newtonschulz5(self, x, steps: int):
        """An approximate orthogonalization of `x` by `steps` quintic Newton-Schulz steps.

        The result approximates ``U S' V^T`` (``U V^T`` with the singular values pushed
        towards 1) of the SVD of `x`, over its last two axes, with the polynomial
        coefficients `muon_a`, `muon_b`, `muon_c`.

        Raises:
            ValueError: `x` has fewer than 2 dimensions.
        """
        shape = tuple(x.shape)
        if len(shape) < 2:
            raise ValueError(
                "Muon.zeropower_via_newtonschulz5 expects a gradient or momentum with at "
                f"least 2 dimensions. Received: shape={shape}"
            )
        a, b, c = self.muon_a, self.muon_b, self.muon_c
        tall = shape[-2] > shape[-1]
        if tall:
            x = self.transpose_last_axis(x)
        x = ops.divide(x, ops.add(ops.norm(x, axis=(-2, -1), keepdims=True), 1e-7))
        for _ in range(steps):
            gram = ops.matmul(x, self.transpose_last_axis(x))
            poly = ops.add(ops.multiply(b, gram), ops.matmul(ops.multiply(c, gram), gram))
            x = ops.add(ops.multiply(a, x), ops.matmul(poly, x))
        return self.transpose_last_axis(x) if tall else x

    def _rule_scalars(self, rule, learning_rate, dtype):
        if rule is adam_rule:
            rate = ops.multiply(learning_rate, self.adam_lr_ratio)
            return (adam_alpha(self, rate, dtype, self.adam_beta_1, self.adam_beta_2),)
        return (cast_to(learning_rate, dtype),)

    def _apply_weight_decay(self, variables):
        rate = self._learning_rate_value()
        for variable in variables:
            if not self._use_weight_decay(variable):
                continue
            if self._should_use_adamw(variable):
                decay = self.adam_weight_decay
            else:
                decay = self.weight_decay
            if decay is None:
                continue
            value = variable.value
            lr = cast_to(rate, variable.dtype)
            variable.assign(ops.subtract(value, ops.multiply(ops.multiply(value, decay), lr)))
