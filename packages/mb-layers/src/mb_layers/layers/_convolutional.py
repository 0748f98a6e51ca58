"""Convolution layers: plain, transposed, depthwise and separable (1D-3D)."""

import types

from mb_graph._operation import default
from mb_layers import activations
from mb_layers._input_spec import InputSpec
from mb_layers._layer import Layer
from mb_layers._ops import ops
from mb_layers.layers import _quantized
from mb_layers.layers._arguments import (
    add_weight_of,
    base_arguments,
    serialized_arguments,
    set_weight_arguments,
    weight_arguments,
)
from mb_layers.layers._conv_docs import conv_doc
from mb_layers.layers._reshaping import _data_format, _int_tuple

_PADDINGS = ("valid", "same", "causal")


def _with_defaults(init, **defaults):
    """A copy of `init` whose named positional defaults are replaced (Keras writes
    ``strides=(1, 1)`` for its 2D layers, ``(1, 1, 1)`` for 3D, where 1D ones take 1)."""
    count = len(init.__defaults__)
    names = init.__code__.co_varnames[init.__code__.co_argcount - count : init.__code__.co_argcount]
    pairs = zip(names, init.__defaults__, strict=True)
    values = tuple(defaults.get(name, value) for name, value in pairs)
    copy = types.FunctionType(
        init.__code__, init.__globals__, init.__name__, values, init.__closure__
    )
    copy.__kwdefaults__ = init.__kwdefaults__
    copy.__doc__ = init.__doc__
    copy.__qualname__ = init.__qualname__
    return copy


_2D = {"strides": (1, 1), "dilation_rate": (1, 1)}
_3D = {"strides": (1, 1, 1), "dilation_rate": (1, 1, 1)}


class _BaseConv(Layer):
    _rank = 2

    def __init__(
        self,
        kernel_size,
        strides=1,
        padding="valid",
        data_format=None,
        dilation_rate=1,
        activation=None,
        use_bias=True,
        bias_initializer="zeros",
        bias_regularizer=None,
        activity_regularizer=None,
        bias_constraint=None,
        **kwargs,
    ):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.rank = self._rank
        self.kernel_size = _int_tuple(kernel_size, self._rank, "kernel_size")
        self.strides = _int_tuple(strides, self._rank, "strides")
        self.dilation_rate = _int_tuple(dilation_rate, self._rank, "dilation_rate")
        padding = padding.lower()
        if padding not in _PADDINGS or (padding == "causal" and self._rank != 1):
            raise ValueError(
                f"`padding` must be 'valid' or 'same' ('causal' for 1D). Received: {padding!r}."
            )
        self.padding = padding
        self.data_format = _data_format(data_format)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        set_weight_arguments(self, locals(), "bias")
        self.input_spec = InputSpec(min_ndim=self._rank + 2)

    def _channel_axis(self):
        return 1 if self.data_format == "channels_first" else -1

    @default
    def compute_output_shape(self, input_shape):
        """The output shape, by symbolic inference of `call` (Keras's signature)."""
        return super().compute_output_shape(input_shape)

    def _input_channels(self, input_shape):
        channels = input_shape[self._channel_axis()]
        if channels is None:
            raise ValueError(
                f"{type(self).__name__} needs the channels axis of its input to be known. "
                f"Received: input shape {tuple(input_shape)}."
            )
        return channels

    def _add_bias(self, size):
        if not self.use_bias:
            self.bias = None
            return
        self.bias = add_weight_of(self, "bias", (size,))

    def _finish(self, outputs):
        if self.bias is not None:
            shape = [1] * len(outputs.shape)
            shape[self._channel_axis()] = self.bias.shape[0]
            outputs = ops.add(outputs, ops.reshape(self.bias, shape))
        return self.activation(outputs)

    def _padding_for_op(self, inputs):
        if self.padding != "causal":
            return inputs, self.padding
        left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
        pad = [(0, 0)] * len(inputs.shape)
        pad[2 if self.data_format == "channels_first" else 1] = (left, 0)
        return ops.pad(inputs, pad), "valid"

    def _base_config(self):
        return {
            "kernel_size": self.kernel_size,
            "strides": self.strides,
            "padding": self.padding,
            "data_format": self.data_format,
            "dilation_rate": self.dilation_rate,
        }

    def _tail_config(self):
        return {
            **serialized_arguments(self, "activation"),
            "use_bias": self.use_bias,
        }


