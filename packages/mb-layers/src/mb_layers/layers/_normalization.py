"""Normalization layers: batch, layer, group, RMS and unit normalization."""

import warnings

from mb_layers import initializers
from mb_layers._input_spec import InputSpec
from mb_layers._layer import Layer
from mb_layers._ops import ops
from mb_layers.layers._arguments import (
    add_weight_of,
    base_arguments,
    set_weight_arguments,
    weight_arguments,
)
from mb_ops import dtypes

_LOW_PRECISION = ("float16", "bfloat16")


def _axes_list(axis):
    return list(axis) if isinstance(axis, (list, tuple)) else [axis]


class _ScaleCenter(Layer):
    """Holds the gamma/beta arguments shared by the normalization layers."""

    def __init__(
        self,
        center,
        scale,
        beta_initializer,
        gamma_initializer,
        beta_regularizer,
        gamma_regularizer,
        beta_constraint,
        gamma_constraint,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.center = center
        self.scale = scale
        set_weight_arguments(self, locals(), "beta", "gamma")
        self.supports_masking = True

    def _add_gamma_beta(self, shape):
        self.gamma = add_weight_of(self, "gamma", shape) if self.scale else None
        self.beta = add_weight_of(self, "beta", shape) if self.center else None

    def _scale_center_config(self, initialized_only=()):
        return {
            "center": self.center,
            "scale": self.scale,
            **weight_arguments(self, "beta", "gamma", initialized_only=initialized_only),
        }

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)


