"""What Keras 3 programs read off the image augmentations: the `generator` every draw comes
from, the image axes, factor bounds and sub-layers (against Keras 3.15 in a subprocess),
and the constructors' positional order."""

import json

import numpy as np
import pytest

from mb_graph import KerasTensor
from mb_layers import layers
from mb_ops import ops, testing
from mb_ops.random import SeedGenerator

RNG = np.random.default_rng(1)
# Enough images that two calls of any layer below draw differently.
IMAGES = (RNG.random((16, 8, 8, 3)) * 255).astype("float32")

# Every Random* augmentation that Keras gives a `generator`, with arguments that make it draw.
RANDOM_LAYERS = [
    (layers.RandomBrightness, {"factor": 0.3}),
    (layers.RandomColorDegeneration, {"factor": (0.5, 1.0)}),
    (layers.RandomColorJitter, {"brightness_factor": 0.2, "hue_factor": 0.5}),
    (layers.RandomContrast, {"factor": 0.5}),
    (layers.RandomCrop, {"height": 5, "width": 6}),
    (layers.RandomElasticTransform, {"factor": (1.0, 1.0), "scale": (0.5, 1.0)}),
    (layers.RandomErasing, {"factor": (1.0, 1.0), "scale": (0.3, 0.6)}),
    (layers.RandomFlip, {}),
    (layers.RandomGaussianBlur, {"factor": (1.0, 1.0)}),
    (layers.RandomGrayscale, {"factor": 0.5}),
    (layers.RandomHue, {"factor": (0.5, 0.9)}),
    (layers.RandomInvert, {"factor": (0.0, 1.0)}),
    (layers.RandomPerspective, {"factor": (1.0, 1.0), "scale": 0.5}),
    (layers.RandomPosterization, {"factor": (1, 8)}),
    (layers.RandomRotation, {"factor": 0.2}),
    (layers.RandomSaturation, {"factor": (0.2, 0.9)}),
    (layers.RandomSharpness, {"factor": (0.1, 1.0)}),
    (layers.RandomShear, {"x_factor": 0.4, "y_factor": 0.4}),
    (layers.RandomTranslation, {"height_factor": 0.3, "width_factor": 0.3}),
    (layers.RandomZoom, {"height_factor": 0.4}),
]
IDS = [cls.__name__ for cls, _ in RANDOM_LAYERS]


def _np(x):
    return np.array(ops.convert_to_numpy(x))


@pytest.mark.parametrize(("cls", "kwargs"), RANDOM_LAYERS, ids=IDS)
def test_generator_is_the_seed_generator_the_draws_come_from(cls, kwargs):
    layer = cls(**kwargs, seed=7)
    assert isinstance(layer.generator, SeedGenerator)
    start = _np(layer.generator.state.value)
    first = _np(layer(IMAGES, training=True))
    assert not np.array_equal(_np(layer.generator.state.value), start)  # the call drew from it
    second = _np(layer(IMAGES, training=True))
    assert not np.array_equal(second, first)
    layer.generator.state.assign(start)  # rewinding the generator replays the draws
    np.testing.assert_array_equal(_np(layer(IMAGES, training=True)), first)
    # Two layers with the same seed draw the same.
    np.testing.assert_array_equal(_np(cls(**kwargs, seed=7)(IMAGES, training=True)), first)


def test_color_jitter_steps_draw_from_the_jitter_generator_as_keras():
    jitter = layers.RandomColorJitter(brightness_factor=0.3, contrast_factor=0.5, seed=3)
    steps = (jitter.random_brightness, jitter.random_contrast)
    assert isinstance(steps[0], layers.RandomBrightness)
    assert isinstance(steps[1], layers.RandomContrast)
    assert jitter.random_saturation is None and jitter.random_hue is None
    step_states = [_np(step.generator.state.value) for step in steps]
    start = _np(jitter.generator.state.value)
    first = _np(jitter(IMAGES, training=True))
    for step, state in zip(steps, step_states, strict=True):
        np.testing.assert_array_equal(_np(step.generator.state.value), state)
    jitter.generator.state.assign(start)
    np.testing.assert_array_equal(_np(jitter(IMAGES, training=True)), first)
    clone = layers.RandomColorJitter.from_config(jitter.get_config())
    assert clone.get_config() == jitter.get_config()
    assert isinstance(clone.random_contrast, layers.RandomContrast)


