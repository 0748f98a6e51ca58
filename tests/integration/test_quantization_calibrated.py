"""GPTQ and AWQ (`model.quantize("gptq" | "awq", config=...)`) against Keras 3.15, and
their files exchanged both ways.

The same float weights and calibration text are quantized by mb (on the leg's backend)
and by Keras 3.15 (in a subprocess, jax backend). Keras 3.15's calibration hooks wrap
``layer.call``, which a quantized layer never runs, so stock Keras calibrates on no data
(GPTQ and AWQ become round-to-nearest); the subprocess moves its hooks onto
``_gptq_call`` / ``_awq_call``, where mb's are, so that both run the algorithm on the
same activations. Keras's first calibration window, drawn from the string hash, is pinned to
mb's (token 0). The quantized variables (names, dtypes, shapes, values) and the
predictions must agree, and the .keras / .weights.h5 files mb wrote predict in Keras as
here. Keras 3.15 writes its GPTQ/AWQ files without the zero points (it cannot load them
back either): mb refuses them with that reason.
"""

from __future__ import annotations

import importlib.util
import inspect

import numpy as np
import pytest

import mb as keras
from mb_layers.layers._quantized_gptq import flat_kernel_shape
from mb_ops import testing

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("keras") is None, reason="Keras 3 is a test-only dependency"
)

VOCAB, SEQ, SAMPLES = 40, 6, 8
TEXT = "gptq and awq calibrate on the activations of this text"


class CharTokenizer:
    def tokenize(self, text):
        return np.array([ord(c) % VOCAB for c in text], dtype="int32")


def build(k):
    """Embedding, then two blocks of Dense / EinsumDense (2-D and both 3-D kernels)."""
    tokens = k.Input((SEQ,), dtype="int32", name="tokens")
    x = k.layers.Embedding(VOCAB, 16, name="emb")(tokens)
    block1 = k.Sequential(
        [
            k.layers.Dense(32, activation="relu", name="up"),
            k.layers.EinsumDense("abc,cd->abd", (None, 16), bias_axes="d", name="down"),
        ],
        name="block1",
    )
    block2 = k.Sequential(
        [
            k.layers.EinsumDense("abc,cde->abde", (None, 2, 8), bias_axes="de", name="heads"),
            k.layers.EinsumDense("abde,def->abf", (None, 16), name="merge"),
            k.layers.GlobalAveragePooling1D(data_format="channels_last", name="pool"),
            k.layers.Dense(5, name="head"),
        ],
        name="block2",
    )
    return k.Model(tokens, block2(block1(x)), name="calibrated")


def make_config(k, mode, model):
    structure = {
        "pre_block_layers": [model.get_layer("emb")],
        "sequential_blocks": [model.get_layer("block1"), model.get_layer("block2")],
    }
    common = dict(
        dataset=[TEXT],
        tokenizer=CharTokenizer(),
        num_samples=SAMPLES,
        sequence_length=SEQ,
        quantization_layer_structure=structure,
    )
    if mode == "gptq4_group8":
        return k.quantizers.GPTQConfig(weight_bits=4, group_size=8, **common)
    if mode == "gptq8_act_order":
        return k.quantizers.GPTQConfig(
            weight_bits=8, group_size=-1, activation_order=True, **common
        )
    return k.quantizers.AWQConfig(group_size=8, num_grid_points=10, **common)


def variables_of(model):
    """``{"layer/variable": array}`` of every leaf layer's variables."""
    out = {}
    for layer in model._flatten_layers():
        if len(list(layer._flatten_layers())) == 1:
            for v in layer.weights:
                out[f"{layer.name}/{v.name}"] = np.asarray(v.numpy())
    return out


TOKENS = np.random.default_rng(5).integers(0, VOCAB, size=(9, SEQ)).astype("int32")
MODES = ["gptq4_group8", "gptq8_act_order", "awq_group8"]