class BatchNormalization(_ScaleCenter):
    """Normalizes with batch statistics in training and moving averages in inference.

    In training (``training=True``) each feature is normalized with the mean and variance
    of the batch, and the moving averages move towards them:
    ``moving = moving * momentum + batch * (1 - momentum)``. In inference the moving
    averages are used.

    Args:
        axis: the features axis (default -1).
        momentum: of the moving averages.
        epsilon: added to the variance.
        center: whether to learn an offset ``beta``.
        scale: whether to learn a scale ``gamma``.
        beta_initializer, gamma_initializer: initializers of the learned offset
            (beta) and scale (gamma).
        beta_regularizer, gamma_regularizer: penalties on them.
        beta_constraint, gamma_constraint: projections applied to them after updates.
        moving_mean_initializer, moving_variance_initializer: initializers of the moving
            statistics.
        renorm, renorm_clipping, renorm_momentum: batch renormalization (not supported:
            ``renorm=True`` raises ``NotImplementedError``).
        synchronized: on tensorflow under a distribution (``DataParallel``'s
            ``tf.distribute`` replicas), compute the batch's moments over every
            replica's rows (one all-reduce), as one device would; elsewhere the
            backend's ``moments(synchronized=True)`` decides (jax, numpy and
            openvino refuse it, as Keras's jax backend does).
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.array([[1.0, 2.0], [3.0, 6.0]], "float32")
    >>> layer = BatchNormalization(epsilon=0.0)
    >>> ops.convert_to_numpy(layer(x, training=True)).astype("float64").round(4).tolist()
    [[-1.0, -1.0], [1.0, 1.0]]
    >>> mean = ops.convert_to_numpy(layer.moving_mean)  # 0.99 * 0 + 0.01 * [2, 4]
    >>> mean.astype("float64").round(4).tolist()
    [0.02, 0.04]
    """

    def __init__(
        self,
        axis=-1,
        momentum=0.99,
        epsilon=1e-3,
        center=True,
        scale=True,
        beta_initializer="zeros",
        gamma_initializer="ones",
        moving_mean_initializer="zeros",
        moving_variance_initializer="ones",
        beta_regularizer=None,
        gamma_regularizer=None,
        beta_constraint=None,
        gamma_constraint=None,
        renorm=False,
        renorm_clipping=None,
        renorm_momentum=0.99,
        synchronized=False,
        **kwargs,
    ):
        super().__init__(**base_arguments(_ScaleCenter.__init__, locals()))
        if renorm:
            raise NotImplementedError("BatchNormalization(renorm=True) is not supported yet.")
        self.axis = int(axis)
        self.momentum = float(momentum)
        self.epsilon = float(epsilon)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)
        self.synchronized = synchronized
        self.renorm = renorm
        self.renorm_clipping = renorm_clipping
        self.renorm_momentum = renorm_momentum
        # As Keras: the weights exist once the layer is built.
        self.gamma = self.beta = self.moving_mean = self.moving_variance = None

    def build(self, input_shape):
        dim = input_shape[self.axis]
        if dim is None:
            raise ValueError(
                f"BatchNormalization needs axis {self.axis} of its input to be known. "
                f"Received: input shape {tuple(input_shape)}."
            )
        self.input_spec = InputSpec(ndim=len(input_shape), axes={self.axis: dim})
        self._add_gamma_beta((dim,))
        self.moving_mean = self.add_weight(
            shape=(dim,),
            name="moving_mean",
            initializer=self.moving_mean_initializer,
            trainable=False,
            autocast=False,
        )
        self.moving_variance = self.add_weight(
            shape=(dim,),
            name="moving_variance",
            initializer=self.moving_variance_initializer,
            trainable=False,
            autocast=False,
        )
        rank = len(input_shape)
        axis = self.axis % rank
        self._reduction_axes = [i for i in range(rank) if i != axis]
        self._broadcast_shape = [1] * rank
        self._broadcast_shape[axis] = dim

    def _moments(self, inputs, mask):
        if mask is None:
            return ops.moments(inputs, axes=self._reduction_axes, synchronized=self.synchronized)
        weights = ops.cast(mask, inputs.dtype)
        while len(weights.shape) < len(inputs.shape):
            weights = ops.expand_dims(weights, -1)
        weights = ops.broadcast_to(weights, ops.shape(inputs))
        total = ops.maximum(ops.sum(weights, axis=self._reduction_axes), 1e-7)
        mean = ops.divide(ops.sum(ops.multiply(inputs, weights), axis=self._reduction_axes), total)
        centered = ops.subtract(inputs, ops.reshape(mean, self._broadcast_shape))
        variance = ops.divide(
            ops.sum(ops.multiply(ops.square(centered), weights), axis=self._reduction_axes), total
        )
        return mean, variance

    def call(self, inputs, training=None, mask=None):
        input_dtype = dtypes.standardize_dtype(inputs.dtype)
        if input_dtype in _LOW_PRECISION:
            inputs = ops.cast(inputs, "float32")
        if training and self.trainable:
            mean, variance = self._moments(inputs, mask)
            m = self.momentum
            self.moving_mean.assign(
                ops.add(ops.multiply(self.moving_mean, m), ops.multiply(mean, 1.0 - m))
            )
            self.moving_variance.assign(
                ops.add(ops.multiply(self.moving_variance, m), ops.multiply(variance, 1.0 - m))
            )
        else:
            mean = ops.cast(self.moving_mean, inputs.dtype)
            variance = ops.cast(self.moving_variance, inputs.dtype)
        gamma = None if self.gamma is None else ops.cast(self.gamma, inputs.dtype)
        beta = None if self.beta is None else ops.cast(self.beta, inputs.dtype)
        outputs = ops.batch_normalization(
            inputs, mean, variance, axis=self.axis, offset=beta, scale=gamma, epsilon=self.epsilon
        )
        return ops.cast(outputs, input_dtype)

    def get_config(self):
        config = {"axis": self.axis, "momentum": self.momentum, "epsilon": self.epsilon}
        config.update(self._scale_center_config(("moving_mean", "moving_variance")))
        config.update(
            synchronized=self.synchronized, renorm=False, renorm_clipping=None, renorm_momentum=0.99
        )
        return {**super().get_config(), **config}


