"""scikit-learn estimators around a model: Keras 3's ``keras.wrappers``.

`SKLearnClassifier`, `SKLearnRegressor` and `SKLearnTransformer` take a compiled
`Model` (cloned, compiled the same way, before each fit) or a function building one
from the data (``model(X=X, y=y, **model_kwargs)``), so that a model works inside
scikit-learn's pipelines, cross-validation and grid searches::

    def build(X, y, hidden=32):
        inputs = mb.Input((X.shape[1],))
        hidden = mb.layers.Dense(hidden, activation="relu")(inputs)
        outputs = mb.layers.Dense(y.shape[1], activation="softmax")(hidden)
        model = mb.Model(inputs, outputs)
        model.compile(optimizer="adam", loss="categorical_crossentropy")
        return model

    clf = SKLearnClassifier(build, model_kwargs={"hidden": 64}, fit_kwargs={"epochs": 20})
    cross_val_score(make_pipeline(StandardScaler(), clf), X, y)

A classifier one-hot encodes its labels (``y`` as the builder sees it has one column
per class) and `predict` gives back labels of ``classes_``. scikit-learn is an
optional dependency (``pip install scikit-learn``), needed when an estimator is made.

Where Keras 3.15's wrappers differ, mb does what their documentation says:
``warm_start=True`` goes on training the fitted model (Keras builds a new one each
time), ``fit(**kwargs)`` leaves ``fit_kwargs`` as given (Keras updates that dict in
place), `sklearn.base.clone` keeps ``fit_kwargs`` and ``epoch_`` counts the epochs
trained.
"""

from __future__ import annotations

import copy

import numpy as np

try:
    import sklearn
    from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, TransformerMixin
except ImportError:  # scikit-learn is optional: the estimators say so when made
    sklearn = None

    class BaseEstimator:  # type: ignore[no-redef]
        pass

    class ClassifierMixin:  # type: ignore[no-redef]
        pass

    class RegressorMixin:  # type: ignore[no-redef]
        pass

    class TransformerMixin:  # type: ignore[no-redef]
        pass


from mb_train._model._clone import clone_model
from mb_train._model._model import Model

__all__ = ["SKLearnClassifier", "SKLearnRegressor", "SKLearnTransformer"]


def _validate_data(estimator, *args, **kwargs):
    """scikit-learn's input check (``validate_data`` from 1.6, the method before)."""
    try:
        from sklearn.utils.validation import validate_data
    except ImportError:  # scikit-learn < 1.6
        return estimator._validate_data(*args, **kwargs)
    return validate_data(estimator, *args, **kwargs)


def _check_fitted(estimator):
    from sklearn.utils.validation import check_is_fitted

    check_is_fitted(estimator)


def _target_type(y):
    from sklearn.utils.multiclass import type_of_target

    kind = type_of_target(y)
    if kind == "unknown":
        raise ValueError(
            f"The targets y are not labels nor numbers scikit-learn recognises (type "
            f"'unknown', dtype {np.asarray(y).dtype}, shape {np.shape(y)}). Pass a 1-D or "
            "2-D array of numbers, or of class labels for a classifier."
        )
    return kind


class _OneDimensional:
    """1-D targets as one column for the model, and its one-column outputs back to 1-D."""

    def fit(self, y):
        self.ndim_ = np.ndim(y)
        return self

    def transform(self, y):
        y = np.asarray(y)
        return y.reshape(-1, 1) if y.ndim == 1 else y

    def inverse_transform(self, y):
        y = np.asarray(y)
        return y[:, 0] if self.ndim_ == 1 and y.ndim == 2 and y.shape[1] == 1 else y


