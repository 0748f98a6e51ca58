"""Tensors of the NumPy backend are plain ``numpy.ndarray``."""

import numpy as np


def is_tensor(x):
    return isinstance(x, np.ndarray)


def convert_to_tensor(x, dtype=None):
    return np.asarray(x, dtype=dtype)


def convert_to_numpy(x):
    return np.asarray(x)
