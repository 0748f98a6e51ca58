"""Preprocessing layers: harness checks, adapt, and inference/training behaviour."""

import numpy as np
import pytest

from mb_layers import layers
from mb_layers.testing import run_layer_test


def test_rescaling_and_center_crop_through_the_harness():
    image = np.random.default_rng(0).random((2, 6, 5, 3)).astype("float32")
    run_layer_test(
        layers.Rescaling,
        {"scale": 0.5, "offset": 1.0},
        input_data=image,
        expected_output=image * 0.5 + 1.0,
        expected_output_shape=(2, 6, 5, 3),
        input_shape=(None, 6, 5, 3),
        run_mixed_precision_check=False,
    )
    run_layer_test(
        layers.CenterCrop,
        {"height": 4, "width": 3, "data_format": "channels_last"},
        input_data=image,
        expected_output=image[:, 1:5, 1:4],
        input_shape=(None, 6, 5, 3),
        expected_output_shape=(2, 4, 3, 3),
        run_mixed_precision_check=False,
    )


def test_normalization_adapt_learns_per_feature_statistics():
    data = np.random.default_rng(1).normal(3.0, 2.0, (500, 4)).astype("float32")
    layer = layers.Normalization()
    layer.adapt(data)
    out = np.asarray(layer(data))
    np.testing.assert_allclose(out.mean(0), 0.0, atol=1e-4)
    np.testing.assert_allclose(out.std(0), 1.0, atol=1e-3)
    # mean, variance and Keras's (never updated) count, in Keras's order.
    assert [v.name for v in layer.non_trainable_weights] == ["mean", "variance", "count"]
    assert not layer.trainable_weights
    back = layers.Normalization(
        mean=layer.adapt_mean.numpy(), variance=layer.adapt_variance.numpy(), invert=True
    )
    np.testing.assert_allclose(np.asarray(back(out)), data, atol=1e-3)


def test_normalization_with_given_statistics_on_a_middle_axis():
    x = np.random.default_rng(2).normal(size=(2, 3, 4, 5)).astype("float32")
    mean, variance = [1.0, -1.0, 0.5], [4.0, 1.0, 0.25]
    out = np.asarray(layers.Normalization(axis=1, mean=mean, variance=variance)(x))
    expected = (x - np.reshape(mean, (1, 3, 1, 1))) / np.sqrt(np.reshape(variance, (1, 3, 1, 1)))
    np.testing.assert_allclose(out, expected, rtol=1e-6)
    scalar = np.asarray(layers.Normalization(axis=1, mean=2.0, variance=4.0)(x))
    np.testing.assert_allclose(scalar, (x - 2.0) / 2.0, rtol=1e-6)


def test_discretization_adapt_makes_quantile_bins():
    layer = layers.Discretization(num_bins=4)
    layer.adapt(np.arange(100, dtype="float32"))
    assert len(layer.bin_boundaries) == 3
    out = np.asarray(layer(np.array([0.0, 30.0, 60.0, 99.0], "float32")))
    # Keras 3.15: int32 bucket indices.
    assert out.tolist() == [0, 1, 2, 3] and out.dtype == np.int32


def test_random_flip_flips_only_in_training():
    image = np.arange(2 * 2 * 3, dtype="float32").reshape(1, 2, 3, 2)
    layer = layers.RandomFlip("horizontal", seed=3, data_format="channels_last")
    np.testing.assert_array_equal(np.asarray(layer(image, training=False)), image)
    flipped = [np.asarray(layer(image)) for _ in range(8)]
    assert all(np.array_equal(f, image) or np.array_equal(f, image[:, :, ::-1]) for f in flipped)
    assert any(np.array_equal(f, image[:, :, ::-1]) for f in flipped)


def test_category_encoding_rejects_unknown_mode():
    with pytest.raises(ValueError, match="output_mode"):
        layers.CategoryEncoding(3, output_mode="tf_idf")


def test_random_brightness_and_contrast_stay_in_range_and_are_identity_in_inference():
    image = np.random.default_rng(2).random((4, 5, 5, 3)).astype("float32")
    for cls in (layers.RandomBrightness, layers.RandomContrast):
        layer = cls(0.5, value_range=(0, 1), seed=4, data_format="channels_last")
        np.testing.assert_array_equal(np.asarray(layer(image, training=False)), image)
        out = np.asarray(layer(image))
        assert out.shape == image.shape and out.min() >= 0.0 and out.max() <= 1.0
        assert not np.allclose(out, image)
        assert layers.deserialize(layers.serialize(layer)).get_config() == layer.get_config()