class LayerNormalization(_ScaleCenter):
    """Normalizes each example over `axis` (the features), then scales and shifts.

    Args:
        axis: an int or a list of ints.
        epsilon: added to the variance.
        center: whether to learn an offset ``beta``.
        scale: whether to learn a scale ``gamma``.
        beta_initializer, gamma_initializer: initializers of the learned offset
            (beta) and scale (gamma).
        beta_regularizer, gamma_regularizer: penalties on them.
        beta_constraint, gamma_constraint: projections applied to them after updates.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...);
            ``rms_scaling=True`` (deprecated in Keras; use ``RMSNormalization``) scales
            by the root mean square only, without centering.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> layer = LayerNormalization(epsilon=0.0)
    >>> y = layer(np.array([[1.0, 2.0, 3.0]], "float32"))
    >>> ops.convert_to_numpy(y).astype("float64").round(4).tolist()
    [[-1.2247, 0.0, 1.2247]]
    >>> [tuple(w.shape) for w in layer.weights]  # gamma and beta
    [(3,), (3,)]
    """

    def __init__(
        self,
        axis=-1,
        epsilon=1e-3,
        center=True,
        scale=True,
        beta_initializer="zeros",
        gamma_initializer="ones",
        beta_regularizer=None,
        gamma_regularizer=None,
        beta_constraint=None,
        gamma_constraint=None,
        **kwargs,
    ):
        # Keras 3.15 takes the deprecated `rms_scaling` through **kwargs (with a warning
        # pointing to RMSNormalization).
        rms_scaling = kwargs.pop("rms_scaling", False)
        if rms_scaling:
            warnings.warn(
                "LayerNormalization(rms_scaling=True) is deprecated (it scales by the "
                "variance, not the root mean square). Use `RMSNormalization` instead.",
                stacklevel=2,
            )
        super().__init__(**base_arguments(_ScaleCenter.__init__, locals()))
        self.axis = axis if isinstance(axis, int) else list(axis)
        self.epsilon = epsilon
        self.rms_scaling = rms_scaling

    def build(self, input_shape):
        rank = len(input_shape)
        axes = sorted(a % rank for a in _axes_list(self.axis))
        shape = tuple(input_shape[a] for a in axes)
        if any(d is None for d in shape):
            raise ValueError(
                f"LayerNormalization needs the normalized axes {self.axis} to be known. "
                f"Received: input shape {tuple(input_shape)}."
            )
        self._norm_axes = axes
        scale, center = self.scale, self.center
        # As in Keras: RMS scaling always learns gamma and never beta.
        self.scale, self.center = scale or self.rms_scaling, center and not self.rms_scaling
        self._add_gamma_beta(shape)
        self.scale, self.center = scale, center
        self._broadcast_shape = [1] * rank
        for a in axes:
            self._broadcast_shape[a] = input_shape[a]

    def call(self, inputs):
        input_dtype = dtypes.standardize_dtype(inputs.dtype)
        x = ops.cast(inputs, "float32") if input_dtype in _LOW_PRECISION else inputs
        gamma = (
            None
            if self.gamma is None
            else ops.reshape(ops.cast(self.gamma, x.dtype), self._broadcast_shape)
        )
        beta = (
            None
            if self.beta is None
            else ops.reshape(ops.cast(self.beta, x.dtype), self._broadcast_shape)
        )
        if self.rms_scaling:
            variance = ops.var(x, axis=self._norm_axes, keepdims=True)
            out = ops.multiply(x, ops.rsqrt(ops.add(variance, self.epsilon)))
            if gamma is not None:
                out = ops.multiply(out, gamma)
        else:
            # One op, so a backend can run its fused kernel (torch's layer_norm).
            out = ops.layer_normalization(
                x, gamma, beta, axis=self._norm_axes, epsilon=self.epsilon
            )
        return ops.cast(out, input_dtype)

    def get_config(self):
        config = {"axis": self.axis, "epsilon": self.epsilon}
        config.update(self._scale_center_config())
        config["rms_scaling"] = self.rms_scaling
        return {**super().get_config(), **config}


