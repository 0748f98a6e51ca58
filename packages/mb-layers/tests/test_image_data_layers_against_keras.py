"""AutoContrast, Equalization, CLAHE, Solarization, MaxNumBoundingBoxes, MixUp, CutMix,
AugMix and RandAugment against Keras 3 (one Keras subprocess for the whole module).

Deterministic layers (and the random ones where a factor fixes the draw) must give
Keras's numbers from the config mb writes; the random ones are checked by the
properties their draws guarantee.
"""

import json

import numpy as np
import pytest
from _keras_nested_arrays import SCRIPT_HEAD, flatten

from mb_layers import Functional, Input, _registry, layers
from mb_ops import testing

RNG = np.random.default_rng(3)
IMAGES = (RNG.random((2, 16, 12, 3)) * 255).astype("float32")
LOW_CONTRAST = (RNG.random((2, 10, 9, 3)) * 80 + 60).astype("float32")
UNIT = RNG.random((2, 9, 8, 3)).astype("float32")
BOXES = {
    "boxes": (RNG.random((2, 3, 4)) * 10).astype("float32"),
    "labels": np.array([[1, 2, 0], [0, 3, 1]], "int32"),
}


def _cases():
    """``(name, layer, data, call kwargs)``; data is images or a Keras data dict."""
    clahe = layers.ContrastLimitedAdaptiveHistogramEqualization
    return [
        ("autocontrast", layers.AutoContrast(), LOW_CONTRAST, {}),
        ("autocontrast_unit", layers.AutoContrast(value_range=(0, 1)), UNIT, {}),
        ("equalize", layers.Equalization(), IMAGES, {}),
        ("equalize_64", layers.Equalization(bins=64), LOW_CONTRAST, {}),
        ("equalize_unit", layers.Equalization(value_range=(0, 1)), UNIT, {}),
        ("clahe", clahe(tile_grid_size=(3, 3), clip_limit=2.0), IMAGES, {}),
        ("clahe_noclip", clahe(tile_grid_size=(2, 4), clip_limit=0.0), LOW_CONTRAST, {}),
        ("clahe_unit", clahe(value_range=(0, 1), tile_grid_size=(4, 4)), UNIT, {}),
        ("clahe_default", clahe(), IMAGES[:, :, :8], {}),
        ("solarize_invert", layers.Solarization(), IMAGES, {"training": True}),
        ("solarize_infer", layers.Solarization(0.5, 0.5), IMAGES, {"training": False}),
        ("mixup_infer", layers.MixUp(), IMAGES, {"training": False}),
        ("cutmix_infer", layers.CutMix(), IMAGES, {"training": False}),
        (
            "max_boxes_pad",
            layers.MaxNumBoundingBoxes(5, bounding_box_format="xyxy"),
            {"images": IMAGES, "bounding_boxes": BOXES},
            {},
        ),
        (
            "max_boxes_cut",
            layers.MaxNumBoundingBoxes(2, bounding_box_format="xyxy"),
            {"images": IMAGES, "bounding_boxes": BOXES},
            {},
        ),
        (
            "autocontrast_dict",
            layers.AutoContrast(bounding_box_format="xyxy"),
            {"images": LOW_CONTRAST, "labels": np.eye(2, dtype="float32"), "bounding_boxes": BOXES},
            {},
        ),
    ]


_SCRIPT = (
    SCRIPT_HEAD
    + r"""
for case in cases:
    layer = keras.layers.deserialize(case["config"])
    flatten(case["name"], layer(unflatten(case["name"]), **case["kwargs"]))
np.savez(f"{folder}/out.npz", **out)
"""
)


@pytest.fixture(scope="module")
def keras_results(tmp_path_factory):
    folder = tmp_path_factory.mktemp("keras_image_data")
    arrays, meta = {}, []
    for name, layer, data, kwargs in _cases():
        flatten(name, data, arrays)
        meta.append({"name": name, "config": _registry.serialize(layer), "kwargs": kwargs})
    (folder / "cases.json").write_text(json.dumps(meta))
    np.savez(folder / "arrays.npz", **arrays)
    testing.run_keras(_SCRIPT, str(folder), backend="numpy")
    return dict(np.load(folder / "out.npz"))


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c[0])
def test_layer_gives_keras_outputs(case, keras_results):
    name, layer, data, kwargs = case
    got = flatten(name, layer(data, **kwargs), {})
    expected = {k: v for k, v in keras_results.items() if k == name or k.startswith(name + "/")}
    assert sorted(got) == sorted(expected)
    for key, value in expected.items():
        # float32 interpolation in a different order of operations: below 1e-3 of a level.
        np.testing.assert_allclose(got[key], value, rtol=1e-5, atol=1e-3, err_msg=key)
        assert got[key].shape == value.shape, key


