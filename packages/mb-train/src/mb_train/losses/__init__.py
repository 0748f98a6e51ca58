"""Losses (``keras.losses``): the `Loss` base class, the built-in loss classes and
functions, and `get` / `serialize` / `deserialize`.

Each loss is written once over `mb_ops.ops`, so it runs on every backend and
inside compiled training steps. A loss object reduces per-sample values as
Keras 3 does (``reduction``), weighted by ``sample_weight`` and by the mask that
predictions carry (`mb_layers.get_keras_mask`).
"""

from mb_train.losses._binary import BinaryCrossentropy as BinaryCrossentropy
from mb_train.losses._binary import BinaryFocalCrossentropy as BinaryFocalCrossentropy
from mb_train.losses._binary import binary_crossentropy as binary_crossentropy
from mb_train.losses._binary import binary_focal_crossentropy as binary_focal_crossentropy
from mb_train.losses._categorical import CategoricalCrossentropy as CategoricalCrossentropy
from mb_train.losses._categorical import (
    CategoricalFocalCrossentropy as CategoricalFocalCrossentropy,
)
from mb_train.losses._categorical import (
    CategoricalGeneralizedCrossEntropy as CategoricalGeneralizedCrossEntropy,
)
from mb_train.losses._categorical import (
    SparseCategoricalCrossentropy as SparseCategoricalCrossentropy,
)
from mb_train.losses._categorical import categorical_crossentropy as categorical_crossentropy
from mb_train.losses._categorical import (
    categorical_focal_crossentropy as categorical_focal_crossentropy,
)
from mb_train.losses._categorical import (
    categorical_generalized_cross_entropy as categorical_generalized_cross_entropy,
)
from mb_train.losses._categorical import (
    sparse_categorical_crossentropy as sparse_categorical_crossentropy,
)
from mb_train.losses._circle import Circle as Circle
from mb_train.losses._circle import circle as circle
from mb_train.losses._ctc import CTC as CTC
from mb_train.losses._ctc import ctc as ctc
from mb_train.losses._get import get as get
from mb_train.losses._hinge import CategoricalHinge as CategoricalHinge
from mb_train.losses._hinge import Hinge as Hinge
from mb_train.losses._hinge import SquaredHinge as SquaredHinge
from mb_train.losses._hinge import categorical_hinge as categorical_hinge
from mb_train.losses._hinge import hinge as hinge
from mb_train.losses._hinge import squared_hinge as squared_hinge
from mb_train.losses._loss import Loss as Loss
from mb_train.losses._probabilistic import KLDivergence as KLDivergence
from mb_train.losses._probabilistic import Poisson as Poisson
from mb_train.losses._probabilistic import kl_divergence as kl_divergence
from mb_train.losses._probabilistic import poisson as poisson
from mb_train.losses._reduction import REDUCTIONS as REDUCTIONS
from mb_train.losses._reduction import reduce_weighted_values as reduce_weighted_values
from mb_train.losses._reduction import (
    squeeze_or_expand_to_same_rank as squeeze_or_expand_to_same_rank,
)
from mb_train.losses._regression import CosineSimilarity as CosineSimilarity
from mb_train.losses._regression import Huber as Huber
from mb_train.losses._regression import LogCosh as LogCosh
from mb_train.losses._regression import MeanAbsoluteError as MeanAbsoluteError
from mb_train.losses._regression import (
    MeanAbsolutePercentageError as MeanAbsolutePercentageError,
)
from mb_train.losses._regression import MeanSquaredError as MeanSquaredError
from mb_train.losses._regression import (
    MeanSquaredLogarithmicError as MeanSquaredLogarithmicError,
)
from mb_train.losses._regression import cosine_similarity as cosine_similarity
from mb_train.losses._regression import huber as huber
from mb_train.losses._regression import log_cosh as log_cosh
from mb_train.losses._regression import mean_absolute_error as mean_absolute_error
from mb_train.losses._regression import (
    mean_absolute_percentage_error as mean_absolute_percentage_error,
)
from mb_train.losses._regression import mean_squared_error as mean_squared_error
from mb_train.losses._regression import (
    mean_squared_logarithmic_error as mean_squared_logarithmic_error,
)
from mb_train.losses._segmentation import Dice as Dice
from mb_train.losses._segmentation import Tversky as Tversky
from mb_train.losses._segmentation import dice as dice
from mb_train.losses._segmentation import tversky as tversky
from mb_train.losses._serialization import builtin as _builtin
from mb_train.losses._serialization import deserialize as deserialize
from mb_train.losses._serialization import serialize as serialize
from mb_train.losses._wrapper import LossFunctionWrapper as LossFunctionWrapper

# The base classes load by name as well (Keras writes LossFunctionWrapper under its
# source module).
_builtin(Loss)
_builtin(
    LossFunctionWrapper, module="keras.src.losses.losses", registered_name="LossFunctionWrapper"
)

# The 48 names of keras.losses, plus LossFunctionWrapper (keras.src.losses) and
# the reduction helpers a custom loss or metric may reuse.
__all__ = [
    "CTC",
    "BinaryCrossentropy",
    "BinaryFocalCrossentropy",
    "CategoricalCrossentropy",
    "CategoricalFocalCrossentropy",
    "CategoricalGeneralizedCrossEntropy",
    "CategoricalHinge",
    "Circle",
    "CosineSimilarity",
    "Dice",
    "Hinge",
    "Huber",
    "KLDivergence",
    "LogCosh",
    "Loss",
    "LossFunctionWrapper",
    "MeanAbsoluteError",
    "MeanAbsolutePercentageError",
    "MeanSquaredError",
    "MeanSquaredLogarithmicError",
    "Poisson",
    "SparseCategoricalCrossentropy",
    "SquaredHinge",
    "Tversky",
    "binary_crossentropy",
    "binary_focal_crossentropy",
    "categorical_crossentropy",
    "categorical_focal_crossentropy",
    "categorical_generalized_cross_entropy",
    "categorical_hinge",
    "circle",
    "cosine_similarity",
    "ctc",
    "deserialize",
    "dice",
    "get",
    "hinge",
    "huber",
    "kl_divergence",
    "log_cosh",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mean_squared_error",
    "mean_squared_logarithmic_error",
    "poisson",
    "serialize",
    "sparse_categorical_crossentropy",
    "squared_hinge",
    "tversky",
]
