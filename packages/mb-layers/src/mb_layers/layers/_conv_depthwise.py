"""Depthwise and separable convolutions: `DepthwiseConv1D/2D`, `SeparableConv1D/2D`."""

from mb_layers._ops import ops
from mb_layers.layers._arguments import (
    add_weight_of,
    base_arguments,
    set_weight_arguments,
    weight_arguments,
)
from mb_layers.layers._convolutional import _2D, _BaseConv, _with_defaults


class _DepthwiseConv(_BaseConv):
    def __init__(
        self,
        kernel_size,
        strides=1,
        padding="valid",
        depth_multiplier=1,
        data_format=None,
        dilation_rate=1,
        activation=None,
        use_bias=True,
        depthwise_initializer="glorot_uniform",
        bias_initializer="zeros",
        depthwise_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        depthwise_constraint=None,
        bias_constraint=None,
        **kwargs,
    ):
        super().__init__(**base_arguments(_BaseConv.__init__, locals()))
        self.depth_multiplier = depth_multiplier
        set_weight_arguments(self, locals(), "depthwise")

    def build(self, input_shape):
        channels = self._input_channels(input_shape)
        shape = (*self.kernel_size, channels, self.depth_multiplier)
        self.kernel = add_weight_of(self, "depthwise", shape, name="kernel")
        self._add_bias(channels * self.depth_multiplier)

    def call(self, inputs):
        inputs, padding = self._padding_for_op(inputs)
        outputs = ops.depthwise_conv(
            inputs,
            self.kernel,
            strides=self.strides,
            padding=padding,
            dilation_rate=self.dilation_rate,
            data_format=self.data_format,
        )
        return self._finish(outputs)

    def get_config(self):
        return {
            **super().get_config(),
            "depth_multiplier": self.depth_multiplier,
            **self._base_config(),
            **self._tail_config(),
            **weight_arguments(self, "depthwise", "bias", activity_regularizer=True),
        }


class DepthwiseConv1D(_DepthwiseConv):
    """Depthwise 1D convolution (one filter set per input channel).

    Each input channel is convolved with its own ``depth_multiplier`` filters; the kernel
    has shape ``(*kernel_size, input_channels, depth_multiplier)`` and the output
    ``input_channels * depth_multiplier`` channels.

    Args:
        kernel_size: an int: the size of the window.
        strides: an int: the step of the window.
        padding: ``"valid"`` (no padding) or ``"same"`` (the output keeps the input's
            spatial size with strides 1).
        depth_multiplier: the number of filters per input channel.
        data_format: ``"channels_last"`` (``(batch, *spatial, channels)``) or
            ``"channels_first"``; None: the configured ``image_data_format``.
        dilation_rate: an int: the spacing of the window's elements.
        activation: applied to the output; None: linear.
        use_bias: whether to add a learned bias per output channel.
        depthwise_initializer, bias_initializer: initializers of the weights (as in ``Dense``).
        depthwise_regularizer, bias_regularizer: penalties of the weights (as in ``Dense``).
        activity_regularizer: a penalty on the output.
        depthwise_constraint, bias_constraint: projections of the weights (as in ``Dense``).
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.ones((1, 3, 2), "float32") * [1.0, 2.0]
    >>> layer = DepthwiseConv1D(2, depthwise_initializer="ones", use_bias=False)
    >>> ops.convert_to_numpy(layer(x))[0].tolist()
    [[2.0, 4.0], [2.0, 4.0]]
    """

    _rank = 1


class DepthwiseConv2D(_DepthwiseConv):
    """Depthwise 2D convolution (one filter set per input channel).

    Each input channel is convolved with its own ``depth_multiplier`` filters; the kernel
    has shape ``(*kernel_size, input_channels, depth_multiplier)`` and the output
    ``input_channels * depth_multiplier`` channels.

    Args:
        kernel_size: an int or 2 ints: the size of the window.
        strides: an int or 2 ints: the step of the window.
        padding: ``"valid"`` (no padding) or ``"same"`` (the output keeps the input's
            spatial size with strides 1).
        depth_multiplier: the number of filters per input channel.
        data_format: ``"channels_last"`` (``(batch, *spatial, channels)``) or
            ``"channels_first"``; None: the configured ``image_data_format``.
        dilation_rate: an int or 2 ints: the spacing of the window's elements.
        activation: applied to the output; None: linear.
        use_bias: whether to add a learned bias per output channel.
        depthwise_initializer, bias_initializer: initializers of the weights (as in ``Dense``).
        depthwise_regularizer, bias_regularizer: penalties of the weights (as in ``Dense``).
        activity_regularizer: a penalty on the output.
        depthwise_constraint, bias_constraint: projections of the weights (as in ``Dense``).
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> layer = DepthwiseConv2D(3, depth_multiplier=2)
    >>> y = layer(np.ones((1, 5, 5, 3), "float32"))
    >>> ops.shape(y), tuple(layer.kernel.shape)
    ((1, 3, 3, 6), (3, 3, 3, 2))
    """

    _rank = 2
    __init__ = _with_defaults(_DepthwiseConv.__init__, **_2D)


