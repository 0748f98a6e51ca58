"""`run_layer_test` over every layer class of `mb_layers.layers`, on the active backend.

The table gives each class its constructor arguments and inputs (small, so
the whole file stays fast). Image, sequence and volume shapes follow the
leg's image_data_format (channels_first on the torch leg). An op the backend
declares unsupported (NotImplementedError: openvino, or training on numpy)
skips the case with the backend's reason.
"""

from __future__ import annotations

import numpy as np
import pytest

from mb_layers import layers
from mb_layers.testing import run_layer_test
from mb_ops import backends, config, ops, testing

BACKEND = config.backend()
FIRST = config.image_data_format() == "channels_first"
TRAIN = {"training": True}
RNG = np.random.default_rng(0)


declared_ops_only = testing.declared_ops_only


def spatial(*sizes, channels):
    """A batch shape with `channels` last or first, as the leg's data format wants."""
    return (None, channels, *sizes) if FIRST else (None, *sizes, channels)


def _strings(*shape):
    words = np.array(["the", "cat", "sat", "on", "a", "mat"])
    return words[RNG.integers(0, len(words), size=shape)]


SEQ = spatial(4, channels=2)
IMG = spatial(4, 4, channels=2)
VOL = spatial(3, 3, 3, channels=1)
RGB = spatial(6, 6, channels=3)
PAIR = [(None, 3), (None, 3)]
# Cases that skip the mixed_float16 check say why where they are listed.
NO_MIXED = {"run_mixed_precision_check": False}


def case(kwargs=None, shape=None, **options):
    return {"kwargs": kwargs or {}, "input_shape": shape, **options}


def _rgb_case(kwargs):
    # Mixed precision of the augmentations is checked by mb-layers' own tests (NumPy);
    # here it would double the compile time of each case on JAX.
    return case(kwargs, RGB, call_kwargs=TRAIN, run_mixed_precision_check=False)


