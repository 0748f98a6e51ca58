"""``preprocess_input`` and ``decode_predictions``: Keras's numbers, Keras's cache."""

import hashlib
import importlib.util

import apps_helpers as helpers
import numpy as np
import pytest

import mb_applications
from mb_applications import _imagenet, imagenet_utils
from mb_ops import ops

needs_keras = pytest.mark.skipif(
    importlib.util.find_spec("keras") is None, reason="Keras 3 is a test-only dependency"
)


@needs_keras
@pytest.mark.slow
def test_preprocess_input_equals_keras_for_every_mode_layout_and_dtype(session_dir):
    expected = helpers.dumps(session_dir)["keras"]["preprocess"]
    for case, want in zip(helpers.PREPROCESS, expected, strict=True):
        seed, shape, dtype, data_format, mode = case
        x = helpers.image_batch(seed, shape, dtype)
        got = imagenet_utils.preprocess_input(x, data_format=data_format, mode=mode)
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-4, err_msg=str(case))
        assert got.dtype == np.float32
        # A backend tensor goes through mb.ops and gives the same numbers.
        tensor = ops.convert_to_tensor(helpers.image_batch(seed, shape, dtype).astype("float32"))
        out = imagenet_utils.preprocess_input(tensor, data_format=data_format, mode=mode)
        np.testing.assert_allclose(
            ops.convert_to_numpy(out), want, rtol=1e-6, atol=1e-4, err_msg=str(case)
        )


def test_float_arrays_are_processed_in_place_as_in_keras():
    x = np.full((1, 2, 2, 3), 255.0, "float32")
    out = mb_applications.xception.preprocess_input(x)
    assert out is x and np.all(x == 1.0)
    ints = np.full((1, 2, 2, 3), 255, "uint8")
    out = mb_applications.densenet.preprocess_input(ints, data_format="channels_last")
    assert out.dtype == np.float32 and ints[0, 0, 0, 0] == 255
    np.testing.assert_allclose(
        out[0, 0, 0], (1 - np.array([0.485, 0.456, 0.406])) / [0.229, 0.224, 0.225], rtol=1e-6
    )


def test_each_module_uses_its_model_convention():
    x = np.array([[[[10.0, 20.0, 30.0]]]])
    caffe = [30.0 - 103.939, 20.0 - 116.779, 10.0 - 123.68]
    for module in ("resnet", "resnet50", "vgg16", "vgg19"):
        out = getattr(mb_applications, module).preprocess_input(x.copy(), "channels_last")
        np.testing.assert_allclose(out.ravel(), caffe, rtol=1e-6)
    tf = [10.0 / 127.5 - 1, 20.0 / 127.5 - 1, 30.0 / 127.5 - 1]
    for module in ("resnet_v2", "inception_v3", "inception_resnet_v2", "xception",
                   "mobilenet", "mobilenet_v2", "nasnet"):  # fmt: skip
        out = getattr(mb_applications, module).preprocess_input(x.copy())
        np.testing.assert_allclose(out.ravel(), tf, rtol=1e-6)
    for module in ("efficientnet", "efficientnet_v2", "convnext", "mobilenet_v3"):
        # These models normalise their input themselves.
        assert getattr(mb_applications, module).preprocess_input(x) is x


def test_bad_arguments_are_explained():
    with pytest.raises(ValueError, match="mode to be one of `caffe`, `tf` or `torch`"):
        imagenet_utils.preprocess_input(np.zeros((1, 3)), mode="keras")
    with pytest.raises(ValueError, match=r"channels_first` or `channels_last`.*channels_middle"):
        imagenet_utils.preprocess_input(np.zeros((1, 3)), data_format="channels_middle")
    with pytest.raises(ValueError, match=r"\(samples, 1000\).*\(2, 10\)"):
        imagenet_utils.decode_predictions(np.zeros((2, 10)))


def _serve_index(http_server, monkeypatch, session_dir):
    path = helpers.class_index(http_server.root / "imagenet_class_index.json")
    digest = hashlib.md5(path.read_bytes()).hexdigest()
    monkeypatch.setattr(_imagenet, "CLASS_INDEX_URL", http_server.url + path.name)
    monkeypatch.setattr(_imagenet, "_class_index", None)
    return digest


@needs_keras
@pytest.mark.slow
def test_decode_predictions_equals_keras_and_fetches_the_index_once(
    session_dir, http_server, monkeypatch, cache
):
    expected = helpers.dumps(session_dir)["keras"]["decode"]
    digest = _serve_index(http_server, monkeypatch, session_dir)
    monkeypatch.setattr(_imagenet, "CLASS_INDEX_HASH", digest)
    preds = helpers.decode_preds()
    got = mb_applications.resnet.decode_predictions(preds, top=5)
    assert [[(a, b) for a, b, _ in s] for s in got] == [[(a, b) for a, b, _ in s] for s in expected]
    np.testing.assert_allclose(
        [[c for *_, c in s] for s in got], [[c for *_, c in s] for s in expected]
    )
    # From the cache afterwards: a backend tensor decodes the same, without a download.
    assert http_server.requests == ["/imagenet_class_index.json"]
    assert (cache / "models" / "imagenet_class_index.json").exists()
    monkeypatch.setattr(_imagenet, "_class_index", None)
    again = mb_applications.vgg16.decode_predictions(ops.convert_to_tensor(preds), top=5)
    assert [[(a, b) for a, b, _ in s] for s in again] == [[(a, b) for a, b, _ in s] for s in got]
    assert len(http_server.requests) == 1


def test_a_class_index_that_fails_the_published_hash_is_refused(
    session_dir, http_server, monkeypatch, cache
):
    _serve_index(http_server, monkeypatch, session_dir)
    assert _imagenet.CLASS_INDEX_HASH == "c2c37ea517e94d9795004a39431a14cb"
    with pytest.raises(ValueError, match="hash"):
        imagenet_utils.decode_predictions(np.ones((1, 1000)))
    assert not (cache / "models" / "imagenet_class_index.json").exists()
