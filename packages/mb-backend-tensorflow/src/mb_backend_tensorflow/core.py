"""Tensors of the TensorFlow backend are ``tf.Tensor``."""

import numpy as np
import tensorflow as tf


def is_tensor(x):
    return tf.is_tensor(x)


def convert_to_tensor(x, dtype=None):
    return tf.convert_to_tensor(x, dtype=dtype)


def convert_to_numpy(x):
    if tf.is_tensor(x):
        return x.numpy()
    return np.asarray(x)
