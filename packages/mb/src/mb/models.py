"""``mb.models``: Keras 3's ``keras.models``, plus `value_and_gradients` (mb's own:
differentiation for a custom ``train_step`` that runs on every backend)."""

from mb_saving import load_model as load_model
from mb_saving import model_from_json as model_from_json
from mb_saving import save_model as save_model
from mb_train.models import Model as Model
from mb_train.models import Sequential as Sequential
from mb_train.models import clone_model as clone_model
from mb_train.models import value_and_gradients as value_and_gradients

__all__ = [
    "Model",
    "Sequential",
    "clone_model",
    "load_model",
    "model_from_json",
    "save_model",
    "value_and_gradients",
]
