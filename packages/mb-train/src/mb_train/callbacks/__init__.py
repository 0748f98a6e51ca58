"""``keras.callbacks``: hooks into `fit`, `evaluate` and `predict`."""

from mb_train.callbacks._callback import Callback as Callback
from mb_train.callbacks._callback_list import CallbackList as CallbackList
from mb_train.callbacks._history import History as History
from mb_train.callbacks._progbar import ProgbarLogger as ProgbarLogger
