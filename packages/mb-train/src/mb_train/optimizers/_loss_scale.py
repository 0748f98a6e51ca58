"""`LossScaleOptimizer`: dynamic loss scaling around another optimizer (mixed precision)."""

from mb_layers import initializers
from mb_ops import ops
from mb_train.optimizers import _registry
from mb_train.optimizers._base import Optimizer

# Arguments older Keras files store for a LossScaleOptimizer, accepted at their defaults.
_BASE_DEFAULTS = {
    "weight_decay": None,
    "clipnorm": None,
    "global_clipnorm": None,
    "clipvalue": None,
    "use_ema": False,
    "ema_momentum": 0.99,
    "ema_overwrite_frequency": None,
    "loss_scale_factor": None,
    "gradient_accumulation_steps": None,
}


class LossScaleOptimizer(Optimizer):
    """Scales the loss up (so small gradients survive float16) and the gradients back down.

    On a step whose gradients are all finite, the inner optimizer updates the
    variables with the unscaled gradients; after `dynamic_growth_steps` such
    steps in a row the scale doubles. A step with an inf or NaN gradient
    changes no variable and halves the scale. The choice is made with
    ``ops.where``, so the step stays one compiled function.

    Args:
        inner_optimizer: the optimizer that does the updates.
        initial_scale: the starting loss scale.
        dynamic_growth_steps: finite steps between doublings of the scale.
        name: the optimizer's name.

    Example:
        >>> import mb_ops
        >>> from mb_train.optimizers import SGD
        >>> w = mb_ops.Variable([1.0], name="w")
        >>> optimizer = LossScaleOptimizer(SGD(0.1), initial_scale=8.0)
        >>> optimizer.apply([ops.convert_to_tensor([float("inf")])], [w])
        >>> float(w.numpy()[0]), float(optimizer.dynamic_scale.numpy())
        (1.0, 4.0)
    """

    def __init__(
        self,
        inner_optimizer,
        initial_scale=2.0**15,
        dynamic_growth_steps=2000,
        name=None,
        **kwargs,
    ):
        if not kwargs.pop("dynamic", True):
            raise ValueError(
                "LossScaleOptimizer no longer supports `dynamic=False`. Instead, set "
                "`loss_scale_factor` directly on the `inner_optimizer`."
            )
        for arg, default in _BASE_DEFAULTS.items():
            if arg in kwargs and kwargs.pop(arg) != default:
                raise ValueError(
                    f"LossScaleOptimizer does not support `{arg}`. Instead, set `{arg}` on "
                    "the `inner_optimizer`."
                )
        if kwargs:
            raise ValueError(
                f"LossScaleOptimizer does not support arguments: `{'`, `'.join(kwargs)}`."
            )
        if not isinstance(inner_optimizer, Optimizer):
            raise TypeError(
                "LossScaleOptimizer wraps an optimizer object, e.g. "
                "LossScaleOptimizer(Adam()). Received inner_optimizer="
                f"{inner_optimizer!r} (of type {type(inner_optimizer).__name__})."
            )
        if not initial_scale > 0:
            raise ValueError(
                f"LossScaleOptimizer: `initial_scale` must be > 0. Received: {initial_scale!r}."
            )
        if (
            not isinstance(dynamic_growth_steps, int)
            or isinstance(dynamic_growth_steps, bool)
            or dynamic_growth_steps < 1
        ):
            raise ValueError(
                "LossScaleOptimizer: `dynamic_growth_steps` must be an integer >= 1. "
                f"Received: {dynamic_growth_steps!r}."
            )
        super().__init__(learning_rate=0.0, name=name)
        self.inner_optimizer = inner_optimizer
        self.initial_scale = initial_scale
        self.dynamic_growth_steps = dynamic_growth_steps
        # The inner optimizer must not scale a second time.
        self.inner_optimizer.loss_scale_factor = None

    def build(self, var_list):
        if self.built:
            return
        self.step_counter = self.add_variable(
            shape=(), dtype="int32", initializer="zeros", name="step_counter"
        )
        self.dynamic_scale = self.add_variable(
            shape=(),
            dtype="float32",
            initializer=initializers.Constant(self.initial_scale),
            name="dynamic_scale",
        )
        self.inner_optimizer.build(var_list)
        super().build(var_list)

    @property
    def variables(self):
        return self._variables + self.inner_optimizer.variables

    def check_finite(self, grads):
        """A scalar bool tensor: whether every gradient is finite."""
        flags = [ops.all(ops.isfinite(g)) for g in grads if g is not None]
        return ops.all(ops.stack(flags))

    def _apply(self, grads, variables):
        finite = self.check_finite(grads)
        scale = self.dynamic_scale.value
        unscaled = [
            g if g is None or v.overwrite_with_gradient else ops.divide(g, scale)
            for g, v in zip(grads, variables, strict=True)
        ]
        # Update on every step; keep the result only where the gradients were finite.
        watched = variables + self.inner_optimizer.variables
        before = [v.value for v in watched]
        with self.inner_optimizer._no_in_place():
            self.inner_optimizer.apply(unscaled, variables)
        for variable, old in zip(watched, before, strict=True):
            variable.assign(ops.where(finite, variable.value, old))
        counter = self.step_counter.value
        grow = ops.logical_and(finite, ops.equal(counter, self.dynamic_growth_steps - 1))
        new_counter = ops.where(grow, 0, ops.add(counter, 1))
        self.step_counter.assign(ops.where(finite, new_counter, 0))
        new_scale = ops.where(grow, ops.multiply(scale, 2.0), scale)
        self.dynamic_scale.assign(ops.where(finite, new_scale, ops.multiply(scale, 0.5)))

    @property
    def learning_rate(self):
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, learning_rate):
        self.inner_optimizer.learning_rate = learning_rate

    @property
    def iterations(self):
        return self.inner_optimizer.iterations

    def scale_loss(self, loss):
        """The loss times the current dynamic scale."""
        scale = self.dynamic_scale.value if self.built else self.initial_scale
        return ops.multiply(loss, scale)

    def finalize_variable_values(self, var_list):
        self.inner_optimizer.finalize_variable_values(var_list)

    def get_config(self):
        return {
            "name": self.name,
            "inner_optimizer": _registry.serialize(self.inner_optimizer),
            "initial_scale": self.initial_scale,
            "dynamic_growth_steps": self.dynamic_growth_steps,
        }

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        inner = _deserialize_inner(config.pop("inner_optimizer"), custom_objects)
        return cls(inner, **config)


def _deserialize_inner(config, custom_objects):
    if isinstance(config, Optimizer):
        return config
    return _registry.deserialize(config, custom_objects=custom_objects)