class _Conv(_BaseConv):
    def __init__(
        self,
        filters,
        kernel_size,
        strides=1,
        padding="valid",
        data_format=None,
        dilation_rate=1,
        groups=1,
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
        # LoRA arguments come through **kwargs, as Keras's.
        lora_rank = kwargs.pop("lora_rank", None)
        lora_alpha = kwargs.pop("lora_alpha", None)
        super().__init__(**base_arguments(_BaseConv.__init__, locals()))
        if not isinstance(filters, int) or filters <= 0:
            raise ValueError(f"`filters` must be a positive int. Received: filters={filters!r}.")
        if filters % groups:
            raise ValueError(f"`filters` ({filters}) must be divisible by `groups` ({groups}).")
        self.filters = filters
        self.groups = groups
        set_weight_arguments(self, locals(), "kernel")
        self.lora_rank = lora_rank
        self.lora_alpha = lora_alpha if lora_alpha is not None else lora_rank
        self.lora_enabled = False

    def build(self, input_shape):
        channels = self._input_channels(input_shape)
        if channels % self.groups:
            raise ValueError(
                f"{type(self).__name__}: the {channels} input channels are not divisible by "
                f"groups={self.groups}."
            )
        shape = (*self.kernel_size, channels // self.groups, self.filters)
        self._kernel = add_weight_of(self, "kernel", shape)
        self._add_bias(self.filters)
        self.input_spec = InputSpec(min_ndim=self._rank + 2, axes={self._channel_axis(): channels})
        self.built = True
        if self.lora_rank:
            self.enable_lora(self.lora_rank, lora_alpha=self.lora_alpha)

    @property
    def kernel(self):
        """The kernel variable; with LoRA on, ``kernel + lora_alpha / lora_rank * a @ b``
        (``a``: ``(*kernel_size, in_channels // groups, rank)``, ``b``: ``(rank, filters)``)."""
        if not self.built:
            raise AttributeError("You must build the layer before accessing `kernel`.")
        if self.lora_enabled:
            merged = ops.add(self._kernel, _quantized.lora_delta(self, "kernel"))
            return ops.cast(merged, self.compute_dtype)
        return self._kernel

    @kernel.setter
    def kernel(self, value):
        # A subclass's build may assign its own kernel, as it could before LoRA.
        self._kernel = value

    def enable_lora(self, rank, lora_alpha=None, a_initializer="he_uniform", b_initializer="zeros"):
        """Freezes the kernel and adds trainable ``lora_kernel_a``
        ``(*kernel_size, in_channels // groups, rank)`` and ``lora_kernel_b``
        ``(rank, filters)``; the kernel used is ``kernel + lora_alpha / rank * a @ b``
        (``b`` starts at zero, so the layer's output is unchanged until it trains)."""
        shape = tuple(self._kernel.shape) if self.built else None
        _quantized.enable_lora(
            self,
            "kernel",
            shape,
            rank,
            lora_alpha,
            a_initializer,
            b_initializer,
        )

    def save_own_variables(self, store):
        # With LoRA on, files hold the merged kernel and the bias, as Keras writes them.
        if not self.built:
            return
        if not self.lora_enabled:
            return super().save_own_variables(store)
        merged = (self.kernel, None, None)
        _quantized.save_kernel_layer(self, store, "kernel", merged)

    def load_own_variables(self, store):
        if not self.built:
            return
        if not self.lora_enabled:
            return super().load_own_variables(store)
        _quantized.load_kernel_layer(self, store, "kernel")

    # Files then hold the generic layout: mb-saving checks and loads it the stock way.
    load_own_variables.stock_when = _quantized.generic_layout

    @property
    def variable_serialization_spec(self):
        """The variables a file holds with LoRA on (merged kernel, then bias)."""
        return {None: ["kernel", "bias"]}

    def convolution_op(self, inputs, kernel):
        """``ops.conv`` of `inputs` with `kernel` under the layer's strides, padding,
        dilation and data format (Keras's hook: a subclass may change the convolution)."""
        return ops.conv(
            inputs,
            kernel,
            strides=list(self.strides),
            padding=self.padding,
            dilation_rate=self.dilation_rate,
            data_format=self.data_format,
        )

    def call(self, inputs):
        if self.padding == "causal":
            inputs, _ = self._padding_for_op(inputs)
            outputs = ops.conv(
                inputs,
                self.kernel,
                strides=self.strides,
                padding="valid",
                dilation_rate=self.dilation_rate,
                data_format=self.data_format,
            )
        else:
            outputs = self.convolution_op(inputs, self.kernel)
        return self._finish(outputs)

    def get_config(self):
        return {
            **super().get_config(),
            "filters": self.filters,
            **self._base_config(),
            "groups": self.groups,
            **self._tail_config(),
            **weight_arguments(self, "kernel", "bias", activity_regularizer=True),
            **_quantized.lora_config(self),
        }


class Conv1D(_Conv):
    __doc__ = conv_doc(
        """1D convolution over ``(batch, steps, channels)`` (padding may be ``"causal"``).

    The kernel has shape ``(kernel_size, input_channels // groups, filters)``.

    Args:
        {arguments}

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.arange(5, dtype="float32").reshape(1, 5, 1)
    >>> layer = Conv1D(1, 2, kernel_initializer="ones", use_bias=False)
    >>> ops.convert_to_numpy(layer(x))[0, :, 0].tolist()
    [1.0, 3.0, 5.0, 7.0]
    >>> causal = Conv1D(1, 2, padding="causal", kernel_initializer="ones", use_bias=False)
    >>> ops.convert_to_numpy(causal(x))[0, :, 0].tolist()
    [0.0, 1.0, 3.0, 5.0, 7.0]
    """,
        1,
        "filters kernel_size strides causal_padding data_format dilation_rate groups",
    )

    _rank = 1


class Conv2D(_Conv):
    """2D convolution over images.

    Args:
        filters: the number of output channels.
        kernel_size: the window's height and width (an int for a square one).
        strides: the step of the window (an int or two).
        padding: "valid" (no padding) or "same" (the output keeps the input's
            spatial size with strides 1).
        data_format: "channels_last" (``(batch, height, width, channels)``) or
            "channels_first"; None: `image_data_format()`.
        dilation_rate: the spacing of the window's elements.
        groups: split the input channels into this many groups, each convolved
            with its own filters.
        activation: applied to the output; None: linear.
        use_bias: add a learned bias per output channel.
        kernel_initializer, bias_initializer: as in `Dense`.
        kernel_regularizer, bias_regularizer: as in `Dense`.
        kernel_constraint, bias_constraint: as in `Dense`.
        activity_regularizer: a regularizer on the output.
        lora_rank, lora_alpha: LoRA (as Keras): with a rank, the kernel is frozen and a
            low-rank update ``lora_alpha / rank * a @ b`` trains instead (see
            `enable_lora`); files hold the merged kernel.

    The kernel has shape ``(*kernel_size, input_channels // groups, filters)``.

    Example:

    >>> import numpy as np
    >>> layer = Conv2D(8, 3, padding="same", activation="relu")
    >>> y = layer(np.ones((2, 16, 16, 3), "float32"))
    >>> tuple(y.shape), tuple(layer.kernel.shape)
    ((2, 16, 16, 8), (3, 3, 3, 8))
    >>> tuple(Conv2D(4, (3, 5), strides=2)(np.ones((1, 9, 9, 1), "float32")).shape)
    (1, 4, 3, 4)
    """

    _rank = 2
    __init__ = _with_defaults(_Conv.__init__, **_2D)


class Conv3D(_Conv):
    __doc__ = conv_doc(
        """3D convolution over volumes.

    The kernel has shape ``(*kernel_size, input_channels // groups, filters)``.

    Args:
        {arguments}

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> layer = Conv3D(4, 3)
    >>> y = layer(np.ones((2, 5, 6, 7, 3), "float32"))
    >>> ops.shape(y), tuple(layer.kernel.shape)
    ((2, 3, 4, 5, 4), (3, 3, 3, 3, 4))
    """,
        3,
        "filters kernel_size strides padding data_format dilation_rate groups",
    )

    _rank = 3
    __init__ = _with_defaults(_Conv.__init__, **_3D)
