"""The functional model: `Model(inputs, outputs)`."""

from mb_layers import Functional as _FunctionalNetwork
from mb_layers._registry import register_builtin
from mb_train._model._model import TRAINER_ATTRIBUTES, Model
from mb_train._trainer._loop import TrainerMixin


class Functional(_FunctionalNetwork, Model):
    """A model whose computation is the graph between `inputs` and `outputs`.

    Made by ``Model(inputs, outputs)``; inputs and outputs may be nested (a list
    or a dict), and losses and metrics can be given per output name.
    """

    _untracked_attributes = _FunctionalNetwork._untracked_attributes | TRAINER_ATTRIBUTES

    def __init__(self, inputs, outputs, name=None, trainable=True, **kwargs):
        _FunctionalNetwork.__init__(self, inputs, outputs, name=name, trainable=trainable, **kwargs)
        TrainerMixin._init_trainer(self)


Model._functional_class = Functional
register_builtin(Functional, module="keras.src.models.functional", registered_name="Functional")
