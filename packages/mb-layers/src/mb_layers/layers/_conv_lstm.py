"""Convolutional LSTMs: `ConvLSTM1D`, `ConvLSTM2D`, `ConvLSTM3D` (and their cell).

The gates are convolutions instead of matrix products; the time loop is
`RNN`'s.
"""

import math

from mb_layers import initializers
from mb_layers._input_spec import InputSpec
from mb_layers._layer import Layer
from mb_layers._ops import ops
from mb_layers.layers._arguments import add_weight_of
from mb_layers.layers._recurrent import _CellOwner
from mb_layers.layers._reshaping import _data_format, _int_tuple
from mb_layers.layers._rnn_cells import LSTMCell, _project


def _conv_length(size, kernel, stride, dilation, padding):
    if padding == "same":
        return math.ceil(size / stride)
    return (size - dilation * (kernel - 1) - 1) // stride + 1


class ConvLSTMCell(LSTMCell):
    """One step of a convolutional LSTM over ``rank``-D feature maps."""

    def __init__(
        self,
        rank,
        filters,
        kernel_size,
        strides=1,
        padding="valid",
        data_format=None,
        dilation_rate=1,
        **kwargs,
    ):
        super().__init__(filters, **kwargs)
        self.rank = rank
        self.filters = filters
        self.kernel_size = _int_tuple(kernel_size, rank, "kernel_size")
        self.strides = _int_tuple(strides, rank, "strides")
        self.padding = padding.lower()
        self.data_format = _data_format(data_format)
        self.dilation_rate = _int_tuple(dilation_rate, rank, "dilation_rate")
        self.state_size = [filters, filters]
        self.dropout_mask_count = 4  # as Keras: a mask per gate, always

    def build(self, inputs_shape):
        channels_first = self.data_format == "channels_first"
        self.spatial_dims = tuple(inputs_shape[2:] if channels_first else inputs_shape[1:-1])
        self.input_dim = inputs_shape[1 if channels_first else -1]
        if None in self.spatial_dims or self.input_dim is None:
            raise ValueError(
                "ConvLSTM layers need static spatial and channel sizes. Received: input "
                f"shape {tuple(inputs_shape)}."
            )
        width = 4 * self.filters
        self.kernel = add_weight_of(self, "kernel", (*self.kernel_size, self.input_dim, width))
        self.recurrent_kernel = add_weight_of(
            self, "recurrent", (*self.kernel_size, self.filters, width), name="recurrent_kernel"
        )
        bias_initializer = self.bias_initializer
        if self.unit_forget_bias:
            base, filters = self.bias_initializer, self.filters

            def bias_initializer(shape, dtype=None):
                return ops.concatenate(
                    [
                        base((filters,), dtype=dtype),
                        initializers.Ones()((filters,), dtype=dtype),
                        base((2 * filters,), dtype=dtype),
                    ]
                )

        self.bias = (
            add_weight_of(self, "bias", (width,), initializer=bias_initializer)
            if self.use_bias
            else None
        )

    def output_spatial_dims(self):
        return tuple(
            _conv_length(n, k, s, d, self.padding)
            for n, k, s, d in zip(
                self.spatial_dims, self.kernel_size, self.strides, self.dilation_rate, strict=True
            )
        )

    def state_shape(self, batch_size):
        spatial = self.output_spatial_dims()
        if self.data_format == "channels_first":
            return (batch_size, self.filters, *spatial)
        return (batch_size, *spatial, self.filters)

    def get_initial_state(self, batch_size=None):
        shape = self.state_shape(batch_size)
        return [ops.zeros(shape, dtype=self.compute_dtype) for _ in range(2)]

    def call(self, inputs, states, training=False):
        h_tm1, c_tm1 = states[0], states[1]
        input_mask, state_mask = self._step_masks(inputs, h_tm1, training)
        axis = 1 if self.data_format == "channels_first" else -1

        def input_conv(x, kernel):
            return ops.conv(
                x,
                kernel,
                strides=self.strides,
                padding=self.padding,
                dilation_rate=self.dilation_rate,
                data_format=self.data_format,
            )

        def recurrent_conv(h, kernel):
            return ops.conv(h, kernel, strides=1, padding="same", data_format=self.data_format)

        x = _project(inputs, input_mask, self.kernel, input_conv, axis=axis)
        if self.bias is not None:
            shape = [1] * len(x.shape)
            shape[axis] = 4 * self.filters
            x = ops.add(x, ops.reshape(self.bias, shape))
        z = ops.add(
            x, _project(h_tm1, state_mask, self.recurrent_kernel, recurrent_conv, axis=axis)
        )
        axis = 1 if self.data_format == "channels_first" else -1
        z0, z1, z2, z3 = ops.split(z, 4, axis=axis)
        i = self.recurrent_activation(z0)
        f = self.recurrent_activation(z1)
        c = ops.add(ops.multiply(f, c_tm1), ops.multiply(i, self.activation(z2)))
        h = ops.multiply(self.recurrent_activation(z3), self.activation(c))
        return h, [h, c]

    def _cell_config(self):
        config = super()._cell_config()
        config.pop("units")
        return {
            "filters": self.filters,
            "kernel_size": self.kernel_size,
            "strides": self.strides,
            "padding": self.padding,
            "data_format": self.data_format,
            "dilation_rate": self.dilation_rate,
            **config,
        }

    def get_config(self):
        return {**Layer.get_config(self), **self._cell_config()}


