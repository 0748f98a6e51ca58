"""Optimizers (``keras.optimizers``): the base class, 14 optimizers, loss scaling,
`MultiOptimizer`/`OptimizerMap`, schedules, and the `legacy` names (which only raise).

Every optimizer's math is written once over `mb_ops`; the backend may run it
fused over all variables (``training.fused_update``) or, for rules written over
elementwise functions (`_rules.elementwise_rule`), with multi-tensor kernels in place
(torch's ``training.foreach_update``), with the same numbers.
Variables, their order, names and configs are Keras 3's, so ``.keras`` files
interchange.
"""

from mb_train.optimizers import legacy as legacy
from mb_train.optimizers import schedules as schedules
from mb_train.optimizers._adafactor import Adafactor as Adafactor
from mb_train.optimizers._adagrad import Adadelta as Adadelta
from mb_train.optimizers._adagrad import Adagrad as Adagrad
from mb_train.optimizers._adam import Adam as Adam
from mb_train.optimizers._adam import AdamW as AdamW
from mb_train.optimizers._adam_variants import Adamax as Adamax
from mb_train.optimizers._adam_variants import Lamb as Lamb
from mb_train.optimizers._adam_variants import Nadam as Nadam
from mb_train.optimizers._base import Optimizer as Optimizer
from mb_train.optimizers._ftrl import Ftrl as Ftrl
from mb_train.optimizers._lion import Lion as Lion
from mb_train.optimizers._loss_scale import LossScaleOptimizer as LossScaleOptimizer
from mb_train.optimizers._multi import MultiOptimizer as MultiOptimizer
from mb_train.optimizers._multi import OptimizerMap as OptimizerMap
from mb_train.optimizers._muon import Muon as Muon
from mb_train.optimizers._registry import deserialize as deserialize
from mb_train.optimizers._registry import get as get
from mb_train.optimizers._registry import register_builtins as _register_builtins
from mb_train.optimizers._registry import serialize as serialize
from mb_train.optimizers._rmsprop import RMSprop as RMSprop
from mb_train.optimizers._schedule_free import ScheduleFreeAdamW as ScheduleFreeAdamW
from mb_train.optimizers._sgd import SGD as SGD

_register_builtins(
    Optimizer,
    SGD,
    RMSprop,
    Adam,
    AdamW,
    Adadelta,
    Adafactor,
    Adagrad,
    Adamax,
    Ftrl,
    Lamb,
    Lion,
    Nadam,
    Muon,
    ScheduleFreeAdamW,
    LossScaleOptimizer,
    MultiOptimizer,
    OptimizerMap,
)

__all__ = [
    "SGD",
    "Adadelta",
    "Adafactor",
    "Adagrad",
    "Adam",
    "AdamW",
    "Adamax",
    "Ftrl",
    "Lamb",
    "Lion",
    "LossScaleOptimizer",
    "MultiOptimizer",
    "Muon",
    "Nadam",
    "Optimizer",
    "OptimizerMap",
    "RMSprop",
    "ScheduleFreeAdamW",
    "deserialize",
    "get",
    "legacy",
    "schedules",
    "serialize",
]
