"""Under ``channels_first`` the models compute what they compute under ``channels_last``.

The same weights give the same outputs for the transposed input, including for the
families Keras builds only under ``channels_last`` (DenseNet, NASNet, ConvNeXt).
"""

import numpy as np
import pytest

import mb_applications as apps
from mb_ops import config, ops

CASES = [
    ("ConvNeXtTiny", {"classes": 5, "classifier_activation": None}),
    ("NASNetMobile", {"include_top": False}),
    ("DenseNet121", {"include_top": False, "pooling": "avg"}),
    ("EfficientNetB0", {"include_top": False, "pooling": "max"}),
    ("MobileNetV3Small", {"classes": 5, "classifier_activation": None}),
]


@pytest.fixture
def channels_first():
    before = config.image_data_format()
    config.set_image_data_format("channels_first")
    yield
    config.set_image_data_format(before)


@pytest.mark.slow
@pytest.mark.parametrize(("function", "kwargs"), CASES, ids=[c[0] for c in CASES])
def test_channels_first_matches_channels_last(function, kwargs, tmp_path, request):
    build = getattr(apps, function)
    last = build(weights=None, input_shape=(32, 32, 3), **kwargs)
    rng = np.random.default_rng(0)
    for variable in last.non_trainable_weights:  # make every BatchNormalization count
        if variable.dtype == "float32":
            variable.assign(rng.uniform(0.5, 1.5, variable.shape).astype("float32"))
    path = str(tmp_path / "w.weights.h5")
    last.save_weights(path)
    x = rng.uniform(0, 255, (2, 32, 32, 3)).astype("float32")
    expected = ops.convert_to_numpy(last(x, training=False))
    request.getfixturevalue("channels_first")
    first = build(weights=path, input_shape=(3, 32, 32), **kwargs)
    got = ops.convert_to_numpy(first(np.transpose(x, (0, 3, 1, 2)), training=False))
    if got.ndim == 4:
        got = np.transpose(got, (0, 2, 3, 1))
    scale = float(np.abs(expected).max())
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4 * scale)