_KERAS_HOOKS = """
import contextlib
from keras import ops
from keras.src.quantizers import awq_core, gptq_core


def watching(method, update):
    @contextlib.contextmanager
    def stream(layers_map, objects):
        try:
            for name, layer in layers_map.items():
                original = getattr(layer, method)

                def hook(inputs, *args, _original=original, _object=objects[name], **kwargs):
                    getattr(_object, update)(ops.reshape(inputs, (-1, _object.rows)))
                    return _original(inputs, *args, **kwargs)

                setattr(layer, method, hook)
            yield
        finally:
            for layer in layers_map.values():
                layer.__dict__.pop(method, None)

    return stream


# Keras starts its calibration windows at hash(("gptq-calib", seed)) % n, which changes
# with each process's string hash seed; mb starts at 0.
gptq_core.hash = lambda value: 0
gptq_core.stream_hessians = watching("_gptq_call", "update_hessian_with_batch")
awq_core.stream_activations = watching("_awq_call", "update_activation_magnitudes")
"""

_KERAS_MAIN = """
root = sys.argv[1]
for mode in sys.argv[2:]:
    folder = root + "/" + mode
    model = keras.models.load_model(root + "/float.keras")
    config = make_config(keras, mode, model)
    model.quantize(config.mode, config=config)
    config.quantization_layer_structure = None  # layers in a config do not serialize
    model.save(folder + "/keras_q.keras")
    np.savez(folder + "/keras_vars.npz", **variables_of(model))
    try:
        keras.models.load_model(folder + "/keras_q.keras")
        raise AssertionError("Keras 3.15 now loads its own GPTQ/AWQ files: test them here")
    except ValueError:
        pass
    np.save(folder + "/keras_pred.npy", model.predict(TOKENS, verbose=0))
    model.load_weights(folder + "/mb_q.weights.h5")
    np.save(folder + "/keras_reads_mb_h5.npy", model.predict(TOKENS, verbose=0))
    model = keras.models.load_model(folder + "/mb_q.keras")
    np.save(folder + "/keras_reads_mb.npy", model.predict(TOKENS, verbose=0))
"""
_KERAS_SIDE = "\n".join(
    [
        "import sys, warnings",
        "import keras",
        "import numpy as np",
        "warnings.simplefilter('ignore')",
    ]
    + [f"VOCAB, SEQ, SAMPLES, TEXT = {VOCAB}, {SEQ}, {SAMPLES}, {TEXT!r}"]
    + [inspect.getsource(obj) for obj in (CharTokenizer, build, make_config, variables_of)]
    + ["TOKENS = np.random.default_rng(5).integers(0, VOCAB, size=(9, SEQ)).astype('int32')"]
    + [_KERAS_HOOKS, _KERAS_MAIN]
)


def _float_model():
    model = build(keras)
    rng = np.random.default_rng(17)
    model.set_weights(
        [rng.normal(scale=0.5, size=w.shape).astype("float32") for w in model.get_weights()]
    )
    return model


def _quantized(mode):
    """The float model quantized by mb (the embedding, which has no GPTQ/AWQ form, warns
    and stays float, as in Keras)."""
    model = _float_model()
    config = make_config(keras, mode, model)
    with pytest.warns(UserWarning, match="Invalid quantization mode"):
        model.quantize(config.mode, config=config)
    config.quantization_layer_structure = None
    return model


@pytest.fixture(scope="module")
def exchanged(tmp_path_factory):
    """Every mode quantized by mb (files saved) and by Keras (which reads mb's files too)."""
    root = tmp_path_factory.mktemp("calibrated")
    _float_model().save(root / "float.keras")
    for mode in MODES:
        (root / mode).mkdir()
        model = _quantized(mode)
        model.save(root / mode / "mb_q.keras")
        model.save_weights(root / mode / "mb_q.weights.h5")
    testing.run_keras(_KERAS_SIDE, str(root), *MODES, backend="jax", timeout=900)
    return root


# Both libraries calibrate on the same windows in the same order; on another backend
# than Keras's, float sums may round differently and put a weight that sits on a rounding
# boundary one level apart: at most 1% of the levels may differ, by one level.
LEVELS_MAY_DIFFER = 0.01
# Predictions are O(10) here: float32 round-off, or a weight one level apart.
PRED_ATOL = 1e-3