class _SeparableConv(_BaseConv):
    def __init__(
        self,
        filters,
        kernel_size,
        strides=1,
        padding="valid",
        data_format=None,
        dilation_rate=1,
        depth_multiplier=1,
        activation=None,
        use_bias=True,
        depthwise_initializer="glorot_uniform",
        pointwise_initializer="glorot_uniform",
        bias_initializer="zeros",
        depthwise_regularizer=None,
        pointwise_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        depthwise_constraint=None,
        pointwise_constraint=None,
        bias_constraint=None,
        **kwargs,
    ):
        super().__init__(**base_arguments(_BaseConv.__init__, locals()))
        self.filters = filters
        self.depth_multiplier = depth_multiplier
        set_weight_arguments(self, locals(), "depthwise", "pointwise")

    def build(self, input_shape):
        channels = self._input_channels(input_shape)
        depthwise = (*self.kernel_size, channels, self.depth_multiplier)
        pointwise = ((1,) * self._rank) + (channels * self.depth_multiplier, self.filters)
        self.depthwise_kernel = add_weight_of(self, "depthwise", depthwise, "depthwise_kernel")
        self.pointwise_kernel = add_weight_of(self, "pointwise", pointwise, "pointwise_kernel")
        self._add_bias(self.filters)

    def call(self, inputs):
        inputs, padding = self._padding_for_op(inputs)
        outputs = ops.separable_conv(
            inputs,
            self.depthwise_kernel,
            self.pointwise_kernel,
            strides=self.strides,
            padding=padding,
            dilation_rate=self.dilation_rate,
            data_format=self.data_format,
        )
        return self._finish(outputs)

    def get_config(self):
        return {
            **super().get_config(),
            "depth_multiplier": self.depth_multiplier,
            "filters": self.filters,
            **self._base_config(),
            **self._tail_config(),
            **weight_arguments(self, "depthwise", "pointwise", "bias", activity_regularizer=True),
        }


class SeparableConv1D(_SeparableConv):
    """Depthwise then pointwise 1D convolution.

    A depthwise convolution (kernel ``(*kernel_size, input_channels, depth_multiplier)``)
    followed by a pointwise one (kernel ``(*ones, input_channels * depth_multiplier,
    filters)``): fewer weights than a full convolution.

    Args:
        filters: the number of output channels.
        kernel_size: an int: the size of the window.
        strides: an int: the step of the window.
        padding: ``"valid"`` (no padding) or ``"same"`` (the output keeps the input's
            spatial size with strides 1).
        depth_multiplier: the number of filters per input channel.
        data_format: ``"channels_last"`` (``(batch, *spatial, channels)``) or
            ``"channels_first"``; None: the configured ``image_data_format``.
        dilation_rate: an int: the spacing of the window's elements.
        activation: applied to the output; None: linear.
        use_bias: whether to add a learned bias per output channel.
        depthwise_initializer, pointwise_initializer, bias_initializer:
            initializers of the weights (as in ``Dense``).
        depthwise_regularizer, pointwise_regularizer, bias_regularizer:
            penalties of the weights (as in ``Dense``).
        activity_regularizer: a penalty on the output.
        depthwise_constraint, pointwise_constraint, bias_constraint:
            projections of the weights (as in ``Dense``).
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> layer = SeparableConv1D(4, 3)
    >>> y = layer(np.ones((2, 10, 3), "float32"))
    >>> ops.shape(y), tuple(layer.depthwise_kernel.shape), tuple(layer.pointwise_kernel.shape)
    ((2, 8, 4), (3, 3, 1), (1, 3, 4))
    """

    _rank = 1


class SeparableConv2D(_SeparableConv):
    """Depthwise then pointwise 2D convolution.

    A depthwise convolution (kernel ``(*kernel_size, input_channels, depth_multiplier)``)
    followed by a pointwise one (kernel ``(*ones, input_channels * depth_multiplier,
    filters)``): fewer weights than a full convolution.

    Args:
        filters: the number of output channels.
        kernel_size: an int or 2 ints: the size of the window.
        strides: an int or 2 ints: the step of the window.
        padding: ``"valid"`` (no padding) or ``"same"`` (the output keeps the input's
            spatial size with strides 1).
        depth_multiplier: the number of filters per input channel.
        data_format: ``"channels_last"`` (``(batch, *spatial, channels)``) or
            ``"channels_first"``; None: the configured ``image_data_format``.
        dilation_rate: an int or 2 ints: the spacing of the window's elements.
        activation: applied to the output; None: linear.
        use_bias: whether to add a learned bias per output channel.
        depthwise_initializer, pointwise_initializer, bias_initializer:
            initializers of the weights (as in ``Dense``).
        depthwise_regularizer, pointwise_regularizer, bias_regularizer:
            penalties of the weights (as in ``Dense``).
        activity_regularizer: a penalty on the output.
        depthwise_constraint, pointwise_constraint, bias_constraint:
            projections of the weights (as in ``Dense``).
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> layer = SeparableConv2D(4, 3, padding="same")
    >>> y = layer(np.ones((1, 6, 6, 3), "float32"))
    >>> ops.shape(y), tuple(layer.depthwise_kernel.shape), tuple(layer.pointwise_kernel.shape)
    ((1, 6, 6, 4), (3, 3, 3, 1), (1, 1, 3, 4))
    """

    _rank = 2
    __init__ = _with_defaults(_SeparableConv.__init__, **_2D)