# ----- random layers: the properties of their draws ---------------------------------


def _constant_images(values, size=6):
    """One image per value, every pixel of it that value."""
    values = np.asarray(values, "float32")
    return np.broadcast_to(values[:, None, None, None], (len(values), size, size, 3)).copy()


def test_mixup_mixes_images_and_labels_with_beta_weights():
    scipy_stats = pytest.importorskip("scipy.stats")
    n, alpha = 400, 0.4
    values = np.arange(n, dtype="float32")
    data = {"images": _constant_images(values, 2), "labels": np.eye(n, dtype="float32")}
    out = layers.MixUp(alpha=alpha, seed=5)(data, training=True)
    images, labels = np.asarray(out["images"]), np.asarray(out["labels"])
    np.testing.assert_allclose(labels.sum(axis=1), 1.0, rtol=1e-5)
    # Each image is its labels' mix of the constant images.
    np.testing.assert_allclose(images[:, 0, 0, 0], labels @ values, rtol=1e-4, atol=1e-2)
    weights = np.diagonal(labels)
    partners = np.argmax(labels - np.diag(weights), axis=1)
    moved = partners != np.arange(n)
    assert moved.mean() > 0.95  # a permutation of the batch
    assert scipy_stats.kstest(weights[moved], scipy_stats.beta(alpha, alpha).cdf).pvalue > 1e-3


def test_cutmix_pastes_one_rectangle_and_mixes_labels_by_its_area():
    n, size = 256, 16
    values = np.arange(1, n + 1, dtype="float32")
    data = {"images": _constant_images(values, size), "labels": np.eye(n, dtype="float32")}
    out = layers.CutMix(seed=2)(data, training=True)
    images, labels = np.asarray(out["images"])[..., 0], np.asarray(out["labels"])
    kept = np.diagonal(labels)
    pasted = images != values[:, None, None]
    for i in range(n):
        rows, cols = np.nonzero(pasted[i])
        if len(rows):  # the pasted pixels fill their bounding rectangle
            assert pasted[i, rows.min() : rows.max() + 1, cols.min() : cols.max() + 1].all()
            # Rounding the rectangle to pixels moves at most one row and one column.
            assert abs(pasted[i].mean() - (1 - kept[i])) <= 2 / size + 1 / size**2
    assert 0.4 < kept.mean() < 0.6  # Beta(a, a) is symmetric about 1/2


def test_solarization_thresholds_and_additions_follow_their_ranges():
    images = _constant_images(np.full(3000, 100.0), 1)
    inverted = np.asarray(layers.Solarization(threshold_factor=1.0, seed=1)(images, training=True))
    # Thresholds uniform on [0, 255]: a pixel at 100 is inverted with probability 100/255.
    share = np.mean(inverted[:, 0, 0, 0] == 155.0)
    assert abs(share - 100 / 255) < 0.04
    assert set(np.unique(inverted)) == {100.0, 155.0}
    shifted = np.asarray(layers.Solarization(addition_factor=0.2, seed=1)(images, training=True))
    additions = 255.0 - shifted[:, 0, 0, 0] - 100.0  # everything inverted at threshold 0
    assert additions.min() >= 0 and additions.max() <= 0.2 * 255 + 1e-3
    assert abs(additions.mean() - 0.1 * 255) < 1.5


