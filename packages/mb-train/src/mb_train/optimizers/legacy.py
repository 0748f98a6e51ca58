"""``keras.optimizers.legacy``: the Keras 2 optimizers, which Keras 3 (and so mb) removed.

The names exist so that old imports still resolve; creating any of them raises an
`ImportError` that names the Keras 3 optimizer to use instead, as Keras 3 does.

Example:
    >>> from mb_train.optimizers import legacy
    >>> legacy.Adam(learning_rate=0.001)
    Traceback (most recent call last):
    ...
    ImportError: `keras.optimizers.legacy.Adam` is not supported in Keras 3 (nor in mb)...
"""

_MESSAGE = (
    "`keras.optimizers.legacy.{name}` is not supported in Keras 3 (nor in mb): the legacy "
    "(Keras 2) optimizers were removed. Use `{replacement}` instead (`mb.optimizers` has "
    "the same names); it takes the same main arguments (learning_rate, ...). To keep "
    "using a `tf.keras.optimizers.legacy` optimizer with `tf.keras`, install the "
    "`tf_keras` package (Keras 2) and set the environment variable TF_USE_LEGACY_KERAS=True."
)


class _LegacyOptimizer:
    """Stands for a removed Keras 2 optimizer; creating it raises `ImportError`."""

    _replacement = "keras.optimizers.Optimizer"

    def __init__(self, *args, **kwargs):
        del args, kwargs
        raise ImportError(_MESSAGE.format(name=type(self).__name__, replacement=self._replacement))


class Optimizer(_LegacyOptimizer):
    """Removed (Keras 2's base optimizer): subclass ``keras.optimizers.Optimizer``."""


class Adagrad(_LegacyOptimizer):
    """Removed: use ``keras.optimizers.Adagrad``."""

    _replacement = "keras.optimizers.Adagrad"


class Adam(_LegacyOptimizer):
    """Removed: use ``keras.optimizers.Adam``."""

    _replacement = "keras.optimizers.Adam"


class Ftrl(_LegacyOptimizer):
    """Removed: use ``keras.optimizers.Ftrl``."""

    _replacement = "keras.optimizers.Ftrl"


class RMSprop(_LegacyOptimizer):
    """Removed: use ``keras.optimizers.RMSprop``."""

    _replacement = "keras.optimizers.RMSprop"


class SGD(_LegacyOptimizer):
    """Removed: use ``keras.optimizers.SGD``."""

    _replacement = "keras.optimizers.SGD"


__all__ = ["SGD", "Adagrad", "Adam", "Ftrl", "Optimizer", "RMSprop"]
