"""Folder datasets train every backend, in every format (run once per backend).

Without TensorFlow, bilinear and nearest resizing are mb's NumPy copies of
tf.image.resize (equal to TensorFlow's reader, Keras's default), and the other
interpolations use the active backend's resize: each backend's pixels must equal
TensorFlow's within that resize's rounding.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import mb
import mb_data
from mb_ops import config

PIL = pytest.importorskip("PIL.Image", reason="Pillow writes the test images")
FORMATS = [f for f in ("tf", "grain", "pydataset") if f == "pydataset" or importlib.util.find_spec(
    {"tf": "tensorflow", "grain": "grain"}[f]) is not None]  # fmt: skip


@pytest.fixture(scope="module", name="folder")
def _folder(tmp_path_factory):
    """Two classes told apart by brightness: dark and light noisy images of four sizes
    (few sizes: jax compiles its eager resize once per input size)."""
    root = tmp_path_factory.mktemp("shapes")
    rng = np.random.default_rng(0)
    for label, (low, high) in enumerate(((0, 90), (160, 256))):
        (root / f"class_{label}").mkdir()
        for i in range(24):
            h, w = ((10, 14), (17, 11), (23, 29), (12, 12))[i % 4]
            pixels = rng.integers(low, high, (h, w, 3), dtype=np.uint8)
            PIL.fromarray(pixels).save(root / f"class_{label}" / f"{i}.png")
    return root


def _images(ds):
    return np.concatenate([np.asarray(x) for x, _ in ds])


OPTIONS = [
    ({}, 0.0),
    ({"crop_to_aspect_ratio": True}, 0.0),
    ({"pad_to_aspect_ratio": True, "interpolation": "nearest"}, 0.0),
    ({"interpolation": "lanczos3"}, 2e-3),  # the backend's resize: float rounding
]


@pytest.mark.parametrize(("option", "atol"), OPTIONS)
def test_readers_without_tensorflow_match_tensorflow(folder, option, atol):
    if "tf" not in FORMATS:
        pytest.skip("TensorFlow is not installed: nothing to compare with")
    kwargs = dict(image_size=(12, 16), batch_size=8, shuffle=False, verbose=False, **option)
    reference = _images(mb_data.image_dataset_from_directory(folder, format="tf", **kwargs))
    ours = _images(mb_data.image_dataset_from_directory(folder, format="pydataset", **kwargs))
    assert ours.shape == reference.shape and ours.dtype == reference.dtype
    np.testing.assert_allclose(ours, reference, atol=atol, rtol=0)


@pytest.mark.trains
@pytest.mark.parametrize("format", FORMATS)
def test_a_model_trains_from_each_format(folder, format):
    train, val = mb.utils.image_dataset_from_directory(
        folder, image_size=(16, 16), batch_size=8, seed=3, validation_split=0.25,
        subset="both", format=format, verbose=False, data_format="channels_last",
    )  # fmt: skip
    assert train.class_names == ["class_0", "class_1"]
    before = config.image_data_format()
    config.set_image_data_format("channels_last")
    try:
        model = mb.Sequential(
            [
                mb.Input((16, 16, 3)),
                mb.layers.Rescaling(1 / 255),
                mb.layers.GlobalAveragePooling2D(),
                mb.layers.Dense(2, activation="softmax"),
            ]
        )
        model.compile(optimizer=mb.optimizers.Adam(0.1), loss="sparse_categorical_crossentropy",
                      metrics=["accuracy"])  # fmt: skip
        history = model.fit(train, validation_data=val, epochs=6, verbose=0)
    finally:
        config.set_image_data_format(before)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert history.history["val_accuracy"][-1] == 1.0  # brightness separates the classes
