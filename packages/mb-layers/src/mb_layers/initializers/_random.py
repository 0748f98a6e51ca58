"""Initializers that draw random values (seeded by an int or a SeedGenerator)."""

import math

from mb_layers._ops import ops
from mb_layers._ops import random as random_ops
from mb_layers.initializers._base import Initializer, _dtype
from mb_ops.random import SeedGenerator, make_default_seed


class RandomInitializer(Initializer):
    """Base of random initializers.

    Args:
        seed: an int, a `SeedGenerator`, or None (a random int chosen now, so
            one instance always gives the same values).
    """

    def __init__(self, seed=None):
        self._init_seed = seed
        if seed is None:
            seed = make_default_seed()
        elif isinstance(seed, dict):
            seed = SeedGenerator.from_config(seed.get("config", seed))
        elif isinstance(seed, bool) or not isinstance(seed, (int, SeedGenerator)):
            raise ValueError(
                "`seed` must be an int, a SeedGenerator or None. "
                f"Received: seed={seed!r} (of type {type(seed).__name__})."
            )
        self.seed = seed

    def get_config(self):
        seed = self._init_seed
        if isinstance(seed, SeedGenerator):
            seed = {
                "module": "keras.random",
                "class_name": "SeedGenerator",
                "config": seed.get_config(),
                "registered_name": None,
            }
        return {"seed": seed}


class RandomNormal(RandomInitializer):
    """Samples from a normal distribution N(`mean`, `stddev`)."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean = mean
        self.stddev = stddev
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        return random_ops.normal(
            shape, mean=self.mean, stddev=self.stddev, dtype=_dtype(dtype), seed=self.seed
        )

    def get_config(self):
        return {**super().get_config(), "mean": self.mean, "stddev": self.stddev}


class TruncatedNormal(RandomInitializer):
    """Samples from a normal distribution cut at two standard deviations."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean = mean
        self.stddev = stddev
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        return random_ops.truncated_normal(
            shape, mean=self.mean, stddev=self.stddev, dtype=_dtype(dtype), seed=self.seed
        )

    def get_config(self):
        return {**super().get_config(), "mean": self.mean, "stddev": self.stddev}


