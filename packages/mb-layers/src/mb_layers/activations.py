"""Activation functions (``keras.activations``), written once over the op API.

`get` turns a name (``"relu"``), a serialized dict or a callable into the
function; `serialize` gives built-ins back by name, as Keras writes them.
"""

from mb_layers import _serialization
from mb_layers._ops import ops


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """Rectified linear unit, with an optional leak, cap and threshold.

    >>> import numpy as np
    >>> np.asarray(relu(np.array([-1.0, 0.5, 8.0]), max_value=6.0)).tolist()
    [0.0, 0.5, 6.0]
    """
    x = ops.convert_to_tensor(x) if not hasattr(x, "shape") else x
    if negative_slope != 0.0 and max_value is None and threshold == 0:
        return ops.leaky_relu(x, negative_slope=negative_slope)
    negative_part = None
    if negative_slope != 0.0:
        shifted = ops.negative(x) if threshold == 0 else ops.add(ops.negative(x), threshold)
        negative_part = ops.relu(shifted)
    clip_max = max_value is not None
    if threshold != 0:
        x = ops.multiply(x, ops.cast(ops.greater(x, threshold), x.dtype))
    elif max_value == 6:
        x = ops.relu6(x)
        clip_max = False
    else:
        x = ops.relu(x)
    if clip_max:
        x = ops.clip(x, 0.0, max_value)
    if negative_part is not None:
        x = ops.subtract(x, ops.multiply(negative_slope, negative_part))
    return x


def leaky_relu(x, negative_slope=0.2):
    """``x`` for positive values, ``negative_slope * x`` otherwise."""
    return ops.leaky_relu(x, negative_slope=negative_slope)


def relu6(x):
    """``min(max(x, 0), 6)``."""
    return ops.relu6(x)


def softmax(x, axis=-1):
    """Softmax along `axis`."""
    return ops.softmax(x, axis=axis)


def elu(x, alpha=1.0):
    """Exponential linear unit."""
    return ops.elu(x, alpha=alpha)


def selu(x):
    """Scaled exponential linear unit."""
    return ops.selu(x)


def softplus(x):
    """``log(exp(x) + 1)``."""
    return ops.softplus(x)


def softsign(x):
    """``x / (abs(x) + 1)``."""
    return ops.softsign(x)


def soft_shrink(x, threshold=0.5):
    """Shrinks values towards zero by `threshold`."""
    return ops.soft_shrink(x, threshold=threshold)


def sparse_plus(x):
    """SparsePlus: 0 below -1, ``(x + 1)**2 / 4`` between, ``x`` above 1."""
    return ops.sparse_plus(x)


def silu(x):
    """``x * sigmoid(x)`` (also called swish)."""
    return ops.silu(x)


def squareplus(x, b=4):
    """``(x + sqrt(x**2 + b)) / 2``."""
    return ops.squareplus(x, b=b)


def gelu(x, approximate=False):
    """Gaussian error linear unit."""
    return ops.gelu(x, approximate=approximate)


def celu(x, alpha=1.0):
    """Continuously differentiable exponential linear unit."""
    return ops.celu(x, alpha=alpha)


def glu(x, axis=-1):
    """Gated linear unit: halves of `axis`, ``a * sigmoid(b)``."""
    return ops.glu(x, axis=axis)


def tanh(x):
    """Hyperbolic tangent."""
    return ops.tanh(x)


def tanh_shrink(x):
    """``x - tanh(x)``."""
    return ops.tanh_shrink(x)


def hard_tanh(x):
    """``clip(x, -1, 1)``."""
    return ops.hard_tanh(x)


def hard_shrink(x, threshold=0.5):
    """``x`` where ``abs(x) > threshold``, else 0."""
    return ops.hard_shrink(x, threshold=threshold)


def threshold(x, threshold, default_value):
    """``x`` where ``x > threshold``, else `default_value`."""
    return ops.threshold(x, threshold, default_value)


def sigmoid(x):
    """``1 / (1 + exp(-x))``."""
    return ops.sigmoid(x)


def exponential(x):
    """``exp(x)``."""
    return ops.exp(x)


def hard_sigmoid(x):
    """Piecewise linear sigmoid: ``relu6(x + 3) / 6``."""
    return ops.hard_sigmoid(x)


def log_sigmoid(x):
    """``log(sigmoid(x))``, computed stably."""
    return ops.log_sigmoid(x)


def sparse_sigmoid(x):
    """Piecewise linear sigmoid: 0 below -1, ``(x + 1) / 2`` between, 1 above 1."""
    return ops.sparse_sigmoid(x)


def hard_silu(x):
    """``x * hard_sigmoid(x)`` (also called hard swish)."""
    return ops.hard_silu(x)


def linear(x):
    """The identity."""
    return x


def mish(x):
    """``x * tanh(softplus(x))``."""
    return ops.multiply(x, ops.tanh(ops.softplus(x)))


def log_softmax(x, axis=-1):
    """``log(softmax(x))`` along `axis`, computed stably."""
    return ops.log_softmax(x, axis=axis)


def sparsemax(x, axis=-1):
    """Sparsemax: a softmax whose output can be exactly zero."""
    return ops.sparsemax(x, axis=axis)


swish = silu
hard_swish = hard_silu

_FUNCTIONS = (
    celu,
    elu,
    exponential,
    gelu,
    glu,
    hard_shrink,
    hard_sigmoid,
    hard_silu,
    hard_tanh,
    leaky_relu,
    linear,
    log_sigmoid,
    log_softmax,
    mish,
    relu,
    relu6,
    selu,
    sigmoid,
    silu,
    soft_shrink,
    softmax,
    softplus,
    softsign,
    sparse_plus,
    sparse_sigmoid,
    sparsemax,
    squareplus,
    tanh,
    tanh_shrink,
    threshold,
)
ALL_OBJECTS = {fn.__name__: fn for fn in _FUNCTIONS}
_ALIASES = {"swish": silu, "hard_swish": hard_silu}


def serialize(activation):
    """The name of a built-in activation, else its serialized dict."""
    if hasattr(activation, "get_config") and not isinstance(activation, type(relu)):
        return _serialization.serialize_object(activation, {}, "keras.activations")
    return _serialization.serialize_function(activation, ALL_OBJECTS, "keras.activations")


def deserialize(config, custom_objects=None):
    """The activation described by `config` (a name or a dict)."""
    return _serialization.deserialize_object(
        config, {**ALL_OBJECTS, **_ALIASES}, "activation", custom_objects=custom_objects
    )


def get(identifier):
    """An activation function from None (linear), a name, a dict or a callable."""
    if identifier is None:
        return linear
    if isinstance(identifier, (str, dict)):
        fn = deserialize(identifier)
    else:
        fn = identifier
    if callable(fn):
        return fn
    raise ValueError(
        f"Could not interpret activation function identifier: {identifier!r}. Expected a name "
        "such as 'relu', a serialized dict, or a callable."
    )
