"""`quantize("float8")`: float8 training with delayed scaling, against NumPy and Keras 3.15.

The same float model (EinsumDense over a 3-D input, then Dense) is quantized to float8 and
trained the same way by mb (on the leg's backend) and by Keras 3.15 (in a subprocess, jax
backend): the trained weights, the scales and amax histories and the predictions must
agree, and the float8 files each wrote must predict in the other as where they were made.
"""

from __future__ import annotations

import importlib.util
import inspect

import ml_dtypes
import numpy as np
import pytest

import mb as keras
from mb_ops import backends, config, testing

pytestmark = [
    pytest.mark.skipif(
        importlib.util.find_spec("keras") is None, reason="Keras 3 is a test-only dependency"
    ),
    pytest.mark.skipif(
        "float8_matmul" in getattr(backends.backend_module("nn"), "UNSUPPORTED", {}),
        reason=f"the {config.backend()} backend declares float8 products unsupported",
    ),
]

TRAINS = "value_and_grad" not in getattr(backends.backend_module("training"), "UNSUPPORTED", {})
trainable = pytest.mark.skipif(
    not TRAINS, reason=f"the {config.backend()} backend is inference-only: it cannot train"
)

E4M3_MAX = float(ml_dtypes.finfo(ml_dtypes.float8_e4m3fn).max)


def build(k):
    """EinsumDense (3-D, relu) -> Flatten -> Dense, written once for `k` = mb or keras."""
    inputs = k.Input((4, 6), name="x")
    x = k.layers.EinsumDense("abc,cd->abd", (4, 8), bias_axes="d", activation="relu", name="ein")(
        inputs
    )
    x = k.layers.Flatten(name="flat")(x)
    return k.Model(inputs, k.layers.Dense(2, name="head")(x), name="float8_model")


def data():
    rng = np.random.default_rng(7)
    x = rng.normal(size=(32, 4, 6)).astype("float32")
    y = np.stack([x[:, 0, 0] - x[:, 1, 2], x[:, 3].sum(axis=-1) * 0.5], axis=-1)
    return x, y.astype("float32")


def variables_of(model):
    """``{"layer/variable": array}`` of every layer's own variables."""
    return {
        f"{layer.name}/{v.name}": np.asarray(v.numpy())
        for layer in model.layers
        for v in layer.weights
    }


def train(k, model):
    """Eight SGD steps (two epochs of four batches, in order)."""
    x, y = data()
    model.compile(optimizer=k.optimizers.SGD(0.05), loss="mse")
    return model.fit(x, y, epochs=2, batch_size=8, shuffle=False, verbose=0).history["loss"]


_KERAS_MAIN = """
root = sys.argv[1]
x, y = data()
model = keras.models.load_model(root + "/float.keras")
model.quantize("float8")
np.save(root + "/keras_untrained.npy", model.predict(x, verbose=0))
train(keras, model)
model.save(root + "/keras_f8.keras")
np.savez(root + "/keras_vars.npz", **variables_of(model))
np.save(root + "/keras_pred.npy", model.predict(x, verbose=0))
model.load_weights(root + "/mb_f8.weights.h5")
np.save(root + "/keras_reads_mb_h5.npy", model.predict(x, verbose=0))
model = keras.models.load_model(root + "/mb_f8.keras")
np.save(root + "/keras_reads_mb.npy", model.predict(x, verbose=0))
print(type(model.get_layer("head").dtype_policy).__name__)
"""
_KERAS_SIDE = "\n".join(
    ["import sys", "import keras", "import numpy as np"]
    + [inspect.getsource(fn) for fn in (build, data, variables_of, train)]
    + [_KERAS_MAIN]
)


def _float_model():
    model = build(keras)
    rng = np.random.default_rng(11)
    model.set_weights(
        [rng.normal(size=w.shape).astype("float32") * 0.5 for w in model.get_weights()]
    )
    return model


