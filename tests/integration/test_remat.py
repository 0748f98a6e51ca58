"""`mb.RematScope` / `mb.remat`: gradient checkpointing through the engine's own
(``jax.checkpoint``, ``torch.utils.checkpoint``, ``tf.recompute_grad``). Numbers equal
those without rematerialization; that the engine recomputes is seen on jax in the
traced program, on torch and tensorflow by the forward code running again in the
backward pass."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest

import mb as keras
from mb_ops import backends

pytestmark = pytest.mark.trains

_X = np.random.default_rng(0).normal(size=(16, 4)).astype("float32")
_Y = np.random.default_rng(1).normal(size=(16, 1)).astype("float32")


class _Counted(keras.layers.Layer):
    """tanh, counting how often its Python code runs on real tensors (not when its output
    shape is inferred)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.runs = 0

    def call(self, x):
        if not isinstance(x, keras.KerasTensor):
            self.runs += 1
        return keras.ops.tanh(x) * 2.0


def _value_and_grad(fn):
    return backends.backend_module("training").value_and_grad(fn)


def _recomputes():
    """Whether the engine reruns Python in the backward pass (eager torch, tensorflow);
    jax records the recomputation in its traced program instead."""
    return keras.config.backend() != "jax"


def _checkpoint_in_jaxpr(fn, *args):
    jax = pytest.importorskip("jax")
    return any("checkpoint" in str(eqn.primitive) or "remat" in str(eqn.primitive)
               for eqn in jax.make_jaxpr(fn)(*args).jaxpr.eqns)  # fmt: skip


def test_remat_gives_the_same_values_and_gradients():
    runs = {"n": 0}

    def f(x, training=False):
        runs["n"] += 1
        return keras.ops.sum(keras.ops.tanh(x) ** 2) * (2.0 if training else 1.0)

    x = keras.ops.convert_to_tensor(np.linspace(-1, 1, 6).astype("float32"))
    plain_value, plain_grad = _value_and_grad(lambda x: f(x, training=True))(x)
    plain_runs, runs["n"] = runs["n"], 0
    rematerialized = keras.remat(f)
    value, grad = _value_and_grad(lambda x: rematerialized(x, training=True))(x)
    np.testing.assert_allclose(
        keras.ops.convert_to_numpy(value), keras.ops.convert_to_numpy(plain_value), rtol=1e-6
    )
    np.testing.assert_allclose(
        keras.ops.convert_to_numpy(grad), keras.ops.convert_to_numpy(plain_grad), rtol=1e-6
    )
    if _recomputes():
        assert (plain_runs, runs["n"]) == (1, 2)
    else:
        assert _checkpoint_in_jaxpr(_value_and_grad(lambda x: rematerialized(x, training=True)), x)
        assert not _checkpoint_in_jaxpr(_value_and_grad(lambda x: f(x, training=True)), x)


def _model(mode=None, **scope_kwargs):
    keras.utils.set_random_seed(0)
    scope = keras.RematScope(mode=mode, **scope_kwargs) if mode else contextlib.nullcontext()
    with scope:  # the layers' mode; the model itself outside (it would nest the layers')
        layers = [
            keras.layers.Dense(8, activation="relu", name="hidden"),
            _Counted(name="counted"),
            keras.layers.Dense(1, name="head"),
        ]
    model = keras.Sequential([keras.Input((4,)), *layers])
    model.compile(optimizer="sgd", loss="mse")
    return model


def test_fit_in_a_remat_scope_trains_to_the_same_weights():
    plain = _model()
    plain.fit(_X, _Y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    rematerialized = _model("full")
    rematerialized.fit(_X, _Y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    for mine, reference in zip(rematerialized.get_weights(), plain.get_weights(), strict=True):
        np.testing.assert_allclose(mine, reference, rtol=1e-5, atol=1e-6)


def _runs_in_one_gradient(model):
    layer = model.get_layer("counted")
    model(_X[:2])  # built
    layer.runs = 0
    trainable = [v.value for v in model.trainable_variables]

    def loss(values):
        outputs, _ = model.stateless_call(
            values, [v.value for v in model.non_trainable_variables], _X
        )
        return keras.ops.mean(outputs**2)

    _value_and_grad(loss)(trainable)
    return layer.runs


@pytest.mark.parametrize(
    ("mode", "kwargs", "recomputed"),
    [
        ("full", {}, True),
        ("list_of_layers", {"layer_names": ["counted"]}, True),
        ("list_of_layers", {"layer_names": ["hidden"]}, False),
        ("larger_than", {"output_size_threshold": 100}, True),  # 16 x 8 outputs
        ("larger_than", {"output_size_threshold": 1000}, False),
        ("activations", {}, False),  # the counted layer has no activation
    ],
)
def test_remat_scope_modes_choose_the_rematerialized_layers(mode, kwargs, recomputed):
    if not _recomputes():
        pytest.skip("jax records the recomputation in its program: see the jaxpr test")
    model = _model(mode, **kwargs)
    assert model.get_layer("counted")._remat_mode.mode == mode
    assert _runs_in_one_gradient(model) == (2 if recomputed else 1)


def test_activations_mode_rematerializes_the_activation_only():
    if not _recomputes():
        pytest.skip("jax records the recomputation in its program: see the jaxpr test")
    runs = {"n": 0}

    def counted_relu(x):
        runs["n"] += 1
        return keras.ops.relu(x)

    with keras.RematScope(mode="activations"):
        dense = keras.layers.Dense(3, activation=counted_relu)
    x = keras.ops.convert_to_tensor(_X)
    dense(x)
    runs["n"] = 0

    def loss(kernel):
        outputs, _ = dense.stateless_call([kernel, dense.bias.value], [], x)
        return keras.ops.sum(outputs)

    _value_and_grad(loss)(dense.kernel.value)
    assert runs["n"] == 2
    assert dense.activation is counted_relu


def test_a_layer_in_a_remat_scope_is_checkpointed_in_the_jax_program():
    if _recomputes():
        pytest.skip("torch and tensorflow rerun the Python code: see the counting tests")
    plain, rematerialized = _model(), _model("list_of_layers", layer_names=["counted"])
    for model, expected in ((plain, False), (rematerialized, True)):
        model(_X[:2])
        values = [v.value for v in model.trainable_variables]

        def loss(values, model=model):
            outputs, _ = model.stateless_call(values, [], _X)
            return keras.ops.mean(outputs**2)

        assert _checkpoint_in_jaxpr(_value_and_grad(loss), values) is expected


def test_remat_scope_rejects_an_unknown_mode():
    with pytest.raises(ValueError, match="Invalid RematScope mode 'some'"):
        keras.RematScope(mode="some")
