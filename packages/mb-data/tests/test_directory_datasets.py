"""The *_dataset_from_directory family against Keras 3.15 on one generated folder.

Keras runs in a subprocess on the same folder with the same arguments; file lists,
class names, labels, splits and (with format="tf", Keras's default) every batch must
be equal; Keras's grain format yields the same order as mb's. mb's formats without
TensorFlow (grain, PyDataset) give the same samples, images within resize tolerance.
"""

from __future__ import annotations

import os
import pickle
import wave

import numpy as np
import pytest

import mb_data
from mb_ops import testing

PIL = pytest.importorskip("PIL.Image", reason="Pillow decodes images without TensorFlow")

# (function, kwargs without directory/format): run by Keras and by mb.
CASES = [
    (
        "image",
        {
            "image_size": (9, 11),
            "batch_size": 4,
            "seed": 7,
            "validation_split": 0.3,
            "subset": "both",
        },
    ),
    (
        "image",
        {
            "image_size": (8, 8),
            "batch_size": None,
            "shuffle": False,
            "color_mode": "grayscale",
            "label_mode": "categorical",
            "class_names": ["cats", "ants"],
            "crop_to_aspect_ratio": True,
        },
    ),
    (
        "image",
        {
            "image_size": (7, 10),
            "batch_size": 3,
            "seed": 3,
            "color_mode": "rgba",
            "pad_to_aspect_ratio": True,
            "follow_links": True,
            "validation_split": 0.25,
            "subset": "validation",
            "label_mode": "binary",
            "class_names": ["ants", "bees"],
        },
    ),
    (
        "image",
        {
            "image_size": (6, 6),
            "batch_size": 5,
            "seed": 11,
            "labels": None,
            "interpolation": "nearest",
            "data_format": "channels_first",
        },
    ),
    (
        "text",
        {
            "batch_size": 3,
            "seed": 1,
            "max_length": 5,
            "validation_split": 0.4,
            "subset": "training",
        },
    ),
    (
        "text",
        {
            "batch_size": 2,
            "shuffle": False,
            "labels": [1, 0, 2, 1, 0, 2, 1],
            "label_mode": "categorical",
        },
    ),
    ("audio", {"batch_size": 2, "seed": 5}),
    (
        "audio",
        {"batch_size": 3, "shuffle": False, "output_sequence_length": 40, "label_mode": "binary"},
    ),
]

_KERAS = """
import os, pickle, sys
import numpy as np
import keras
root, cases, out = sys.argv[1], eval(sys.argv[2]), sys.argv[3]
fns = {"image": keras.utils.image_dataset_from_directory,
       "text": keras.utils.text_dataset_from_directory,
       "audio": keras.utils.audio_dataset_from_directory}
def dump(ds, folder):
    return {"class_names": ds.class_names,
            "file_paths": [os.path.relpath(p, folder) for p in getattr(ds, "file_paths", [])],
            "batches": [keras.tree.map_structure(np.asarray, b) for b in ds]}
results = []
for kind, kwargs in cases:
    folder = os.path.join(root, kind)
    ds = fns[kind](folder, verbose=False, **kwargs)
    tf_part = [dump(d, folder) for d in ds] if isinstance(ds, list) else dump(ds, folder)
    grain_part = None
    if kind == "image":
        ds = fns[kind](folder, verbose=False, format="grain", **kwargs)
        grain_part = [dump(d, folder) for d in ds] if isinstance(ds, list) else dump(ds, folder)
    results.append((tf_part, grain_part))
with open(out, "wb") as f:
    pickle.dump(results, f)
"""


def _write_wav(path, samples: np.ndarray) -> None:
    with wave.open(str(path), "wb") as f:
        f.setnchannels(samples.shape[1])
        f.setsampwidth(2)
        f.setframerate(8000)
        f.writeframes(samples.astype("<i2").tobytes())


