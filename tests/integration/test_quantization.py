"""`model.quantize` against Keras 3.15, and quantized files exchanged both ways.

The same float weights are quantized by mb (on the leg's backend) and by Keras 3.15 (in a
subprocess, jax backend): the quantized variables (names, dtypes, shapes, values) and the
predictions must agree; a quantized .keras file Keras wrote predicts here as in Keras, and
one mb wrote (and its .weights.h5) predicts in Keras as here.
"""

from __future__ import annotations

import importlib.util
import inspect

import numpy as np
import pytest

import mb as keras
from mb_ops import backends, config, testing

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("keras") is None, reason="Keras 3 is a test-only dependency"
)

trainable = pytest.mark.skipif(
    "value_and_grad" in getattr(backends.backend_module("training"), "UNSUPPORTED", {}),
    reason=f"the {config.backend()} backend is inference-only: it cannot train",
)


def build(k):
    """Embedding -> EinsumDense (3-D) -> Dense, written once for `k` = mb or keras."""
    tokens = k.Input((5,), dtype="int32", name="tokens")
    x = k.layers.Embedding(20, 8, name="emb")(tokens)
    x = k.layers.EinsumDense("abc,cd->abd", (5, 6), bias_axes="d", activation="relu", name="ein")(x)
    x = k.layers.Flatten(name="flat")(x)
    out = k.layers.Dense(3, name="head")(x)
    return k.Model(tokens, out, name="quantizable")


def quantization_config(k, mode):
    if mode == "int4_per_channel":
        return "int4", k.quantizers.Int4QuantizationConfig(block_size=-1)
    if mode == "int4_block4":
        return "int4", k.quantizers.Int4QuantizationConfig(block_size=4)
    return mode, None


def variables_of(model):
    """``{"layer/variable": array}`` of every layer's own variables."""
    out = {}
    for layer in model.layers:
        for v in layer.weights:
            out[f"{layer.name}/{v.name}"] = np.asarray(v.numpy())
    return out


TOKENS = np.random.default_rng(3).integers(0, 20, size=(7, 5)).astype("int32")

MODES = ["int8", "int4", "int4_per_channel", "int4_block4"]

# One Keras process does every mode (importing Keras takes seconds): it quantizes the float
# file mb wrote, and reads back the quantized files mb wrote.
_KERAS_MAIN = """
root = sys.argv[1]
for mode in sys.argv[2:]:
    folder = root + "/" + mode
    model = keras.models.load_model(root + "/float.keras")
    model.quantize(*quantization_config(keras, mode))
    model.save(folder + "/keras_q.keras")
    np.savez(folder + "/keras_vars.npz", **variables_of(model))
    np.save(folder + "/keras_pred.npy", model.predict(TOKENS, verbose=0))
    model.load_weights(folder + "/mb_q.weights.h5")
    np.save(folder + "/keras_reads_mb_h5.npy", model.predict(TOKENS, verbose=0))
    model = keras.models.load_model(folder + "/mb_q.keras")
    np.save(folder + "/keras_reads_mb.npy", model.predict(TOKENS, verbose=0))
"""
_KERAS_SIDE = "\n".join(
    ["import sys", "import keras", "import numpy as np"]
    + [inspect.getsource(fn) for fn in (build, quantization_config, variables_of)]
    + ["TOKENS = np.random.default_rng(3).integers(0, 20, size=(7, 5)).astype('int32')"]
    + [_KERAS_MAIN]
)


def _float_model():
    model = build(keras)
    rng = np.random.default_rng(11)
    model.set_weights([rng.normal(size=w.shape).astype("float32") for w in model.get_weights()])
    return model


@pytest.fixture(scope="module")
def exchanged(tmp_path_factory):
    """Every mode quantized by mb (files saved) and by Keras (which reads mb's files too)."""
    root = tmp_path_factory.mktemp("quantized")
    _float_model().save(root / "float.keras")
    for mode in MODES:
        (root / mode).mkdir()
        model = _float_model()
        model.quantize(*quantization_config(keras, mode))
        model.save(root / mode / "mb_q.keras")
        model.save_weights(root / mode / "mb_q.weights.h5")
    testing.run_keras(_KERAS_SIDE, str(root), *MODES, backend="jax", timeout=600)
    return root


