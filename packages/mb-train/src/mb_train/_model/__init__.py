"""Model, Functional and Sequential (the classes live in private modules)."""

from mb_train._model._clone import clone_model as clone_model
from mb_train._model._functional import Functional as Functional
from mb_train._model._model import Model as Model
from mb_train._model._sequential import Sequential as Sequential
