"""STFTSpectrogram, MelSpectrogram and Pipeline against Keras 3 (one Keras subprocess)."""

import doctest
import importlib

import numpy as np
import pytest

from mb_layers import Functional, Input, _registry, layers
from mb_layers.testing import compare_with_keras

RNG = np.random.default_rng(11)
SIGNAL = RNG.standard_normal((2, 100, 2)).astype("float32")
SIGNAL_FIRST = np.transpose(SIGNAL, (0, 2, 1)).copy()
AUDIO = RNG.standard_normal((2, 1000)).astype("float32")


def _stft(signal, **kwargs):
    layer = layers.STFTSpectrogram(**kwargs)
    layer(signal)
    return (layer, signal, {})


def test_spectrograms_and_pipelines_give_keras_outputs():
    modes = ("log", "magnitude", "psd", "real", "imag", "angle", "stft")
    cases = [_stft(SIGNAL, mode=mode, frame_length=16, frame_step=5) for mode in modes]
    cases += [
        _stft(
            SIGNAL,
            mode="magnitude",
            frame_length=16,
            expand_dims=True,
            padding="same",
            window="hamming",
            scaling="spectrum",
        ),
        _stft(
            SIGNAL_FIRST,
            frame_length=12,
            fft_length=16,
            data_format="channels_first",
            expand_dims=True,
            periodic=True,
        ),
        _stft(SIGNAL_FIRST, frame_length=12, fft_length=16, data_format="channels_first"),
        (
            layers.MelSpectrogram(
                fft_length=128, sequence_stride=32, num_mel_bins=20, sampling_rate=8000
            ),
            AUDIO,
            {},
        ),
        (
            layers.MelSpectrogram(
                fft_length=64,
                sequence_length=48,
                sequence_stride=40,
                num_mel_bins=10,
                power_to_db=False,
                mag_exp=1.0,
                window="hamming",
            ),
            AUDIO,
            {},
        ),
        (
            layers.MelSpectrogram(
                fft_length=64,
                sequence_stride=16,
                top_db=20.0,
                ref_power=2.0,
                min_freq=100.0,
                max_freq=3000,
            ),
            AUDIO[0],
            {},
        ),
        (
            layers.Pipeline([layers.Rescaling(1 / 255.0), layers.AutoContrast(value_range=(0, 1))]),
            (RNG.random((2, 5, 4, 3)) * 100).astype("float32"),
            {},
        ),
    ]
    compare_with_keras(cases, atol=1e-4, rtol=1e-4)
    for layer, inputs, _ in cases:  # the static shapes agree with the outputs
        assert tuple(layer.compute_output_shape(inputs.shape)) == np.asarray(layer(inputs)).shape


def test_stft_spectrogram_kernels_are_trainable_weights():
    layer = layers.STFTSpectrogram(mode="stft", frame_length=8)
    layer.build((None, 32, 1))
    assert [w.name for w in layer.trainable_weights] == ["real_kernel", "imag_kernel"]
    assert layers.STFTSpectrogram(mode="real", frame_length=8)(SIGNAL).shape == (2, 24, 10)


def test_spectrogram_arguments_are_checked():
    with pytest.raises(ValueError, match="frame_step"):
        layers.STFTSpectrogram(frame_length=8, frame_step=9)
    with pytest.raises(ValueError, match="mode"):
        layers.STFTSpectrogram(mode="power")
    with pytest.raises(ValueError, match="fft_length"):
        layers.MelSpectrogram(fft_length=64, sequence_length=128)
    with pytest.raises(TypeError, match="float16, float32 or float64"):
        layers.STFTSpectrogram(frame_length=8)(SIGNAL.astype("int32"))


def test_pipeline_passes_training_and_dicts_and_round_trips():
    pipeline = layers.Pipeline([layers.MixUp(seed=1), layers.Solarization(seed=1)])
    images = (RNG.random((4, 3, 3, 3)) * 255).astype("float32")
    data = {"images": images, "labels": np.eye(4, dtype="float32")}
    np.testing.assert_array_equal(np.asarray(pipeline(data, training=False)["images"]), images)
    out = pipeline(data, training=True)
    assert not np.allclose(np.asarray(out["images"]), images)
    clone = _registry.deserialize(_registry.serialize(pipeline))
    assert [type(x).__name__ for x in clone.layers] == ["MixUp", "Solarization"]
    inputs = Input((5, 4, 3))
    model = Functional(
        inputs, layers.Pipeline([layers.Rescaling(2.0), layers.Equalization()])(inputs)
    )
    assert model.output.shape == (None, 5, 4, 3)
    with pytest.raises(ValueError, match="list of layers"):
        layers.Pipeline(layers.Rescaling(2.0))


@pytest.mark.parametrize(
    "module",
    [
        "_image_data",
        "_image_geometry",
        "_image_levels",
        "_image_clahe",
        "_image_mixing",
        "_image_policies",
        "_pipeline",
        "_spectrogram",
    ],
)
def test_docstring_examples_run(module):
    result = doctest.testmod(importlib.import_module(f"mb_layers.layers.{module}"))
    assert result.failed == 0 and result.attempted > 0