@pytest.mark.heavy
@pytest.mark.parametrize("mode", MODES)
def test_quantized_models_match_keras_and_files_move_both_ways(exchanged, mode):
    folder = exchanged / mode
    model = _float_model()
    float_pred = np.asarray(model.predict(TOKENS, verbose=0))

    model.quantize(*quantization_config(keras, mode))
    ours = variables_of(model)
    theirs = dict(np.load(folder / "keras_vars.npz"))
    assert sorted(ours) == sorted(theirs)
    for name, value in theirs.items():
        assert ours[name].dtype == value.dtype, name
        assert ours[name].shape == value.shape, name
        if value.dtype.kind in "iu":
            np.testing.assert_array_equal(ours[name], value, err_msg=name)
        else:
            np.testing.assert_allclose(ours[name], value, rtol=1e-6, atol=1e-7, err_msg=name)
    expected_mode = "int4" if mode.startswith("int4") else mode
    assert model.get_layer("head").quantization_mode == expected_mode

    keras_pred = np.load(folder / "keras_pred.npy")
    pred = np.asarray(model.predict(TOKENS, verbose=0))
    np.testing.assert_allclose(pred, keras_pred, rtol=1e-4, atol=1e-4)
    # Quantization changes the predictions, but only a little (relative to their spread).
    assert 0 < np.abs(pred - float_pred).max() < 0.35 * np.abs(float_pred).max()

    loaded = keras.models.load_model(folder / "keras_q.keras")
    assert loaded.get_layer("ein").dtype_policy == model.get_layer("ein").dtype_policy
    np.testing.assert_allclose(
        np.asarray(loaded.predict(TOKENS, verbose=0)), keras_pred, rtol=1e-4, atol=1e-4
    )

    # The files mb wrote (in the fixture, from the same float weights) predict in Keras as here.
    np.testing.assert_allclose(np.load(folder / "keras_reads_mb.npy"), pred, atol=1e-4)
    np.testing.assert_allclose(np.load(folder / "keras_reads_mb_h5.npy"), pred, atol=1e-4)


def test_quantize_refuses_what_keras_refuses():
    model = _float_model()
    with pytest.raises(ValueError, match="Invalid quantization mode"):
        model.quantize("int3")
    with pytest.raises(ValueError, match="Contradictory"):
        model.quantize("int8", config=keras.quantizers.Int4QuantizationConfig())
    unbuilt = keras.layers.Dense(2)
    with pytest.raises(ValueError, match="isn't yet built"):
        unbuilt.quantize("int8")
    model.quantize("int8")
    with pytest.raises(ValueError, match="already quantized"):
        model.get_layer("head").quantize("int8")


def test_filters_choose_the_layers_quantized():
    model = _float_model()
    model.quantize("int8", filters="head|emb")
    assert model.get_layer("head").quantization_mode == "int8"
    assert model.get_layer("emb").quantization_mode == "int8"
    assert model.get_layer("ein").quantization_mode is None


@trainable
def test_a_quantized_model_trains_its_float_weights_and_keeps_its_int8_ones():
    model = _float_model()
    model.quantize("int8")
    int8_before = {k: v for k, v in variables_of(model).items() if v.dtype == np.int8}
    model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
    y = np.random.default_rng(0).normal(size=(7, 3)).astype("float32")
    first = model.evaluate(TOKENS, y, verbose=0)
    model.fit(TOKENS, y, epochs=5, batch_size=7, verbose=0)
    assert model.evaluate(TOKENS, y, verbose=0) < first
    after = variables_of(model)
    for name, value in int8_before.items():
        np.testing.assert_array_equal(after[name], value)


_KERAS_PREDICT = """
import sys, keras, numpy as np
model = keras.models.load_model(sys.argv[1])
tokens = np.random.default_rng(3).integers(0, 20, size=(7, 5)).astype("int32")
np.save(sys.argv[1] + ".pred.npy", model.predict(tokens, verbose=0))
print(sorted(f"{l.name}/{v.name}" for l in model.layers for v in l.trainable_weights))
"""


def _keras_predict(path):
    result = testing.run_keras(_KERAS_PREDICT, str(path), backend="jax", timeout=600)
    return np.load(str(path) + ".pred.npy"), result.stdout.strip().splitlines()[-1]


@pytest.mark.heavy
@trainable
@pytest.mark.parametrize("quantized", [None, "int8"])
def test_lora_trains_only_its_matrices_and_saves_merged_as_keras(tmp_path, quantized):
    keras.utils.set_random_seed(0)  # the int8 rounding below depends on the weights
    model = _float_model()
    if quantized:
        model.quantize(quantized)  # QLoRA: a LoRA update over int8 weights
    for name in ("emb", "ein", "head"):
        model.get_layer(name).enable_lora(2)
    trainable_names = sorted(
        f"{layer.name}/{v.name}" for layer in model.layers for v in layer.trainable_weights
    )
    lora = [n for n in trainable_names if "/lora_" in n]
    assert len(lora) == 6
    assert [n for n in trainable_names if n not in lora] == ["ein/bias", "head/bias"]
    frozen = {k: v for k, v in variables_of(model).items() if "lora_" not in k and "bias" not in k}
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse")
    y = np.random.default_rng(0).normal(size=(7, 3)).astype("float32")
    first = model.evaluate(TOKENS, y, verbose=0)
    untrained = np.asarray(model.predict(TOKENS, verbose=0))  # lora_kernel_b is zero
    model.fit(TOKENS, y, epochs=10, batch_size=7, verbose=0)
    assert model.evaluate(TOKENS, y, verbose=0) < first
    after = variables_of(model)
    for name, value in frozen.items():
        np.testing.assert_array_equal(after[name], value, err_msg=name)
    b = after["head/lora_kernel_b"]
    assert np.abs(b).max() > 0  # b starts at zero: it trained

    pred = np.asarray(model.predict(TOKENS, verbose=0))
    if not quantized:
        head = model.get_layer("head")
        expected = after["head/kernel"] + 2 / 2 * after["head/lora_kernel_a"] @ b
        np.testing.assert_allclose(
            keras.ops.convert_to_numpy(head.kernel), expected, rtol=1e-5, atol=1e-6
        )
    model.save(tmp_path / "lora.keras")
    keras_pred, keras_trainable = _keras_predict(tmp_path / "lora.keras")
    # Keras rebuilds the LoRA layers (lora_rank is in the config) with the update merged
    # into the saved matrix and zero LoRA matrices: the same predictions.
    assert "head/lora_kernel_a" in keras_trainable
    if not quantized:
        np.testing.assert_allclose(keras_pred, pred, atol=1e-4)
    else:
        # Merging requantizes the kernels to int8 (as Keras's save does), and int8
        # layers quantize their inputs too: the rounding compounds over three layers,
        # so single outputs may move by a few percent; the whole prediction stays close,
        # and far closer than a save that lost the LoRA update would be.
        drift = np.linalg.norm(keras_pred - pred) / np.linalg.norm(pred)
        update = np.linalg.norm(untrained - pred) / np.linalg.norm(pred)
        assert drift < 0.1, f"merged int8 model drifted {drift:.1%} from the trained one"
        assert drift < update / 4, f"drift {drift:.1%} against the LoRA update's {update:.1%}"
    reloaded = keras.models.load_model(tmp_path / "lora.keras")
    np.testing.assert_allclose(
        np.asarray(reloaded.predict(TOKENS, verbose=0)), keras_pred, atol=1e-4
    )


