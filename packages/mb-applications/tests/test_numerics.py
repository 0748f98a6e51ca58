"""Weights written by Keras 3.15 for a randomly initialised model load in mb (``weights=
PATH``, Keras 3 ``.weights.h5`` and Keras 2 ``.h5``) and give Keras's predictions.

One model of each family, at its smallest input, with random normalization
statistics so every BatchNormalization matters. Keras and mb run on their numpy
backends here; tests/integration/test_applications.py repeats a few on every engine
and in both image data formats.
"""

import importlib.util

import apps_helpers as helpers
import numpy as np
import pytest

import mb_applications
from mb_ops import ops

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("keras") is None, reason="Keras 3 is a test-only dependency"
)


def _cases():
    for case in helpers.NUMERICS:
        marks = [pytest.mark.slow] if case[0] in helpers.HEAVY else []
        yield pytest.param(case, id=case[0], marks=marks)


@pytest.mark.parametrize("case", list(_cases()))
def test_keras_weights_load_and_predict_as_keras(case, session_dir):
    folder = helpers.keras_weights(session_dir, helpers.NUMERICS)
    name, function, kwargs, legacy = helpers.numerics_case(case)
    data = np.load(folder / f"{name}.npz")
    for suffix in (".weights.h5", ".h5") if legacy else (".weights.h5",):
        kwargs = {**kwargs, "input_shape": tuple(kwargs["input_shape"])}
        model = getattr(mb_applications, function)(
            **{**kwargs, "weights": str(folder / (name + suffix))}
        )
        got = ops.convert_to_numpy(model(data["x"], training=False))
        scale = float(np.abs(data["y"]).max())
        np.testing.assert_allclose(got, data["y"], rtol=1e-4, atol=1e-4 * scale, err_msg=suffix)
