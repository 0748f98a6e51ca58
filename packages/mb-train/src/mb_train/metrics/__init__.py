"""mb_train.metrics: Keras 3's ``keras.metrics``, name for name.

Every metric keeps its state in non-trainable `mb_ops.Variable`s and updates it
with `mb_ops.ops` only, so `fit` runs the updates inside its compiled step on
every backend. The 16 loss functions Keras re-exports here come from
`mb_train.losses`.
"""

from mb_train.losses import binary_crossentropy as binary_crossentropy
from mb_train.losses import binary_focal_crossentropy as binary_focal_crossentropy
from mb_train.losses import categorical_crossentropy as categorical_crossentropy
from mb_train.losses import categorical_focal_crossentropy as categorical_focal_crossentropy
from mb_train.losses import categorical_hinge as categorical_hinge
from mb_train.losses import hinge as hinge
from mb_train.losses import huber as huber
from mb_train.losses import kl_divergence as kl_divergence
from mb_train.losses import log_cosh as log_cosh
from mb_train.losses import mean_absolute_error as mean_absolute_error
from mb_train.losses import mean_absolute_percentage_error as mean_absolute_percentage_error
from mb_train.losses import mean_squared_error as mean_squared_error
from mb_train.losses import mean_squared_logarithmic_error as mean_squared_logarithmic_error
from mb_train.losses import poisson as poisson
from mb_train.losses import sparse_categorical_crossentropy as sparse_categorical_crossentropy
from mb_train.losses import squared_hinge as squared_hinge
from mb_train.metrics._accuracy import Accuracy as Accuracy
from mb_train.metrics._accuracy import BinaryAccuracy as BinaryAccuracy
from mb_train.metrics._accuracy import CategoricalAccuracy as CategoricalAccuracy
from mb_train.metrics._accuracy import SparseCategoricalAccuracy as SparseCategoricalAccuracy
from mb_train.metrics._accuracy import (
    SparseTopKCategoricalAccuracy as SparseTopKCategoricalAccuracy,
)
from mb_train.metrics._accuracy import TopKCategoricalAccuracy as TopKCategoricalAccuracy
from mb_train.metrics._accuracy import binary_accuracy as binary_accuracy
from mb_train.metrics._accuracy import categorical_accuracy as categorical_accuracy
from mb_train.metrics._accuracy import sparse_categorical_accuracy as sparse_categorical_accuracy
from mb_train.metrics._accuracy import (
    sparse_top_k_categorical_accuracy as sparse_top_k_categorical_accuracy,
)
from mb_train.metrics._accuracy import top_k_categorical_accuracy as top_k_categorical_accuracy
from mb_train.metrics._at_constraint import PrecisionAtRecall as PrecisionAtRecall
from mb_train.metrics._at_constraint import RecallAtPrecision as RecallAtPrecision
from mb_train.metrics._at_constraint import SensitivityAtSpecificity as SensitivityAtSpecificity
from mb_train.metrics._at_constraint import SpecificityAtSensitivity as SpecificityAtSensitivity
from mb_train.metrics._auc import AUC as AUC
from mb_train.metrics._confusion import FalseNegatives as FalseNegatives
from mb_train.metrics._confusion import FalsePositives as FalsePositives
from mb_train.metrics._confusion import Precision as Precision
from mb_train.metrics._confusion import Recall as Recall
from mb_train.metrics._confusion import TrueNegatives as TrueNegatives
from mb_train.metrics._confusion import TruePositives as TruePositives
from mb_train.metrics._correlation import ConcordanceCorrelation as ConcordanceCorrelation
from mb_train.metrics._correlation import PearsonCorrelation as PearsonCorrelation
from mb_train.metrics._correlation import concordance_correlation as concordance_correlation
from mb_train.metrics._correlation import pearson_correlation as pearson_correlation
from mb_train.metrics._fscore import F1Score as F1Score
from mb_train.metrics._fscore import FBetaScore as FBetaScore
from mb_train.metrics._hinge import CategoricalHinge as CategoricalHinge
from mb_train.metrics._hinge import Hinge as Hinge
from mb_train.metrics._hinge import SquaredHinge as SquaredHinge
from mb_train.metrics._iou import BinaryIoU as BinaryIoU
from mb_train.metrics._iou import IoU as IoU
from mb_train.metrics._iou import MeanIoU as MeanIoU
from mb_train.metrics._iou import OneHotIoU as OneHotIoU
from mb_train.metrics._iou import OneHotMeanIoU as OneHotMeanIoU
from mb_train.metrics._metric import Metric as Metric
from mb_train.metrics._probabilistic import BinaryCrossentropy as BinaryCrossentropy
from mb_train.metrics._probabilistic import CategoricalCrossentropy as CategoricalCrossentropy
from mb_train.metrics._probabilistic import KLDivergence as KLDivergence
from mb_train.metrics._probabilistic import Poisson as Poisson
from mb_train.metrics._probabilistic import (
    SparseCategoricalCrossentropy as SparseCategoricalCrossentropy,
)
from mb_train.metrics._r2 import R2Score as R2Score
from mb_train.metrics._reduction import Mean as Mean
from mb_train.metrics._reduction import MeanMetricWrapper as MeanMetricWrapper
from mb_train.metrics._reduction import Sum as Sum
from mb_train.metrics._registry import deserialize as deserialize
from mb_train.metrics._registry import get as get
from mb_train.metrics._registry import register as _register
from mb_train.metrics._registry import serialize as serialize
from mb_train.metrics._regression import CosineSimilarity as CosineSimilarity
from mb_train.metrics._regression import LogCoshError as LogCoshError
from mb_train.metrics._regression import MeanAbsoluteError as MeanAbsoluteError
from mb_train.metrics._regression import MeanAbsolutePercentageError as MeanAbsolutePercentageError
from mb_train.metrics._regression import MeanSquaredError as MeanSquaredError
from mb_train.metrics._regression import MeanSquaredLogarithmicError as MeanSquaredLogarithmicError
from mb_train.metrics._regression import RootMeanSquaredError as RootMeanSquaredError

