"""The compiled steps are kept on the model across fit/evaluate/predict calls, and
built again when what they depend on changes (a stale step would train wrong).

Two counters: the step programs mb builds (`StepRunner`s, every backend) and, on jax,
the programs XLA compiles (a `jax.monitoring` listener; it counts nothing on the other
engines, whose compile caches are their own)."""

import collections
import threading

import numpy as np
import pytest

import mb_layers
from mb_train._trainer import _runner
from mb_train.models import Model, Sequential

jax_monitoring = pytest.importorskip("jax.monitoring")

_COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"


class _Counts:
    def __init__(self):
        self.builds = collections.Counter()  # step programs built, by step name
        self.compiles = 0  # XLA compilations (jax)
        self.off_main_thread = 0  # ... of which on a background thread

    def snapshot(self):
        return collections.Counter(self.builds), self.compiles

    def since(self, snapshot):
        builds, compiles = snapshot
        return dict(self.builds - builds), self.compiles - compiles


@pytest.fixture
def counts(monkeypatch):
    found = _Counts()
    original = _runner.StepRunner.__init__

    def counting_init(runner, method, *args, **kwargs):
        found.builds[getattr(method, "__name__", "step")] += 1
        original(runner, method, *args, **kwargs)

    def listener(event, duration, **kwargs):
        if event == _COMPILE_EVENT:
            found.compiles += 1
            found.off_main_thread += threading.current_thread() is not threading.main_thread()

    monkeypatch.setattr(_runner.StepRunner, "__init__", counting_init)
    jax_monitoring.register_event_duration_secs_listener(listener)
    yield found
    jax_monitoring.unregister_event_duration_listener(listener)


def _wait_for_background_compiles(model):
    # jax compiles the N-step program on a background thread: let it finish so that
    # its compilation is counted where it happened.
    for runner in model._runners.values():
        result = getattr(runner._ahead, "result", None)
        if result is not None:
            result()


def _data(seed, n=64, features=3):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, features)).astype("float32")
    y = (x @ rng.normal(size=(features, 1)) + 0.3).astype("float32")
    return x, y


def _two_layer_model(seed=0):
    x = mb_layers.Input((3,))
    hidden = mb_layers.layers.Dense(4, activation="tanh", name="hidden")
    out = mb_layers.layers.Dense(1, name="out")
    model = Model(x, out(hidden(x)))
    rng = np.random.default_rng(seed)
    model.set_weights([rng.normal(size=w.shape).astype("float32") for w in model.get_weights()])
    return model


