"""Inputs shared by the op tests: a few shapes and dtypes, made reproducibly."""

import numpy as np

RNG = np.random.default_rng(0)


def floats(*shape, dtype="float32", low=-2.0, high=2.0):
    return RNG.uniform(low, high, size=shape).astype(dtype)


def positives(*shape, dtype="float32"):
    return RNG.uniform(0.1, 3.0, size=shape).astype(dtype)


def unit(*shape, dtype="float32"):
    return RNG.uniform(-0.9, 0.9, size=shape).astype(dtype)


def ints(*shape, dtype="int32", low=-5, high=6):
    return RNG.integers(low, high, size=shape).astype(dtype)


def bools(*shape):
    return RNG.integers(0, 2, size=shape).astype(bool)
