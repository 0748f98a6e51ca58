"""``keras.callbacks``: hooks into `fit`, `evaluate` and `predict`."""

from mb_train.callbacks._callback import Callback as Callback
from mb_train.callbacks._callback_list import CallbackList as CallbackList
from mb_train.callbacks._files import BackupAndRestore as BackupAndRestore
from mb_train.callbacks._files import CSVLogger as CSVLogger
from mb_train.callbacks._files import ModelCheckpoint as ModelCheckpoint
from mb_train.callbacks._history import History as History
from mb_train.callbacks._misc import LambdaCallback as LambdaCallback
from mb_train.callbacks._misc import RemoteMonitor as RemoteMonitor
from mb_train.callbacks._misc import SwapEMAWeights as SwapEMAWeights
from mb_train.callbacks._monitors import EarlyStopping as EarlyStopping
from mb_train.callbacks._monitors import LearningRateScheduler as LearningRateScheduler
from mb_train.callbacks._monitors import ReduceLROnPlateau as ReduceLROnPlateau
from mb_train.callbacks._monitors import TerminateOnNaN as TerminateOnNaN
from mb_train.callbacks._orbax import OrbaxCheckpoint as OrbaxCheckpoint
from mb_train.callbacks._progbar import ProgbarLogger as ProgbarLogger
from mb_train.callbacks._tensorboard import TensorBoard as TensorBoard

__all__ = [
    "BackupAndRestore",
    "CSVLogger",
    "Callback",
    "CallbackList",
    "EarlyStopping",
    "History",
    "LambdaCallback",
    "LearningRateScheduler",
    "ModelCheckpoint",
    "OrbaxCheckpoint",
    "ProgbarLogger",
    "ReduceLROnPlateau",
    "RemoteMonitor",
    "SwapEMAWeights",
    "TensorBoard",
    "TerminateOnNaN",
]