_KERAS_CONV_LORA = """
import sys
import numpy as np
import keras
model = keras.models.load_model(sys.argv[1])
images = np.random.default_rng(5).normal(size=(6, 7, 7, 2)).astype("float32")
np.save(sys.argv[1] + ".pred.npy", model.predict(images, verbose=0))
conv = model.get_layer("conv")
trainable = sorted(v.name for v in conv.trainable_weights)
# Keras trains its own LoRA update further and writes the file mb reads back.
model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse")
model.fit(images, np.ones((6, 1), "float32"), epochs=3, verbose=0)
model.save(sys.argv[2])
np.save(sys.argv[2] + ".pred.npy", model.predict(images, verbose=0))
print(trainable)
"""


@pytest.mark.heavy
@trainable
def test_conv_lora_trains_its_matrices_and_files_move_both_ways_with_keras(tmp_path):
    keras.utils.set_random_seed(1)
    images = np.random.default_rng(5).normal(size=(6, 7, 7, 2)).astype("float32")
    inputs = keras.Input((7, 7, 2))
    hidden = keras.layers.Conv2D(4, 3, data_format="channels_last", name="conv")(inputs)
    pooled = keras.layers.GlobalAveragePooling2D(data_format="channels_last")(hidden)
    model = keras.Model(inputs, keras.layers.Dense(1, name="head")(pooled))
    before = np.asarray(model.predict(images, verbose=0))
    conv = model.get_layer("conv")
    conv.enable_lora(2, lora_alpha=4)
    assert sorted(v.name for v in conv.trainable_weights) == [
        "bias",
        "lora_kernel_a",
        "lora_kernel_b",
    ]
    assert tuple(conv.lora_kernel_a.shape) == (3, 3, 2, 2)
    assert tuple(conv.lora_kernel_b.shape) == (2, 4)
    # b starts at zero: enabling LoRA leaves the outputs as they were.
    np.testing.assert_allclose(np.asarray(model.predict(images, verbose=0)), before, atol=1e-6)
    frozen = keras.ops.convert_to_numpy(conv._kernel).copy()
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse")
    model.fit(images, np.ones((6, 1), "float32"), epochs=5, verbose=0)
    np.testing.assert_array_equal(keras.ops.convert_to_numpy(conv._kernel), frozen)
    a = keras.ops.convert_to_numpy(conv.lora_kernel_a)
    b = keras.ops.convert_to_numpy(conv.lora_kernel_b)
    assert np.abs(b).max() > 0
    np.testing.assert_allclose(
        keras.ops.convert_to_numpy(conv.kernel), frozen + 4 / 2 * (a @ b), rtol=1e-5, atol=1e-6
    )
    pred = np.asarray(model.predict(images, verbose=0))
    mb_file, keras_file = tmp_path / "mb_conv.keras", tmp_path / "keras_conv.keras"
    model.save(mb_file)
    done = testing.run_keras(
        _KERAS_CONV_LORA, str(mb_file), str(keras_file), backend="jax", timeout=600
    )
    # Keras rebuilds the layer with LoRA (lora_rank is in the config) over the merged kernel.
    assert "lora_kernel_a" in done.stdout
    np.testing.assert_allclose(np.load(str(mb_file) + ".pred.npy"), pred, atol=1e-4)
    # And the file Keras wrote after training further predicts here as in Keras.
    reloaded = keras.models.load_model(keras_file)
    assert reloaded.get_layer("conv").lora_enabled
    np.testing.assert_allclose(
        np.asarray(reloaded.predict(images, verbose=0)),
        np.load(str(keras_file) + ".pred.npy"),
        atol=1e-4,
    )
