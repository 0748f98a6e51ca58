"""Image layers on Keras 3's data dicts: images, bounding boxes and segmentation masks
transformed together, against Keras 3 (one Keras subprocess for the module).

Where the transformation is fixed (a deterministic layer, a factor range collapsed to
one value, or a transformation passed to ``transform_*``), mb must give Keras's
numbers; random layers are checked by what one draw per call guarantees: the mask
moves with the image and the boxes with the pixels they enclose.
"""

import json

import numpy as np
import pytest
from _keras_nested_arrays import SCRIPT_HEAD, flatten

from mb_graph import KerasTensor
from mb_layers import _registry, layers
from mb_ops import testing

RNG = np.random.default_rng(7)
IMAGES = (RNG.random((2, 12, 16, 3)) * 255).astype("float32")
# Masks whose values are the image's first channel, rounded to 4 classes.
MASKS = np.floor(IMAGES[..., :1] / 64.0).astype("float32")
BOXES = {
    "boxes": np.array(
        [
            [[1.0, 2.0, 6.0, 9.0], [8.0, 1.0, 15.0, 5.0]],
            [[0.0, 0.0, 16.0, 12.0], [3.0, 4.0, 9.0, 7.0]],
        ],
        "float32",
    ),
    "labels": np.array([[1, 2], [0, 3]], "int32"),
}
FLIPS = np.array([True, False]).reshape(2, 1, 1, 1)


def _data(boxes=True, masks=True):
    data = {"images": IMAGES}
    if boxes:
        data["bounding_boxes"] = {key: value.copy() for key, value in BOXES.items()}
    if masks:
        data["segmentation_masks"] = MASKS
    return data


def _relative_data():
    data = _data(masks=False)
    data["bounding_boxes"]["boxes"] /= np.array([16, 12, 16, 12], "float32")
    return data


def _single_data():
    data = _data()
    return {
        "images": IMAGES[0],
        "segmentation_masks": MASKS[0],
        "bounding_boxes": {key: value[0] for key, value in data["bounding_boxes"].items()},
    }


def _call_cases():
    """``(name, layer, data)``: ``layer(data, training=True)`` must equal Keras's."""
    xyxy = {"bounding_box_format": "xyxy"}
    return [
        ("resize", layers.Resizing(6, 8, **xyxy), _data()),
        ("resize_up", layers.Resizing(20, 18, interpolation="nearest", **xyxy), _data()),
        (
            "resize_crop",
            layers.Resizing(8, 8, crop_to_aspect_ratio=True, **xyxy),
            _data(masks=False),
        ),
        ("resize_pad", layers.Resizing(8, 8, pad_to_aspect_ratio=True, **xyxy), _data(masks=False)),
        ("resize_rel", layers.Resizing(6, 6, bounding_box_format="rel_xyxy"), _relative_data()),
        ("center_crop", layers.CenterCrop(8, 10, **xyxy), _data()),
        ("center_crop_up", layers.CenterCrop(14, 10, **xyxy), _data(masks=False)),
        (
            "translate",
            layers.RandomTranslation((0.25, 0.25), (-0.125, -0.125), **xyxy),
            _data(),
        ),
        (
            "translate_xywh",
            layers.RandomTranslation((-0.1, -0.1), (0.2, 0.2), bounding_box_format="xywh"),
            _data(masks=False),
        ),
        ("rotate", layers.RandomRotation((0.1, 0.1), **xyxy), _data()),
        ("zoom", layers.RandomZoom((0.3, 0.3), (-0.15, -0.15), **xyxy), _data()),
        ("zoom_in", layers.RandomZoom((-0.25, -0.25), **xyxy), _data()),
        ("brightness", layers.RandomBrightness((0.1, 0.1), **xyxy), _data()),
        ("unbatched", layers.Resizing(6, 8, **xyxy), _single_data()),
    ]


def _transform_cases():
    """``(name, layer, transformation)``: the ``transform_*`` methods on the images,
    boxes and masks with that transformation must give Keras's."""
    shape = list(IMAGES.shape)
    return [
        ("flip_h", layers.RandomFlip("horizontal", bounding_box_format="xyxy"), FLIPS, shape),
        ("flip_v", layers.RandomFlip("vertical", bounding_box_format="xyxy"), FLIPS, shape),
        ("flip_hv", layers.RandomFlip(bounding_box_format="rel_xyxy"), FLIPS, shape),
    ]


_SCRIPT = (
    SCRIPT_HEAD
    + r"""
for case in cases:
    layer = keras.layers.deserialize(case["config"])
    data = unflatten(case["name"])
    if case["kind"] == "call":
        flatten(case["name"], layer(data, training=True))
        continue
    t = {"flips": data.pop("flips"), "input_shape": tuple(case["input_shape"])}
    methods = {"images": layer.transform_images, "bounding_boxes": layer.transform_bounding_boxes,
               "segmentation_masks": layer.transform_segmentation_masks}
    for key, method in methods.items():
        flatten(f"{case['name']}/{key}", method(data[key], t))
np.savez(f"{folder}/out.npz", **out)
"""
)


