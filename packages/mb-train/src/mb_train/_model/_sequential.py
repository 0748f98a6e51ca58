"""The `Sequential` model."""

from mb_layers import Sequential as _SequentialNetwork
from mb_layers._registry import register_builtin
from mb_train._model._model import TRAINER_ATTRIBUTES, Model
from mb_train._trainer._loop import TrainerMixin


class Sequential(_SequentialNetwork, Model):
    """A stack of layers with training (``keras.Sequential``).

    Example:

    >>> import mb_layers
    >>> model = Sequential([mb_layers.Input((4,)), mb_layers.layers.Dense(2)])
    >>> model.output_shape
    (None, 2)
    """

    _untracked_attributes = _SequentialNetwork._untracked_attributes | TRAINER_ATTRIBUTES

    def __new__(cls, *args, **kwargs):
        # Keras's signature for the class: ``Sequential(*args, **kwargs)``.
        return super().__new__(cls, *args, **kwargs)

    def __init__(self, layers=None, trainable=True, name=None):
        _SequentialNetwork.__init__(self, layers=layers, trainable=trainable, name=name)
        TrainerMixin._init_trainer(self)


register_builtin(Sequential, module="keras")  # Keras: keras.Sequential, no registered name