CASES = {
    "Activation": [case({"activation": "relu"}, (None, 3))],
    "ActivityRegularization": [case({"l1": 0.1}, (None, 3), expected_num_losses=1)],
    "Add": [case({}, PAIR)],
    "Average": [case({}, PAIR)],
    "Concatenate": [case({}, PAIR)],
    "Dot": [case({"axes": 1}, PAIR)],
    "Maximum": [case({}, PAIR)],
    "Minimum": [case({}, PAIR)],
    "Multiply": [case({}, PAIR)],
    "Subtract": [case({}, PAIR)],
    "Dense": [case({"units": 3}, (None, 4), expected_num_trainable_weights=2)],
    "EinsumDense": [
        case({"equation": "ab,bc->ac", "output_shape": 3, "bias_axes": "c"}, (None, 4))
    ],
    "Embedding": [case({"input_dim": 5, "output_dim": 2}, (None, 3), input_dtype="int32")],
    "ReversibleEmbedding": [
        case({"input_dim": 5, "output_dim": 2}, (None, 3), input_dtype="int32"),
        case(
            {"input_dim": 5, "output_dim": 2, "tie_weights": False}, (None, 3), input_dtype="int32"
        ),
    ],
    "Identity": [case({}, (None, 3))],
    "Lambda": [
        case(
            skip="a Lambda's function is revived only with custom_objects or "
            "safe_mode=False, which from_config in the harness does not pass; "
            "packages/mb-layers/tests/test_core_layers.py covers Lambda"
        )
    ],
    "Masking": [case({"mask_value": 0.0}, (None, 3, 2))],
    "ELU": [case({}, (None, 3))],
    "LeakyReLU": [case({}, (None, 3))],
    "PReLU": [case({}, (None, 3), expected_num_trainable_weights=1)],
    "ReLU": [case({}, (None, 3))],
    "Softmax": [case({}, (None, 3))],
    "Dropout": [case({"rate": 0.5}, (None, 3), call_kwargs=TRAIN)],
    "SpatialDropout1D": [case({"rate": 0.5}, SEQ, call_kwargs=TRAIN)],
    "SpatialDropout2D": [case({"rate": 0.5}, IMG, call_kwargs=TRAIN)],
    "SpatialDropout3D": [case({"rate": 0.5}, VOL, call_kwargs=TRAIN)],
    "GaussianNoise": [case({"stddev": 0.1}, (None, 3), call_kwargs=TRAIN)],
    "GaussianDropout": [case({"rate": 0.1}, (None, 3), call_kwargs=TRAIN)],
    "AlphaDropout": [case({"rate": 0.1}, (None, 3), call_kwargs=TRAIN)],
    "Cropping1D": [case({"cropping": 1}, (None, 4, 2))],
    "Cropping2D": [case({"cropping": 1}, IMG)],
    "Cropping3D": [case({"cropping": 1}, VOL)],
    "Flatten": [case({}, (None, 2, 3))],
    "Permute": [case({"dims": (2, 1)}, (None, 2, 3))],
    "RepeatVector": [case({"n": 2}, (None, 3))],
    "Reshape": [case({"target_shape": (3, 2)}, (None, 6))],
    "UpSampling1D": [case({"size": 2}, (None, 2, 3))],
    "UpSampling2D": [case({"size": 2}, IMG)],
    "UpSampling3D": [case({"size": 2}, VOL)],
    "ZeroPadding1D": [case({"padding": 1}, (None, 2, 3))],
    "ZeroPadding2D": [case({"padding": 1}, IMG)],
    "ZeroPadding3D": [case({"padding": 1}, VOL)],
    "BatchNormalization": [
        case({}, (None, 3), expected_num_non_trainable_weights=2),
        case({}, (None, 3), call_kwargs=TRAIN),
    ],
    "GroupNormalization": [case({"groups": 2}, (None, 4))],
    "LayerNormalization": [case({}, (None, 3))],
    "RMSNormalization": [case({}, (None, 3))],
    "UnitNormalization": [case({}, (None, 3))],
    "AveragePooling1D": [case({"pool_size": 2}, SEQ)],
    "AveragePooling2D": [case({"pool_size": 2}, IMG)],
    # No float16 kernels for 3D pooling on the CPU in TensorFlow (both) and torch (average).
    "AveragePooling3D": [
        case(
            {"pool_size": 2}, VOL, run_mixed_precision_check=BACKEND not in ("tensorflow", "torch")
        )
    ],
    "MaxPooling1D": [case({"pool_size": 2}, SEQ)],
    "MaxPooling2D": [case({"pool_size": 2}, IMG)],
    "MaxPooling3D": [
        case({"pool_size": 2}, VOL, run_mixed_precision_check=BACKEND != "tensorflow")
    ],
    "GlobalAveragePooling1D": [case({}, SEQ)],
    "GlobalAveragePooling2D": [case({}, IMG)],
    "GlobalAveragePooling3D": [case({}, VOL)],
    "GlobalMaxPooling1D": [case({}, SEQ)],
    "GlobalMaxPooling2D": [case({}, IMG)],
    "GlobalMaxPooling3D": [case({}, VOL)],
    "AdaptiveAveragePooling1D": [case({"output_size": 2}, SEQ)],
    "AdaptiveAveragePooling2D": [case({"output_size": 2}, IMG)],
    "AdaptiveAveragePooling3D": [case({"output_size": 2}, VOL)],
    "AdaptiveMaxPooling1D": [case({"output_size": 2}, SEQ)],
    "AdaptiveMaxPooling2D": [case({"output_size": 2}, IMG)],
    "AdaptiveMaxPooling3D": [case({"output_size": 2}, VOL)],
    "Conv1D": [case({"filters": 2, "kernel_size": 2}, SEQ, expected_num_trainable_weights=2)],
    "Conv2D": [case({"filters": 2, "kernel_size": 2}, IMG)],
    "Conv3D": [case({"filters": 2, "kernel_size": 2}, VOL)],
    "Conv1DTranspose": [case({"filters": 2, "kernel_size": 2}, SEQ)],
    "Conv2DTranspose": [case({"filters": 2, "kernel_size": 2}, IMG)],
    "Conv3DTranspose": [case({"filters": 2, "kernel_size": 2}, VOL)],
    "DepthwiseConv1D": [case({"kernel_size": 2}, SEQ)],
    "DepthwiseConv2D": [case({"kernel_size": 2}, IMG)],
    "SeparableConv1D": [case({"filters": 2, "kernel_size": 2}, SEQ)],
    "SeparableConv2D": [case({"filters": 2, "kernel_size": 2}, IMG)],
    "Attention": [case({}, [(None, 2, 4), (None, 3, 4)])],
    "AdditiveAttention": [case({}, [(None, 2, 4), (None, 3, 4)])],
    "MultiHeadAttention": [
        case({"num_heads": 2, "key_dim": 2}, (None, 3, 4), value_shape=(2, 5, 4))
    ],
    "GroupedQueryAttention": [
        case(
            {"head_dim": 2, "num_query_heads": 2, "num_key_value_heads": 1},
            (None, 3, 4),
            value_shape=(2, 5, 4),
            **NO_MIXED,  # MultiHeadAttention checks the attention family's mixed precision
        )
    ],
    "SimpleRNN": [case({"units": 2}, (None, 3, 2))],
    "LSTM": [case({"units": 2, "return_sequences": True}, (None, 3, 2))],
    "GRU": [case({"units": 2}, (None, 3, 2), expected_num_trainable_weights=3)],
    # A wrapped layer or cell is made once per case, with its own (float32) policy,
    # so these skip the mixed_float16 check.
    "RNN": [case({"cell": "simple"}, (None, 3, 2), **NO_MIXED)],
    "StackedRNNCells": [case({"cells": "stacked"}, (None, 3, 2), through_rnn=True, **NO_MIXED)],
    "SimpleRNNCell": [case({"units": 2}, (None, 3, 2), through_rnn=True, **NO_MIXED)],
    "LSTMCell": [case({"units": 2}, (None, 3, 2), through_rnn=True, **NO_MIXED)],
    "GRUCell": [case({"units": 2}, (None, 3, 2), through_rnn=True, **NO_MIXED)],
    "Bidirectional": [case({"layer": "lstm"}, (None, 3, 2), **NO_MIXED)],
    "TimeDistributed": [case({"layer": "dense"}, (None, 3, 4), **NO_MIXED)],
    "ConvLSTM1D": [case({"filters": 2, "kernel_size": 2}, (None, 2, *SEQ[1:]))],
    # Mixed precision of the ConvLSTM family is checked on ConvLSTM1D (time budget).
    "ConvLSTM2D": [case({"filters": 2, "kernel_size": 2}, (None, 2, *IMG[1:]), **NO_MIXED)],
    "ConvLSTM3D": [case({"filters": 1, "kernel_size": 2}, (None, 2, *VOL[1:]), **NO_MIXED)],
    "SpectralNormalization": [case({"layer": "dense"}, (None, 3))],
    "Rescaling": [case({"scale": 0.5, "offset": 1.0}, IMG)],
    "Normalization": [case({"mean": 0.5, "variance": 4.0}, (None, 3))],
    "Resizing": [case({"height": 2, "width": 3}, IMG)],
    "CenterCrop": [case({"height": 2, "width": 3}, IMG)],
    "CategoryEncoding": [case({"num_tokens": 4}, (None, 2), input_dtype="int32")],
    "Discretization": [case({"bin_boundaries": [-0.5, 0.5]}, (None, 3))],
    "RandomFlip": [_rgb_case({"seed": 1})],
    "RandomBrightness": [_rgb_case({"factor": 0.2, "value_range": (-3, 3)})],
    "RandomContrast": [_rgb_case({"factor": 0.2, "value_range": (-3, 3)})],
    "RandomCrop": [_rgb_case({"height": 3, "width": 4})],
    "RandomRotation": [_rgb_case({"factor": 0.2, "fill_mode": "constant"})],
    "RandomTranslation": [_rgb_case({"height_factor": 0.2, "width_factor": 0.2})],
    "RandomZoom": [_rgb_case({"height_factor": 0.3, "interpolation": "nearest"})],
    "RandomShear": [_rgb_case({"x_factor": 0.3, "y_factor": 0.3})],
    "RandomErasing": [_rgb_case({"value_range": (-3, 3)})],
    "RandomGrayscale": [_rgb_case({"factor": 0.5})],
    "RandomHue": [_rgb_case({"factor": 0.5, "value_range": (-3, 3)})],
    "RandomSaturation": [_rgb_case({"factor": 0.5, "value_range": (-3, 3)})],
    "RandomColorJitter": [_rgb_case({"value_range": (-3, 3), "saturation_factor": 0.5})],
    "RandomColorDegeneration": [_rgb_case({"factor": 0.5, "value_range": (-3, 3)})],
    "RandomSharpness": [_rgb_case({"factor": 0.5, "value_range": (-3, 3)})],
    "RandomPosterization": [_rgb_case({"factor": (2, 5), "value_range": (-3, 3)})],
    "RandomInvert": [_rgb_case({"factor": 0.5, "value_range": (-3, 3)})],
    "RandomGaussianBlur": [_rgb_case({"value_range": (-3, 3)})],
    "RandomPerspective": [_rgb_case({"scale": 0.5})],
    "RandomElasticTransform": [_rgb_case({"value_range": (-3, 3)})],
    "AutoContrast": [_rgb_case({"value_range": (-3, 3)})],
    "Equalization": [_rgb_case({"value_range": (-3, 3), "bins": 64})],
    "ContrastLimitedAdaptiveHistogramEqualization": [
        _rgb_case({"value_range": (-3, 3), "tile_grid_size": (2, 2)})
    ],
    "Solarization": [_rgb_case({"addition_factor": 0.2, "threshold_factor": 0.5})],
    "MixUp": [_rgb_case({"seed": 1})],
    "CutMix": [_rgb_case({"seed": 1})],
    "RandAugment": [_rgb_case({"value_range": (-3, 3), "num_ops": 1})],
    "AugMix": [_rgb_case({"value_range": (-3, 3), "num_chains": 2, "chain_depth": 1})],
    # Its images pass through untouched (no cast to the compute dtype), as in Keras.
    "MaxNumBoundingBoxes": [case({"max_number": 2}, RGB, **NO_MIXED)],
    "Pipeline": [case({"layers": "pipeline"}, RGB, **NO_MIXED)],
    "STFTSpectrogram": [
        case({"frame_length": 4}, spatial(12, channels=2), expected_num_trainable_weights=2)
    ],
    "MelSpectrogram": [
        case({"fft_length": 16, "sequence_stride": 4, "num_mel_bins": 4}, (None, 32))
    ],
    "Hashing": [
        case({"num_bins": 3}, input_data=_strings(2, 3)),
        case({"num_bins": 4, "output_mode": "multi_hot"}, input_data=_strings(2, 3), **NO_MIXED),
    ],
    "HashedCrossing": [case({"num_bins": 5}, input_data=[np.array([1, 2, 3]), _strings(3)])],
    # Lookup layers ignore dtype policies (as in Keras): their float outputs stay float32.
    "StringLookup": [
        case({"vocabulary": ["the", "cat"]}, input_data=_strings(2, 3)),
        case(
            {"vocabulary": ["the", "cat"], "output_mode": "count"},
            input_data=_strings(2, 3),
            **NO_MIXED,
        ),
    ],
    "IntegerLookup": [
        case({"vocabulary": [0, 2]}, (None, 3), input_dtype="int32"),
        case(
            {"vocabulary": [0, 2], "output_mode": "multi_hot"},
            (None, 3),
            input_dtype="int32",
            **NO_MIXED,
        ),
    ],
    "TextVectorization": [
        case(
            {"vocabulary": ["the", "cat"], "output_sequence_length": 4},
            input_data=np.array(["the cat sat", "a cat"]),
        ),
        case(
            {"vocabulary": ["the", "cat"], "output_mode": "tf_idf", "idf_weights": [1.0, 2.0]},
            input_data=np.array(["the cat sat", "a cat"]),
            **NO_MIXED,
        ),
    ],
    "TorchModuleWrapper": [
        case(skip="wraps a torch module: tests/integration/test_layers.py trains one on torch")
    ],
    "JaxLayer": [case(skip="wraps JAX functions: tests/integration/test_layers.py, jax leg")],
    "FlaxLayer": [case(skip="wraps a Flax module: tests/integration/test_layers.py, jax leg")],
    # Classes without a call of their own: the config round trip only.
    "Layer": [case()],
    "InputLayer": [case({"shape": (3,)})],
    "Wrapper": [case({"layer": "dense"})],
}