@pytest.fixture(scope="module")
def keras_results(tmp_path_factory):
    folder = tmp_path_factory.mktemp("keras_image_boxes")
    arrays, meta = {}, []
    for name, layer, data in _call_cases():
        flatten(name, data, arrays)
        meta.append({"name": name, "config": _registry.serialize(layer), "kind": "call"})
    for name, layer, flips, shape in _transform_cases():
        data = _relative_data() if name == "flip_hv" else _data()
        flatten(name, {**data, "segmentation_masks": MASKS, "flips": flips}, arrays)
        config = _registry.serialize(layer)
        meta.append({"name": name, "config": config, "kind": "transform", "input_shape": shape})
    (folder / "cases.json").write_text(json.dumps(meta))
    np.savez(folder / "arrays.npz", **arrays)
    testing.run_keras(_SCRIPT, str(folder), backend="numpy")
    return dict(np.load(folder / "out.npz"))


def _assert_like_keras(name, got, keras_results):
    expected = {k: v for k, v in keras_results.items() if k.startswith(name + "/")}
    assert sorted(got) == sorted(expected)
    for key, value in expected.items():
        assert got[key].shape == value.shape, key
        if key.endswith("/labels"):
            np.testing.assert_array_equal(got[key], value, err_msg=key)
        else:
            # float32 interpolation and box arithmetic in another order: 1e-3 of a pixel.
            np.testing.assert_allclose(got[key], value, rtol=1e-5, atol=1e-3, err_msg=key)


@pytest.mark.parametrize("case", _call_cases(), ids=lambda c: c[0])
def test_data_dict_gives_keras_outputs(case, keras_results):
    name, layer, data = case
    _assert_like_keras(name, flatten(name, layer(data, training=True), {}), keras_results)


@pytest.mark.parametrize("case", _transform_cases(), ids=lambda c: c[0])
def test_fixed_transformation_gives_keras_outputs(case, keras_results):
    name, layer, flips, shape = case
    t = {"flips": flips, "input_shape": tuple(shape)}
    data = {**(_relative_data() if name == "flip_hv" else _data()), "segmentation_masks": MASKS}
    got = {
        "images": layer.transform_images(data["images"], t),
        "bounding_boxes": layer.transform_bounding_boxes(data["bounding_boxes"], t),
        "segmentation_masks": layer.transform_segmentation_masks(data["segmentation_masks"], t),
    }
    _assert_like_keras(name, flatten(name, got, {}), keras_results)


# ----- random layers: one draw per call, applied to every part -----------------------


def _random_geometric_layers():
    nearest = {"interpolation": "nearest", "bounding_box_format": "xyxy", "seed": 3}
    return [
        layers.RandomFlip(bounding_box_format="xyxy", seed=3),
        layers.RandomTranslation(0.3, 0.3, fill_mode="constant", **nearest),
        layers.RandomRotation(0.2, fill_mode="constant", **nearest),
        layers.RandomZoom(0.4, 0.3, fill_mode="constant", **nearest),
        layers.RandomShear(0.3, 0.3, fill_mode="constant", **nearest),
        layers.RandomPerspective(scale=0.6, **nearest),
        layers.RandomCrop(9, 11, bounding_box_format="xyxy", seed=3),
    ]


def _bright_square_data(batch=16):
    """Dark images with one bright square each; its box; masks equal to the images."""
    images = np.zeros((batch, 24, 32, 1), "float32")
    boxes = np.zeros((batch, 1, 4), "float32")
    for i in range(batch):
        top, left = 4 + i % 8, 6 + (3 * i) % 14
        images[i, top : top + 7, left : left + 9] = 255.0
        boxes[i, 0] = [left, top, left + 9, top + 7]
    return {
        "images": images,
        "segmentation_masks": images.copy(),
        "bounding_boxes": {"boxes": boxes, "labels": np.ones((batch, 1), "int32")},
    }


@pytest.mark.parametrize("layer", _random_geometric_layers(), ids=lambda x: type(x).__name__)
def test_one_draw_moves_images_masks_and_boxes_together(layer):
    out = layer(_bright_square_data(), training=True)
    images = np.asarray(out["images"])[..., 0]
    masks = np.asarray(out["segmentation_masks"])[..., 0]
    # Nearest interpolation on both: the mask is still exactly the image.
    np.testing.assert_array_equal(masks, images)
    boxes = np.asarray(out["bounding_boxes"]["boxes"])[:, 0]
    moved = 0
    for i in range(len(images)):
        rows, cols = np.nonzero(images[i] > 127)
        if not len(rows):
            continue
        x1, y1, x2, y2 = boxes[i]
        # Every bright pixel lies in the box: a pixel spans [i, i + 1], and the warps
        # sample pixel i at coordinate i (as Keras's), so allow 1.5 px for rounding ...
        assert x1 - 1.5 <= cols.min() and cols.max() + 1 <= x2 + 1.5, (i, boxes[i])
        assert y1 - 1.5 <= rows.min() and rows.max() + 1 <= y2 + 1.5, (i, boxes[i])
        moved += not np.allclose(boxes[i], _bright_square_data()["bounding_boxes"]["boxes"][i, 0])
    assert moved > 0  # ... and the draws did move some of them


