"""The functional model: `Model(inputs, outputs)`."""

import inspect

from mb_layers import Functional as _FunctionalNetwork
from mb_layers import Layer
from mb_layers._registry import register_builtin
from mb_train._model._model import TRAINER_ATTRIBUTES, Model
from mb_train._trainer._loop import TrainerMixin


class Functional(_FunctionalNetwork, Model):
    """A model whose computation is the graph between `inputs` and `outputs`.

    Made by ``Model(inputs, outputs)``; inputs and outputs may be nested (a list
    or a dict), and losses and metrics can be given per output name. A subclass of
    `Model` called with ``(inputs, outputs)`` becomes one too (as in Keras), keeping
    its own methods (``train_step``, ``compute_loss``, ...).
    """

    _untracked_attributes = _FunctionalNetwork._untracked_attributes | TRAINER_ATTRIBUTES

    def __init__(self, inputs, outputs, name=None, trainable=True, **kwargs):
        _FunctionalNetwork.__init__(self, inputs, outputs, name=name, trainable=trainable, **kwargs)
        TrainerMixin._init_trainer(self)
        # Keras's names for the outputs: the name of the layer that made each one, in
        # the order of `outputs` (a dict's sorted keys); a list the user may replace.
        self.output_names = [t._keras_history.operation.name for t in self._outputs]

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Rebuilds the model from `get_config` (see `Model.from_config`)."""
        return Model.from_config.__func__(cls, config, custom_objects=custom_objects)

    def get_config(self):
        """The graph's config; a subclass whose constructor takes other arguments than
        ``(inputs, outputs, name)`` writes only the Layer config, as in Keras (it
        overrides ``get_config``/``from_config`` to be saved)."""
        if not _functional_like_constructor(type(self)):
            return Layer.get_config(self)
        return _FunctionalNetwork.get_config(self)


_FUNCTIONAL_SIGNATURES = (
    ["inputs", "outputs"],
    ["inputs", "outputs", "name"],
    ["inputs", "outputs", "name", "trainable"],
)


def _functional_like_constructor(cls):
    spec = inspect.getfullargspec(cls.__init__)
    if spec.args[1:] in _FUNCTIONAL_SIGNATURES:
        return True
    return spec.varargs is not None and spec.varkw is not None


Model._functional_class = Functional
register_builtin(Functional, module="keras.src.models.functional", registered_name="Functional")