def test_randaugment_draws_each_operation_equally_often():
    layer = layers.RandAugment(num_ops=3, seed=4)
    draws = np.concatenate(
        [np.asarray(layer.get_random_transformation(IMAGES)) for _ in range(400)]
    )
    counts = np.bincount(draws, minlength=11)
    assert counts.sum() == 1200 and len(counts) == 11
    assert counts.min() > 1200 / 11 * 0.6 and counts.max() < 1200 / 11 * 1.4
    out = np.asarray(layer(IMAGES, training=True))
    # Bilinear resampling (rotation, shear, translation) mixes pixels with weights that
    # sum to 1 up to float32 rounding, as in Keras: 255 may come out as 255.00002.
    assert out.shape == IMAGES.shape and out.min() >= -1e-3 and out.max() <= 255 + 1e-3
    np.testing.assert_array_equal(np.asarray(layer(IMAGES, training=False)), IMAGES)


def test_augmix_mixes_chains_with_dirichlet_and_beta_weights():
    layer = layers.AugMix(num_chains=4, chain_depth=2, alpha=1.0, seed=9)
    draws = [layer.get_random_transformation(IMAGES) for _ in range(300)]
    chains = np.stack([np.asarray(d["chain_weights"]) for d in draws])
    blends = np.array([float(np.asarray(d["blend"])) for d in draws])
    choices = np.concatenate([np.asarray(d["choices"]).ravel() for d in draws])
    np.testing.assert_allclose(chains.sum(axis=1), 1.0, rtol=1e-5)
    np.testing.assert_allclose(chains.mean(axis=0), 0.25, atol=0.04)  # Dirichlet(1, 1, 1, 1)
    assert abs(blends.mean() - 0.5) < 0.06 and abs(blends.var() - 1 / 12) < 0.02  # Beta(1, 1)
    assert set(np.unique(choices)) == set(range(12))  # 11 operations and "none"
    out = np.asarray(layer(IMAGES, training=True))
    assert out.shape == IMAGES.shape and out.min() >= 0 and out.max() <= 255
    assert not np.allclose(out, IMAGES)


def test_seeded_random_layers_repeat_their_draws():
    for make in (
        lambda: layers.MixUp(seed=3),
        lambda: layers.CutMix(seed=3),
        lambda: layers.Solarization(0.5, 0.5, seed=3),
        lambda: layers.RandAugment(seed=3),
        lambda: layers.AugMix(seed=3),
    ):
        first, second = make(), make()
        np.testing.assert_array_equal(
            np.asarray(first(IMAGES, training=True)), np.asarray(second(IMAGES, training=True))
        )


def test_image_data_layers_build_functional_models_on_dicts():
    images = Input((16, 12, 3), name="images")
    labels = Input((4,), name="labels")
    out = layers.MixUp(seed=1)({"images": images, "labels": labels})
    out = layers.AugMix(seed=1)(out)
    model = Functional({"images": images, "labels": labels}, out)
    assert model.output["images"].shape == (None, 16, 12, 3)
    result = model({"images": IMAGES, "labels": np.eye(2, 4, dtype="float32")}, training=True)
    assert np.asarray(result["images"]).shape == IMAGES.shape
    np.testing.assert_allclose(np.asarray(result["labels"]).sum(axis=1), 1.0, rtol=1e-5)


def test_bounding_boxes_need_a_format_and_cutmix_refuses_them():
    data = {"images": IMAGES, "bounding_boxes": BOXES}
    with pytest.raises(ValueError, match="bounding_box_format"):
        layers.AutoContrast()(data)
    with pytest.raises(NotImplementedError, match="CutMix does not transform bounding boxes"):
        layers.CutMix(bounding_box_format="xyxy")(data, training=True)
    mixed = layers.MixUp(bounding_box_format="xyxy", seed=0)(data, training=True)
    assert np.asarray(mixed["bounding_boxes"]["boxes"]).shape == (2, 6, 4)
    assert np.asarray(mixed["bounding_boxes"]["labels"]).shape == (2, 6)
    ragged = {"boxes": [[[0, 0, 1, 1]], [[0, 0, 2, 2], [1, 1, 3, 3]]], "labels": [[1], [2, 3]]}
    padded = layers.MaxNumBoundingBoxes(3, bounding_box_format="xyxy")(
        {"images": IMAGES, "bounding_boxes": ragged}
    )
    np.testing.assert_array_equal(
        np.asarray(padded["bounding_boxes"]["labels"]), [[1, -1, -1], [2, 3, -1]]
    )