class GroupNormalization(_ScaleCenter):
    """Normalizes each example over groups of channels.

    The channels are split into `groups` groups; each group of each example is
    normalized over its channels and spatial positions.

    Args:
        groups: the number of groups (divides the channels); 1 is layer normalization,
            the number of channels is instance normalization.
        axis: the channels axis.
        epsilon: added to the variance.
        center: whether to learn an offset ``beta``.
        scale: whether to learn a scale ``gamma``.
        beta_initializer, gamma_initializer: initializers of the learned offset
            (beta) and scale (gamma).
        beta_regularizer, gamma_regularizer: penalties on them.
        beta_constraint, gamma_constraint: projections applied to them after updates.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.array([[1.0, 3.0, 10.0, 30.0]], "float32")
    >>> y = GroupNormalization(groups=2, epsilon=0.0)(x)
    >>> ops.convert_to_numpy(y).astype("float64").round(4).tolist()
    [[-1.0, 1.0, -1.0, 1.0]]
    """

    def __init__(
        self,
        groups=32,
        axis=-1,
        epsilon=1e-3,
        center=True,
        scale=True,
        beta_initializer="zeros",
        gamma_initializer="ones",
        beta_regularizer=None,
        gamma_regularizer=None,
        beta_constraint=None,
        gamma_constraint=None,
        **kwargs,
    ):
        super().__init__(**base_arguments(_ScaleCenter.__init__, locals()))
        self.groups = groups
        self.axis = axis
        self.epsilon = epsilon

    def build(self, input_shape):
        dim = input_shape[self.axis]
        if dim is None:
            raise ValueError(
                f"GroupNormalization needs axis {self.axis} of its input to be known. "
                f"Received: input shape {tuple(input_shape)}."
            )
        groups = dim if self.groups == -1 else self.groups
        if groups > dim or dim % groups:
            raise ValueError(
                f"GroupNormalization: {dim} channels cannot be split into {self.groups} groups "
                "of equal size. Choose `groups` dividing the number of channels."
            )
        self._groups = groups
        self.input_spec = InputSpec(ndim=len(input_shape), axes={self.axis: dim})
        self._add_gamma_beta((dim,))

    def call(self, inputs):
        input_dtype = dtypes.standardize_dtype(inputs.dtype)
        x = ops.cast(inputs, "float32") if input_dtype in _LOW_PRECISION else inputs
        rank = len(x.shape)
        axis = self.axis % rank
        shape = list(ops.shape(x))
        grouped_shape = [
            *shape[:axis],
            self._groups,
            shape[axis] // self._groups,
            *shape[axis + 1 :],
        ]
        grouped_shape[0] = -1
        grouped = ops.reshape(x, grouped_shape)
        reduce_axes = [i for i in range(1, rank + 1) if i != axis]
        mean, variance = ops.moments(grouped, axes=reduce_axes, keepdims=True)
        normalized = ops.multiply(
            ops.subtract(grouped, mean), ops.rsqrt(ops.add(variance, self.epsilon))
        )
        out = ops.reshape(normalized, [-1, *shape[1:]])
        broadcast = [1] * rank
        broadcast[axis] = shape[axis]
        if self.gamma is not None:
            out = ops.multiply(out, ops.reshape(ops.cast(self.gamma, out.dtype), broadcast))
        if self.beta is not None:
            out = ops.add(out, ops.reshape(ops.cast(self.beta, out.dtype), broadcast))
        return ops.cast(out, input_dtype)

    def get_config(self):
        config = {"groups": self.groups, "axis": self.axis, "epsilon": self.epsilon}
        config.update(self._scale_center_config())
        return {**super().get_config(), **config}


class RMSNormalization(Layer):
    """``x / sqrt(mean(x**2) + epsilon) * scale`` over `axis`.

    Args:
        axis: an int or a list of ints: the axes whose mean square is used.
        epsilon: added to the mean square.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> layer = RMSNormalization(epsilon=0.0)
    >>> y = layer(np.array([[3.0, 4.0]], "float32"))
    >>> ops.convert_to_numpy(y).astype("float64").round(4).tolist()
    [[0.8485, 1.1314]]
    """

    def __init__(self, axis=-1, epsilon=1e-6, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis
        self.epsilon = epsilon
        self.supports_masking = True

    def build(self, input_shape):
        rank = len(input_shape)
        axes = sorted(a % rank for a in _axes_list(self.axis))
        self.scale = self.add_weight(
            name="scale", shape=tuple(input_shape[a] for a in axes), initializer="ones"
        )

    def call(self, x):
        return ops.rms_normalization(x, scale=self.scale, axis=self.axis, epsilon=self.epsilon)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis, "epsilon": self.epsilon}


class UnitNormalization(Layer):
    """Scales each example to unit L2 norm over `axis`.

    Args:
        axis: an int or a list of ints: the axes the norm is taken over.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> y = UnitNormalization()(np.array([[3.0, 4.0]], "float32"))
    >>> ops.convert_to_numpy(y).astype("float64").round(4).tolist()
    [[0.6, 0.8]]
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis if isinstance(axis, int) else list(axis)
        self.supports_masking = True
        self.built = True

    def call(self, inputs):
        x = ops.cast(inputs, self.compute_dtype)
        square_sum = ops.sum(ops.square(x), axis=self.axis, keepdims=True)
        return ops.multiply(x, ops.rsqrt(ops.maximum(square_sum, 1e-12)))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}