_SUB_LAYERS = {
    "simple": lambda: layers.SimpleRNNCell(2),
    "stacked": lambda: [layers.SimpleRNNCell(2), layers.GRUCell(3)],
    "lstm": lambda: layers.LSTM(2),
    "dense": lambda: layers.Dense(2),
    "pipeline": lambda: [layers.Rescaling(0.5), layers.AutoContrast(value_range=(-3, 3))],
}


def _sub_layer(value):
    """A fresh sub-layer for the names of `_SUB_LAYERS`; other values as they are."""
    if isinstance(value, str) and value in _SUB_LAYERS:
        return _SUB_LAYERS[value]()
    return value


def _layer_classes():
    return {
        name: value
        for name, value in vars(layers).items()
        if isinstance(value, type) and issubclass(value, layers.Layer) and name == value.__name__
    }


def test_every_exported_layer_class_has_a_harness_case():
    missing = sorted(set(_layer_classes()) - set(CASES))
    assert not missing, f"Add harness cases for: {missing}"


def _params():
    for name, cases in CASES.items():
        for i, spec in enumerate(cases):
            marks = []
            if "known_bug" in spec and config.backend() in spec.get(
                "known_bug_on", (config.backend(),)
            ):
                marks = [
                    pytest.mark.xfail(raises=AssertionError, strict=True, reason=spec["known_bug"])
                ]
            yield pytest.param(name, spec, id=f"{name}-{i}", marks=marks)


