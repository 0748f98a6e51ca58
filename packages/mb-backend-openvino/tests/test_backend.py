"""The OpenVINO backend registers itself, reports its devices and converts tensors."""

from __future__ import annotations

import numpy as np

from mb_backend_openvino import core, distribution
from mb_ops import backends


def test_registered_as_inference_only():
    descriptor = backends.available_backends()["openvino"]
    assert descriptor.module == "mb_backend_openvino"
    assert descriptor.trainable is False


def test_cpu_is_listed():
    assert "cpu:0" in distribution.list_devices()
    assert distribution.list_devices("gpu") == [
        d for d in distribution.list_devices() if d.startswith("gpu")
    ]


def test_numpy_round_trip_keeps_values_and_dtype():
    data = np.linspace(-1, 1, 12, dtype="float32").reshape(3, 4)
    tensor = core.convert_to_tensor(data)
    assert core.is_tensor(tensor)
    out = core.convert_to_numpy(tensor)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, data)
