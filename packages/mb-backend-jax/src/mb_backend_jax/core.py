"""Tensors of the JAX backend are ``jax.Array``."""

import jax
import jax.numpy as jnp
import numpy as np


def is_tensor(x):
    return isinstance(x, jax.Array)


def convert_to_tensor(x, dtype=None):
    return jnp.asarray(x, dtype=dtype)


def convert_to_numpy(x):
    return np.asarray(x)