class _SKLBase(BaseEstimator):
    """What the three estimators share: the model, its fit, `predict`."""

    def __init__(self, model, warm_start=False, model_kwargs=None, fit_kwargs=None):
        if sklearn is None:
            raise ImportError(
                f"{type(self).__name__} needs scikit-learn, which is not installed. "
                "Install it with `pip install scikit-learn`."
            )
        self.model = model
        self.warm_start = warm_start
        self.model_kwargs = model_kwargs
        self.fit_kwargs = fit_kwargs

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.non_deterministic = True
        return tags

    def __sklearn_clone__(self):
        """A new, unfitted estimator with the same parameters (`sklearn.base.clone`).

        A `Model` given as ``model`` is deep-copied so that the clones never share it;
        a builder function is shared (it makes a new model at each fit anyway).
        """
        model = self.model if not isinstance(self.model, Model) else copy.deepcopy(self.model)
        return type(self)(
            model=model,
            warm_start=self.warm_start,
            model_kwargs=copy.deepcopy(self.model_kwargs),
            fit_kwargs=copy.deepcopy(self.fit_kwargs),
        )

    @property
    def epoch_(self):
        """How many epochs the fitted model has trained (0 before `fit`)."""
        return getattr(self, "_epochs_trained", 0)

    def set_fit_request(self, **kwargs):
        """Routes metadata (e.g. ``sample_weight=True``) to `fit` through scikit-learn's
        metadata routing; needs ``sklearn.set_config(enable_metadata_routing=True)``.

        Returns:
            self
        """
        if not sklearn.get_config().get("enable_metadata_routing", False):
            raise RuntimeError(
                "set_fit_request needs scikit-learn's metadata routing, which is off. "
                "Turn it on with `sklearn.set_config(enable_metadata_routing=True)`."
            )
        from sklearn.utils.metadata_routing import MetadataRequest

        self._metadata_request = MetadataRequest(owner=type(self).__name__)
        for param, alias in kwargs.items():
            self._metadata_request.fit.add_request(param=param, alias=alias)
        return self

    def _new_model(self, X, y):
        if isinstance(self.model, Model):
            return clone_model(self.model)
        if not callable(self.model):
            raise TypeError(
                f"{type(self).__name__}(model=...) takes a compiled Model or a function "
                f"returning one. Received {self.model!r} (of type {type(self.model).__name__})."
            )
        model = self.model(X=X, y=y, **(self.model_kwargs or {}))
        if not isinstance(model, Model):
            raise TypeError(
                f"The model function {getattr(self.model, '__name__', self.model)!r} must "
                f"return a compiled Model; it returned {type(model).__name__}."
            )
        return model

    def fit(self, X, y, **kwargs):
        """Trains the model on `X` and `y`.

        Args:
            X: array-like, ``(n_samples, n_features)``.
            y: array-like, ``(n_samples,)`` or ``(n_samples, n_outputs)``.
            **kwargs: arguments of `Model.fit` (``epochs``, ``batch_size``, ...),
                over those of ``fit_kwargs``.

        Returns:
            self
        """
        X, y = _validate_data(self, X, y, multi_output=True)
        warm = self.warm_start and hasattr(self, "model_")
        y = self._encode_target(y, reset=not warm)
        if warm:
            model = self.model_
        else:
            model = self._new_model(X, y)
            self._epochs_trained = 0
        if not model.compiled or model.loss is None or model.optimizer is None:
            raise RuntimeError(
                f"{type(self).__name__} needs a compiled model with a loss and an optimizer; "
                f"'{model.name}' is {'compiled without them' if model.compiled else 'not compiled'}"
                ". Call model.compile(optimizer=..., loss=...) before handing it over (or in "
                "the function that builds it)."
            )
        history = model.fit(X, y, **{**(self.fit_kwargs or {}), **kwargs})
        self.model_ = model
        self.history_ = history.history
        self._epochs_trained += len(history.epoch)
        return self

    def predict(self, X):
        """The model's predictions for `X`, in the form of the ``y`` it was fitted on."""
        _check_fitted(self)
        X = _validate_data(self, X, reset=False)
        return self._decode_target(np.asarray(self.model_.predict(X, verbose=0)))

    def _encode_target(self, y, reset):
        _target_type(y)
        if reset:
            self._target_encoder = _OneDimensional().fit(y)
        return self._target_encoder.transform(y)

    def _decode_target(self, y):
        return self._target_encoder.inverse_transform(y)


