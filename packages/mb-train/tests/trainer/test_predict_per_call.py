"""What `predict` does per call on an unchanged model (no walk over its layers, no
iterator for one array batch), and that every change to the model still reaches the
next `predict`: the right outputs from a step made for the model as it is now."""

import collections

import numpy as np
import pytest

import mb_layers
from mb_data import EpochIterator
from mb_layers._layer_state import LayerStateMixin
from mb_ops import ops
from mb_train import callbacks as callbacks_module
from mb_train._trainer import _runner
from mb_train.models import Model, Sequential


@pytest.fixture
def counts(monkeypatch):
    """Walks over a model's layers for its variables, step programs built, and
    `EpochIterator`s made."""
    found = collections.Counter()
    variables = LayerStateMixin.variables.fget
    runner_init = _runner.StepRunner.__init__
    iterator_init = EpochIterator.__init__

    def counting_variables(layer):
        found["walks"] += 1
        return variables(layer)

    def counting_runner(runner, method, *args, **kwargs):
        found[getattr(method, "__name__", "step")] += 1
        runner_init(runner, method, *args, **kwargs)

    def counting_iterator(iterator, *args, **kwargs):
        found["iterators"] += 1
        iterator_init(iterator, *args, **kwargs)

    monkeypatch.setattr(LayerStateMixin, "variables", property(counting_variables))
    monkeypatch.setattr(_runner.StepRunner, "__init__", counting_runner)
    monkeypatch.setattr(EpochIterator, "__init__", counting_iterator)
    return found


def _x(n=5, features=3, seed=0):
    return np.random.default_rng(seed).normal(size=(n, features)).astype("float32")


def _two_layer_model():
    x = mb_layers.Input((3,))
    hidden = mb_layers.layers.Dense(4, activation="tanh", name="hidden")
    out = mb_layers.layers.Dense(2, name="out")
    model = Model(x, out(hidden(x)))
    rng = np.random.default_rng(1)
    model.set_weights([rng.normal(size=w.shape).astype("float32") for w in model.get_weights()])
    return model


def _expected(model, x):
    kernel, bias, kernel2, bias2 = model.get_weights()
    return np.tanh(x @ kernel + bias) @ kernel2 + bias2