@pytest.mark.parametrize(("name", "spec"), list(_params()))
@declared_ops_only
def test_layer_through_the_harness(name, spec):
    spec = dict(spec)
    if "skip" in spec:
        pytest.skip(spec["skip"])
    cls = _layer_classes()[name]
    kwargs = {k: _sub_layer(v) for k, v in spec.pop("kwargs").items()}
    if spec.pop("through_rnn", False):
        kwargs, cls = {"cell": cls(**kwargs)}, layers.RNN
    value_shape = spec.pop("value_shape", None)
    if value_shape is not None:
        spec["call_kwargs"] = {"value": RNG.standard_normal(value_shape).astype("float32")}
        spec["input_data"] = RNG.standard_normal((2, *spec["input_shape"][1:])).astype("float32")
    known_bug = spec.pop("known_bug", None)
    if config.backend() not in spec.pop("known_bug_on", (config.backend(),)):
        known_bug = None
    try:
        run_layer_test(cls, kwargs, **spec)
    except (NotImplementedError, UserWarning) as error:
        if known_bug is None:
            raise
        raise AssertionError(f"{known_bug}: {error}") from error


@declared_ops_only
def test_integer_lookup_runs_inside_a_compiled_function():
    lookup = layers.IntegerLookup(vocabulary=[10, 20, 30], num_oov_indices=2, mask_token=0)
    compiled = backends.backend_module("training").jit(lambda x: lookup(x))
    values = np.array([[10, 30, 0], [7, 20, 8]], "int32")
    got = np.asarray(ops.convert_to_numpy(compiled(ops.convert_to_tensor(values))))
    np.testing.assert_array_equal(got, [[3, 5, 0], [2, 4, 1]])