def _make_tree(root):
    rng = np.random.default_rng(0)
    image = root / "image"
    # TensorFlow decodes GIFs only as RGB and BMPs not as gray: they sit in classes
    # the grayscale (and RGBA) cases skip.
    for cls, n in (("cats", 5), ("ants", 4), ("bees", 3), ("gifs", 2)):
        for i in range(n):
            folder = image / cls / ("deep" if i % 3 == 2 else "")
            folder.mkdir(parents=True, exist_ok=True)
            h, w = int(rng.integers(5, 24)), int(rng.integers(5, 24))
            pixels = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
            ext = {"gifs": ".gif", "bees": (".bmp", ".png")[i % 2]}.get(
                cls, (".png", ".PNG", ".jpg")[i % 3]
            )
            img = PIL.fromarray(pixels)
            if ext == ".gif":
                img = img.convert("P")  # a palette image, as GIFs are
            img.save(folder / f"img_{i}{ext}")
    (image / "cats" / "notes.txt").write_text("not an image")
    (image / ".hidden").mkdir()
    PIL.fromarray(np.zeros((4, 4, 3), np.uint8)).save(image / ".hidden" / "x.png")
    linked = root / "outside_bees"
    linked.mkdir()
    PIL.fromarray(rng.integers(0, 256, (9, 9, 3), dtype=np.uint8)).save(linked / "linked.png")
    os.symlink(linked, image / "bees" / "more")

    text = root / "text"
    for cls, n in (("neg", 3), ("pos", 2), ("zzz", 2)):
        (text / cls).mkdir(parents=True)
        for i in range(n):
            (text / cls / f"t{i}.txt").write_text(f"{cls} review number {i} " * (i + 1))
    audio = root / "audio"
    for cls, n in (("no", 3), ("yes", 3)):
        (audio / cls).mkdir(parents=True)
        for i in range(n):
            clip = rng.integers(-30000, 30000, (int(rng.integers(20, 60)), 1))
            _write_wav(audio / cls / f"a{i}.wav", clip)


@pytest.fixture(scope="module", name="tree")
def _tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("folders")
    _make_tree(root)
    out = root / "keras.pkl"
    testing.run_keras(_KERAS, str(root), repr(CASES), str(out), backend="numpy")
    with open(out, "rb") as f:
        return root, pickle.load(f)


_FNS = {
    "image": mb_data.image_dataset_from_directory,
    "text": mb_data.text_dataset_from_directory,
    "audio": mb_data.audio_dataset_from_directory,
}


def _numpy(x):
    if isinstance(x, (tuple, list)):
        return tuple(_numpy(v) for v in x)
    return np.asarray(x)


def _dump(ds, root):
    return {
        "class_names": ds.class_names,
        "file_paths": [os.path.relpath(p, root) for p in getattr(ds, "file_paths", [])],
        "batches": [_numpy(b) for b in ds],
    }


def _run(root, kind, kwargs, format):
    ds = _FNS[kind](str(root / kind), verbose=False, format=format, **kwargs)
    return [_dump(d, root / kind) for d in ds] if isinstance(ds, list) else _dump(ds, root / kind)


def _assert_batches(ours, theirs, atol):
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs, strict=True):
        a, b = _numpy(a), _numpy(b)
        if isinstance(b, tuple):
            assert isinstance(a, tuple) and len(a) == len(b)
            for x, y in zip(a, b, strict=True):
                _assert_leaf(x, y, atol)
        else:
            _assert_leaf(a, b, atol)


def _assert_leaf(a, b, atol):
    if b.dtype.kind in "OSU":
        a = [v.decode() if isinstance(v, bytes) else v for v in np.ravel(a)]
        b = [v.decode() if isinstance(v, bytes) else v for v in np.ravel(b)]
        assert a == b
        return
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, a.dtype, b.shape, b.dtype)
    np.testing.assert_allclose(a, b, atol=atol, rtol=0)


def _pairs(part):
    return part if isinstance(part, list) else [part]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_tf_format_equals_keras_batch_for_batch(tree, case):
    root, keras_results = tree
    kind, kwargs = CASES[case]
    ours = _pairs(_run(root, kind, kwargs, "tf"))
    theirs = _pairs(keras_results[case][0])
    for a, b in zip(ours, theirs, strict=True):
        assert a["class_names"] == b["class_names"]
        assert a["file_paths"] == b["file_paths"]  # same files, same order, same split
        _assert_batches(a["batches"], b["batches"], atol=0)


@pytest.mark.parametrize("case", [i for i, (k, kw) in enumerate(CASES) if k == "image"])
def test_grain_format_follows_keras_grain_order(tree, case):
    root, keras_results = tree
    kind, kwargs = CASES[case]
    theirs = keras_results[case][1]
    ours = _pairs(_run(root, kind, kwargs, "grain"))
    for a, b in zip(ours, _pairs(theirs), strict=True):
        assert a["class_names"] == b["class_names"] and a["file_paths"] == b["file_paths"]
        # Same shuffle, so the same samples in the same order. Pixel values follow
        # Keras's default (tf.data) reader instead of Keras's grain reader: uint8 for
        # "nearest", the JPEG decoder's own gray, tf.image.resize_with_pad's box for
        # pad_to_aspect_ratio; so they are compared as floats, and not in those cases.
        same_reader = kwargs.get("color_mode") != "grayscale" and not kwargs.get(
            "pad_to_aspect_ratio"
        )
        assert len(a["batches"]) == len(b["batches"])
        for x, y in zip(a["batches"], b["batches"], strict=True):
            x, y = _numpy(x), _numpy(y)
            x, y = (x if isinstance(x, tuple) else (x,)), (y if isinstance(y, tuple) else (y,))
            if same_reader:
                np.testing.assert_allclose(x[0].astype("float32"), y[0], atol=4.0, rtol=0)
            for label_x, label_y in zip(x[1:], y[1:], strict=True):
                np.testing.assert_array_equal(label_x, label_y)