@pytest.fixture(scope="module")
def exchanged(tmp_path_factory):
    """mb and Keras each quantize the same float model to float8 and train it (mb only
    where its backend trains); each reads the other's files."""
    root = tmp_path_factory.mktemp("float8")
    _float_model().save(root / "float.keras")
    model = _float_model()
    model.quantize("float8")
    if TRAINS:
        train(keras, model)
    model.save(root / "mb_f8.keras")
    model.save_weights(root / "mb_f8.weights.h5")
    np.save(root / "mb_pred.npy", np.asarray(model.predict(data()[0], verbose=0)))
    result = testing.run_keras(_KERAS_SIDE, str(root), backend="jax", timeout=600)
    assert result.stdout.strip().splitlines()[-1] == "QuantizedFloat8DTypePolicy"
    return root, model


def test_float8_quantize_adds_keras_variables_and_policy():
    model = _float_model()
    x = data()[0]
    float_pred = np.asarray(model.predict(x, verbose=0))
    model.quantize("float8")
    for name in ("ein", "head"):
        layer = model.get_layer(name)
        assert layer.quantization_mode == "float8"
        assert type(layer.dtype_policy).__name__ == "QuantizedFloat8DTypePolicy"
        assert layer.dtype_policy.name == "float8_from_float32"
        names = [v.name for v in layer.weights]
        assert names == [
            "kernel",
            "bias",
            "inputs_scale",
            "inputs_amax_history",
            "kernel_scale",
            "kernel_amax_history",
            "outputs_grad_scale",
            "outputs_grad_amax_history",
        ]
        # The float kernel stays float32 and trainable; the scaling state is overwritten
        # by optimizers with its "gradient" (the next value), never stepped.
        assert str(layer._kernel.dtype) == "float32" and layer._kernel.trainable
        assert layer.inputs_scale.overwrite_with_gradient
        assert tuple(layer.kernel_amax_history.shape) == (1024,)
    pred = np.asarray(model.predict(x, verbose=0))
    # e4m3 keeps 3 mantissa bits: the outputs move by a few percent, not more.
    assert 0 < np.abs(pred - float_pred).max() < 0.15 * np.abs(float_pred).max()


def _qdq(x, scale, dtype):
    limit = float(ml_dtypes.finfo(dtype).max)
    q = np.clip(x / scale, -limit, limit).astype(dtype)
    return q.astype("float32") * scale


def test_float8_forward_matches_numpy():
    layer = keras.layers.Dense(5, activation="relu")
    rng = np.random.default_rng(0)
    x = rng.normal(size=(6, 7)).astype("float32") * 3
    layer.build((None, 7))
    layer.kernel.assign(rng.normal(size=(7, 5)).astype("float32"))
    layer.bias.assign(rng.normal(size=(5,)).astype("float32") + 0.001)
    layer.quantize("float8")
    layer.inputs_scale.assign(np.float32(0.02))  # a scale that clips the largest inputs
    layer.kernel_scale.assign(np.float32(1 / 200))
    kernel = keras.ops.convert_to_numpy(layer._kernel)
    bias = keras.ops.convert_to_numpy(layer.bias)
    got = keras.ops.convert_to_numpy(layer(x))
    product = _qdq(x, 0.02, ml_dtypes.float8_e4m3fn) @ _qdq(
        kernel, 1 / 200, ml_dtypes.float8_e4m3fn
    )
    # Keras adds the bias rounded through bfloat16 under a float32 policy.
    expected = np.maximum(product + bias.astype(ml_dtypes.bfloat16).astype("float32"), 0)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


