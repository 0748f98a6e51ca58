"""``mb.wrappers``: Keras 3's ``keras.wrappers``, scikit-learn estimators around a model."""

from mb_train.wrappers import SKLearnClassifier as SKLearnClassifier
from mb_train.wrappers import SKLearnRegressor as SKLearnRegressor
from mb_train.wrappers import SKLearnTransformer as SKLearnTransformer

__all__ = ["SKLearnClassifier", "SKLearnRegressor", "SKLearnTransformer"]
