"""`LearningRateSchedule`, the base of every schedule, and the checks schedules share."""

import inspect
import math
import numbers

from mb_ops import Variable, ops


class LearningRateSchedule:
    """A learning rate as a function of the optimizer's step (Keras's base class).

    Subclasses implement ``__call__(step)``, returning a scalar tensor, and
    ``get_config()``. Pass an instance as an optimizer's ``learning_rate``; the
    optimizer calls it with its iteration count before each update.

    Example:
        >>> class Halving(LearningRateSchedule):
        ...     def __init__(self, initial):
        ...         self.initial = initial
        ...     def __call__(self, step):
        ...         return self.initial * 0.5 ** ops.cast(step, "float32")
        ...     def get_config(self):
        ...         return {"initial": self.initial}
        >>> round(float(Halving(0.1)(2)), 6)
        0.025
    """

    def __call__(self, step):
        raise NotImplementedError(
            f"Learning rate schedule '{type(self).__name__}' must override `__call__(self, step)`."
        )

    def get_config(self):
        raise NotImplementedError(
            f"Learning rate schedule '{type(self).__name__}' must override `get_config()` to be "
            "serializable."
        )

    @classmethod
    def from_config(cls, config):
        """Creates the schedule from the dict `get_config` returned."""
        return cls(**config)


class ArgumentSchedule(LearningRateSchedule):
    """A schedule that keeps its constructor's arguments as attributes of the same names
    and whose config is those arguments, in signature order (mb's built-in schedules).

    The names are those of the ``__init__`` of the nearest mb schedule class, so a
    user subclass with a constructor of its own keeps its base's config, as in Keras.
    """

    _arguments = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "__init__" in vars(cls) and cls.__module__.startswith("mb_train."):
            cls._arguments = tuple(inspect.signature(cls.__init__).parameters)[1:]

    def _keep(self, arguments):
        """Sets each constructor argument from `arguments` (the ``__init__``'s ``locals()``)."""
        for name in self._arguments:
            setattr(self, name, arguments[name])

    def get_config(self):
        return {name: getattr(self, name) for name in self._arguments}


def step_as(step, dtype):
    """The step (int, tensor or Variable) as a tensor of `dtype`."""
    if isinstance(step, Variable):
        step = step.value
    return ops.cast(step, dtype)


def initial_rate(value, who):
    """`value` as a float32 tensor (Python ints become floats, unlike a bare conversion)."""
    if isinstance(value, bool):
        raise TypeError(f"{who}: `initial_learning_rate` must be a number. Received: {value!r}.")
    if isinstance(value, numbers.Real):
        return ops.convert_to_tensor(float(value), "float32")
    tensor = ops.convert_to_tensor(value)
    if "float" not in str(tensor.dtype):
        tensor = ops.cast(tensor, "float32")
    return tensor


def check_rate(value, name, who):
    """Refuses a negative or non-finite Python number for a rate argument."""
    if isinstance(value, bool) or (
        isinstance(value, numbers.Real) and (not math.isfinite(value) or value < 0)
    ):
        raise ValueError(
            f"{who}: `{name}` must be a finite number >= 0. Received: {name}={value!r}."
        )


def check_steps(value, name, who):
    """Refuses a number of steps that is not > 0."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not value > 0:
        raise ValueError(f"{who}: argument `{name}` must be > 0. Received: {name}={value!r}.")
