"""Transposed convolutions: `Conv1DTranspose`, `Conv2DTranspose`, `Conv3DTranspose`."""

from mb_layers._ops import ops
from mb_layers.layers._arguments import (
    add_weight_of,
    base_arguments,
    set_weight_arguments,
    weight_arguments,
)
from mb_layers.layers._conv_docs import family_doc
from mb_layers.layers._convolutional import _2D, _BaseConv, _with_defaults
from mb_layers.layers._reshaping import _int_tuple


class _ConvTranspose(_BaseConv):
    def __init__(
        self,
        filters,
        kernel_size,
        strides=1,
        padding="valid",
        output_padding=None,
        data_format=None,
        dilation_rate=1,
        activation=None,
        use_bias=True,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        kernel_constraint=None,
        bias_constraint=None,
        **kwargs,
    ):
        super().__init__(**base_arguments(_BaseConv.__init__, locals()))
        self.filters = filters
        self.output_padding = (
            None
            if output_padding is None
            else _int_tuple(output_padding, self._rank, "output_padding")
        )
        set_weight_arguments(self, locals(), "kernel")

    def build(self, input_shape):
        channels = self._input_channels(input_shape)
        self.kernel = add_weight_of(self, "kernel", (*self.kernel_size, self.filters, channels))
        self._add_bias(self.filters)

    def call(self, inputs):
        outputs = ops.conv_transpose(
            inputs,
            self.kernel,
            strides=self.strides,
            padding=self.padding,
            output_padding=self.output_padding,
            data_format=self.data_format,
            dilation_rate=self.dilation_rate,
        )
        return self._finish(outputs)

    def get_config(self):
        base = self._base_config()
        return {
            **super().get_config(),
            "filters": self.filters,
            "kernel_size": base["kernel_size"],
            "strides": base["strides"],
            "padding": base["padding"],
            "output_padding": self.output_padding,
            "data_format": base["data_format"],
            "dilation_rate": base["dilation_rate"],
            **self._tail_config(),
            **weight_arguments(self, "kernel", "bias", activity_regularizer=True),
        }


_transpose_doc = family_doc(
    """Transposed {rank}D convolution (upsampling; the gradient of ``Conv{rank}D`` for its \
input).

    The kernel has shape ``(*kernel_size, filters, input_channels)``; with ``"valid"``
    padding each spatial size becomes ``(size - 1) * strides + kernel_size``.""",
    "filters kernel_size upsampling_strides padding output_padding data_format dilation_rate",
)


class Conv1DTranspose(_ConvTranspose):
    __doc__ = _transpose_doc(
        1,
        """
    >>> x = np.array([[[1.0], [2.0]]], "float32")
    >>> layer = Conv1DTranspose(1, 2, strides=2, kernel_initializer="ones", use_bias=False)
    >>> ops.convert_to_numpy(layer(x))[0, :, 0].tolist()
    [1.0, 1.0, 2.0, 2.0]
    """,
    )

    _rank = 1


class Conv2DTranspose(_ConvTranspose):
    __doc__ = _transpose_doc(
        2,
        """
    >>> layer = Conv2DTranspose(8, 3, strides=2, padding="same")
    >>> y = layer(np.ones((1, 4, 4, 3), "float32"))
    >>> ops.shape(y), tuple(layer.kernel.shape)
    ((1, 8, 8, 8), (3, 3, 8, 3))
    """,
    )

    _rank = 2
    __init__ = _with_defaults(_ConvTranspose.__init__, **_2D)


class Conv3DTranspose(_ConvTranspose):
    __doc__ = _transpose_doc(
        3,
        """
    >>> layer = Conv3DTranspose(2, 2, strides=2)
    >>> ops.shape(layer(np.ones((1, 2, 3, 4, 3), "float32")))
    (1, 4, 6, 8, 2)
    """,
    )

    _rank = 3

    def __init__(  # Keras's order: data_format before output_padding here
        self,
        filters,
        kernel_size,
        strides=(1, 1, 1),
        padding="valid",
        data_format=None,
        output_padding=None,
        dilation_rate=(1, 1, 1),
        activation=None,
        use_bias=True,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        kernel_constraint=None,
        bias_constraint=None,
        **kwargs,
    ):
        super().__init__(**base_arguments(_ConvTranspose.__init__, locals()))
