"""``mb.wrappers`` on the leg's backend: models as scikit-learn estimators.

The data is scikit-learn's digits (it ships with the package); the estimators go
through scikit-learn's own machinery (pipelines, cross-validation, grid search,
`clone`), as a user's code would.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_digits
from sklearn.exceptions import NotFittedError
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import mb as keras
from mb.wrappers import SKLearnClassifier, SKLearnRegressor, SKLearnTransformer

# scikit-learn is a test dependency of the workspace (and optional for users).
pytestmark = pytest.mark.trains

FAST = {"epochs": 8, "batch_size": 64, "verbose": 0}


def mlp(X, y, hidden=32, activation="softmax", loss="categorical_crossentropy"):
    """A model function as a user writes one: shapes from the data it is given."""
    inputs = keras.Input((X.shape[1],))
    x = keras.layers.Dense(hidden, activation="relu")(inputs)
    outputs = keras.layers.Dense(y.shape[1], activation=activation)(x)
    model = keras.Model(inputs, outputs)
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss=loss)
    return model


def digits(labels=str):
    X, y = load_digits(return_X_y=True)
    return train_test_split(X.astype("float32"), y.astype(labels), random_state=0)


def test_a_classifier_learns_digits_in_a_pipeline_and_answers_with_the_labels():
    X_train, X_test, y_train, y_test = digits()
    clf = SKLearnClassifier(mlp, fit_kwargs=FAST)
    pipeline = make_pipeline(StandardScaler(), clf).fit(X_train, y_train)

    assert clf.classes_.tolist() == [str(d) for d in range(10)]
    predicted = pipeline.predict(X_test)
    assert predicted.shape == y_test.shape and set(predicted) <= set(clf.classes_)
    assert pipeline.score(X_test, y_test) > 0.85
    proba = pipeline.predict_proba(X_test)
    assert proba.shape == (len(X_test), 10)
    np.testing.assert_allclose(proba.sum(axis=1), 1, atol=1e-5)
    np.testing.assert_array_equal(clf.classes_[proba.argmax(axis=1)], predicted)
    assert clf.epoch_ == FAST["epochs"] and len(clf.history_["loss"]) == FAST["epochs"]
    assert clf.history_["loss"][-1] < clf.history_["loss"][0]


def test_grid_search_clones_the_estimator_and_picks_the_better_model():
    X_train, _, y_train, _ = digits(labels=int)
    clf = SKLearnClassifier(mlp, fit_kwargs={**FAST, "epochs": 4})
    twin = clone(clf)
    assert twin is not clf and twin.fit_kwargs == clf.fit_kwargs and twin.model is mlp
    grid = {"model_kwargs": [{"hidden": 1}, {"hidden": 48}]}
    search = GridSearchCV(clf, grid, cv=2, refit=False).fit(X_train[:600] / 16, y_train[:600])
    # One hidden unit cannot separate ten digits; 48 can.
    assert search.best_params_ == {"model_kwargs": {"hidden": 48}}
    assert not hasattr(clf, "model_")  # the estimator given stays unfitted


def test_a_regressor_gives_back_the_shape_of_y():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 5)).astype("float32")
    W = rng.normal(size=(5, 2)).astype("float32")
    Y = X @ W
    reg = SKLearnRegressor(
        mlp, model_kwargs={"activation": None, "loss": "mse"}, fit_kwargs={**FAST, "epochs": 40}
    )
    assert reg.fit(X, Y[:, 0]).predict(X).shape == (400,)
    assert reg.score(X, Y[:, 0]) > 0.9  # R²
    assert reg.fit(X, Y).predict(X).shape == (400, 2)


def test_a_model_is_cloned_for_each_fit_unless_warm_start_goes_on():
    X_train, _, y_train, _ = digits(labels=int)
    X_train = X_train / 16
    given = mlp(X_train, np.zeros((1, 10)))
    before = [np.array(w) for w in given.get_weights()]

    cold = SKLearnClassifier(given, fit_kwargs={**FAST, "epochs": 2}).fit(X_train, y_train)
    assert cold.model_ is not given and cold.model_.compiled
    for got, want in zip(given.get_weights(), before, strict=True):
        np.testing.assert_array_equal(got, want)  # the model given is left as it was
    first = cold.model_
    cold.fit(X_train, y_train)
    assert cold.model_ is not first and cold.epoch_ == 2

    warm = SKLearnClassifier(given, warm_start=True, fit_kwargs={**FAST, "epochs": 2})
    warm.fit(X_train, y_train)
    model, first_losses = warm.model_, warm.history_["loss"]
    warm.fit(X_train, y_train, epochs=3)  # fit's arguments win over fit_kwargs
    assert warm.model_ is model and warm.epoch_ == 5 and len(warm.history_["loss"]) == 3
    assert warm.history_["loss"][0] < first_losses[0]  # it went on, not from scratch
    assert warm.fit_kwargs == {**FAST, "epochs": 2}  # and fit_kwargs is untouched


def test_a_transformer_feeds_the_next_step_of_a_pipeline():
    X_train, X_test, y_train, y_test = digits(labels=int)
    one_hot = np.eye(10, dtype="float32")[y_train]
    embed = SKLearnTransformer(mlp, model_kwargs={"hidden": 16}, fit_kwargs=FAST)
    assert embed.fit(X_train / 16, one_hot).transform(X_test / 16).shape == (len(X_test), 10)
    # A model trained elsewhere, frozen: the pipeline's fit trains only what follows it.
    pipeline = make_pipeline(FrozenEstimator(embed), LogisticRegression(max_iter=1000))
    pipeline.fit(X_train / 16, y_train)
    assert embed.epoch_ == FAST["epochs"]
    assert pipeline.score(X_test / 16, y_test) > 0.85


def test_mistakes_get_errors_that_say_what_to_do():
    X_train, _, y_train, _ = digits(labels=int)
    uncompiled = keras.Sequential([keras.Input((64,)), keras.layers.Dense(10)])
    with pytest.raises(RuntimeError, match=r"needs a compiled model.*model\.compile"):
        SKLearnClassifier(uncompiled).fit(X_train, y_train)
    with pytest.raises(TypeError, match="must return a compiled Model; it returned str"):
        SKLearnClassifier(lambda X, y: "model").fit(X_train, y_train)
    with pytest.raises(ValueError, match=r"binary or multiclass.*SKLearnRegressor"):
        SKLearnClassifier(mlp).fit(X_train, y_train + 0.5)
    with pytest.raises(ValueError, match="at least two classes"):
        SKLearnClassifier(mlp).fit(X_train, np.zeros_like(y_train))
    with pytest.raises(NotFittedError):
        SKLearnClassifier(mlp).predict(X_train)
    warm = SKLearnClassifier(mlp, warm_start=True, fit_kwargs={**FAST, "epochs": 1})
    warm.fit(X_train[y_train < 5], y_train[y_train < 5])
    with pytest.raises(ValueError, match=r"labels \[5, 6, 7, 8, 9\] were not among"):
        warm.fit(X_train, y_train)