class _ConvLSTM(_CellOwner):
    _rank = 2

    def __init__(
        self,
        filters,
        kernel_size,
        strides=1,
        padding="valid",
        data_format=None,
        dilation_rate=1,
        activation="tanh",
        recurrent_activation="sigmoid",
        use_bias=True,
        kernel_initializer="glorot_uniform",
        recurrent_initializer="orthogonal",
        bias_initializer="zeros",
        unit_forget_bias=True,
        kernel_regularizer=None,
        recurrent_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        kernel_constraint=None,
        recurrent_constraint=None,
        bias_constraint=None,
        dropout=0.0,
        recurrent_dropout=0.0,
        seed=None,
        return_sequences=False,
        return_state=False,
        go_backwards=False,
        stateful=False,
        **kwargs,
    ):
        cell_kwargs, rnn_kwargs = self._split_arguments(locals())
        cell = ConvLSTMCell(self._rank, name="conv_lstm_cell", **cell_kwargs)
        super().__init__(cell, **rnn_kwargs)
        self.input_spec = InputSpec(ndim=self._rank + 3)
        # As Keras, whose cell declares no size (the state's shape follows the input's).
        self.state_size, self.single_state = [-1], True

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        if not self.cell.built:
            self.build(sequences_shape)
        state = self.cell.state_shape(sequences_shape[0])
        output = (state[0], sequences_shape[1], *state[1:]) if self.return_sequences else state
        if self.return_state:
            return [output, state, state]
        return output

    def get_config(self):
        config, cell_config = self._layer_and_cell_config()
        config.update(cell_config)
        return config


_ConvLSTM._delegate_to_cell(
    "filters",
    "kernel_size",
    "strides",
    "padding",
    "data_format",
    "dilation_rate",
    "activation",
    "recurrent_activation",
    "use_bias",
    "kernel_initializer",
    "recurrent_initializer",
    "bias_initializer",
    "unit_forget_bias",
    "kernel_regularizer",
    "recurrent_regularizer",
    "bias_regularizer",
    "kernel_constraint",
    "recurrent_constraint",
    "bias_constraint",
    "dropout",
    "recurrent_dropout",
)


class ConvLSTM1D(_ConvLSTM):
    """Convolutional LSTM over sequences of 1D feature maps ``(batch, time, steps, channels)``.

    The LSTM's matrix products are convolutions: the input, the output and the two
    states are feature maps.

    Args:
        filters: the number of output channels (of the output and the states).
        kernel_size: an int or one int per spatial axis: the convolution window.
        strides: an int or one int per spatial axis.
        padding: ``"valid"`` or ``"same"``.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.
        dilation_rate: an int or one int per spatial axis.
        activation: the activation of the output (and candidate state); default ``"tanh"``.
        recurrent_activation: the activation of the gates; default ``"sigmoid"``.
        use_bias: whether to add a bias.
        kernel_initializer: the initializer of the input kernel.
        recurrent_initializer: the initializer of the recurrent kernel.
        bias_initializer: the initializer of the bias.
        unit_forget_bias: add 1 to the forget gate's initial bias.
        kernel_regularizer, recurrent_regularizer, bias_regularizer: penalties on
            the weights.
        activity_regularizer: a penalty on the output.
        kernel_constraint, recurrent_constraint, bias_constraint: projections applied
            to the weights after updates.
        dropout: the fraction of the inputs dropped in training (one mask per
            sequence).
        recurrent_dropout: the fraction of the recurrent state dropped in training.
        seed: an int for reproducible dropout masks.
        return_sequences: return every step's output, not only the last.
        return_state: also return the final states.
        go_backwards: process the sequence in reverse.
        stateful: not supported yet (raises ``NotImplementedError``).
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.ones((2, 4, 10, 3), "float32")
    >>> ops.shape(ConvLSTM1D(5, 3)(x))
    (2, 8, 5)
    >>> ops.shape(ConvLSTM1D(5, 3, padding="same", return_sequences=True)(x))
    (2, 4, 10, 5)
    """

    _rank = 1


