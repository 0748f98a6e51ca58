"""``mb.mixed_precision``: Keras 3's ``keras.mixed_precision``."""

from mb_layers.dtype_policies import DTypePolicy as DTypePolicy
from mb_layers.dtype_policies import dtype_policy as dtype_policy
from mb_layers.dtype_policies import set_dtype_policy as set_dtype_policy
from mb_train.optimizers import LossScaleOptimizer as LossScaleOptimizer

Policy = DTypePolicy
global_policy = dtype_policy
set_global_policy = set_dtype_policy

__all__ = [
    "DTypePolicy",
    "LossScaleOptimizer",
    "Policy",
    "dtype_policy",
    "global_policy",
    "set_dtype_policy",
    "set_global_policy",
]
