"""Regularization layers: the Dropout family, Gaussian noise, activity penalties."""

import math

from mb_layers import regularizers
from mb_layers._layer import Layer
from mb_layers._ops import ops
from mb_layers._ops import random as random_ops
from mb_ops import config
from mb_ops.random import SeedGenerator


def _check_rate(name, rate):
    if not isinstance(rate, (int, float)) or isinstance(rate, bool) or not 0 <= rate <= 1:
        raise ValueError(f"{name} `rate` must be a float in [0, 1]. Received: rate={rate!r}.")


# The example the noise layers share: the identity outside training, noise in it.
_NOISE_EXAMPLE = """
    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> layer = {layer}
    >>> x = np.ones((1, 4), "float32")
    >>> ops.convert_to_numpy(layer(x)).tolist()  # inference: unchanged
    [[1.0, 1.0, 1.0, 1.0]]
    >>> ops.shape(layer(x, training=True))
    (1, 4)
    """


def _noise_doc(head, layer):
    """A noise layer's docstring: `head` (its summary and arguments), then the example
    with `layer` (a constructor call)."""
    return head.rstrip(" ") + _NOISE_EXAMPLE.format(layer=layer)


class _Noise(Layer):
    """A layer that adds random noise in training; `_config_keys` are the attributes its
    config adds to the base layer's, in order."""

    _config_keys = ("rate", "seed", "noise_shape")

    def __init__(self, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.seed = seed
        self.seed_generator = SeedGenerator(seed)
        self.supports_masking = True
        self.built = True

    def _normal(self, inputs, mean, stddev):
        """Noise N(`mean`, `stddev`) of the inputs' shape and dtype."""
        return random_ops.normal(
            ops.shape(inputs),
            mean=mean,
            stddev=stddev,
            dtype=inputs.dtype,
            seed=self.seed_generator,
        )

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {**super().get_config(), **{key: getattr(self, key) for key in self._config_keys}}


class Dropout(_Noise):
    """Sets a fraction `rate` of the inputs to 0 during training (and scales the rest).

    The kept values are multiplied by ``1 / (1 - rate)``, so the expected sum is
    unchanged; outside training (``training=False``, the default) the layer is the
    identity.

    Args:
        rate: the fraction dropped, in [0, 1].
        noise_shape: shape of the keep/drop mask, broadcast over the input
            (None entries take the input's size).
        seed: an int for reproducible noise; None: drawn from the global seed.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> layer = Dropout(0.5, seed=1)
    >>> x = np.ones((1, 8), "float32")
    >>> ops.convert_to_numpy(layer(x)).tolist()  # inference: unchanged
    [[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]]
    >>> set(ops.convert_to_numpy(layer(x, training=True)).ravel().tolist()) <= {0.0, 2.0}
    True
    """

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        _check_rate("Dropout", rate)
        super().__init__(seed=seed, **kwargs)
        self.rate = rate
        self.noise_shape = noise_shape

    def _noise_shape(self, inputs):
        if self.noise_shape is None:
            return None
        shape = tuple(inputs.shape)
        return tuple(shape[i] if d is None else d for i, d in enumerate(self.noise_shape))

    def call(self, inputs, training=False):
        if training and self.rate > 0:
            return random_ops.dropout(
                inputs, self.rate, noise_shape=self._noise_shape(inputs), seed=self.seed_generator
            )
        return inputs


class _SpatialDropout(Dropout):
    _rank = 3

    def __init__(self, rate, data_format=None, seed=None, name=None, dtype=None):
        super().__init__(rate, seed=seed, name=name, dtype=dtype)
        self.data_format = data_format or config.image_data_format()

    def _noise_shape(self, inputs):
        shape = tuple(inputs.shape)
        ones = (1,) * (self._rank - 2)
        if self._rank == 3:
            return (shape[0], 1, shape[2])
        if self.data_format == "channels_first":
            return (shape[0], shape[1], *ones)
        return (shape[0], *ones, shape[-1])

    def get_config(self):
        # Keras's keys: no `trainable` (the constructor takes none).
        base = Layer.get_config(self)
        config = {
            "rate": self.rate,
            "seed": self.seed,
            "name": base["name"],
            "dtype": base["dtype"],
        }
        if self._rank > 3:
            config["data_format"] = self.data_format
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config.pop("trainable", None)  # written by mb before it followed Keras's keys
        return super().from_config(config)


def _spatial_dropout_doc(summary, dims, note=""):
    """The docstring of SpatialDropout1D, 2D and 3D: `summary`, then the arguments and an
    example on inputs of `dims` spatial dimensions (`note` comments its last line)."""
    shape = (1, 3, 4) if dims == 1 else (1, *(2,) * dims, 4)
    data_format = (
        ""
        if dims == 1
        else """
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``."""
    )
    return f"""{summary}

    Args:
        rate: the fraction of channels dropped, in [0, 1].{data_format}
        seed: an int for reproducible noise; None: drawn from the global seed.
        name: the layer's name.
        dtype: the layer's dtype policy.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.ones({shape}, "float32")
    >>> out = ops.convert_to_numpy(SpatialDropout{dims}D(0.5, seed=1)(x, training=True))[0]
    >>> bool((out == out[{", ".join("0" * dims)}]).all()){note}
    True
    """


class SpatialDropout1D(_SpatialDropout):
    __doc__ = _spatial_dropout_doc(
        """Drops whole channels of ``(batch, steps, channels)`` inputs.

    In training a channel is zeroed at every step at once (or kept and scaled by
    ``1 / (1 - rate)``), which suits features correlated along the steps.""",
        1,
        note="  # the same channels dropped at every step",
    )

    _rank = 3

    def __init__(self, rate, seed=None, name=None, dtype=None):
        super().__init__(rate, seed=seed, name=name, dtype=dtype)


class SpatialDropout2D(_SpatialDropout):
    __doc__ = _spatial_dropout_doc(
        "Drops whole feature maps of 4D inputs.",
        2,
        note="  # the same channels dropped at every position",
    )

    _rank = 4


class SpatialDropout3D(_SpatialDropout):
    __doc__ = _spatial_dropout_doc("Drops whole feature volumes of 5D inputs.", 3)

    _rank = 5


class GaussianNoise(_Noise):
    __doc__ = _noise_doc(
        """Adds N(0, `stddev`) noise during training.

    Args:
        stddev: the standard deviation of the noise.
        seed: an int for reproducible noise; None: drawn from the global seed.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).
    """,
        "GaussianNoise(0.1, seed=1)",
    )

    _config_keys = ("stddev", "seed")

    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.stddev = stddev

    def call(self, inputs, training=False):
        if training and self.stddev > 0:
            return ops.add(inputs, self._normal(inputs, 0.0, self.stddev))
        return inputs


class GaussianDropout(_Noise):
    __doc__ = _noise_doc(
        """Multiplies by N(1, sqrt(rate / (1 - rate))) noise during training.

    Args:
        rate: the drop probability of the equivalent ``Dropout``, in [0, 1).
        seed: an int for reproducible noise; None: drawn from the global seed.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).
    """,
        "GaussianDropout(0.2, seed=1)",
    )

    _config_keys = ("rate", "seed")

    def __init__(self, rate, seed=None, **kwargs):
        _check_rate("GaussianDropout", rate)
        super().__init__(seed=seed, **kwargs)
        self.rate = rate

    def call(self, inputs, training=False):
        if training and self.rate > 0:
            stddev = math.sqrt(self.rate / (1.0 - self.rate))
            return ops.multiply(inputs, self._normal(inputs, 1.0, stddev))
        return inputs


class AlphaDropout(_Noise):
    __doc__ = _noise_doc(
        """Dropout that keeps the mean and variance of SELU activations.

    Dropped values are set to SELU's negative saturation value and the result is
    rescaled affinely, so self-normalizing networks stay normalized.

    Args:
        rate: the fraction dropped, in [0, 1].
        noise_shape: shape of the keep/drop mask, broadcast over the input.
        seed: an int for reproducible noise; None: drawn from the global seed.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).
    """,
        "AlphaDropout(0.2, seed=1)",
    )

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        _check_rate("AlphaDropout", rate)
        super().__init__(seed=seed, **kwargs)
        self.rate = rate
        self.noise_shape = noise_shape

    def call(self, inputs, training=False):
        if not training or self.rate <= 0:
            return inputs
        alpha = 1.6732632423543772848170429916717
        scale = 1.0507009873554804934193349852946
        alpha_p = -alpha * scale
        shape = (
            ops.shape(inputs)
            if self.noise_shape is None
            else tuple(
                ops.shape(inputs)[i] if d is None else d for i, d in enumerate(self.noise_shape)
            )
        )
        kept = ops.greater_equal(random_ops.uniform(shape, seed=self.seed_generator), self.rate)
        kept = ops.cast(kept, inputs.dtype)
        a = ((1 - self.rate) * (1 + self.rate * alpha_p**2)) ** -0.5
        b = -a * alpha_p * self.rate
        x = ops.add(ops.multiply(inputs, kept), ops.multiply(alpha_p, ops.subtract(1.0, kept)))
        return ops.add(ops.multiply(a, x), b)


class ActivityRegularization(Layer):
    """Passes its input through and adds ``l1 * sum|x| + l2 * sum(x**2)`` to `losses`.

    Args:
        l1: the L1 factor.
        l2: the L2 factor.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> layer = ActivityRegularization(l1=0.1)
    >>> ops.convert_to_numpy(layer(np.array([[1.0, -2.0]], "float32"))).tolist()
    [[1.0, -2.0]]
    >>> [round(float(loss), 4) for loss in layer.losses]
    [0.3]
    """

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.supports_masking = True
        self.l1 = l1
        self.l2 = l2
        self.built = True

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.pop("activity_regularizer", None)
        return {**config, "l1": self.l1, "l2": self.l2}
