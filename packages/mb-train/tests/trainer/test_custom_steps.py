"""Overridden `compute_loss`, `train_step`/`test_step`/`predict_step`, and `Model`
subclasses built from (inputs, outputs), on jax, against Keras 3 where it can run the
same code (in a subprocess, KERAS_BACKEND=jax)."""

import doctest
import json
import sys
import textwrap

import numpy as np
import pytest

import mb_layers
from mb_data import unpack_x_y_sample_weight
from mb_layers import layers
from mb_ops import ops, testing
from mb_train import models, optimizers
from mb_train._trainer._gradients import value_and_gradients
from mb_train.models import Functional, Model

# Keras and mb run the same float32 steps; they differ by rounding only.
KERAS = {"rtol": 1e-5, "atol": 1e-6}

# Model classes written once, defined from this source in mb and in Keras.
MODELS = textwrap.dedent(
    """
    class MAEOnly(Model):
        # Returns its own loss; the compiled one is ignored.
        def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
            return ops.mean(ops.abs(y - y_pred))


    class PlusTerm(Model):
        # The compiled loss plus a penalty on the predictions.
        def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
            base = super().compute_loss(x, y, y_pred, sample_weight, training)
            return base + 0.5 * ops.mean(ops.square(y_pred))


    class NoTrainingArg(Model):
        # Written before Keras 3.3 added `training`.
        def compute_loss(self, x, y, y_pred, sample_weight):
            return 2.0 * ops.mean(ops.square(y - y_pred))


    class AddsLoss(Model):
        def __init__(self):
            super().__init__()
            self.dense = layers.Dense(1, kernel_initializer="ones")

        def call(self, x):
            y = self.dense(x)
            self.add_loss(ops.mean(ops.square(y)))
            return y


    def functional(cls):
        inp = Input((3,))
        return cls(inp, layers.Dense(1, kernel_initializer="ones")(inp))


    def run(model, x, y, loss):
        model.compile(optimizer=optimizers.SGD(0.05), loss=loss)
        history = model.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0)
        logs = model.evaluate(x, y, batch_size=16, verbose=0, return_dict=True)
        return {
            "loss": [float(v) for v in history.history["loss"]],
            "val": float(logs["loss"]),
            "weights": [w.tolist() for w in model.get_weights()],
        }


    def all_cases(x, y):
        return {
            "MAEOnly": run(functional(MAEOnly), x, y, "mse"),
            "PlusTerm": run(functional(PlusTerm), x, y, "mse"),
            "NoTrainingArg": run(functional(NoTrainingArg), x, y, "mse"),
            "AddsLoss": run(AddsLoss(), x, y, None),
            "AddsLoss+mse": run(AddsLoss(), x, y, "mse"),
        }
    """
)

_KERAS_RUNS = """
import json, sys
import numpy as np
from keras import Input, Model, layers, ops, optimizers
exec(sys.argv[1])
data = np.load(sys.argv[2])
print(json.dumps(all_cases(data["x"], data["y"])))
"""


def _data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(40, 3)).astype("float32")
    return x, (x @ np.array([[1.0], [-2.0], [0.5]]) + 0.3).astype("float32")


def _define_models():
    namespace = {
        "Input": mb_layers.Input,
        "Model": Model,
        "layers": layers,
        "ops": ops,
        "optimizers": optimizers,
    }
    exec(MODELS, namespace)
    return namespace


@pytest.fixture(scope="module")
def keras_results(tmp_path_factory):
    pytest.importorskip("keras", reason="Keras 3 is a test-only dependency")
    path = tmp_path_factory.mktemp("keras") / "data.npz"
    x, y = _data()
    np.savez(path, x=x, y=y)
    out = testing.run_keras(_KERAS_RUNS, MODELS, str(path), backend="jax")
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def mb_results():
    return _define_models()["all_cases"](*_data())


@pytest.mark.parametrize(
    "case", ["MAEOnly", "PlusTerm", "NoTrainingArg", "AddsLoss", "AddsLoss+mse"]
)
def test_logged_loss_is_what_compute_loss_returns_as_in_keras(case, mb_results, keras_results):
    ours, theirs = mb_results[case], keras_results[case]
    np.testing.assert_allclose(ours["loss"], theirs["loss"], **KERAS)
    np.testing.assert_allclose(ours["val"], theirs["val"], **KERAS)
    for w, k in zip(ours["weights"], theirs["weights"], strict=True):
        np.testing.assert_allclose(w, k, **KERAS)
    assert not np.allclose(ours["weights"][0], 1.0)  # the weights moved