def _assert_same_weights(model, reference):
    for a, b in zip(model.get_weights(), reference.get_weights(), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("steps_per_execution", [1, 4])
def test_a_second_fit_builds_and_compiles_nothing(builtins, counts, steps_per_execution):
    x, y = _data(0)
    model = _two_layer_model()
    model.compile(
        optimizer=builtins["sgd"](0.05),
        loss=builtins["mse"](),
        steps_per_execution=steps_per_execution,
    )
    model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
    _wait_for_background_compiles(model)
    if counts.compiles and steps_per_execution > 1:
        # The N-step program compiled off the calling thread while single steps ran.
        assert counts.off_main_thread == 1
    first = counts.snapshot()
    for _ in range(2):  # Keras-style fit(epochs=1) in a loop
        model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    _wait_for_background_compiles(model)
    assert counts.since(first) == ({}, 0)
    # ... and the kept step trained on: 4 epochs as one fit of a fresh model.
    reference = _two_layer_model()
    reference.compile(optimizer=builtins["sgd"](0.05), loss=builtins["mse"]())
    reference.fit(x, y, batch_size=8, epochs=4, shuffle=False, verbose=0)
    _assert_same_weights(model, reference)


def test_evaluate_and_predict_after_fit_reuse_their_steps(builtins, counts):
    x, y = _data(1)
    model = _two_layer_model()
    model.compile(optimizer=builtins["sgd"](0.05), loss=builtins["mse"](), metrics=["mae"])
    model.fit(x, y, batch_size=8, epochs=1, verbose=0, validation_data=(x, y))
    before = counts.snapshot()
    logs = model.evaluate(x, y, batch_size=8, verbose=0, return_dict=True)
    assert counts.since(before) == ({}, 0)  # the validation's test step, same shapes
    model.predict(x, batch_size=8, verbose=0)
    after_first_predict = counts.snapshot()
    assert counts.since(before)[0] == {"predict_step": 1}
    again = model.evaluate(x, y, batch_size=8, verbose=0, return_dict=True)
    predictions = model.predict(x, batch_size=8, verbose=0)
    assert counts.since(after_first_predict) == ({}, 0)
    kernel, bias, kernel2, bias2 = model.get_weights()
    expected = np.tanh(x @ kernel + bias) @ kernel2 + bias2
    np.testing.assert_allclose(predictions, expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(again["loss"], np.mean((expected - y) ** 2), rtol=1e-5)
    assert again == pytest.approx(logs, rel=1e-6)


def test_compile_with_a_new_optimizer_builds_the_train_step_again(builtins, counts):
    x, y = _data(2)
    model = _two_layer_model()
    model.compile(optimizer=builtins["sgd"](0.05), loss=builtins["mse"]())
    model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    model.predict(x, batch_size=8, verbose=0)
    first_fit_compiled = counts.compiles > 0
    trained_once = model.get_weights()
    before = counts.snapshot()
    model.compile(optimizer=builtins["sgd"](0.2), loss=builtins["mse"]())
    model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    builds, compiles = counts.since(before)
    assert builds == {"train_step": 1}
    assert compiles > 0 or not first_fit_compiled
    reference = _two_layer_model()
    reference.set_weights(trained_once)
    reference.compile(optimizer=builtins["sgd"](0.2), loss=builtins["mse"]())
    reference.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    _assert_same_weights(model, reference)  # a stale step would still step by 0.05
    # The predict step does not depend on compile(): it was kept, and reads the new
    # weights.
    before = counts.snapshot()
    predictions = model.predict(x, batch_size=8, verbose=0)
    assert counts.since(before) == ({}, 0)
    np.testing.assert_allclose(predictions, reference.predict(x, verbose=0), rtol=1e-5, atol=1e-6)


def test_freezing_a_layer_builds_the_train_step_again(builtins, counts):
    x, y = _data(3)
    model = _two_layer_model()
    model.compile(optimizer=builtins["sgd"](0.05), loss=builtins["mse"]())
    model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    first_fit_compiled = counts.compiles > 0
    trained_once = model.get_weights()
    model.get_layer("hidden").trainable = False
    before = counts.snapshot()
    model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    builds, compiles = counts.since(before)
    assert builds == {"train_step": 1}
    assert compiles > 0 or not first_fit_compiled
    frozen_kernel, frozen_bias = model.get_layer("hidden").get_weights()
    np.testing.assert_array_equal(frozen_kernel, trained_once[0])
    np.testing.assert_array_equal(frozen_bias, trained_once[1])
    reference = _two_layer_model()
    reference.set_weights(trained_once)
    reference.get_layer("hidden").trainable = False
    reference.compile(optimizer=builtins["sgd"](0.05), loss=builtins["mse"]())
    reference.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    _assert_same_weights(model, reference)
    # Unfrozen again: the step that trains both layers is back, and trains both.
    model.get_layer("hidden").trainable = True
    model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    assert not np.allclose(model.get_layer("hidden").get_weights()[0], trained_once[0])


def _numpy_sgd(x, y, w, b, lr, batch_size):
    for i in range(0, len(x), batch_size):
        xb, yb = x[i : i + batch_size], y[i : i + batch_size]
        err = xb @ w + b - yb
        w, b = w - lr * 2 * xb.T @ err / len(xb), b - lr * 2 * err.mean(axis=0)
    return w, b


def test_a_new_input_shape_compiles_a_new_program_that_trains_right(builtins, counts):
    x, y = _data(4, n=48)
    model = Sequential(
        [mb_layers.Input((3,)), mb_layers.layers.Dense(1, kernel_initializer="zeros")]
    )
    model.compile(optimizer=builtins["sgd"](0.05), loss=builtins["mse"](), steps_per_execution=2)
    model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    first_fit_compiled = counts.compiles > 0
    _wait_for_background_compiles(model)
    before = counts.snapshot()
    model.fit(x, y, batch_size=12, epochs=1, shuffle=False, verbose=0)  # new batch shape
    _wait_for_background_compiles(model)
    builds, compiles = counts.since(before)
    assert builds == {}  # the same step, compiled by the engine for the new shape
    assert compiles > 0 or not first_fit_compiled
    w, b = _numpy_sgd(x, y, np.zeros((3, 1)), np.zeros(1), 0.05, 8)
    w, b = _numpy_sgd(x, y, w, b, 0.05, 12)
    kernel, bias = model.get_weights()
    np.testing.assert_allclose(kernel, w, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(bias, b, rtol=1e-4, atol=1e-5)


def test_a_train_step_set_on_the_instance_is_used_by_the_next_fit(builtins, counts):
    x, y = _data(5)
    model = _two_layer_model()
    model.compile(optimizer=builtins["sgd"](0.05), loss=builtins["mse"]())
    model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    calls = []
    own = model.train_step

    def train_step(data):
        calls.append(1)  # runs while the step is traced or run
        return own(data)

    model.train_step = train_step
    model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    assert calls
