"""Per-output losses, weights and metrics; errors for mismatched structures and labels."""

import numpy as np
import pytest

import mb_layers
import mb_ops.core
from mb_ops import backends
from mb_train.models import Model


def _two_outputs():
    inp = mb_layers.Input((3,))
    a = mb_layers.layers.Dense(1, name="a", kernel_initializer="ones")(inp)
    b = mb_layers.layers.Dense(1, name="b", kernel_initializer="zeros")(inp)
    return Model(inp, [a, b])


def test_dict_losses_and_weights_per_output_name(builtins):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(16, 3)).astype("float32")
    ya, yb = rng.normal(size=(16, 1)).astype("float32"), rng.normal(size=(16, 1)).astype("float32")
    model = _two_outputs()
    model.compile(
        optimizer=builtins["sgd"](0.0),
        loss={"a": builtins["mse"](), "b": builtins["mse"]()},
        loss_weights={"a": 1.0, "b": 0.5},
    )
    logs = model.evaluate(x, {"a": ya, "b": yb}, batch_size=16, verbose=0, return_dict=True)
    pa, pb = x.sum(axis=1, keepdims=True), np.zeros((16, 1))
    la, lb = np.mean((pa - ya) ** 2), np.mean((pb - yb) ** 2)
    np.testing.assert_allclose(logs["a_loss"], la, rtol=1e-5)
    np.testing.assert_allclose(logs["b_loss"], lb, rtol=1e-5)
    np.testing.assert_allclose(logs["loss"], la + 0.5 * lb, rtol=1e-5)
    history = model.fit(x, [ya, yb], batch_size=8, epochs=1, verbose=0)
    assert {"loss", "a_loss", "b_loss"} <= set(history.history)


def test_loss_list_of_wrong_length_is_a_clear_error(builtins):
    model = _two_outputs()
    model.compile(optimizer=builtins["sgd"](), loss=[builtins["mse"]()] * 3)
    with pytest.raises(ValueError, match="3 entries, but the model has 2 output"):
        model.fit(np.zeros((4, 3)), [np.zeros((4, 1))] * 2, verbose=0)


def test_loss_dict_with_unknown_output_name_is_a_clear_error(builtins):
    model = _two_outputs()
    model.compile(
        optimizer=builtins["sgd"](), loss={"a": builtins["mse"](), "c": builtins["mse"]()}
    )
    with pytest.raises(ValueError, match=r"\['c'\] that are not output names"):
        model.fit(np.zeros((4, 3)), [np.zeros((4, 1))] * 2, verbose=0)


def test_targets_of_the_wrong_structure_are_a_clear_error(builtins):
    model = _two_outputs()
    model.compile(optimizer=builtins["sgd"](), loss=builtins["mse"]())
    with pytest.raises(ValueError, match="2 output"):
        model.fit(np.zeros((4, 3)), np.zeros((4, 1)), verbose=0)


def test_labels_of_the_wrong_shape_fail_before_the_first_step(builtins):
    inp = mb_layers.Input((3,))
    model = Model(inp, mb_layers.layers.Dense(4)(inp))
    model.compile(optimizer=builtins["sgd"](), loss=builtins["mse"]())
    with pytest.raises(ValueError, match=r"first batch.*\(8, 3\).*\(8, 4\)"):
        model.fit(np.zeros((8, 3)), np.zeros((8, 3)), batch_size=8, verbose=0)
    assert int(model.optimizer.iterations.numpy()) == 0


def test_inference_only_backend_refuses_fit_by_name(monkeypatch, builtins):
    # What numpy and openvino do: declare value_and_grad unsupported, with the reason.
    training = backends.backend_module("training")
    monkeypatch.setattr(training, "UNSUPPORTED", {"value_and_grad": "it cannot differentiate"})
    inp = mb_layers.Input((3,))
    model = Model(inp, mb_layers.layers.Dense(1)(inp))
    model.compile(optimizer=builtins["sgd"](), loss=builtins["mse"]())
    with pytest.raises(
        NotImplementedError, match=r"backend cannot: it cannot differentiate\. Select jax"
    ):
        model.fit(np.zeros((4, 3)), np.zeros((4, 1)), verbose=0)


def test_a_model_nested_in_a_functional_model_builds_and_trains(builtins):
    inner_in = mb_layers.Input((3,))
    inner = Model(inner_in, mb_layers.layers.Dense(2, name="inner_dense")(inner_in), name="inner")
    outer_in = mb_layers.Input((3,))
    outer = Model(outer_in, mb_layers.layers.Dense(1, name="head")(inner(outer_in)))
    rng = np.random.default_rng(1)
    x, y = rng.normal(size=(8, 3)).astype("float32"), rng.normal(size=(8, 1)).astype("float32")
    outer.compile(optimizer=builtins["sgd"](0.1), loss=builtins["mse"]())
    before = outer.evaluate(x, y, verbose=0)
    outer.fit(x, y, batch_size=8, epochs=5, verbose=0)
    assert outer.evaluate(x, y, verbose=0) < before
    by_hand = outer.get_layer("head")(inner(x))
    np.testing.assert_allclose(
        outer.predict(x, verbose=0), mb_ops.core.convert_to_numpy(by_hand), rtol=1e-5
    )
