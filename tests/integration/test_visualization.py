"""mb.visualization on the active backend: masks equal Keras 3.15's (subprocess); boxes and
galleries checked by what they draw."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import mb
from mb_ops import testing

PIL = pytest.importorskip("PIL.Image", reason="Pillow draws the boxes")
pytest.importorskip("matplotlib", reason="matplotlib draws the galleries")

RNG = np.random.default_rng(0)
IMAGES = RNG.integers(0, 256, (2, 12, 16, 3)).astype("float32")
MASKS = RNG.integers(-1, 4, (2, 12, 16, 1)).astype("int32")
COLORS = {0: (255, 0, 0), 1: (0, 255, 0), 2: (0, 0, 255), 3: (9, 99, 199)}
CASES = [
    {"num_classes": 4},
    {"num_classes": 5, "alpha": 0.5},
    {"num_classes": 4, "color_mapping": COLORS},
    {"num_classes": 4, "blend": False},
]

_KERAS = """
import pickle, sys
import numpy as np
import keras
images, masks, cases = np.load(sys.argv[1]), np.load(sys.argv[2]), eval(sys.argv[3])
out = [np.asarray(keras.visualization.draw_segmentation_masks(images, masks,
       data_format="channels_last", **c)) for c in cases]
pickle.dump(out, open(sys.argv[4], "wb"))
"""


@pytest.fixture(scope="module", name="keras_masks")
def _keras_masks(tmp_path_factory):
    folder = tmp_path_factory.mktemp("vis")
    np.save(folder / "i.npy", IMAGES)
    np.save(folder / "m.npy", MASKS)
    testing.run_keras(
        _KERAS, str(folder / "i.npy"), str(folder / "m.npy"), repr(CASES), str(folder / "k.pkl"),
        backend="numpy",
    )  # fmt: skip
    with open(folder / "k.pkl", "rb") as f:
        return pickle.load(f)


def _np(x):
    return np.asarray(mb.ops.convert_to_numpy(x))


@pytest.mark.heavy
@pytest.mark.parametrize("case", range(len(CASES)))
def test_segmentation_masks_equal_keras(keras_masks, case):
    ours = _np(
        mb.visualization.draw_segmentation_masks(
            IMAGES, MASKS, data_format="channels_last", **CASES[case]
        )
    )
    assert ours.dtype == keras_masks[case].dtype and ours.shape == keras_masks[case].shape
    np.testing.assert_allclose(
        ours, keras_masks[case], atol=1.0 if ours.dtype == np.uint8 else 1e-4
    )


def test_default_num_classes_paints_every_class(keras_masks):
    # Keras's default (the largest id) leaves that class unpainted; mb counts it.
    ours = _np(mb.visualization.draw_segmentation_masks(IMAGES, MASKS, data_format="channels_last"))
    np.testing.assert_allclose(ours, keras_masks[0], atol=1.0)


def test_boxes_are_drawn_where_they_are_and_padding_is_not():
    images = np.zeros((1, 60, 50, 3), "float32")
    boxes = {
        "boxes": np.array([[[10, 40, 30, 55], [0, 0, 5, 5]]], "float32"),
        "labels": np.array([[1, -1]], "int32"),
    }
    drawn = mb.visualization.draw_bounding_boxes(
        images, boxes, "xyxy", color=(255, 0, 0), line_thickness=1,
        class_mapping={1: "cat"}, data_format="channels_last",
    )  # fmt: skip
    assert drawn.dtype == np.uint8 and drawn.shape == (1, 60, 50, 3)
    red = (drawn[0, ..., 0] == 255) & (drawn[0, ..., 1] == 0)
    assert red[40, 10:31].all() and red[55, 10:31].all()  # top and bottom edges
    assert red[40:56, 10].all() and red[40:56, 30].all()  # left and right edges
    assert not red[42:54, 12:29].any()  # inside stays empty
    assert not red[:5, :5].any()  # label -1: padding, not drawn
    assert red[15:33, 10:45].any()  # the class name, written above the box
    gray = mb.visualization.draw_bounding_boxes(
        np.ones((1, 3, 60, 50), "float32") * 0.5, boxes, "xyxy", data_format="channels_first"
    )
    assert gray.shape == (1, 60, 50, 3) and gray[0, 0, 49, 0] == 127  # [0, 1] floats scaled


def test_galleries_write_images(tmp_path):
    mb.visualization.plot_image_gallery(
        IMAGES, y_true=np.array([0, 1]), label_map={0: "a", 1: "b"}, path=tmp_path / "g.png",
        data_format="channels_last", rows=1, cols=2,
    )  # fmt: skip
    boxes = {"boxes": np.array([[[1, 1, 8, 8]], [[2, 2, 9, 9]]], "float32"),
             "labels": np.array([[0], [1]], "int32")}  # fmt: skip
    mb.visualization.plot_bounding_box_gallery(
        IMAGES, "xyxy", y_true=boxes, y_pred=boxes, legend=True, path=tmp_path / "b.png",
        class_mapping={0: "x", 1: "y"}, data_format="channels_last",
    )  # fmt: skip
    mb.visualization.plot_segmentation_mask_gallery(
        IMAGES, num_classes=4, y_true=MASKS, y_pred=MASKS, path=tmp_path / "s.png",
        data_format="channels_last",
    )  # fmt: skip
    sizes = {}
    for name in ("g", "b", "s"):
        with PIL.open(tmp_path / f"{name}.png") as img:
            sizes[name] = img.size
    assert all(w > 20 and h > 20 for w, h in sizes.values())
    assert sizes["s"][0] > sizes["s"][1]  # one row per image, three columns: wider than tall


def test_bad_inputs_are_clear_errors():
    with pytest.raises(ValueError, match="rank 4"):
        mb.visualization.draw_bounding_boxes(IMAGES[0], {"boxes": [], "labels": []}, "xyxy")
    with pytest.raises(TypeError, match="integer class ids"):
        mb.visualization.draw_segmentation_masks(IMAGES, MASKS.astype("float32"))
    with pytest.raises(ValueError, match="label_map"):
        mb.visualization.plot_image_gallery(IMAGES, y_true=np.array([0, 1]))
