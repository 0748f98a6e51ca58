"""``weights="imagenet"``: the published file, by its published name, through ``get_file``
into ``<cache>/models``, checked against the published hash, then loaded.

A local HTTP server on 127.0.0.1 stands in for the bucket; the file it serves is a
Keras-written weight file in the Keras 2 layout of the published ones, for a small
model (MobileNetV3Small, minimalistic, without its top). Nothing leaves the machine.
"""

import hashlib
import importlib.util
import shutil

import apps_helpers as helpers
import numpy as np
import pytest

import mb_applications
import mb_saving
from mb_applications import _mobilenet_v3, _weights
from mb_ops import ops

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("keras") is None, reason="Keras 3 is a test-only dependency"
)

KEY = "small_minimalistic_224_1.0_float"
FILE = f"weights_mobilenet_v3_{KEY}_no_top_v2.h5"


@pytest.fixture
def bucket(session_dir, http_server, monkeypatch, cache):
    """The server holds the stand-in at the published path; returns Keras's input/output."""
    folder = helpers.keras_weights(session_dir, helpers.NUMERICS)
    (http_server.root / "mobilenet_v3").mkdir()
    shutil.copy(folder / "mnv3_minimalistic.h5", http_server.root / "mobilenet_v3" / FILE)
    monkeypatch.setattr(_weights, "KERAS_APPLICATIONS", http_server.url)
    return np.load(folder / "mnv3_minimalistic.npz")


def _build():
    with pytest.warns(UserWarning, match=r"Weights for input shape \(224, 224\)"):
        return mb_applications.MobileNetV3Small(
            weights="imagenet", minimalistic=True, include_top=False, input_shape=(32, 32, 3)
        )


def test_imagenet_weights_are_fetched_once_by_name_checked_and_loaded(
    bucket, http_server, monkeypatch, cache
):
    digest = hashlib.md5((http_server.root / "mobilenet_v3" / FILE).read_bytes()).hexdigest()
    top, _ = _mobilenet_v3._HASHES[KEY]
    monkeypatch.setitem(_mobilenet_v3._HASHES, KEY, (top, digest))
    model = _build()
    assert http_server.requests == [f"/mobilenet_v3/{FILE}"]
    assert (cache / "models" / FILE).is_file()
    got = ops.convert_to_numpy(model(bucket["x"], training=False))
    np.testing.assert_allclose(got, bucket["y"], rtol=1e-4, atol=1e-4)
    _build()  # from the cache this time
    assert len(http_server.requests) == 1


def test_a_file_that_fails_the_published_hash_is_refused_and_not_cached(bucket, http_server, cache):
    assert _mobilenet_v3._HASHES[KEY][1] == "cde8136e733e811080d9fcd8a252f7e4"
    with pytest.raises(ValueError, match="hash"):
        _build()
    assert not (cache / "models" / FILE).exists()


def test_saved_models_with_the_applications_own_layers_load_both_ways(session_dir, tmp_path):
    folder = helpers.keras_weights(session_dir, helpers.NUMERICS)
    data = np.load(folder / "custom.npz")
    keras_file = mb_saving.load_model(folder / "custom.keras")  # safe mode
    np.testing.assert_allclose(
        ops.convert_to_numpy(keras_file(data["x"])), data["y"], rtol=1e-6, atol=1e-6
    )
    model = mb_applications.InceptionResNetV2(weights=None, input_shape=(75, 75, 3), classes=3)
    model.save(tmp_path / "irv2.keras")
    x = helpers.image_batch(0, (1, 75, 75, 3), "float32")
    again = mb_saving.load_model(tmp_path / "irv2.keras")
    np.testing.assert_allclose(ops.convert_to_numpy(again(x)), ops.convert_to_numpy(model(x)))
