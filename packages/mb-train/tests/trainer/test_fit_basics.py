"""fit/evaluate/predict on jax: numbers against NumPy, state written back live."""

import numpy as np
import pytest

import mb_layers
from mb_train.models import Model, Sequential


def _linear_model():
    x = mb_layers.Input((3,))
    return Model(x, mb_layers.layers.Dense(1, kernel_initializer="zeros")(x))


def _numpy_sgd(x, y, w, b, lr, batch_size, epochs):
    for _ in range(epochs):
        for i in range(0, len(x), batch_size):
            xb, yb = x[i : i + batch_size], y[i : i + batch_size]
            err = xb @ w + b - yb
            gw = 2 * xb.T @ err / len(xb)
            gb = 2 * err.mean(axis=0)
            w, b = w - lr * gw, b - lr * gb
    return w, b


def test_fit_matches_numpy_sgd(builtins):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 3)).astype("float32")
    y = (x @ np.array([[1.0], [-2.0], [0.5]]) + 0.3).astype("float32")
    model = _linear_model()
    model.compile(optimizer=builtins["sgd"](0.05), loss=builtins["mse"]())
    history = model.fit(x, y, batch_size=16, epochs=3, shuffle=False, verbose=0)
    w, b = _numpy_sgd(x, y, np.zeros((3, 1)), np.zeros(1), 0.05, 16, 3)
    kernel, bias = model.get_weights()
    np.testing.assert_allclose(kernel, w, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(bias, b, rtol=1e-4, atol=1e-5)
    assert len(history.history["loss"]) == 3
    assert history.history["loss"][2] < history.history["loss"][0]
    assert int(model.optimizer.iterations.numpy()) == 12


def test_evaluate_and_predict_match_numpy(builtins):
    rng = np.random.default_rng(1)
    x = rng.normal(size=(50, 3)).astype("float32")
    y = rng.normal(size=(50, 1)).astype("float32")
    model = _linear_model()
    model.compile(optimizer=builtins["sgd"](), loss=builtins["mse"]())
    kernel = rng.normal(size=(3, 1)).astype("float32")
    model.set_weights([kernel, np.array([0.2], "float32")])
    pred = model.predict(x, batch_size=16, verbose=0)
    np.testing.assert_allclose(pred, x @ kernel + 0.2, rtol=1e-5, atol=1e-5)
    loss = model.evaluate(x, y, batch_size=50, verbose=0)
    np.testing.assert_allclose(loss, np.mean((x @ kernel + 0.2 - y) ** 2), rtol=1e-5)
    logs = model.evaluate(x, y, batch_size=50, verbose=0, return_dict=True)
    assert set(logs) == {"loss"}


def test_steps_per_execution_gives_the_same_weights(builtins):
    rng = np.random.default_rng(2)
    x = rng.normal(size=(64, 3)).astype("float32")
    y = rng.normal(size=(64, 1)).astype("float32")
    weights = []
    for spe in (1, 4):
        model = _linear_model()
        model.compile(
            optimizer=builtins["sgd"](0.05), loss=builtins["mse"](), steps_per_execution=spe
        )
        model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
        weights.append(model.get_weights())
    for a, b in zip(*weights, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_steps_per_execution_compiles_in_the_background_then_runs_n_steps_per_call(builtins):
    # On jax the N-step program compiles on a background thread while the first
    # batches run one compiled step at a time; once it is ready, calls run N steps.
    # Engines without background compilation run N steps a call from the start.
    rng = np.random.default_rng(4)
    x = rng.normal(size=(64, 3)).astype("float32")
    y = rng.normal(size=(64, 1)).astype("float32")
    reference = _linear_model()
    reference.compile(optimizer=builtins["sgd"](0.05), loss=builtins["mse"]())
    reference.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)
    model = _linear_model()
    model.compile(optimizer=builtins["sgd"](0.05), loss=builtins["mse"](), steps_per_execution=4)
    model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    runner = model._runners["train"]
    pending = getattr(runner._ahead, "result", None)
    if pending is not None:
        pending()  # wait for the background compilation
    model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)  # switches over
    calls = []
    multi = runner._multi

    def counting(*args):
        calls.append(len(args[-1]))  # the batches come last, whatever the engine's state
        return multi(*args)

    runner._multi = counting
    model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    assert calls == [4, 4]  # each group of 4 batches ran as one call
    assert int(model.optimizer.iterations.numpy()) == 24
    for a, b in zip(model.get_weights(), reference.get_weights(), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_run_eagerly_gives_the_same_weights(builtins):
    rng = np.random.default_rng(3)
    x = rng.normal(size=(32, 3)).astype("float32")
    y = rng.normal(size=(32, 1)).astype("float32")
    weights = []
    for eager in (False, True):
        model = _linear_model()
        model.compile(optimizer=builtins["sgd"](0.05), loss=builtins["mse"](), run_eagerly=eager)
        model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
        weights.append(model.get_weights())
    for a, b in zip(*weights, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_sequential_classifier_learns_with_accuracy(builtins):
    rng = np.random.default_rng(4)
    x = rng.normal(size=(200, 4)).astype("float32")
    y = (x[:, 0] > 0).astype("int32")
    model = Sequential(
        [
            mb_layers.Input((4,)),
            mb_layers.layers.Dense(8, activation="relu"),
            mb_layers.layers.Dense(2, activation="softmax"),
        ]
    )
    model.compile(
        optimizer=builtins["sgd"](0.5),
        loss=builtins["sparse_ce"](),
        metrics=[builtins["accuracy"]()],
    )
    history = model.fit(x, y, batch_size=20, epochs=10, verbose=0, validation_split=0.2)
    assert history.history["accuracy"][-1] > 0.85
    assert "val_accuracy" in history.history and "val_loss" in history.history
    acc = np.mean(np.argmax(model.predict(x, verbose=0), -1) == y)
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    np.testing.assert_allclose(logs["accuracy"], acc, atol=1e-6)


def test_subclassed_model_trains(builtins):
    class TwoLayers(Model):
        def __init__(self):
            super().__init__()
            self.hidden = mb_layers.layers.Dense(4)
            self.out = mb_layers.layers.Dense(1)

        def call(self, x):
            return self.out(self.hidden(x))

    rng = np.random.default_rng(5)
    x = rng.normal(size=(40, 3)).astype("float32")
    y = x.sum(axis=1, keepdims=True).astype("float32")
    model = TwoLayers()
    model.compile(optimizer=builtins["sgd"](0.05), loss=builtins["mse"]())
    history = model.fit(x, y, batch_size=10, epochs=5, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert len(model.trainable_weights) == 4


def test_train_and_test_on_batch(builtins):
    x = np.ones((4, 3), "float32")
    y = np.zeros((4, 1), "float32")
    model = _linear_model()
    model.set_weights([np.ones((3, 1), "float32"), np.zeros(1, "float32")])
    model.compile(optimizer=builtins["sgd"](0.1), loss=builtins["mse"]())
    loss = model.test_on_batch(x, y)
    np.testing.assert_allclose(loss, 9.0, rtol=1e-6)
    model.reset_metrics()
    logs = model.train_on_batch(x, y, return_dict=True)
    np.testing.assert_allclose(logs["loss"], 9.0, rtol=1e-6)
    # d/dw mean((3)^2) = 2*3*1 = 6 per kernel entry: 1 - 0.1*6
    np.testing.assert_allclose(model.get_weights()[0], np.full((3, 1), 0.4), rtol=1e-6)
    np.testing.assert_allclose(model.predict_on_batch(x), np.full((4, 1), 1.2 - 0.6), rtol=1e-5)


def test_fit_before_compile_is_a_clear_error():
    model = _linear_model()
    with pytest.raises(RuntimeError, match="compile"):
        model.fit(np.zeros((4, 3)), np.zeros((4, 1)), verbose=0)
