"""``keras.models``: Model, Sequential and the functional model class."""

from mb_train._model import Functional as Functional
from mb_train._model import Model as Model
from mb_train._model import Sequential as Sequential
from mb_train._model import clone_model as clone_model
from mb_train._trainer import value_and_gradients as value_and_gradients

__all__ = ["Functional", "Model", "Sequential", "clone_model", "value_and_gradients"]