class ConvLSTM2D(_ConvLSTM):
    """Convolutional LSTM over sequences of images ``(batch, time, rows, cols, channels)``.

    The LSTM's matrix products are convolutions: the input, the output and the two
    states are feature maps.

    Args:
        filters: the number of output channels (of the output and the states).
        kernel_size: an int or one int per spatial axis: the convolution window.
        strides: an int or one int per spatial axis.
        padding: ``"valid"`` or ``"same"``.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.
        dilation_rate: an int or one int per spatial axis.
        activation: the activation of the output (and candidate state); default ``"tanh"``.
        recurrent_activation: the activation of the gates; default ``"sigmoid"``.
        use_bias: whether to add a bias.
        kernel_initializer: the initializer of the input kernel.
        recurrent_initializer: the initializer of the recurrent kernel.
        bias_initializer: the initializer of the bias.
        unit_forget_bias: add 1 to the forget gate's initial bias.
        kernel_regularizer, recurrent_regularizer, bias_regularizer: penalties on
            the weights.
        activity_regularizer: a penalty on the output.
        kernel_constraint, recurrent_constraint, bias_constraint: projections applied
            to the weights after updates.
        dropout: the fraction of the inputs dropped in training (one mask per
            sequence).
        recurrent_dropout: the fraction of the recurrent state dropped in training.
        seed: an int for reproducible dropout masks.
        return_sequences: return every step's output, not only the last.
        return_state: also return the final states.
        go_backwards: process the sequence in reverse.
        stateful: not supported yet (raises ``NotImplementedError``).
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.ones((1, 3, 6, 6, 2), "float32")
    >>> outputs, h, c = ConvLSTM2D(4, 3, padding="same", return_state=True)(x)
    >>> ops.shape(outputs), ops.shape(h), ops.shape(c)
    ((1, 6, 6, 4), (1, 6, 6, 4), (1, 6, 6, 4))
    """

    _rank = 2


class ConvLSTM3D(_ConvLSTM):
    """Convolutional LSTM over sequences of volumes ``(batch, time, *spatial, channels)``.

    The LSTM's matrix products are convolutions: the input, the output and the two
    states are feature maps.

    Args:
        filters: the number of output channels (of the output and the states).
        kernel_size: an int or one int per spatial axis: the convolution window.
        strides: an int or one int per spatial axis.
        padding: ``"valid"`` or ``"same"``.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured
            ``image_data_format``.
        dilation_rate: an int or one int per spatial axis.
        activation: the activation of the output (and candidate state); default ``"tanh"``.
        recurrent_activation: the activation of the gates; default ``"sigmoid"``.
        use_bias: whether to add a bias.
        kernel_initializer: the initializer of the input kernel.
        recurrent_initializer: the initializer of the recurrent kernel.
        bias_initializer: the initializer of the bias.
        unit_forget_bias: add 1 to the forget gate's initial bias.
        kernel_regularizer, recurrent_regularizer, bias_regularizer: penalties on
            the weights.
        activity_regularizer: a penalty on the output.
        kernel_constraint, recurrent_constraint, bias_constraint: projections applied
            to the weights after updates.
        dropout: the fraction of the inputs dropped in training (one mask per
            sequence).
        recurrent_dropout: the fraction of the recurrent state dropped in training.
        seed: an int for reproducible dropout masks.
        return_sequences: return every step's output, not only the last.
        return_state: also return the final states.
        go_backwards: process the sequence in reverse.
        stateful: not supported yet (raises ``NotImplementedError``).
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.ones((1, 2, 4, 4, 4, 1), "float32")
    >>> ops.shape(ConvLSTM3D(2, 3)(x))
    (1, 2, 2, 2, 2)
    """

    _rank = 3
