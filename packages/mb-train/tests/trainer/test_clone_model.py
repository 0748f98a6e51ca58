"""`clone_model`: same architecture, new layers, fresh weights; shared layers stay shared."""

import numpy as np
import pytest

import mb_layers
from mb_layers import layers
from mb_train.models import Model, Sequential, clone_model

RNG = np.random.default_rng(0)


def _shared_tower():
    a, b = mb_layers.Input((4,), name="a"), mb_layers.Input((4,), name="b")
    shared = layers.Dense(3, name="shared")
    merged = layers.Concatenate(name="cat")([shared(a), shared(b)])
    return Model({"a": a, "b": b}, layers.Dense(1, name="head")(merged), name="tower")


def test_functional_clone_has_new_layers_with_fresh_weights_and_the_same_graph():
    model = _shared_tower()
    clone = clone_model(model)
    assert clone.name == "tower" and [lay.name for lay in clone.layers] == [
        lay.name for lay in model.layers
    ]
    for name in ("shared", "head"):
        assert clone.get_layer(name) is not model.get_layer(name)
    # Shared once in the original, shared once in the clone: one Dense, two calls.
    assert len(clone.trainable_weights) == len(model.trainable_weights) == 4
    clone.set_weights(model.get_weights())
    x = {"a": RNG.normal(size=(5, 4)).astype("float32"), "b": RNG.normal(size=(5, 4))}
    x["b"] = x["b"].astype("float32")
    np.testing.assert_allclose(
        np.asarray(clone.predict(x, verbose=0)), np.asarray(model.predict(x, verbose=0)), rtol=1e-6
    )
    # The weights are independent: training the clone leaves the original alone.
    before = [np.array(w) for w in model.get_weights()]
    clone.compile(optimizer="sgd", loss="mse")
    clone.fit(x, np.ones((5, 1), "float32"), epochs=2, verbose=0)
    for got, want in zip(model.get_weights(), before, strict=True):
        np.testing.assert_array_equal(got, want)


def test_sequential_clone_keeps_its_input_and_reinitializes():
    model = Sequential([mb_layers.Input((6,)), layers.Dense(4), layers.Dense(2)], name="stack")
    clone = clone_model(model)
    assert isinstance(clone, Sequential) and clone.name == "stack"
    assert clone.built and clone.output_shape == (None, 2)
    assert not np.allclose(clone.layers[0].kernel, model.layers[0].kernel)


def test_a_compiled_model_clones_compiled_with_its_own_optimizer_and_metrics():
    import mb_saving  # noqa: F401  (serializes the compile configuration)

    model = Sequential([mb_layers.Input((3,)), layers.Dense(2)], name="compiled")
    model.compile(optimizer="adam", loss="mse", metrics=["mae"])
    clone = clone_model(model)
    assert clone.compiled and clone.get_compile_config() == model.get_compile_config()
    assert clone.optimizer is not model.optimizer
    x, y = RNG.normal(size=(8, 3)).astype("float32"), np.zeros((8, 2), "float32")
    history = clone.fit(x, y, epochs=1, verbose=0)  # fits without a compile() of its own
    assert set(history.history) == {"loss", "mae"}
    assert int(model.optimizer.iterations.numpy()) == 0
    # An uncompiled model's clone stays uncompiled.
    assert not clone_model(Sequential([mb_layers.Input((3,)), layers.Dense(2)])).compiled


def test_clone_function_and_call_function_change_the_clone():
    model = Sequential([mb_layers.Input((3,)), layers.Dense(4, name="d1"), layers.Dense(1)])

    def widen(layer):
        config = layer.get_config()
        if layer.name == "d1":
            config["units"] = 8
        return layer.__class__.from_config(config)

    assert clone_model(model, clone_function=widen).get_layer("d1").units == 8
    inputs = mb_layers.Input((3,))
    seen = []

    def call(layer, *args, **kwargs):
        seen.append(layer.name)
        return layer(*args, **kwargs)

    wired = clone_model(model, input_tensors=inputs, call_function=call)
    assert wired.inputs[0] is inputs and seen == ["d1", model.layers[-1].name]


def test_recursive_clone_reaches_nested_models():
    inner_in = mb_layers.Input((3,))
    inner = Model(inner_in, layers.Dense(2, name="inner_dense")(inner_in), name="inner")
    outer_in = mb_layers.Input((3,))
    outer = Model(outer_in, layers.Dense(1)(inner(outer_in)))
    names = []

    def record(layer):
        names.append(layer.name)
        return layer.__class__.from_config(layer.get_config())

    clone_model(outer, clone_function=record, recursive=True)
    assert "inner_dense" in names and "inner" not in names
    names.clear()
    clone_model(
        outer, clone_function=lambda layer: record(layer) if layer.name != "inner" else layer
    )
    assert "inner_dense" not in names


def test_bad_arguments_are_clear_errors():
    model = _shared_tower()
    with pytest.raises(ValueError, match="2 KerasTensor"):
        clone_model(model, input_tensors=[mb_layers.Input((4,))])
    with pytest.raises(ValueError, match="must return a Layer"):
        clone_model(model, clone_function=lambda layer: None)

    class Sub(Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.dense = layers.Dense(1)

        def call(self, x):
            return self.dense(x)

    with pytest.raises(ValueError, match="subclassed model"):
        clone_model(Sub(), clone_function=lambda layer: layer)
