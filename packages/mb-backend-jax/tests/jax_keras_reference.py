"""Keras 3 (on JAX) as a reference: imported after the environment selects JAX."""

import importlib
import os

os.environ["KERAS_BACKEND"] = "jax"

import keras

assert keras.backend.backend() == "jax", "Keras must run on JAX to serve as the reference"

ops = keras.ops

from keras.src.backend.jax import image as image  # noqa: E402
from keras.src.backend.jax import linalg as linalg  # noqa: E402
from keras.src.backend.jax import math as math  # noqa: E402
from keras.src.backend.jax import nn as nn  # noqa: E402
from keras.src.backend.jax import numpy as numpy  # noqa: E402

# The package exports a function named rnn, so import the module by path.
rnn_module = importlib.import_module("keras.src.backend.jax.rnn")
