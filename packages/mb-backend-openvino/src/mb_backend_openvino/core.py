"""Tensors of the OpenVINO backend: NumPy arrays on the way in and out of compiled models."""

import numpy as np
import openvino as ov


def is_tensor(x):
    return isinstance(x, ov.Tensor)


def convert_to_tensor(x, dtype=None):
    if isinstance(x, ov.Tensor):
        return x
    return ov.Tensor(np.ascontiguousarray(np.asarray(x, dtype=dtype)))


def convert_to_numpy(x):
    if isinstance(x, ov.Tensor):
        return np.array(x.data)
    return np.asarray(x)