_register(
    classes=[
        AUC,
        Accuracy,
        BinaryAccuracy,
        BinaryCrossentropy,
        BinaryIoU,
        CategoricalAccuracy,
        CategoricalCrossentropy,
        CategoricalHinge,
        ConcordanceCorrelation,
        CosineSimilarity,
        F1Score,
        FBetaScore,
        FalseNegatives,
        FalsePositives,
        Hinge,
        IoU,
        KLDivergence,
        LogCoshError,
        Mean,
        MeanAbsoluteError,
        MeanAbsolutePercentageError,
        MeanIoU,
        MeanMetricWrapper,
        MeanSquaredError,
        MeanSquaredLogarithmicError,
        Metric,
        OneHotIoU,
        OneHotMeanIoU,
        PearsonCorrelation,
        Poisson,
        Precision,
        PrecisionAtRecall,
        R2Score,
        Recall,
        RecallAtPrecision,
        RootMeanSquaredError,
        SensitivityAtSpecificity,
        SparseCategoricalAccuracy,
        SparseCategoricalCrossentropy,
        SparseTopKCategoricalAccuracy,
        SpecificityAtSensitivity,
        SquaredHinge,
        Sum,
        TopKCategoricalAccuracy,
        TrueNegatives,
        TruePositives,
    ],
    functions={
        "binary_accuracy": binary_accuracy,
        "binary_crossentropy": binary_crossentropy,
        "binary_focal_crossentropy": binary_focal_crossentropy,
        "categorical_accuracy": categorical_accuracy,
        "categorical_crossentropy": categorical_crossentropy,
        "categorical_focal_crossentropy": categorical_focal_crossentropy,
        "categorical_hinge": categorical_hinge,
        "concordance_correlation": concordance_correlation,
        "hinge": hinge,
        "huber": huber,
        "kl_divergence": kl_divergence,
        "log_cosh": log_cosh,
        "mean_absolute_error": mean_absolute_error,
        "mean_absolute_percentage_error": mean_absolute_percentage_error,
        "mean_squared_error": mean_squared_error,
        "mean_squared_logarithmic_error": mean_squared_logarithmic_error,
        "pearson_correlation": pearson_correlation,
        "poisson": poisson,
        "sparse_categorical_accuracy": sparse_categorical_accuracy,
        "sparse_categorical_crossentropy": sparse_categorical_crossentropy,
        "sparse_top_k_categorical_accuracy": sparse_top_k_categorical_accuracy,
        "squared_hinge": squared_hinge,
        "top_k_categorical_accuracy": top_k_categorical_accuracy,
    },
)

__all__ = [
    "AUC",
    "Accuracy",
    "BinaryAccuracy",
    "BinaryCrossentropy",
    "BinaryIoU",
    "CategoricalAccuracy",
    "CategoricalCrossentropy",
    "CategoricalHinge",
    "ConcordanceCorrelation",
    "CosineSimilarity",
    "F1Score",
    "FBetaScore",
    "FalseNegatives",
    "FalsePositives",
    "Hinge",
    "IoU",
    "KLDivergence",
    "LogCoshError",
    "Mean",
    "MeanAbsoluteError",
    "MeanAbsolutePercentageError",
    "MeanIoU",
    "MeanMetricWrapper",
    "MeanSquaredError",
    "MeanSquaredLogarithmicError",
    "Metric",
    "OneHotIoU",
    "OneHotMeanIoU",
    "PearsonCorrelation",
    "Poisson",
    "Precision",
    "PrecisionAtRecall",
    "R2Score",
    "Recall",
    "RecallAtPrecision",
    "RootMeanSquaredError",
    "SensitivityAtSpecificity",
    "SparseCategoricalAccuracy",
    "SparseCategoricalCrossentropy",
    "SparseTopKCategoricalAccuracy",
    "SpecificityAtSensitivity",
    "SquaredHinge",
    "Sum",
    "TopKCategoricalAccuracy",
    "TrueNegatives",
    "TruePositives",
    "binary_accuracy",
    "binary_crossentropy",
    "binary_focal_crossentropy",
    "categorical_accuracy",
    "categorical_crossentropy",
    "categorical_focal_crossentropy",
    "categorical_hinge",
    "concordance_correlation",
    "deserialize",
    "get",
    "hinge",
    "huber",
    "kl_divergence",
    "log_cosh",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mean_squared_error",
    "mean_squared_logarithmic_error",
    "pearson_correlation",
    "poisson",
    "serialize",
    "sparse_categorical_accuracy",
    "sparse_categorical_crossentropy",
    "sparse_top_k_categorical_accuracy",
    "squared_hinge",
    "top_k_categorical_accuracy",
]
