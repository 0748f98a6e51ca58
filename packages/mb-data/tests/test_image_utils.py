"""load_img, save_img, img_to_array, array_to_img and smart_resize against Keras 3.15."""

from __future__ import annotations

import io
import pickle

import numpy as np
import pytest

import mb_data
from mb_ops import testing

PIL = pytest.importorskip("PIL.Image", reason="Pillow reads and writes the image files")

_KERAS = """
import io, pickle, sys
import numpy as np
import keras
from keras.preprocessing.image import smart_resize
folder, out = sys.argv[1], sys.argv[2]
res = {}
for name in ("rgb.png", "rgba.png", "gray.png", "photo.jpg"):
    path = folder + "/" + name
    for mode in ("rgb", "rgba", "grayscale"):
        for kw in ({}, {"target_size": (9, 7)}, {"target_size": (9, 7), "keep_aspect_ratio": True,
                   "interpolation": "bilinear"}, {"target_size": (5, 12), "interpolation": "lanczos"}):
            img = keras.utils.load_img(path, color_mode=mode, **kw)
            res[(name, mode, tuple(sorted(kw)))] = (img.mode, keras.utils.img_to_array(img))
x = np.load(folder + "/x.npy")
res["smart"] = smart_resize(x, (10, 10))
res["smart_batch_cf"] = smart_resize(x.transpose(2, 0, 1)[None], (7, 13), data_format="channels_first")
res["array_to_img"] = np.asarray(keras.utils.array_to_img(x * 3.0 - 7.0))
res["img_to_array_cf"] = keras.utils.img_to_array(keras.utils.array_to_img(x), data_format="channels_first")
with open(out, "wb") as f:
    pickle.dump(res, f)
"""  # noqa: E501

KWARGS = [
    {},
    {"target_size": (9, 7)},
    {"target_size": (9, 7), "keep_aspect_ratio": True, "interpolation": "bilinear"},
    {"target_size": (5, 12), "interpolation": "lanczos"},
]


@pytest.fixture(scope="module", name="keras_results")
def _keras_results(tmp_path_factory):
    folder = tmp_path_factory.mktemp("imgs")
    rng = np.random.default_rng(0)
    PIL.fromarray(rng.integers(0, 256, (17, 23, 3), dtype=np.uint8)).save(folder / "rgb.png")
    PIL.fromarray(rng.integers(0, 256, (17, 23, 4), dtype=np.uint8), "RGBA").save(
        folder / "rgba.png"
    )
    PIL.fromarray(rng.integers(0, 256, (20, 11), dtype=np.uint8), "L").save(folder / "gray.png")
    PIL.fromarray(rng.integers(0, 256, (16, 16, 3), dtype=np.uint8)).save(
        folder / "photo.jpg", quality=90
    )
    np.save(folder / "x.npy", rng.random((31, 19, 3)).astype("float32"))
    testing.run_keras(_KERAS, str(folder), str(folder / "k.pkl"), backend="numpy")
    with open(folder / "k.pkl", "rb") as f:
        return folder, pickle.load(f)


@pytest.mark.parametrize("name", ["rgb.png", "rgba.png", "gray.png", "photo.jpg"])
@pytest.mark.parametrize("mode", ["rgb", "rgba", "grayscale"])
def test_load_img_equals_keras(keras_results, name, mode):
    folder, expected = keras_results
    for kwargs in KWARGS:
        img = mb_data.load_img(str(folder / name), color_mode=mode, **kwargs)
        keras_mode, keras_array = expected[(name, mode, tuple(sorted(kwargs)))]
        array = mb_data.img_to_array(img, data_format="channels_last")
        assert img.mode == keras_mode
        assert array.dtype == keras_array.dtype
        np.testing.assert_array_equal(array, keras_array)


def test_load_img_reads_bytes_and_pathlib(keras_results):
    folder, expected = keras_results
    data = (folder / "rgb.png").read_bytes()
    from_bytes = mb_data.img_to_array(mb_data.load_img(io.BytesIO(data)), "channels_last")
    np.testing.assert_array_equal(from_bytes, expected[("rgb.png", "rgb", ())][1])
    from_path = mb_data.img_to_array(mb_data.load_img(folder / "rgb.png"), "channels_last")
    np.testing.assert_array_equal(from_path, from_bytes)


def test_array_conversions_and_smart_resize_equal_keras(keras_results):
    folder, expected = keras_results
    x = np.load(folder / "x.npy")
    np.testing.assert_allclose(mb_data.smart_resize(x, (10, 10)), expected["smart"], atol=1e-5)
    batch = x.transpose(2, 0, 1)[None]
    ours = mb_data.smart_resize(batch, (7, 13), data_format="channels_first")
    np.testing.assert_allclose(ours, expected["smart_batch_cf"], atol=1e-5)
    img = mb_data.array_to_img(x * 3.0 - 7.0, data_format="channels_last")
    np.testing.assert_array_equal(np.asarray(img), expected["array_to_img"])
    back = mb_data.img_to_array(mb_data.array_to_img(x, "channels_last"), "channels_first")
    np.testing.assert_array_equal(back, expected["img_to_array_cf"])


def test_save_img_round_trips_and_warns_for_rgba_jpeg(tmp_path):
    x = np.random.default_rng(1).integers(0, 256, (6, 8, 3)).astype("float32")
    mb_data.save_img(tmp_path / "a.png", x, data_format="channels_last", scale=False)
    back = mb_data.img_to_array(mb_data.load_img(tmp_path / "a.png"), "channels_last")
    np.testing.assert_array_equal(back, x)
    rgba = np.concatenate([x, np.full((6, 8, 1), 255.0)], axis=-1)
    with pytest.warns(UserWarning, match="JPEG format does not support RGBA"):
        mb_data.save_img(tmp_path / "b.jpg", rgba, data_format="channels_last")
    assert mb_data.load_img(tmp_path / "b.jpg").size == (8, 6)


def test_bad_inputs_are_clear_errors(tmp_path):
    with pytest.raises(ValueError, match="rank 3"):
        mb_data.array_to_img(np.zeros((2, 4, 4, 3)))
    with pytest.raises(TypeError, match=r"path or an io\.BytesIO"):
        mb_data.load_img(42)
    with pytest.raises(ValueError, match="size=\\(height, width\\)"):
        mb_data.smart_resize(np.zeros((4, 4, 3)), (2, 2, 2))
