"""``mb.distillation``: Keras 3's ``keras.distillation``."""

from mb_train.distillation import DistillationLoss as DistillationLoss
from mb_train.distillation import Distiller as Distiller
from mb_train.distillation import FeatureDistillation as FeatureDistillation
from mb_train.distillation import LogitsDistillation as LogitsDistillation

__all__ = ["DistillationLoss", "Distiller", "FeatureDistillation", "LogitsDistillation"]
