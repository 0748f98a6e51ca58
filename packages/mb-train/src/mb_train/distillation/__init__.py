"""Knowledge distillation (Keras 3's ``keras.distillation``): `Distiller` trains a
student model from a frozen teacher with `DistillationLoss` objects."""

from mb_train.distillation._distiller import Distiller as Distiller
from mb_train.distillation._losses import DistillationLoss as DistillationLoss
from mb_train.distillation._losses import FeatureDistillation as FeatureDistillation
from mb_train.distillation._losses import LogitsDistillation as LogitsDistillation

__all__ = ["DistillationLoss", "Distiller", "FeatureDistillation", "LogitsDistillation"]