def _samples(batches, unbatched):
    """Every sample of a dataset as a tuple of NumPy arrays (strings decoded)."""
    out = []
    for batch in batches:
        if not isinstance(batch, tuple):
            batch = (batch,)
        rows = [batch] if unbatched else list(zip(*batch, strict=True))
        for row in rows:
            out.append(tuple(_decoded(v) for v in row))
    return out


def _decoded(v):
    v = np.asarray(v)
    if v.dtype.kind in "OS":
        return np.asarray(v.item().decode() if isinstance(v.item(), bytes) else v.item())
    return v


def _trimmed(x):
    """A padded audio clip without its trailing zero rows (padded_batch's padding)."""
    keep = len(x)
    while keep and not np.any(x[keep - 1]):
        keep -= 1
    return x[:keep]


def _distance(a, b, audio=False):
    if audio:
        a, b = (_trimmed(a[0]), *a[1:]), (_trimmed(b[0]), *b[1:])
    if any(x.shape != y.shape or x.dtype != y.dtype for x, y in zip(a, b, strict=True)):
        return np.inf
    return max(
        (0.0 if str(x) == str(y) else np.inf)
        if x.dtype.kind in "OU"
        else float(np.max(np.abs(x.astype("float64") - y), initial=0.0))
        for x, y in zip(a, b, strict=True)
    )


@pytest.mark.parametrize("format", ["grain", "pydataset"])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_formats_without_tensorflow_hold_the_same_samples(tree, case, format):
    root, keras_results = tree
    kind, kwargs = CASES[case]
    ours = _pairs(_run(root, kind, kwargs, format))
    theirs = _pairs(keras_results[case][0])
    unbatched = kwargs.get("batch_size", 32) is None
    for a, b in zip(ours, theirs, strict=True):
        assert a["class_names"] == b["class_names"] and a["file_paths"] == b["file_paths"]
        left, right = _samples(a["batches"], unbatched), _samples(b["batches"], unbatched)
        assert len(left) == len(right)
        # The order differs (grain's and tf.data's shuffles differ): pair each sample
        # with its nearest Keras sample. Pillow and TensorFlow decode JPEG and convert
        # to gray a few levels apart; the resizers differ by float rounding only.
        worst = 0.0
        for sample in left:
            distances = [_distance(sample, other, kind == "audio") for other in right]
            best = int(np.argmin(distances))
            worst = max(worst, distances[best])
            right.pop(best)
        assert worst <= 4.0, f"largest pixel difference {worst}"


def test_pydataset_reshuffles_each_epoch_and_keeps_pairs(tree):
    root, _ = tree
    ds = mb_data.image_dataset_from_directory(
        str(root / "image"),
        image_size=(4, 4),
        batch_size=None,
        seed=2,
        format="pydataset",
        verbose=False,
    )
    first = [ds[i] for i in range(len(ds))]
    ds.on_epoch_end()
    second = [ds[i] for i in range(len(ds))]
    key = [(float(x.sum()), int(y)) for x, y in first]
    assert sorted(key) == sorted((float(x.sum()), int(y)) for x, y in second)
    assert key != [(float(x.sum()), int(y)) for x, y in second]


def test_bad_arguments_are_clear_errors(tree):
    root, _ = tree
    folder = str(root / "image")
    fn = mb_data.image_dataset_from_directory
    with pytest.raises(ValueError, match="pass a seed"):
        fn(folder, validation_split=0.2, subset="training")
    with pytest.raises(ValueError, match="go together"):
        fn(folder, validation_split=0.2, seed=1)
    with pytest.raises(ValueError, match="exactly 2 classes"):
        fn(folder, label_mode="binary")
    with pytest.raises(ValueError, match="class_names must name sub-folders"):
        fn(folder, class_names=["cats", "dogs"])
    with pytest.raises(ValueError, match="labels has 3 entries but 15 files"):
        fn(folder, labels=[0, 1, 0])
    with pytest.raises(ValueError, match="format must be one of"):
        fn(folder, format="torch")
    with pytest.raises(ValueError, match="Could not find the folder"):
        fn(str(root / "nope"))
    with pytest.raises(ValueError, match="No images found"):
        fn(str(root / "text"))
    with pytest.raises(ValueError, match="color_mode"):
        fn(folder, color_mode="cmyk")