@pytest.mark.heavy
@pytest.mark.parametrize("mode", MODES)
def test_calibrated_models_match_keras_and_files_move_both_ways(exchanged, mode):
    folder = exchanged / mode
    float_pred = np.asarray(_float_model().predict(TOKENS, verbose=0))
    model = _quantized(mode)
    ours = variables_of(model)
    theirs = dict(np.load(folder / "keras_vars.npz"))
    assert sorted(ours) == sorted(theirs)
    for name, value in theirs.items():
        assert ours[name].dtype == value.dtype, name
        assert ours[name].shape == value.shape, name
        if name.endswith(("/kernel", "zero_point", "kernel_zero")) and value.dtype == "uint8":
            mine = ours[name].astype("int32")
            if name.endswith("/kernel") and mode != "gptq8_act_order":
                # two 4-bit levels per byte
                mine = np.stack([mine & 15, mine >> 4])
                value = np.stack([value.astype("int32") & 15, value.astype("int32") >> 4])
            differ = mine != value.astype("int32")
            assert differ.mean() <= LEVELS_MAY_DIFFER, (name, differ.mean())
            assert np.abs(mine - value.astype("int32")).max() <= 1, name
        else:
            np.testing.assert_allclose(ours[name], value, rtol=1e-4, atol=1e-5, err_msg=name)
    policy = model.get_layer("block2").get_layer("heads").dtype_policy.name
    assert policy.startswith(("gptq/4/8", "gptq/8/-1", "awq/4/8")[MODES.index(mode)]), policy

    keras_pred = np.load(folder / "keras_pred.npy")
    pred = np.asarray(model.predict(TOKENS, verbose=0))
    np.testing.assert_allclose(pred, keras_pred, atol=PRED_ATOL)
    # Quantization changes the predictions, but only a little (relative to their spread).
    assert 0 < np.abs(pred - float_pred).max() < 0.2 * np.abs(float_pred).max()

    # Keras 3.15 saves GPTQ/AWQ layers without their zero points (and cannot load its
    # own file): refused with the reason.
    with pytest.raises(ValueError, match="lacks the zero points"):
        keras.models.load_model(folder / "keras_q.keras")
    # The files mb wrote predict in Keras as here.
    np.testing.assert_allclose(np.load(folder / "keras_reads_mb.npy"), pred, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(
        np.load(folder / "keras_reads_mb_h5.npy"), pred, rtol=1e-5, atol=1e-5
    )
    reloaded = keras.models.load_model(folder / "mb_q.keras")
    np.testing.assert_allclose(np.asarray(reloaded.predict(TOKENS, verbose=0)), pred, atol=1e-6)


def test_bad_calibration_configs_are_refused_before_any_layer_changes():
    model = _float_model()
    structure = make_config(keras, "gptq4_group8", model).quantization_layer_structure
    with pytest.raises(ValueError, match="must pass a `GPTQConfig`"):
        model.quantize("gptq")
    with pytest.raises(ValueError, match="requires a calibration dataset"):
        model.quantize(
            "gptq",
            config=keras.quantizers.GPTQConfig(
                dataset=None, tokenizer=None, quantization_layer_structure=structure
            ),
        )
    with pytest.raises(ValueError, match="a valid quantization structure"):
        model.quantize("awq", config=keras.quantizers.AWQConfig(dataset=[TEXT], tokenizer=None))
    assert all(layer.quantization_mode is None for layer in model._flatten_layers())
    # Strings need a tokenizer (token arrays do not).
    config = make_config(keras, "awq_group8", model)
    config.tokenizer = None
    with pytest.raises(ValueError, match="needs a `tokenizer`"), pytest.warns(UserWarning):
        model.quantize("awq", config=config)
    # A 4-D kernel has no GPTQ/AWQ flattening.
    with pytest.raises(ValueError, match="2-D and 3-D kernels"):
        flat_kernel_shape((2, 3, 4, 5))
