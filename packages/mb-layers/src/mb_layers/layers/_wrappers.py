"""`Wrapper` (a layer around another layer) and `SpectralNormalization`."""

from mb_layers import _registry, initializers
from mb_layers._layer import Layer
from mb_layers._ops import ops


def wrapped_layer(wrapper, layer):
    """`layer`, once checked to be a layer that `wrapper` can wrap."""
    if not isinstance(layer, Layer):
        raise ValueError(
            f"{type(wrapper).__name__} wraps a layer. Received: {layer!r} "
            f"(of type {type(layer).__name__})."
        )
    return layer


class WrapsLayer:
    """The config of a layer around another one (``self.layer``): the wrapped layer's
    config goes with the wrapper's, as Keras writes it."""

    def get_config(self):
        return {**super().get_config(), "layer": _registry.serialize(self.layer)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        layer = _registry.deserialize(config.pop("layer"), custom_objects=custom_objects)
        return cls(layer, **config)


class Wrapper(WrapsLayer, Layer):
    """Base of layers that wrap another layer (its config holds the wrapped layer).

    Subclass it to add behaviour around ``self.layer``; ``get_config``/``from_config``
    serialize the wrapped layer with the wrapper.

    Args:
        layer: the wrapped layer.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> from mb_layers.layers import Dense
    >>> class Doubled(Wrapper):
    ...     def call(self, inputs):
    ...         return self.layer(inputs) * 2.0
    >>> layer = Doubled(Dense(1, kernel_initializer="ones", use_bias=False))
    >>> ops.convert_to_numpy(layer(np.array([[1.0, 2.0]], "float32"))).tolist()
    [[6.0]]
    """

    def __init__(self, layer, **kwargs):
        super().__init__(**kwargs)
        self.layer = wrapped_layer(self, layer)

    def build(self, input_shape=None):
        if not self.layer.built:
            self.layer.build(input_shape)
            self.layer.built = True


def _l2_normalize(x):
    return ops.divide(x, ops.sqrt(ops.maximum(ops.sum(ops.square(x)), 1e-12)))


class SpectralNormalization(Wrapper):
    """Divides the wrapped layer's kernel by its spectral norm (power iteration) in training.

    Keeping the kernel's largest singular value at 1 bounds the layer's Lipschitz
    constant (as in the discriminators of GANs).

    Args:
        layer: a layer with a ``kernel`` (or ``embeddings``) weight.
        power_iterations: iterations per training call.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> from mb_layers.layers import Dense
    >>> dense = Dense(2, kernel_initializer="ones", use_bias=False)  # spectral norm 2
    >>> layer = SpectralNormalization(dense)
    >>> x = np.array([[1.0, 1.0]], "float32")
    >>> y = layer(x, training=True)
    >>> ops.convert_to_numpy(y).astype("float64").round(4).tolist()
    [[1.0, 1.0]]
    """

    def __init__(self, layer, power_iterations=1, **kwargs):
        super().__init__(layer, **kwargs)
        if power_iterations <= 0:
            raise ValueError(
                f"`power_iterations` must be > 0. Received: power_iterations={power_iterations!r}."
            )
        self.power_iterations = power_iterations

    def build(self, input_shape):
        super().build(input_shape)
        kernel = getattr(self.layer, "kernel", None)
        if kernel is None:
            kernel = getattr(self.layer, "embeddings", None)
        if kernel is None:
            raise ValueError(
                f"SpectralNormalization needs a layer with a `kernel` or `embeddings` weight; "
                f"{type(self.layer).__name__} has neither."
            )
        self.kernel = kernel
        self.kernel_shape = tuple(kernel.shape)
        self.vector_u = self.add_weight(
            shape=(1, self.kernel_shape[-1]),
            initializer=initializers.TruncatedNormal(stddev=0.02),
            trainable=False,
            name="vector_u",
            dtype=kernel.dtype,
        )

    def normalized_weights(self):
        """The new ``(vector_u, kernel)`` after the power iterations."""
        weights = ops.reshape(self.kernel, (-1, self.kernel_shape[-1]))
        vector_u = self.vector_u.value
        vector_v = None
        for _ in range(self.power_iterations):
            vector_v = _l2_normalize(ops.matmul(vector_u, ops.transpose(weights)))
            vector_u = _l2_normalize(ops.matmul(vector_v, weights))
        vector_u = ops.stop_gradient(vector_u)
        vector_v = ops.stop_gradient(vector_v)
        sigma = ops.matmul(ops.matmul(vector_v, weights), ops.transpose(vector_u))
        kernel = ops.reshape(ops.divide(self.kernel.value, sigma), self.kernel_shape)
        return ops.cast(vector_u, self.vector_u.dtype), ops.cast(kernel, self.kernel.dtype)

    def call(self, inputs, training=False):
        if training:
            new_u, new_kernel = self.normalized_weights()
            self.vector_u.assign(new_u)
            self.kernel.assign(new_kernel)
        return ops.cast(self.layer(inputs), inputs.dtype)

    def compute_output_shape(self, input_shape):
        return self.layer.compute_output_shape(input_shape)

    def get_config(self):
        return {**super().get_config(), "power_iterations": self.power_iterations}