@trainable
def test_float8_delayed_scaling_follows_the_amax_history():
    keras.utils.set_random_seed(0)
    layer = keras.layers.Dense(
        3,
        dtype=keras.dtype_policies.QuantizedFloat8DTypePolicy(
            "float8", "float32", amax_history_length=4
        ),
    )
    model = keras.Sequential([keras.Input((5,)), layer])
    assert tuple(layer.inputs_amax_history.shape) == (4,)
    rng = np.random.default_rng(1)
    batches = [rng.normal(size=(4, 5)).astype("float32") * (i + 1) for i in range(3)]
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
    kernels = []
    for batch in batches:
        kernels.append(keras.ops.convert_to_numpy(layer._kernel).copy())
        model.train_on_batch(batch, np.zeros((4, 3), "float32"))
    amax = [np.abs(b).max() for b in batches]
    history = layer.inputs_amax_history.numpy()
    # Newest first, the older ones rolled to the end; the window holds 4 steps.
    np.testing.assert_allclose(history, [amax[2], 0.0, amax[0], amax[1]], rtol=1e-6)
    # Each step's scale comes from the history as it was before that step: after three
    # steps, from the first two batches' maxima (Adam did not step it).
    np.testing.assert_allclose(layer.inputs_scale.numpy(), max(amax[:2]) / E4M3_MAX, rtol=1e-6)
    kernel_amax = max(np.abs(k).max() for k in kernels[:2])
    np.testing.assert_allclose(layer.kernel_scale.numpy(), kernel_amax / E4M3_MAX, rtol=1e-6)
    grad_history = layer.outputs_grad_amax_history.numpy()
    assert np.all(grad_history[[0, 2, 3]] > 0) and grad_history[1] == 0
    np.testing.assert_allclose(
        layer.outputs_grad_scale.numpy(), grad_history[[2, 3]].max() / 57344.0, rtol=1e-6
    )


@trainable
def test_a_float8_model_trains():
    keras.utils.set_random_seed(0)
    x = np.random.default_rng(0).normal(size=(256, 6)).astype("float32")
    y = (x[:, :1] * 2 - x[:, 1:2] + 0.5 * x[:, 2:3] ** 2).astype("float32")
    model = keras.Sequential(
        [
            keras.Input((6,)),
            keras.layers.Dense(32, activation="relu"),
            keras.layers.EinsumDense("ab,bc->ac", 16, bias_axes="c", activation="relu"),
            keras.layers.Dense(1),
        ]
    )
    model.quantize("float8")
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
    losses = model.fit(x, y, epochs=8, batch_size=32, verbose=0).history["loss"]
    assert losses[-1] < 0.5 * losses[0], losses
    for layer in model.layers:
        assert layer.quantization_mode == "float8"
        assert float(layer.inputs_scale.numpy()) != 1.0  # delayed scaling ran


def test_float8_refuses_lora():
    layer = keras.layers.Dense(3)
    layer.build((None, 4))
    layer.quantize("float8")
    layer.enable_lora(2)
    with pytest.raises(NotImplementedError, match="LoRA"):
        layer(np.ones((2, 4), "float32"))


@pytest.mark.heavy
@trainable
def test_float8_training_matches_keras(exchanged):
    root, model = exchanged
    ours = variables_of(model)
    theirs = dict(np.load(root / "keras_vars.npz"))
    assert sorted(ours) == sorted(theirs)
    for name, value in theirs.items():
        assert ours[name].dtype == value.dtype and ours[name].shape == value.shape, name
        # Eight steps of float8 rounding on two engines: equal up to float32 noise.
        np.testing.assert_allclose(ours[name], value, rtol=1e-4, atol=1e-5, err_msg=name)
    np.testing.assert_allclose(
        np.load(root / "mb_pred.npy"), np.load(root / "keras_pred.npy"), rtol=1e-4, atol=1e-4
    )


@pytest.mark.heavy
def test_float8_files_move_both_ways_with_keras(exchanged):
    root, _ = exchanged
    x = data()[0]
    loaded = keras.models.load_model(root / "keras_f8.keras")
    head = loaded.get_layer("head")
    assert head.quantization_mode == "float8"
    assert isinstance(head.dtype_policy, keras.dtype_policies.QuantizedFloat8DTypePolicy)
    assert float(head.inputs_scale.numpy()) != 1.0  # Keras's trained scales came along
    np.testing.assert_allclose(
        np.asarray(loaded.predict(x, verbose=0)),
        np.load(root / "keras_pred.npy"),
        rtol=1e-4,
        atol=1e-4,
    )
    mb_pred = np.load(root / "mb_pred.npy")
    np.testing.assert_allclose(np.load(root / "keras_reads_mb.npy"), mb_pred, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(
        np.load(root / "keras_reads_mb_h5.npy"), mb_pred, rtol=1e-4, atol=1e-4
    )
    again = keras.models.load_model(root / "mb_f8.keras")
    np.testing.assert_allclose(np.asarray(again.predict(x, verbose=0)), mb_pred, atol=1e-6)
