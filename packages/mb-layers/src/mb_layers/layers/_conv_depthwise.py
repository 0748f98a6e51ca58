"""Depthwise and separable convolutions: `DepthwiseConv1D/2D`, `SeparableConv1D/2D`."""

from mb_layers._ops import ops
from mb_layers.layers._arguments import (
    add_weight_of,
    base_arguments,
    set_weight_arguments,
    weight_arguments,
)
from mb_layers.layers._conv_docs import family_doc
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


_depthwise_doc = family_doc(
    """Depthwise {rank}D convolution (one filter set per input channel).

    Each input channel is convolved with its own ``depth_multiplier`` filters; the kernel
    has shape ``(*kernel_size, input_channels, depth_multiplier)`` and the output
    ``input_channels * depth_multiplier`` channels.""",
    "kernel_size strides padding depth_multiplier data_format dilation_rate",
    weights=("depthwise",),
)


_separable_doc = family_doc(
    """Depthwise then pointwise {rank}D convolution.

    A depthwise convolution (kernel ``(*kernel_size, input_channels, depth_multiplier)``)
    followed by a pointwise one (kernel ``(*ones, input_channels * depth_multiplier,
    filters)``): fewer weights than a full convolution.""",
    "filters kernel_size strides padding depth_multiplier data_format dilation_rate",
    weights=("depthwise", "pointwise"),
)


class DepthwiseConv1D(_DepthwiseConv):
    __doc__ = _depthwise_doc(
        1,
        """
    >>> x = np.ones((1, 3, 2), "float32") * [1.0, 2.0]
    >>> layer = DepthwiseConv1D(2, depthwise_initializer="ones", use_bias=False)
    >>> ops.convert_to_numpy(layer(x))[0].tolist()
    [[2.0, 4.0], [2.0, 4.0]]
    """,
    )

    _rank = 1


class DepthwiseConv2D(_DepthwiseConv):
    __doc__ = _depthwise_doc(
        2,
        """
    >>> layer = DepthwiseConv2D(3, depth_multiplier=2)
    >>> y = layer(np.ones((1, 5, 5, 3), "float32"))
    >>> ops.shape(y), tuple(layer.kernel.shape)
    ((1, 3, 3, 6), (3, 3, 3, 2))
    """,
    )

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
    __doc__ = _separable_doc(
        1,
        """
    >>> layer = SeparableConv1D(4, 3)
    >>> y = layer(np.ones((2, 10, 3), "float32"))
    >>> ops.shape(y), tuple(layer.depthwise_kernel.shape), tuple(layer.pointwise_kernel.shape)
    ((2, 8, 4), (3, 3, 1), (1, 3, 4))
    """,
    )

    _rank = 1


class SeparableConv2D(_SeparableConv):
    __doc__ = _separable_doc(
        2,
        """
    >>> layer = SeparableConv2D(4, 3, padding="same")
    >>> y = layer(np.ones((1, 6, 6, 3), "float32"))
    >>> ops.shape(y), tuple(layer.depthwise_kernel.shape), tuple(layer.pointwise_kernel.shape)
    ((1, 6, 6, 4), (3, 3, 3, 1), (1, 1, 3, 4))
    """,
    )

    _rank = 2
    __init__ = _with_defaults(_SeparableConv.__init__, **_2D)