class RandomUniform(RandomInitializer):
    """Samples uniformly from [`minval`, `maxval`)."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval = minval
        self.maxval = maxval
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        return random_ops.uniform(
            shape, minval=self.minval, maxval=self.maxval, dtype=_dtype(dtype), seed=self.seed
        )

    def get_config(self):
        return {**super().get_config(), "minval": self.minval, "maxval": self.maxval}


def compute_fans(shape, input_axes=None, output_axes=None):
    """``(fan_in, fan_out)`` of a weight shape (convolution kernels: ``(..., in, out)``)."""
    shape = tuple(shape)
    if input_axes is not None and output_axes is not None:
        return math.prod(shape[a] for a in input_axes), math.prod(shape[a] for a in output_axes)
    if not shape:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = math.prod(shape[:-2])
    return shape[-2] * receptive, shape[-1] * receptive


_MODES = ("fan_in", "fan_out", "fan_avg")
_DISTRIBUTIONS = ("normal", "truncated_normal", "untruncated_normal", "uniform")


class VarianceScaling(RandomInitializer):
    """Samples with a variance scaled to the weight's fans.

    Args:
        scale: the scaling factor (positive).
        mode: ``"fan_in"``, ``"fan_out"`` or ``"fan_avg"``.
        distribution: ``"truncated_normal"``, ``"untruncated_normal"`` or
            ``"uniform"``.
        seed: as in `RandomNormal`.
        input_axes, output_axes: axes whose sizes make the fans (default:
            the last two axes, convolution style).
    """

    def __init__(
        self,
        scale=1.0,
        mode="fan_in",
        distribution="truncated_normal",
        seed=None,
        input_axes=None,
        output_axes=None,
    ):
        if scale <= 0.0:
            raise ValueError(f"`scale` must be positive. Received: scale={scale}.")
        if mode not in _MODES:
            raise ValueError(f"`mode` must be one of {_MODES}. Received: mode={mode!r}.")
        distribution = distribution.lower()
        if distribution == "normal":
            distribution = "truncated_normal"
        if distribution not in _DISTRIBUTIONS:
            raise ValueError(
                f"`distribution` must be one of {_DISTRIBUTIONS}. "
                f"Received: distribution={distribution!r}."
            )
        self.scale = scale
        self.mode = mode
        self.distribution = distribution
        self.input_axes = input_axes
        self.output_axes = output_axes
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        dtype = _dtype(dtype)
        fan_in, fan_out = compute_fans(shape, self.input_axes, self.output_axes)
        scale = self.scale
        if self.mode == "fan_in":
            scale /= max(1.0, fan_in)
        elif self.mode == "fan_out":
            scale /= max(1.0, fan_out)
        else:
            scale /= max(1.0, (fan_in + fan_out) / 2.0)
        if self.distribution == "truncated_normal":
            stddev = math.sqrt(scale) / 0.87962566103423978
            return random_ops.truncated_normal(
                shape, mean=0.0, stddev=stddev, dtype=dtype, seed=self.seed
            )
        if self.distribution == "untruncated_normal":
            return random_ops.normal(
                shape, mean=0.0, stddev=math.sqrt(scale), dtype=dtype, seed=self.seed
            )
        limit = math.sqrt(3.0 * scale)
        return random_ops.uniform(shape, minval=-limit, maxval=limit, dtype=dtype, seed=self.seed)

    def get_config(self):
        return {
            **super().get_config(),
            "scale": self.scale,
            "mode": self.mode,
            "distribution": self.distribution,
            "input_axes": self.input_axes,
            "output_axes": self.output_axes,
        }


def _preset(name, scale, mode, distribution, doc):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        VarianceScaling.__init__(
            self,
            scale=scale,
            mode=mode,
            distribution=distribution,
            seed=seed,
            input_axes=input_axes,
            output_axes=output_axes,
        )

    def get_config(self):
        return {
            "seed": RandomInitializer.get_config(self)["seed"],
            "input_axes": self.input_axes,
            "output_axes": self.output_axes,
        }

    return type(
        name,
        (VarianceScaling,),
        {"__init__": __init__, "get_config": get_config, "__doc__": doc, "__module__": __name__},
    )


GlorotUniform = _preset(
    "GlorotUniform",
    1.0,
    "fan_avg",
    "uniform",
    "Glorot (Xavier) uniform: limit sqrt(6 / (fan_in + fan_out)).",
)
GlorotNormal = _preset(
    "GlorotNormal",
    1.0,
    "fan_avg",
    "truncated_normal",
    "Glorot (Xavier) normal: stddev sqrt(2 / (fan_in + fan_out)), truncated.",
)
LecunUniform = _preset(
    "LecunUniform", 1.0, "fan_in", "uniform", "LeCun uniform: limit sqrt(3 / fan_in)."
)
LecunNormal = _preset(
    "LecunNormal",
    1.0,
    "fan_in",
    "truncated_normal",
    "LeCun normal: stddev sqrt(1 / fan_in), truncated.",
)
HeUniform = _preset("HeUniform", 2.0, "fan_in", "uniform", "He uniform: limit sqrt(6 / fan_in).")
HeNormal = _preset(
    "HeNormal", 2.0, "fan_in", "truncated_normal", "He normal: stddev sqrt(2 / fan_in), truncated."
)


class Orthogonal(RandomInitializer):
    """A (semi-)orthogonal matrix times `gain`, over the last axis vs the others."""

    def __init__(self, gain=1.0, seed=None):
        self.gain = gain
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        if len(shape) < 2:
            raise ValueError(
                "Orthogonal needs a shape of rank at least 2. "
                f"Received: shape={tuple(shape)} of rank {len(shape)}."
            )
        dtype = _dtype(dtype)
        rows = math.prod(shape[:-1])
        cols = shape[-1]
        flat_shape = (max(rows, cols), min(rows, cols))
        a = random_ops.normal(flat_shape, seed=self.seed, dtype=dtype)
        q, r = ops.qr(a)
        q = ops.multiply(q, ops.sign(ops.diagonal(r)))
        if rows < cols:
            q = ops.transpose(q)
        return ops.multiply(self.gain, ops.reshape(q, shape))

    def get_config(self):
        return {**super().get_config(), "gain": self.gain}
