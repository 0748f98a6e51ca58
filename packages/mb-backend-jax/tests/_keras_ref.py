"""Keras 3 (on JAX) as a reference: imported after the environment selects JAX."""

import os

os.environ["KERAS_BACKEND"] = "jax"

import keras

assert keras.backend.backend() == "jax", "Keras must run on JAX to serve as the reference"

ops = keras.ops