class SKLearnClassifier(ClassifierMixin, _SKLBase):
    """A scikit-learn classifier around a model (``keras.wrappers.SKLearnClassifier``).

    The labels (binary or multiclass, of any type scikit-learn accepts) are one-hot
    encoded for the model, which outputs one score per class; `predict` returns the
    label of the highest score, `predict_proba` the scores, `decision_function` the raw
    outputs, `score` the accuracy.

    Args:
        model: a compiled `Model` (a clone compiled the same way is fitted, unless
            ``warm_start`` goes on with the fitted one), or a function
            ``model(X=X, y=y, **model_kwargs)`` returning a compiled model; ``y`` is
            one-hot, so ``y.shape[1]`` is the number of classes.
        warm_start: a second `fit` goes on training the fitted model instead of
            starting from a new one.
        model_kwargs: keyword arguments of the ``model`` function.
        fit_kwargs: keyword arguments of `Model.fit`; those given to `fit` win.

    Attributes:
        model_: the fitted model.
        history_: its `fit` history (``{"loss": [...], ...}``).
        classes_: the class labels, sorted.
    """

    def _encode_target(self, y, reset):
        kind = _target_type(y)
        if kind not in ("binary", "multiclass"):
            raise ValueError(
                f"SKLearnClassifier takes binary or multiclass labels (one label per "
                f"sample); y is '{kind}'. For several outputs or continuous targets use "
                "SKLearnRegressor."
            )
        if reset:
            from sklearn.preprocessing import OneHotEncoder

            classes = np.unique(y)
            if len(classes) < 2:
                raise ValueError(
                    f"A classifier needs at least two classes; y has only {classes.tolist()}."
                )
            self.classes_ = classes
            self._target_encoder = OneHotEncoder(categories=[classes], sparse_output=False)
            self._target_encoder.fit(np.reshape(y, (-1, 1)))
        elif not np.isin(np.unique(y), self.classes_).all():
            unseen = np.setdiff1d(np.unique(y), self.classes_).tolist()
            raise ValueError(
                f"warm_start fit: labels {unseen} were not among the classes of the first "
                f"fit, {self.classes_.tolist()}. Fit from scratch (warm_start=False)."
            )
        return self._target_encoder.transform(np.reshape(y, (-1, 1)))

    def _decode_target(self, y):
        return self.classes_[np.argmax(y, axis=-1)]

    def decision_function(self, X):
        """The model's raw outputs for `X`, one column per class of ``classes_``."""
        _check_fitted(self)
        X = _validate_data(self, X, reset=False)
        return np.asarray(self.model_.predict(X, verbose=0))

    def predict_proba(self, X):
        """The model's outputs for `X`, as probabilities of ``classes_`` (the outputs of a
        model ending in softmax; other outputs are normalised to sum to 1)."""
        scores = self.decision_function(X)
        if np.all(scores >= 0) and np.allclose(scores.sum(axis=-1), 1, atol=1e-3):
            return scores
        shifted = np.exp(scores - scores.max(axis=-1, keepdims=True))
        return shifted / shifted.sum(axis=-1, keepdims=True)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.poor_score = True
        return tags


class SKLearnRegressor(RegressorMixin, _SKLBase):
    """A scikit-learn regressor around a model (``keras.wrappers.SKLearnRegressor``).

    ``y`` of shape ``(n,)`` reaches the model as ``(n, 1)`` and `predict` returns
    ``(n,)`` again; ``(n, k)`` targets stay as they are. `score` is R².

    Args:
        model: a compiled `Model` or a function ``model(X=X, y=y, **model_kwargs)``
            returning one (see `SKLearnClassifier`).
        warm_start: a second `fit` goes on training the fitted model.
        model_kwargs: keyword arguments of the ``model`` function.
        fit_kwargs: keyword arguments of `Model.fit`; those given to `fit` win.

    Attributes:
        model_: the fitted model.
        history_: its `fit` history.
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.regressor_tags.poor_score = True
        return tags


class SKLearnTransformer(TransformerMixin, _SKLBase):
    """A scikit-learn transformer around a model (``keras.wrappers.SKLearnTransformer``):
    `transform` returns the model's outputs, e.g. an embedding for the next step of a
    pipeline (wrap it in ``sklearn.frozen.FrozenEstimator`` to use a model trained
    elsewhere without training it again).

    Args:
        model: a compiled `Model` or a function ``model(X=X, y=y, **model_kwargs)``
            returning one (see `SKLearnClassifier`).
        warm_start: a second `fit` goes on training the fitted model.
        model_kwargs: keyword arguments of the ``model`` function.
        fit_kwargs: keyword arguments of `Model.fit`; those given to `fit` win.

    Attributes:
        model_: the fitted model.
        history_: its `fit` history.
    """

    def transform(self, X):
        """The model's outputs for `X`: ``(n_samples, n_outputs)``."""
        _check_fitted(self)
        X = _validate_data(self, X, reset=False)
        return np.asarray(self.model_.predict(X, verbose=0))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = []
        return tags
