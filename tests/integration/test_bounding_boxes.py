"""mb.utils.bounding_boxes on the active backend against Keras 3.15 (NumPy backend, subprocess)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import mb
from mb_ops import backends, testing

FORMATS = ["xyxy", "yxyx", "xywh", "center_xywh", "center_yxhw", "rel_xyxy", "rel_yxyx",
           "rel_xywh", "rel_center_xywh"]  # fmt: skip
H, W = 40.0, 60.0

# Each call: (function, args as NumPy, kwargs); the same list runs in Keras and in mb.
_CALLS_SOURCE = """
import numpy as np
rng = np.random.default_rng(0)
xy = rng.uniform(0, 30, (2, 5, 2)).astype("float32")
boxes = np.concatenate([xy, xy + rng.uniform(1, 20, (2, 5, 2))], -1).astype("float32")
rel = boxes / np.array([60, 40, 60, 40], "float32")
labels = np.array([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]], "int32")
calls = []
for src in FORMATS:
    for dst in FORMATS:
        calls.append(("convert_format", (boxes,), dict(source=src, target=dst, height=H, width=W)))
outside = boxes * 2.5 - 20
calls.append(("clip_to_image_size", ({"boxes": outside, "labels": labels},),
              dict(height=H, width=W, bounding_box_format="xyxy")))
calls.append(("clip_to_image_size", ({"boxes": rel * 1.6 - 0.3, "labels": labels},),
              dict(bounding_box_format="rel_xyxy")))
calls.append(("crop", (boxes, 5, 7, 20, 30), {}))
calls.append(("pad", (boxes, 5, 7), {}))
params = [rng.uniform(-20, 20, 2).astype("float32"), rng.uniform(-0.1, 0.1, 2).astype("float32"),
          rng.uniform(-0.1, 0.1, 2).astype("float32"), rng.uniform(0.8, 1.2, 2).astype("float32"),
          rng.uniform(-10, 10, 2).astype("float32"), rng.uniform(-10, 10, 2).astype("float32")]
calls.append(("affine_transform", (boxes, *params, 40, 60), {}))
anchors = boxes[0]
for enc in ("center_yxhw", "center_xywh"):
    calls.append(("encode_box_to_deltas", (anchors, boxes), dict(anchor_format="xyxy",
                  box_format="xywh", encoding_format=enc, variance=[0.1, 0.1, 0.2, 0.2])))
deltas = rng.normal(0, 0.3, (2, 5, 4)).astype("float32")
calls.append(("decode_deltas_to_boxes", (anchors, deltas), dict(anchor_format="xyxy",
              box_format="center_xywh", variance=[0.1, 0.1, 0.2, 0.2])))
calls.append(("decode_deltas_to_boxes", ({"p3": anchors}, {"p3": deltas[0]}),
              dict(anchor_format="xyxy", box_format="rel_xyxy", image_shape=(40, 60, 3))))
padded = boxes.copy()
padded[1, 3:] = -1
calls.append(("compute_iou", (boxes[0], boxes[1]), dict(bounding_box_format="xyxy")))
calls.append(("compute_iou", (padded, boxes), dict(bounding_box_format="xyxy",
              use_masking=True, mask_val=-2)))
calls.append(("compute_iou", (rel[0], rel[1]), dict(bounding_box_format="rel_xyxy",
              image_shape=(40, 60, 3))))
calls.append(("compute_ciou", (boxes[0], boxes[1][::-1]), dict(bounding_box_format="xyxy")))
"""

_KERAS = (
    "import pickle, sys\n"
    "from keras.utils import bounding_boxes as bb\n"
    "import keras\n"
    f"FORMATS, H, W = {FORMATS!r}, {H}, {W}\n" + _CALLS_SOURCE + "\n"
    "out = [keras.tree.map_structure(np.asarray, getattr(bb, f)(*a, **k)) for f, a, k in calls]\n"
    "pickle.dump(out, open(sys.argv[1], 'wb'))\n"
)


def _calls():
    namespace = {"FORMATS": FORMATS, "H": H, "W": W}
    exec(_CALLS_SOURCE, namespace)
    return namespace["calls"]


@pytest.fixture(scope="module", name="keras_results")
def _keras_results(tmp_path_factory):
    out = tmp_path_factory.mktemp("boxes") / "k.pkl"
    testing.run_keras(_KERAS, str(out), backend="numpy")
    with open(out, "rb") as f:
        return pickle.load(f)


def _numpy(x):
    if isinstance(x, dict):
        return {k: _numpy(v) for k, v in x.items()}
    return np.asarray(backends.backend_module("core").convert_to_numpy(x))


@pytest.mark.heavy
def test_every_helper_gives_keras_numbers(keras_results):
    calls = _calls()
    assert len(calls) == len(keras_results)
    for (name, args, kwargs), expected in zip(calls, keras_results, strict=True):
        ours = _numpy(getattr(mb.utils.bounding_boxes, name)(*args, **kwargs))
        where = f"{name}({kwargs})"
        if isinstance(expected, dict):
            assert sorted(ours) == sorted(expected), where
            for key in expected:
                np.testing.assert_allclose(ours[key], expected[key], rtol=1e-5, atol=1e-4,
                                           err_msg=where)  # fmt: skip
        else:
            assert ours.shape == expected.shape, where
            np.testing.assert_allclose(ours, expected, rtol=1e-5, atol=1e-4, err_msg=where)


def test_bad_formats_are_clear_errors():
    boxes = np.zeros((2, 4), "float32")
    with pytest.raises(ValueError, match="Unknown bounding box format"):
        mb.utils.bounding_boxes.convert_format(boxes, "xyxy", "corners")
    with pytest.raises(ValueError, match="needs the image's height and width"):
        mb.utils.bounding_boxes.convert_format(boxes, "xyxy", "rel_xyxy")
    with pytest.raises(ValueError, match="last axis has 4"):
        mb.utils.bounding_boxes.convert_format(np.zeros((2, 3)), "xyxy", "yxyx")
    with pytest.raises(NotImplementedError, match="'xyxy' only"):
        mb.utils.bounding_boxes.crop(boxes, 0, 0, 5, 5, bounding_box_format="yxyx")