def test_an_unchanged_model_predicts_without_walking_its_layers(counts):
    model = _two_layer_model()
    x = _x()
    model.predict(x, verbose=0)
    model.predict_on_batch(x)
    counts.clear()
    for _ in range(3):
        predictions = model.predict(x, verbose=0)
        on_batch = model.predict_on_batch(x)
    assert counts == {}  # no walk, no new step, no iterator for one batch
    np.testing.assert_allclose(predictions, _expected(model, x), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(on_batch, predictions, rtol=1e-6, atol=1e-6)


def test_predict_over_several_batches_or_with_callbacks_uses_the_iterator(counts):
    model = _two_layer_model()
    x = _x(n=40)
    seen = []
    logger = callbacks_module.LambdaCallback(on_predict_batch_end=lambda b, logs: seen.append(b))
    expected = _expected(model, x)
    np.testing.assert_allclose(model.predict(x, verbose=0), expected, rtol=1e-5, atol=1e-5)
    assert counts["iterators"] == 1  # two batches of 32
    small = model.predict(x[:4], verbose=0, callbacks=[logger])
    np.testing.assert_allclose(small, expected[:4], rtol=1e-5, atol=1e-5)
    assert counts["iterators"] == 2 and seen == [0]
    batched = model.predict(x[:4], batch_size=2, verbose=0)  # two batches of 2
    np.testing.assert_allclose(batched, expected[:4], rtol=1e-5, atol=1e-5)
    assert counts["iterators"] == 3


def test_one_batch_of_float64_or_int_inputs_predicts_as_the_iterator_does(counts):
    model = Sequential([mb_layers.Input((3,)), mb_layers.layers.Dense(2)])
    x = _x(n=4)
    as_float64 = model.predict(x.astype("float64"), verbose=0)
    as_int = model.predict(np.arange(12).reshape(4, 3), verbose=0)
    assert counts["iterators"] == 0
    assert as_float64.dtype == np.float32
    np.testing.assert_allclose(as_float64, model.predict_on_batch(x), rtol=1e-6, atol=1e-6)
    ints = np.arange(12, dtype="float32").reshape(4, 3)
    np.testing.assert_allclose(as_int, model.predict_on_batch(ints), rtol=1e-5, atol=1e-5)


def test_an_unbuilt_model_is_built_by_its_first_one_batch_predict():
    model = Sequential([mb_layers.layers.Dense(2, kernel_initializer="ones")])
    predictions = model.predict(np.ones((3, 4), "float64"), verbose=0)
    assert model.built
    np.testing.assert_allclose(predictions, np.full((3, 2), 4.0))


def test_a_layer_without_weights_added_to_a_sequential_changes_predict(counts):
    model = Sequential(
        [
            mb_layers.Input((2,)),
            mb_layers.layers.Dense(
                2, kernel_initializer="ones", bias_initializer=mb_layers.initializers.Constant(-3.0)
            ),
        ]
    )
    x = np.ones((1, 2), "float32")
    np.testing.assert_allclose(model.predict(x, verbose=0), [[-1.0, -1.0]])
    counts.clear()
    model.add(mb_layers.layers.Activation("relu"))
    np.testing.assert_allclose(model.predict(x, verbose=0), [[0.0, 0.0]])
    assert counts["predict_step"] == 1  # the step was made again, for the new stack
    model.pop()
    np.testing.assert_allclose(model.predict_on_batch(x), [[-1.0, -1.0]])


def test_a_frozen_layer_or_variable_regroups_the_predict_step(counts):
    model = _two_layer_model()
    x = _x()
    expected = _expected(model, x)
    model.predict(x, verbose=0)
    assert len(model.predict_function._mb_runner.read_only) == 4
    model.get_layer("hidden").trainable = False
    np.testing.assert_allclose(model.predict(x, verbose=0), expected, rtol=1e-5, atol=1e-5)
    runner = model.predict_function._mb_runner
    assert [v.path for v in runner.read_only] == ["out/kernel", "out/bias"]
    assert [v.path for v in runner.mutable] == ["hidden/kernel", "hidden/bias"]
    model.get_layer("out").bias.trainable = False  # one variable, on its own
    np.testing.assert_allclose(model.predict_on_batch(x), expected, rtol=1e-5, atol=1e-5)
    runner = model.predict_function._mb_runner
    assert [v.path for v in runner.read_only] == ["out/kernel"]
    assert counts["predict_step"] == 3


class _Scale(mb_layers.Layer):
    """x times every weight in `self.factors` (weights may be added after a call)."""

    def build(self, input_shape):
        self.factors = [self.add_weight(shape=(), initializer="ones", name="f0")]

    def call(self, x):
        for factor in self.factors:
            x = x * factor
        return x


def test_a_weight_built_after_predict_is_used_by_the_next_predict(counts):
    scale = _Scale()
    model = Sequential([mb_layers.Input((3,)), scale])
    x = _x()
    np.testing.assert_allclose(model.predict(x, verbose=0), x, rtol=1e-6)
    scale.factors.append(
        scale.add_weight(shape=(), initializer=mb_layers.initializers.Constant(3.0), name="f1")
    )
    np.testing.assert_allclose(model.predict(x, verbose=0), 3 * x, rtol=1e-6)
    assert len(model.predict_function._mb_runner.read_only) == 2


def test_new_weight_values_reach_the_kept_predict_step(counts):
    model = _two_layer_model()
    x = _x()
    model.predict(x, verbose=0)
    counts.clear()
    rng = np.random.default_rng(7)
    model.set_weights([rng.normal(size=w.shape).astype("float32") for w in model.get_weights()])
    np.testing.assert_allclose(
        model.predict(x, verbose=0), _expected(model, x), rtol=1e-5, atol=1e-5
    )
    out = model.get_layer("out")  # loaded as mb_saving loads a layer's variables
    out.load_own_variables({"0": np.zeros((4, 2), "float32"), "1": np.ones(2, "float32")})
    np.testing.assert_allclose(model.predict_on_batch(x), np.ones((5, 2)), rtol=1e-6)
    assert counts["predict_step"] == 0  # the same variables: the step is kept


def test_a_quantized_model_predicts_with_its_new_weights(counts):
    model = _two_layer_model()
    x = _x()
    model.predict(x, verbose=0)
    counts.clear()
    model.quantize("int8")
    eager = ops.convert_to_numpy(model(x))
    np.testing.assert_allclose(model.predict(x, verbose=0), eager, rtol=1e-5, atol=1e-5)
    assert counts["predict_step"] == 1
    runner_variables = model.predict_function._mb_runner.read_only
    runner_variables += model.predict_function._mb_runner.mutable
    assert {id(v) for v in runner_variables} == {id(v) for v in model.variables}
