"""Preprocessing layers inside a tf.data pipeline (`dataset.map(layer)`), on every backend.

Keras 3 programs augment their data with `dataset.map(lambda x, y: (augment(x), y))`
whatever the backend; mb runs the layer in TensorFlow's graph on the tensorflow
backend and on the host (tf.numpy_function) on the others. Either way the values are
the eager layer's and the element spec keeps the static shapes.
"""

import numpy as np
import pytest

import mb_layers
from mb_ops import config

tf = pytest.importorskip("tensorflow", reason="tf.data pipelines need TensorFlow")
layers = mb_layers.layers

RNG = np.random.default_rng(0)
IMAGES = RNG.uniform(0, 1, size=(7, 12, 10, 3)).astype("float32")


def _mapped(layer, data, batch=3):
    dataset = tf.data.Dataset.from_tensor_slices(data).batch(batch).map(layer)
    return dataset, [x.numpy() for x in dataset]


DETERMINISTIC = {
    "Rescaling": (lambda: layers.Rescaling(0.5, offset=-1.0), IMAGES),
    "Normalization": (lambda: layers.Normalization(mean=0.5, variance=4.0), IMAGES),
    "Resizing": (lambda: layers.Resizing(6, 5), IMAGES),
    "CenterCrop": (lambda: layers.CenterCrop(8, 6), IMAGES),
    "Discretization": (
        lambda: layers.Discretization(bin_boundaries=[0.25, 0.5, 0.75]),
        IMAGES[:, :, 0, 0],
    ),
    "CategoryEncoding": (
        lambda: layers.CategoryEncoding(num_tokens=5, output_mode="multi_hot"),
        RNG.integers(0, 5, size=(7, 3)),
    ),
    "StringLookup": (
        lambda: layers.StringLookup(vocabulary=["cat", "dog"]),
        np.array([["cat"], ["dog"], ["cow"], ["dog"], ["cat"]]),
    ),
    "Hashing": (lambda: layers.Hashing(num_bins=7), np.array([["a"], ["b"], ["c"], ["d"]])),
    "IntegerLookup": (
        lambda: layers.IntegerLookup(vocabulary=[3, 7]),
        np.array([[3], [7], [9], [3]]),
    ),
    "TextVectorization": (
        lambda: layers.TextVectorization(
            vocabulary=["the", "cat", "dog"], output_sequence_length=3
        ),
        np.array([["the cat"], ["a dog"], ["the dog sat"], ["cat"]]),
    ),
}


@pytest.mark.parametrize("name", sorted(DETERMINISTIC))
def test_deterministic_layer_in_tf_data_gives_the_eager_values(name):
    make, data = DETERMINISTIC[name]
    layer = make()
    dataset, batches = _mapped(layer, data)
    eager = [np.asarray(layer(data[i : i + 3])) for i in range(0, len(data), 3)]
    for got, want in zip(batches, eager, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    assert dataset.element_spec.shape.as_list() == [None, *eager[0].shape[1:]]


def test_inverted_string_lookup_in_tf_data_gives_strings():
    layer = layers.StringLookup(vocabulary=["cat", "dog"], invert=True)
    dataset, batches = _mapped(layer, np.array([[1], [2], [0]]), batch=2)
    assert dataset.element_spec.dtype == tf.string
    assert [b.tolist() for b in batches] == [[[b"cat"], [b"dog"]], [[b"[UNK]"]]]


RANDOM = {
    "RandomFlip": lambda: layers.RandomFlip("horizontal", seed=1),
    "RandomRotation": lambda: layers.RandomRotation(0.2, seed=1),
    "RandomZoom": lambda: layers.RandomZoom(0.2, seed=1),
    "RandomTranslation": lambda: layers.RandomTranslation(0.1, 0.1, seed=1),
    "RandomContrast": lambda: layers.RandomContrast(0.3, seed=1),
    "RandomBrightness": lambda: layers.RandomBrightness(0.3, seed=1),
    "RandomCrop": lambda: layers.RandomCrop(8, 6, seed=1),
    "RandomHue": lambda: layers.RandomHue(0.2, seed=1),
    "RandomErasing": lambda: layers.RandomErasing(seed=1),
    "RandAugment": lambda: layers.RandAugment(seed=1),
}


@pytest.mark.parametrize("name", sorted(RANDOM))
def test_random_image_layer_runs_in_tf_data_with_an_unknown_batch(name):
    layer = RANDOM[name]()
    dataset, batches = _mapped(layer, IMAGES)
    # The short last batch (7 = 3 + 3 + 1) goes through the same traced function.
    assert [len(b) for b in batches] == [3, 3, 1]
    expected = layer.compute_output_shape((None, 12, 10, 3))
    assert dataset.element_spec.shape.as_list() == list(expected)
    assert all(b.shape[1:] == tuple(expected[1:]) for b in batches)
    assert all(np.isfinite(b).all() for b in batches)


def test_random_flip_in_tf_data_draws_anew_for_each_batch():
    layer = layers.RandomFlip("horizontal", seed=3)
    data = np.repeat(IMAGES[:1], 40, axis=0)
    _, batches = _mapped(layer, data, batch=8)
    images = np.concatenate(batches)
    flipped = np.all(images == IMAGES[0][:, ::-1], axis=(1, 2, 3))
    kept = np.all(images == IMAGES[0], axis=(1, 2, 3))
    assert np.all(flipped | kept), "each image is the original or its mirror image"
    assert 5 < flipped.sum() < 35, f"{flipped.sum()} of 40 flipped: the coin is not fair"


def test_layer_backend_is_the_active_backend_and_can_point_elsewhere():
    layer = layers.Normalization(mean=1.0, variance=4.0)
    assert layer.backend.name == config.backend()
    assert float(np.asarray(layer.backend.numpy.add(1.0, 2.0))) == 3.0
    weight = np.array([1.0, 2.0], dtype="float32")
    assert layer.convert_weight(weight) is weight
    # Another installed backend's own functions and tensors, until reset.
    other = "torch" if config.backend() == "tensorflow" else "tensorflow"
    pytest.importorskip(
        f"mb_backend_{other}", reason=f"pointing layer.backend at {other} needs mb-backend-{other}"
    )
    layer.backend.set_backend(other)
    try:
        assert layer.backend.name == other
        converted = layer.convert_weight(weight)
        assert type(converted).__module__.startswith(other)
        np.testing.assert_array_equal(np.asarray(converted), weight)
        doubled = layer.backend.numpy.multiply(converted, 2.0)
        assert type(doubled).__module__.startswith(other)
    finally:
        layer.backend.reset()
    assert layer.backend.name == config.backend()
    with pytest.raises(ValueError, match="Received: backend='tf'"):
        layer.backend.set_backend("tf")