def test_unbatched_dict_is_a_batch_of_one():
    data = _bright_square_data(1)
    single = {
        "images": data["images"][0],
        "segmentation_masks": data["segmentation_masks"][0],
        "bounding_boxes": {k: v[0] for k, v in data["bounding_boxes"].items()},
    }
    batched = layers.RandomRotation(0.2, seed=5, bounding_box_format="xyxy")(data)
    alone = layers.RandomRotation(0.2, seed=5, bounding_box_format="xyxy")(single)
    assert np.asarray(alone["images"]).shape == (24, 32, 1)
    assert np.asarray(alone["bounding_boxes"]["boxes"]).shape == (1, 4)
    np.testing.assert_allclose(np.asarray(alone["images"]), np.asarray(batched["images"])[0])
    np.testing.assert_allclose(
        np.asarray(alone["bounding_boxes"]["boxes"]),
        np.asarray(batched["bounding_boxes"]["boxes"])[0],
        atol=1e-4,
    )


def test_transformation_can_be_drawn_and_reused():
    layer = layers.RandomTranslation(0.3, 0.3, interpolation="nearest", bounding_box_format="xyxy")
    data = _bright_square_data(4)
    transformation = layer.get_random_transformation(data, training=True, seed=11)
    again = layer.get_random_transformation(data, training=True, seed=11)
    np.testing.assert_array_equal(
        np.asarray(transformation["translations"]), np.asarray(again["translations"])
    )
    images = layer.transform_images(data["images"], transformation)
    masks = layer.transform_segmentation_masks(data["segmentation_masks"], transformation)
    np.testing.assert_array_equal(np.asarray(images), np.asarray(masks))
    # One image: a transformation drawn for it, applied by the single-image helpers.
    one = layer.get_random_transformation(data["images"][0], training=True, seed=11)
    single = layer.transform_single_image(data["images"][0], one)
    mask = layer.transform_single_segmentation_mask(data["segmentation_masks"][0], one)
    box = layer.transform_single_bounding_box(
        {k: v[0] for k, v in data["bounding_boxes"].items()}, one
    )
    assert np.asarray(single).shape == (24, 32, 1)
    np.testing.assert_array_equal(np.asarray(single), np.asarray(mask))
    assert np.asarray(box["boxes"]).shape == (1, 4)
    assert layer.get_random_transformation(data, training=False) is None


def test_boxes_without_a_format_are_refused():
    with pytest.raises(ValueError, match="bounding_box_format"):
        layers.RandomFlip()(_bright_square_data(2))


def test_elastic_transform_deforms_images_and_masks_alike():
    # Every image deformed, by the largest displacements (so that nearest sampling moves pixels).
    layer = layers.RandomElasticTransform((1.0, 1.0), (1.0, 1.0), interpolation="nearest", seed=2)
    data = _bright_square_data(4)
    del data["bounding_boxes"]
    out = layer(data, training=True)
    np.testing.assert_array_equal(np.asarray(out["segmentation_masks"]), np.asarray(out["images"]))
    assert not np.array_equal(np.asarray(out["images"]), data["images"])
    alpha, sigma = layer.get_elastic_transform_params(20, 30, 0.5)
    np.testing.assert_allclose([float(alpha), float(sigma)], [1.5, 0.5])


def test_symbolic_data_dict_gets_resized_specs():
    layer = layers.Resizing(6, 8, bounding_box_format="xyxy")
    spec = layer.compute_output_spec(
        {
            "images": KerasTensor((None, 12, 16, 3)),
            "segmentation_masks": KerasTensor((None, 12, 16, 1), dtype="int32"),
            "bounding_boxes": {
                "boxes": KerasTensor((None, 5, 4)),
                "labels": KerasTensor((None, 5), dtype="int32"),
            },
        }
    )
    assert spec["images"].shape == (None, 6, 8, 3)
    assert spec["segmentation_masks"].shape == (None, 6, 8, 1)
    assert spec["segmentation_masks"].dtype == "int32"
    assert spec["bounding_boxes"]["boxes"].shape == (None, 5, 4)


def test_random_crop_takes_keras_window_pair():
    images = np.arange(2 * 6 * 8, dtype="float32").reshape(2, 6, 8, 1)
    layer = layers.RandomCrop(4, 5, bounding_box_format="xyxy")
    out = layer.transform_images(images, (1, 2))
    np.testing.assert_array_equal(np.asarray(out), images[:, 1:5, 2:7])
    boxes = {"boxes": np.array([[[2.0, 1.0, 6.0, 4.0]]] * 2, "float32"), "labels": np.ones((2, 1))}
    moved = layer.transform_bounding_boxes(boxes, (1, 2))
    np.testing.assert_allclose(np.asarray(moved["boxes"]), [[[0.0, 0.0, 4.0, 3.0]]] * 2)