@pytest.mark.parametrize(
    ("positional", "keywords"),
    [
        (
            "RandomRotation(0.2, 'constant', 'nearest', 3, 5.0, 'channels_first')",
            "RandomRotation(factor=0.2, fill_mode='constant', interpolation='nearest', seed=3, "
            "fill_value=5.0, data_format='channels_first')",
        ),
        (
            "RandomTranslation(0.1, 0.2, 'wrap', 'nearest', 3, 1.0, 'channels_first')",
            "RandomTranslation(height_factor=0.1, width_factor=0.2, fill_mode='wrap', "
            "interpolation='nearest', seed=3, fill_value=1.0, data_format='channels_first')",
        ),
        (
            "RandomZoom(0.1, 0.2, 'nearest', 'bilinear', 3, 2.0, 'channels_last')",
            "RandomZoom(height_factor=0.1, width_factor=0.2, fill_mode='nearest', seed=3, "
            "fill_value=2.0, data_format='channels_last')",
        ),
        (
            "RandomShear(0.1, 0.2, 'nearest', 'constant', 4.0, 'channels_first', 3)",
            "RandomShear(x_factor=0.1, y_factor=0.2, interpolation='nearest', "
            "fill_mode='constant', fill_value=4.0, data_format='channels_first', seed=3)",
        ),
        ("RandomBrightness(0.2, (0, 1), 3)", "RandomBrightness(0.2, value_range=(0, 1), seed=3)"),
        ("RandomContrast(0.2, (0, 1), 3)", "RandomContrast(0.2, value_range=(0, 1), seed=3)"),
    ],
)
def test_constructors_take_keras_positional_order(positional, keywords):
    made = eval(f"layers.{positional}", {"layers": layers})
    config = {k: v for k, v in made.get_config().items() if k != "name"}
    expected = eval(f"layers.{keywords}", {"layers": layers}).get_config()
    assert config == {k: v for k, v in expected.items() if k != "name"}


@pytest.mark.parametrize("cls", [layers.RandomBrightness, layers.RandomContrast])
def test_brightness_and_contrast_still_take_data_format_as_a_keyword(cls):
    layer = cls(0.2, data_format="channels_first", seed=1)
    assert layer.data_format == "channels_first"
    assert cls.from_config(layer.get_config()).data_format == "channels_first"


_KERAS_SIDE = """
import json, numpy as np
import keras
from keras import layers

def describe(value):
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [describe(v) for v in value]
    if hasattr(value, "compute_output_shape"):
        return "layer " + type(value).__name__
    return "object " + type(value).__name__

def run(layers, make_tensor, cases):
    out = {}
    for label, (make, attrs) in cases.items():
        layer = eval(make, {"layers": layers})
        out[label] = {a: describe(getattr(layer, a, "missing")) for a in attrs}
    for fmt, shape in (("channels_last", (2, 9, 9, 3)), ("channels_first", (2, 3, 9, 9))):
        crop = layers.RandomCrop(4, 5, data_format=fmt)
        out["crop shape " + fmt] = describe(crop.compute_output_shape(shape))
    spec = layers.RandomGrayscale().compute_output_spec(make_tensor((2, 8, 8, 3)))
    out["grayscale spec"] = [describe(tuple(spec.shape)), str(spec.dtype)]
    return out
"""

_AXES = ["height_axis", "width_axis", "channel_axis"]
_BOUNDS = ["height_lower", "height_upper", "width_lower", "width_upper"]
_STEPS = ["factor", "random_brightness", "random_contrast", "random_saturation", "random_hue"]
CASES = {
    "crop": ("layers.RandomCrop(4, 5)", ["height_axis", "width_axis", "factor"]),
    "erasing": ("layers.RandomErasing()", _AXES),
    "perspective": ("layers.RandomPerspective()", _AXES),
    "elastic": ("layers.RandomElasticTransform()", _AXES),
    "translation": ("layers.RandomTranslation((0.3, -0.2), 0.4)", _BOUNDS),
    "zoom": ("layers.RandomZoom(-0.3, (0.2, -0.5))", _BOUNDS),
    "zoom without width": ("layers.RandomZoom(0.3)", _BOUNDS),
    "jitter": ("layers.RandomColorJitter(brightness_factor=0.2, hue_factor=0.3)", _STEPS),
    "jitter all": (
        "layers.RandomColorJitter(brightness_factor=0.2, contrast_factor=0.1, "
        "saturation_factor=0.5, hue_factor=0.3)",
        _STEPS,
    ),
}
for _label, (_make, _attrs) in list(CASES.items()):
    if _label.split()[0] in ("crop", "erasing", "perspective", "elastic"):
        CASES[_label + " channels_first"] = (
            _make[:-1] + (", " if _make[-2] != "(" else "") + "data_format='channels_first')",
            _attrs,
        )


@pytest.fixture(scope="module")
def keras_side():
    pytest.importorskip("keras", reason="Keras 3 is a test-only dependency")
    code = (
        _KERAS_SIDE + f"print(json.dumps(run(layers, lambda s: keras.KerasTensor(s), {CASES!r})))\n"
    )
    done = testing.run_keras(code, backend="numpy")
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_axes_bounds_and_steps_equal_keras(keras_side):
    namespace = {}
    exec(_KERAS_SIDE.replace("import keras\nfrom keras import layers\n", ""), namespace)
    mine = namespace["run"](layers, KerasTensor, CASES)
    assert json.loads(json.dumps(mine)) == keras_side
    # What Keras documents, spelled out.
    assert keras_side["crop"] == {"height_axis": -3, "width_axis": -2, "factor": [0.0, 0.0]}
    assert keras_side["erasing channels_first"] == {
        "height_axis": -2,
        "width_axis": -1,
        "channel_axis": -3,
    }
    assert keras_side["zoom without width"]["width_lower"] == "missing"
