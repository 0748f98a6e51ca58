"""Child interpreters and session-wide results of the tests (importable as
``apps_helpers``; conftest registers it)."""

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

SIDE = Path(__file__).with_name("apps_side.py")


def child_env():
    return {
        **os.environ,
        "KERAS_BACKEND": "numpy",
        "MB_BACKEND": "numpy",
        "TF_CPP_MIN_LOG_LEVEL": "3",
        "PYTHONWARNINGS": "ignore",
    }


def start(*args):
    """Starts ``apps_side.py *args``; `finish` waits for it."""
    return subprocess.Popen(
        [sys.executable, str(SIDE), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(),
    )


def finish(process, timeout=1800):
    out, err = process.communicate(timeout=timeout)
    if process.returncode != 0:
        raise RuntimeError(f"apps_side.py failed:\n{err[-6000:]}")
    dumps = [line for line in out.splitlines() if line.startswith("DUMP")]
    return json.loads(dumps[-1][4:]) if dumps else None


def shared(root, name, compute):
    """`compute()` once per test session; xdist workers share its result under a lock."""
    path = Path(root) / f"{name}.json"
    with open(Path(root) / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            path.write_text(json.dumps(compute()))
    return json.loads(path.read_text())


# Every model of keras.applications, and the smallest input side Keras allows it.
MODELS = [
    *(f"ConvNeXt{v}" for v in ("Tiny", "Small", "Base", "Large", "XLarge")),
    "DenseNet121",
    "DenseNet169",
    "DenseNet201",
    *(f"EfficientNetB{i}" for i in range(8)),
    *(f"EfficientNetV2{v}" for v in ("B0", "B1", "B2", "B3", "S", "M", "L")),
    "InceptionResNetV2",
    "InceptionV3",
    "MobileNet",
    "MobileNetV2",
    "MobileNetV3Large",
    "MobileNetV3Small",
    "NASNetLarge",
    "NASNetMobile",
    *(f"ResNet{d}{v}" for v in ("", "V2") for d in (50, 101, 152)),
    "VGG16",
    "VGG19",
    "Xception",
]


def min_side(function):
    return 75 if function.startswith("Inception") else 71 if function == "Xception" else 32


# Every model without its top at its smallest input, ImageNet weights (the file is only
# recorded), cycling through the pooling options; then a top of each family, most with
# ImageNet weights at the default size (the files with the top), a few with new classes.
STRUCTURE = (
    [
        [
            f,
            {
                "weights": "imagenet",
                "include_top": False,
                "pooling": [None, "avg", "max"][i % 3],
                "input_shape": [min_side(f)] * 2 + [3],
            },
        ]
        for i, f in enumerate(MODELS)
    ]
    + [
        [f, {"weights": "imagenet", **extra}]
        for f, extra in [
            ("ResNet50", {}),
            ("ResNet101V2", {}),
            ("DenseNet169", {}),
            ("InceptionV3", {}),
            ("Xception", {}),
            ("MobileNet", {"alpha": 0.5, "input_shape": [160, 160, 3]}),
            ("MobileNetV2", {"alpha": 0.35, "input_shape": [96, 96, 3]}),
            ("MobileNetV3Small", {"minimalistic": True}),
            ("MobileNetV3Large", {"alpha": 0.75}),
            ("EfficientNetB0", {}),
            ("EfficientNetV2B0", {}),
            ("EfficientNetV2S", {}),
            ("NASNetMobile", {}),
            ("ConvNeXtTiny", {}),
        ]
    ]
    + [
        [f, {"weights": None, "classes": 10, "input_shape": [min_side(f)] * 2 + [3], **extra}]
        for f, extra in [
            ("VGG19", {}),
            ("InceptionResNetV2", {"classifier_activation": None}),
            ("EfficientNetB3", {}),
            ("MobileNetV3Large", {"include_preprocessing": False, "dropout_rate": 0.0}),
            ("MobileNet", {"alpha": 0.75, "depth_multiplier": 2}),
            ("EfficientNetV2B1", {"include_preprocessing": False}),
            ("NASNetLarge", {"input_shape": [64, 64, 3]}),
        ]
    ]
)

# preprocess_input cases: [seed, shape, dtype, data_format, mode].
PREPROCESS = [
    [seed, shape, dtype, data_format, mode]
    for seed, (shape, data_format) in enumerate(
        [
            ((2, 4, 5, 3), "channels_last"),
            ((4, 5, 3), "channels_last"),
            ((2, 3, 4, 5), "channels_first"),
            ((3, 4, 5), "channels_first"),
        ]
    )
    for dtype in ("float32", "uint8")
    for mode in ("caffe", "tf", "torch")
]


def class_index(path):
    """A stand-in for ``imagenet_class_index.json``: Keras's format, invented names."""
    index = {str(i): [f"n{i:08d}", f"class_{i}"] for i in range(1000)}
    Path(path).write_text(json.dumps(index))
    return path


def decode_preds():
    rng = np.random.default_rng(7)
    return rng.dirichlet([0.3] * 1000, size=3).astype("float32")


def dumps(session_dir):
    """Keras's and mb's dumps of `STRUCTURE`, and Keras's preprocessing and decoding."""

    def compute():
        index = class_index(Path(session_dir) / "class_index.json")
        request = {
            "models": STRUCTURE,
            "preprocess": PREPROCESS,
            "decode": {"index": str(index), "preds": decode_preds().tolist(), "top": 5},
        }
        keras = start("dump", "keras", json.dumps(request))
        mb = start("dump", "mb", json.dumps({"models": STRUCTURE}))
        return {"keras": finish(keras), "mb": finish(mb), "index": str(index)}

    return shared(session_dir, "dumps", compute)


def image_batch(seed, shape, dtype):
    """Pixels in [0, 255] drawn from `seed` (the same on both sides)."""
    values = np.random.default_rng(seed).uniform(0, 255, shape)
    return values.round().astype(dtype) if dtype == "uint8" else values.astype(dtype)


# One model of each family (and each variant with its own blocks), small: Keras writes
# its weights (and for some the Keras 2 layout too), mb loads them and predicts.
# [name, function, kwargs, legacy .h5 too]
NUMERICS = [
    ["resnet50", "ResNet50", {"include_top": False, "pooling": "avg"}, False],
    ["resnet50v2", "ResNet50V2", {"classes": 10, "classifier_activation": None}, True],
    ["vgg16", "VGG16", {"include_top": False, "pooling": "max"}, False],
    ["densenet121", "DenseNet121", {"include_top": False, "pooling": "avg"}, True],
    ["inception_v3", "InceptionV3", {"include_top": False, "pooling": "avg"}, False],
    ["inception_resnet_v2", "InceptionResNetV2", {"include_top": False, "pooling": "avg"}, False],
    ["xception", "Xception", {"include_top": False, "pooling": "avg"}, False],
    ["mobilenet", "MobileNet", {"alpha": 0.25, "classes": 10, "classifier_activation": None}, True],
    ["mobilenet_v2", "MobileNetV2", {"alpha": 0.35, "include_top": False, "pooling": "avg"}, False],
    [
        "mobilenet_v3_small",
        "MobileNetV3Small",
        {"classes": 10, "classifier_activation": None},
        True,
    ],
    ["mobilenet_v3_large", "MobileNetV3Large", {"minimalistic": True, "include_top": False}, False],
    ["efficientnet_b0", "EfficientNetB0", {"include_top": False, "pooling": "avg"}, True],
    ["efficientnet_v2_b0", "EfficientNetV2B0", {"include_top": False, "pooling": "avg"}, False],
    ["nasnet_mobile", "NASNetMobile", {"include_top": False, "pooling": "avg"}, True],
    ["convnext_tiny", "ConvNeXtTiny", {"classes": 10, "classifier_activation": None}, True],
    # The stand-in for a published file in test_weights.py.
    ["mnv3_minimalistic", "MobileNetV3Small", {"minimalistic": True, "include_top": False}, True],
]
# The heaviest to write, load and run (more than 20 million parameters).
HEAVY = {
    "resnet50",
    "resnet50v2",
    "inception_v3",
    "inception_resnet_v2",
    "xception",
    "convnext_tiny",
}


def numerics_case(case):
    """`case` with ``weights=None`` and the smallest input it allows."""
    name, function, kwargs, legacy = case
    shape = [min_side(function)] * 2 + [3]
    return [name, function, {"weights": None, "input_shape": shape, **kwargs}, legacy]


def keras_weights(session_dir, cases, label="numerics"):
    """Writes the Keras weight files of `cases` once per session; returns their folder."""
    folder = Path(session_dir) / f"keras_{label}"

    def compute():
        folder.mkdir(exist_ok=True)
        finish(start("write", str(folder), json.dumps([numerics_case(c) for c in cases])))
        return str(folder)

    return Path(shared(session_dir, label, compute))