def test_logged_loss_equals_the_overridden_value_at_fixed_weights():
    # lr 0: the weights stay put, so each epoch logs the same mean of what
    # compute_loss returned, and evaluate logs it too.
    x, y = _data()
    defined = _define_models()
    model = defined["functional"](defined["MAEOnly"])
    model.compile(optimizer=optimizers.SGD(0.0), loss="mse")
    history = model.fit(x, y, batch_size=20, epochs=2, shuffle=False, verbose=0)
    expected = float(np.mean(np.abs(y - x.sum(axis=1, keepdims=True))))
    np.testing.assert_allclose(history.history["loss"], [expected] * 2, rtol=1e-6)
    assert model.evaluate(x, y, batch_size=20, verbose=0) == pytest.approx(expected, rel=1e-6)


# ----- subclasses of Model built from (inputs, outputs) ----------------------------------


class _CountingModel(Model):
    """A Keras-style subclass: passes everything on, counts its training steps."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.steps_seen = 0

    def train_step(self, data):
        self.steps_seen += 1  # Python side effect: runs once per trace on jax
        return super().train_step(data)


def _graph():
    inp = mb_layers.Input((3,), name="x")
    return inp, layers.Dense(2, name="d")(inp)


def test_subclass_called_with_inputs_and_outputs_is_a_functional_model():
    inp, out = _graph()
    model = _CountingModel(inputs=inp, outputs=out, name="mine")
    assert type(model) is _CountingModel
    assert isinstance(model, Functional)
    assert [layer.name for layer in model.layers] == ["x", "d"]
    assert model.output.shape == (None, 2)
    lines = []
    model.summary(print_fn=lines.append)
    text = "\n".join(lines)
    assert "d (Dense)" in text and "(None, 2)" in text and "Total params: 8" in text
    # Positional arguments work the same.
    assert isinstance(_CountingModel(inp, out), Functional)


def test_subclass_with_its_own_train_step_fits():
    inp, out = _graph()
    model = _CountingModel(inp, out)
    model.compile(optimizer=optimizers.SGD(0.1), loss="mse")
    x = np.ones((8, 3), "float32")
    y = np.zeros((8, 2), "float32")
    before = model.get_weights()[0].copy()
    history = model.fit(x, y, batch_size=4, epochs=3, verbose=0)
    assert model.steps_seen >= 1
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert not np.allclose(model.get_weights()[0], before)


def test_subclass_round_trips_through_its_functional_config():
    inp, out = _graph()
    model = _CountingModel(inp, out, name="mine")
    config = model.get_config()
    assert {"layers", "input_layers", "output_layers", "name"} <= set(config)
    clone = _CountingModel.from_config(config)
    assert type(clone) is _CountingModel and clone.name == "mine"
    clone.set_weights(model.get_weights())
    x = np.arange(6, dtype="float32").reshape(2, 3)
    np.testing.assert_allclose(clone.predict(x, verbose=0), model.predict(x, verbose=0))


def test_subclass_with_other_constructor_arguments_writes_the_layer_config():
    # As Keras: only (inputs, outputs, name) or (*args, **kwargs) constructors are
    # rebuilt from the graph; others override get_config/from_config.
    class Scaled(Model):
        def __init__(self, inputs, outputs, scale=2.0, **kwargs):
            super().__init__(inputs, outputs, **kwargs)
            self.scale = scale

    inp, out = _graph()
    assert sorted(Scaled(inp, out).get_config()) == ["dtype", "name", "trainable"]


# ----- Keras's stateless (JAX-style) step signature ---------------------------------------


class _StatelessEval(Model):
    """test_step and predict_step written against explicit state, as for Keras on jax."""

    def test_step(self, state, data):
        trainable, non_trainable, metrics_values = state
        x, y = data
        y_pred, non_trainable = self.stateless_call(trainable, non_trainable, x)
        loss = ops.mean(ops.abs(y - y_pred))
        tracker = self.metrics[0]
        metrics_values = list(metrics_values)
        metrics_values[:2] = tracker.stateless_update_state(metrics_values[:2], loss)
        return {"loss": tracker.stateless_result(metrics_values[:2])}, (
            trainable,
            non_trainable,
            metrics_values,
        )

    def predict_step(self, state, data):
        trainable, non_trainable = state
        x, _, _ = unpack_x_y_sample_weight(data)
        y_pred, non_trainable = self.stateless_call(trainable, non_trainable, x)
        return 2.0 * y_pred, non_trainable


def test_stateless_test_and_predict_steps():
    x, y = _data()
    inp = mb_layers.Input((3,))
    model = _StatelessEval(inp, layers.Dense(1, kernel_initializer="ones")(inp))
    model.compile(optimizer=optimizers.SGD(0.1), loss="mse")
    pred = x.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(model.predict(x, batch_size=8, verbose=0), 2.0 * pred, rtol=1e-6)
    logs = model.evaluate(x, y, batch_size=8, verbose=0, return_dict=True)
    assert logs["loss"] == pytest.approx(float(np.mean(np.abs(y - pred))), rel=1e-6)


def test_stateless_step_returning_a_misshapen_state_is_refused():
    class Broken(Model):
        def test_step(self, state, data):
            return {}, state[:2]  # the metrics' values are missing

    inp = mb_layers.Input((3,))
    model = Broken(inp, layers.Dense(1)(inp))
    model.compile(optimizer=optimizers.SGD(0.1), loss="mse")
    x, y = _data()
    with pytest.raises(ValueError, match=r"test_step\(state, data\) must return"):
        model.evaluate(x, y, verbose=0)


def test_stateless_compute_loss_reads_the_given_values_and_changes_nothing():
    inp = mb_layers.Input((3,))
    dense = layers.Dense(1, kernel_initializer="ones", kernel_regularizer="l2")
    model = Model(inp, dense(inp))
    model.compile(optimizer=optimizers.SGD(0.1), loss="mse")
    x, y = _data()
    model.evaluate(x, y, verbose=0)  # builds the compiled loss
    given = [np.full((3, 1), 2.0, "float32"), np.zeros(1, "float32")]
    loss, (trainable, non_trainable, metrics) = model.stateless_compute_loss(
        given,
        [v.value for v in model.non_trainable_variables],
        [v.value for v in model.metrics_variables],
        x=x,
        y=y,
        y_pred=ops.convert_to_tensor(np.zeros_like(y)),
    )
    # mse against zero predictions plus l2 (0.01) on the given kernel, not the live one.
    assert float(loss) == pytest.approx(float(np.mean(y**2)) + 0.01 * 12.0, rel=1e-6)
    assert trainable is given and non_trainable == []
    assert len(metrics) == len(model.metrics_variables)
    np.testing.assert_array_equal(dense.kernel.numpy(), 1.0)


# ----- value_and_gradients --------------------------------------------------------------


def test_value_and_gradients_is_public_in_models_and_its_example_runs():
    assert models.value_and_gradients is value_and_gradients
    module = sys.modules[value_and_gradients.__module__]
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_every_tracked_metric_of_a_two_output_model_has_the_stateless_methods():
    # Keras's jax guide loops over `self.metrics` with stateless_update_state and
    # stateless_result: the per-output loss trackers must take part too.
    x = mb_layers.Input((3,))
    model = Functional(x, [layers.Dense(1, name="a")(x), layers.Dense(1, name="b")(x)])
    model.compile(optimizer="sgd", loss=["mse", "mae"], metrics=[["mae"], ["mse"]])
    data = np.ones((4, 3), "float32")
    model.evaluate(data, [np.zeros((4, 1)), np.zeros((4, 1))], verbose=0)
    names = [metric.name for metric in model.metrics]
    # Keras's order: the loss tracker, the compiled metrics, the per-output trackers.
    assert names[:4] == ["loss", "compile_metrics", "a_loss", "b_loss"]
    for metric in [model.metrics[0], *model.metrics[2:4]]:
        values = metric.stateless_reset_state()
        values = metric.stateless_update_state(values, 2.5)
        assert float(metric.stateless_result(values)) == pytest.approx(2.5)
