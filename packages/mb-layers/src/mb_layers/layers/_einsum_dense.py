"""`EinsumDense`: a dense layer whose contraction is an einsum equation."""

import math
import re
import string

from mb_layers import activations
from mb_layers._input_spec import InputSpec
from mb_layers._layer import Layer
from mb_layers._ops import ops
from mb_layers.initializers import VarianceScaling
from mb_layers.layers import _quantized, _quantized_float8, _quantized_gptq
from mb_layers.layers._arguments import (
    add_weight_of,
    serialized_arguments,
    set_weight_arguments,
    weight_arguments,
)
from mb_layers.layers._kernel_variables import KernelVariables
from mb_ops.quantizers import (
    abs_max_quantize,
    abs_max_quantize_grouped_with_zero_point,
    dequantize_with_sz_map,
    pack_int4,
    unpack_int4,
)


class EinsumDense(KernelVariables, Layer):
    """``einsum(equation, inputs, kernel) + bias``.

    Args:
        equation: ``"ab,bc->ac"`` style, optionally with ``...`` on the left
            (``"...b,bc->...c"``) or on the right of the input and output.
        output_shape: the output shape without the batch axis (an int for
            rank 2 outputs); None for axes taken from the input.
        activation: activation function; None: linear.
        bias_axes: letters of the output axes that get a bias.
        kernel_initializer, bias_initializer: as in `Dense`.
        kernel_regularizer, bias_regularizer: as in `Dense`.
        kernel_constraint, bias_constraint: as in `Dense`.

    Example:

    >>> import numpy as np
    >>> layer = EinsumDense("ab,bc->ac", output_shape=64, bias_axes="c")
    >>> tuple(layer(np.ones((2, 32), "float32")).shape)
    (2, 64)
    """

    def __init__(
        self,
        equation,
        output_shape,
        activation=None,
        bias_axes=None,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        kernel_constraint=None,
        bias_constraint=None,
        lora_rank=None,
        lora_alpha=None,
        gptq_unpacked_column_size=None,
        quantization_config=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.equation = equation
        self.partial_output_shape = (
            (output_shape,) if isinstance(output_shape, int) else tuple(output_shape)
        )
        self.bias_axes = bias_axes
        self.activation = activations.get(activation)
        set_weight_arguments(self, locals(), "kernel", "bias")
        self.full_output_shape = None
        self.lora_rank = lora_rank
        self.lora_alpha = lora_alpha if lora_alpha is not None else lora_rank
        self.lora_enabled = False
        # The output columns of the flattened GPTQ kernel (set by its build; in configs).
        self.gptq_unpacked_column_size = gptq_unpacked_column_size
        self.quantization_config = quantization_config

    def build(self, input_shape):
        kernel_shape, bias_shape, full_output_shape, input_axes, output_axes = analyze_einsum(
            self.equation, self.bias_axes, input_shape, self.partial_output_shape
        )
        self.full_output_shape = tuple(full_output_shape)
        self.input_spec = InputSpec(ndim=len(input_shape))
        kernel_initializer = self.kernel_initializer
        if isinstance(kernel_initializer, VarianceScaling) and (
            kernel_initializer.input_axes is None or kernel_initializer.output_axes is None
        ):
            config = kernel_initializer.get_config()
            config.update(
                seed=kernel_initializer.seed, input_axes=input_axes, output_axes=output_axes
            )
            kernel_initializer = type(kernel_initializer).from_config(config)
        mode = self.quantization_mode
        if mode is not None:
            self.quantized_build(tuple(kernel_shape), mode=mode, config=self.quantization_config)
        if mode not in ("int8", "int4", "gptq", "awq"):
            self._kernel = add_weight_of(
                self, "kernel", tuple(kernel_shape), initializer=kernel_initializer
            )
        if bias_shape is not None:
            self.bias = add_weight_of(self, "bias", tuple(bias_shape))
        else:
            self.bias = None
        self.built = True
        if self.lora_rank:
            self.enable_lora(self.lora_rank, lora_alpha=self.lora_alpha)

    @property
    def kernel(self):
        """The kernel (int8 values in int8 mode, the unpacked int4 values reshaped to the
        kernel's shape in int4 mode), plus the LoRA update when enabled."""
        return self._effective_kernel(
            lambda k: ops.reshape(
                unpack_int4(k, self._int4_unpacked_column_size, axis=-1),
                self.original_kernel_shape,
            )
        )

    def call(self, inputs, training=None):
        x = ops.einsum(self.equation, inputs, self.kernel)
        if self.bias is not None:
            x = ops.add(x, self.bias)
        return self.activation(x)

    def compute_output_shape(self, input_shape):
        return tuple(
            analyze_einsum(self.equation, self.bias_axes, input_shape, self.partial_output_shape)[2]
        )

    def get_config(self):
        output_shape = self.partial_output_shape
        return {
            **super().get_config(),
            "output_shape": output_shape[0] if len(output_shape) == 1 else list(output_shape),
            "equation": self.equation,
            **serialized_arguments(self, "activation"),
            "bias_axes": self.bias_axes,
            **weight_arguments(self, "kernel", "bias", activity_regularizer=True),
            "quantization_config": _quantized.serialize_config(self.quantization_config),
            **_quantized.lora_config(self),
            **(
                {"gptq_unpacked_column_size": self.gptq_unpacked_column_size}
                if self.gptq_unpacked_column_size
                else {}
            ),
        }

    @classmethod
    def from_config(cls, config):
        return super().from_config(_quantized.deserialize_config_entry(config))

    # ----- LoRA and quantization (as Keras 3.15) -------------------------------------

    def enable_lora(self, rank, lora_alpha=None, a_initializer="he_uniform", b_initializer="zeros"):
        """Freezes the kernel and adds trainable ``lora_kernel_a``
        ``(*kernel.shape[:-1], rank)`` and ``lora_kernel_b`` ``(rank, kernel.shape[-1])``."""
        if self.quantization_mode == "int4":
            shape = tuple(self.original_kernel_shape)
        else:
            shape = tuple(self._kernel.shape)
        _quantized.enable_lora(
            self, "kernel", shape, rank, lora_alpha, a_initializer, b_initializer
        )

    def quantized_build(self, kernel_shape, mode, config=None):
        """Creates the variables of the quantized kernel for `mode`."""
        if mode == "float8":
            return _quantized_float8.build(self)
        self._set_quantization_info()
        if mode == "int8":
            _quantized.build_int8_matrix(
                self, "kernel", kernel_shape, self._kernel_scale_shape(kernel_shape), config
            )
            self.quantization_axis = tuple(self._input_reduced_axes)
        elif mode == "int4":
            self._int4_build(kernel_shape, config)
        elif mode in _quantized_gptq.CALIBRATED_MODES:
            _quantized_gptq.build(self, kernel_shape, mode, config, zero_name="zero_point")
            setattr(self, f"{mode}_unpacked_column_size", self._calibrated_columns)
        else:
            raise self._quantization_mode_error(mode)
        self._is_quantized = True

    def _int4_build(self, kernel_shape, config):
        from mb_layers._quantization_config import QuantizationConfig, block_size_for_layer

        self.inputs_quantizer = QuantizationConfig.activation_quantizer_or_default(config, None)
        self.quantization_axis = tuple(self._input_reduced_axes)
        self.original_kernel_shape = tuple(kernel_shape)
        rows, columns = self._flat_kernel_shape(kernel_shape)
        block_size = block_size_for_layer(self, config)
        grouped = block_size is not None and block_size != -1
        self._int4_block_size = block_size if grouped else None
        self._int4_unpacked_column_size = columns
        self._int4_rows = rows
        self._kernel = self.add_weight(
            name="kernel",
            shape=(rows, (columns + 1) // 2),
            initializer="zeros",
            dtype="int8",
            trainable=False,
        )
        scale_shape = (math.ceil(rows / block_size), columns) if grouped else (columns,)
        self.kernel_scale = self.add_weight(
            name="kernel_scale", shape=scale_shape, initializer="ones", trainable=False
        )
        if grouped:
            _quantized.add_int4_groups(self, "kernel", scale_shape, rows, block_size)

    def _flat_kernel_shape(self, kernel_shape):
        rows = columns = 1
        for i, dim in enumerate(kernel_shape):
            if i in self._kernel_reduced_axes:
                rows *= dim
            else:
                columns *= dim
        return rows, columns

    def _kernel_scale_shape(self, kernel_shape):
        shape = list(kernel_shape)
        for axis in self._kernel_reduced_axes:
            shape[axis] = 1
        shape = [shape[i] for i in self._kernel_transpose_axes]
        for axis in sorted(self._kernel_expand_axes):
            shape.insert(axis, 1)
        for axis in sorted(self._kernel_squeeze_axes, reverse=True):
            shape.pop(axis)
        return tuple(shape)

    def quantize(self, mode=None, type_check=True, config=None):
        """Quantizes the kernel in place (``"int8"``, ``"int4"``; ``"float8"`` keeps it
        float and adds the scaling variables of float8 training), as Keras 3.15 does."""
        if type_check and type(self) is not EinsumDense:
            raise self._not_implemented_error(self.quantize)
        if mode == "float8":
            return _quantized_float8.quantize(self, config)
        from mb_layers._quantization_config import Int4QuantizationConfig, QuantizationConfig
        from mb_ops.quantizers import AbsMaxQuantizer

        self.quantization_config = config
        kernel_shape = tuple(self._kernel.shape)
        self._set_quantization_info()
        if mode in _quantized_gptq.CALIBRATED_MODES:
            # Variables only: `model.quantize` calibrates them (the float kernel until then).
            self.quantized_build(kernel_shape, mode, config)
            self._set_quantized_policy(mode, config)
            return
        zero = None
        if mode == "int8":
            quantizer = QuantizationConfig.weight_quantizer_or_default(
                config, AbsMaxQuantizer(axis=self._kernel_reduced_axes)
            )
            value, scale = quantizer(self._kernel, to_numpy=True)
            scale = self._adjust_scale_for_quant(scale, "kernel")
        elif mode == "int4":
            block_size = config.block_size if isinstance(config, Int4QuantizationConfig) else None
            flat = ops.reshape(self._kernel, self._flat_kernel_shape(kernel_shape))
            if block_size is None or block_size == -1:
                value, scale = abs_max_quantize(
                    flat, axis=0, value_range=(-8, 7), dtype="int8", to_numpy=True
                )
                scale = ops.squeeze(scale, axis=0)
            else:
                value, scale, zero = abs_max_quantize_grouped_with_zero_point(
                    flat, block_size=block_size, to_numpy=True
                )
            value = pack_int4(value, axis=-1)[0]
        else:
            raise self._quantization_mode_error(mode)
        del self._kernel
        self.quantized_build(kernel_shape, mode, config)
        self._kernel.assign(value)
        self.kernel_scale.assign(scale)
        if zero is not None:
            self.kernel_zero.assign(zero)
        self._set_quantized_policy(mode, config)

    def _dequantized_kernel(self, kernel=None, scale=None, zero=None, g_idx=None):
        kernel = self._kernel if kernel is None else kernel
        scale = self.kernel_scale if scale is None else scale
        if self.quantization_mode == "int4":
            unpacked = unpack_int4(kernel, self._int4_unpacked_column_size, axis=-1)
            if self._int4_block_size is not None:
                zero = self.kernel_zero if zero is None else zero
                g_idx = self.g_idx if g_idx is None else g_idx
                kernel = dequantize_with_sz_map(unpacked, scale, zero, g_idx, group_axis=0)
            else:
                kernel = ops.divide(ops.cast(unpacked, self.compute_dtype), scale)
            return ops.reshape(ops.cast(kernel, self.compute_dtype), self.original_kernel_shape)
        scale = self._adjust_scale_for_dequant(scale)
        return ops.divide(ops.cast(kernel, self.compute_dtype), scale)

    def _merged_kernel(self):
        mode = self.quantization_mode
        if mode in (None, "gptq", "awq"):
            return self.kernel, None, None
        zero = getattr(self, "kernel_zero", None)
        if not self.lora_enabled:
            return self._kernel, self.kernel_scale, zero
        merged = ops.add(self._dequantized_kernel(), _quantized.lora_delta(self, "kernel"))
        if mode == "int4":
            flat = ops.reshape(merged, (self._int4_rows, self._int4_unpacked_column_size))
            zero = None
            if self._int4_block_size is not None:
                value, scale, zero = abs_max_quantize_grouped_with_zero_point(
                    flat, block_size=self._int4_block_size, to_numpy=True
                )
            else:
                value, scale = abs_max_quantize(
                    flat, axis=0, value_range=(-8, 7), dtype="int8", to_numpy=True
                )
                scale = ops.squeeze(scale, axis=0)
            return pack_int4(value, axis=-1)[0], scale, zero
        value, scale = abs_max_quantize(merged, axis=self._kernel_reduced_axes, to_numpy=True)
        return value, self._adjust_scale_for_quant(scale, "kernel"), None

    def _int8_call(self, inputs, training=None):
        compute = self.compute_dtype
        quantizer = self.inputs_quantizer

        @ops.custom_gradient
        def product(inputs, kernel, kernel_scale):
            def grad_fn(*args, upstream=None):
                if upstream is None:
                    (upstream,) = args
                float_kernel = ops.divide(
                    ops.cast(kernel, compute), self._adjust_scale_for_dequant(kernel_scale)
                )
                return (
                    ops.einsum(self._custom_gradient_equation, upstream, float_kernel),
                    None,
                    None,
                )

            if quantizer:
                inputs, inputs_scale = quantizer(inputs, axis=self.quantization_axis)
                inputs_scale = self._adjust_scale_for_quant(inputs_scale, "input")
                # int8 x int8: every backend accumulates in int32 (XLA's integer GEMM).
                x = ops.einsum(self.equation, inputs, kernel)
                x = ops.divide(ops.cast(x, compute), ops.multiply(inputs_scale, kernel_scale))
            else:
                x = ops.einsum(self.equation, inputs, ops.cast(kernel, compute))
                x = ops.divide(ops.cast(x, compute), kernel_scale)
            return x, grad_fn

        x = product(
            inputs, ops.convert_to_tensor(self._kernel), ops.convert_to_tensor(self.kernel_scale)
        )
        return self._finish(inputs, x)

    def _int4_call(self, inputs, training=None):
        compute = self.compute_dtype
        quantizer = self.inputs_quantizer

        @ops.custom_gradient
        def product(inputs, kernel, *parameters):
            float_kernel = self._dequantized_kernel(kernel, *parameters)

            def grad_fn(*args, upstream=None):
                if upstream is None:
                    (upstream,) = args
                grad = ops.einsum(self._custom_gradient_equation, upstream, float_kernel)
                return (grad,) + (None,) * (1 + len(parameters))

            if quantizer and self._int4_block_size is None:
                inputs_q, inputs_scale = quantizer(inputs, axis=self.quantization_axis)
                inputs_scale = self._adjust_scale_for_quant(inputs_scale, "input")
                x = ops.einsum(self.equation, ops.cast(inputs_q, compute), float_kernel)
                return ops.divide(ops.cast(x, compute), inputs_scale), grad_fn
            return ops.einsum(self.equation, inputs, float_kernel), grad_fn

        extra = [self.kernel_scale]
        if self._int4_block_size is not None:
            extra += [self.kernel_zero, self.g_idx]
        x = product(
            inputs,
            ops.convert_to_tensor(self._kernel),
            *(ops.convert_to_tensor(v) for v in extra),
        )
        return self._finish(inputs, x)

    def _float8_call(self, inputs, training=None):
        x = _quantized_float8.product(
            self, inputs, training, contract=lambda a, b: ops.einsum(self.equation, a, b)
        )
        return _quantized_float8.finish(self, x)

    def _gptq_call(self, inputs, training=None):
        return _quantized_gptq.calibrated_call(
            self, inputs, lambda x, kernel: ops.einsum(self.equation, x, kernel)
        )

    _awq_call = _gptq_call

    def _finish(self, inputs, x):
        x = _quantized.add_lora(
            self,
            inputs,
            x,
            "kernel",
            first=lambda a: ops.einsum(self.equation, inputs, a),
        )
        if self.bias is not None:
            x = ops.add(x, self.bias)
        return self.activation(x)

    def _adjust_scale_for_dequant(self, scale):
        if self._kernel_squeeze_axes:
            scale = ops.expand_dims(scale, axis=self._kernel_squeeze_axes)
        if self._kernel_expand_axes:
            scale = ops.squeeze(scale, axis=self._kernel_expand_axes)
        if self._kernel_transpose_axes:
            reverse = sorted(
                range(len(self._kernel_transpose_axes)),
                key=self._kernel_transpose_axes.__getitem__,
            )
            scale = ops.transpose(scale, axes=reverse)
        return scale

    def _adjust_scale_for_quant(self, scale, tensor_type="kernel"):
        if tensor_type == "kernel":
            transpose_axes = self._kernel_transpose_axes
            expand_axes = self._kernel_expand_axes
            squeeze_axes = self._kernel_squeeze_axes
        else:
            transpose_axes = self._input_transpose_axes
            expand_axes = self._input_expand_axes
            squeeze_axes = self._input_squeeze_axes
        if transpose_axes:
            scale = ops.transpose(scale, transpose_axes)
        if expand_axes:
            scale = ops.expand_dims(scale, axis=expand_axes)
        if squeeze_axes:
            scale = ops.squeeze(scale, axis=squeeze_axes)
        return scale

    def _set_quantization_info(self):
        if hasattr(self, "_input_reduced_axes"):
            return
        (
            self._input_reduced_axes,
            self._kernel_reduced_axes,
            self._input_transpose_axes,
            self._kernel_transpose_axes,
            self._input_expand_axes,
            self._kernel_expand_axes,
            self._input_squeeze_axes,
            self._kernel_squeeze_axes,
            self._custom_gradient_equation,
            self._kernel_reverse_transpose_axes,
        ) = analyze_quantization_info(self.equation, self.input_spec.ndim)


def analyze_einsum(equation, bias_axes, input_shape, output_shape):
    """``(kernel_shape, bias_shape, full_output_shape, input_axes, output_axes)``."""
    text = re.sub(r"\.\.\.", "0", equation)
    for pattern, left in (
        ("([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)$", False),
        ("0([a-zA-Z]+),([a-zA-Z]+)->0([a-zA-Z]+)$", True),
        ("([a-zA-Z]{2,})0,([a-zA-Z]+)->([a-zA-Z]+)0$", False),
    ):
        match = re.match(pattern, text)
        if match:
            return _analyze(match.groups(), bias_axes, tuple(input_shape), output_shape, left)
    raise ValueError(
        f"Invalid einsum equation '{equation}'. Equations must be in the form "
        "[X],[Y]->[Z], ...[X],[Y]->...[Z], or [X]...,[Y]->[Z]...."
    )


def _analyze(specs, bias_axes, input_shape, output_shape, left_elided):
    input_spec, weight_spec, output_spec = specs
    elided = len(input_shape) - len(input_spec)
    output_shape = [output_shape] if isinstance(output_shape, int) else list(output_shape)
    output_shape.insert(0, input_shape[0])
    if elided > 0 and left_elided:
        for i in range(1, elided):
            output_shape.insert(1, input_shape[i])
    elif elided > 0:
        output_shape.extend(input_shape[len(input_shape) - elided :])
    if left_elided:
        input_map = {d: i + elided - len(input_shape) for i, d in enumerate(input_spec)}
        output_map = {d: i + elided for i, d in enumerate(output_spec)}
    else:
        input_map = {d: i for i, d in enumerate(input_spec)}
        output_map = {d: i for i, d in enumerate(output_spec)}
    for d in input_spec:
        if d in output_map:
            out_dim, in_dim = output_shape[output_map[d]], input_shape[input_map[d]]
            if out_dim is not None and out_dim != in_dim:
                raise ValueError(
                    f"Input shape and output shape do not match at shared dimension '{d}'. "
                    f"Input shape is {in_dim}, and output shape is {out_dim}."
                )
    for d in output_spec:
        if d not in input_spec and d not in weight_spec:
            raise ValueError(
                f"Dimension '{d}' of the output spec '{output_spec}' is in neither the input "
                f"spec '{input_spec}' nor the weight spec '{weight_spec}'."
            )
    weight_shape, input_axes, output_axes = [], [], []
    for i, d in enumerate(weight_spec):
        if d in output_map:
            weight_shape.append(output_shape[output_map[d]])
            output_axes.append(i)
        elif d in input_map:
            weight_shape.append(input_shape[input_map[d]])
            input_axes.append(i)
        else:
            raise ValueError(
                f"Weight dimension '{d}' has no match in the input spec '{input_spec}' or "
                f"the output spec '{output_spec}'."
            )
    bias_shape = None
    if bias_axes is not None:
        offset = elided if left_elided else 0
        sizes = {d: output_shape[i + offset] for i, d in enumerate(output_spec)}
        for d in bias_axes:
            if d not in output_spec:
                raise ValueError(
                    f"Bias dimension '{d}' was requested, but is not part of the output "
                    f"spec '{output_spec}'."
                )
        first = min(output_spec.find(d) for d in bias_axes)
        bias_shape = [sizes[d] if d in bias_axes else 1 for d in output_spec[first:]]
        if not left_elided:
            bias_shape.extend([1] * elided)
    return weight_shape, bias_shape, output_shape, input_axes, output_axes


def _quantization_specs(equation, ndim):
    labels = string.ascii_letters
    text = re.sub(r"\.\.\.", "0", equation)
    match = re.match("([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)", text)
    if match is not None:
        return match.groups()
    for pattern, left in (
        ("0([a-zA-Z]+),([a-zA-Z]+)->0([a-zA-Z]+)", True),
        ("([a-zA-Z]{2,})0,([a-zA-Z]+)->([a-zA-Z]+)0", False),
    ):
        match = re.match(pattern, text)
        if match is None:
            continue
        input_spec, weight_spec, output_spec = match.groups()
        free = sorted(set(labels) - set(input_spec) - set(weight_spec) - set(output_spec))
        for i in range(ndim - len(input_spec)):
            if left:
                input_spec, output_spec = free[i] + input_spec, free[i] + output_spec
            else:
                input_spec, output_spec = input_spec + free[i], output_spec + free[i]
        return input_spec, weight_spec, output_spec
    raise ValueError(
        f"Invalid einsum equation '{equation}'. Equations must be in the form [X],[Y]->[Z], "
        "...[X],[Y]->...[Z], or [X]...,[Y]->[Z]...."
    )


def analyze_quantization_info(equation, ndim):
    """The axes Keras 3.15 reduces, transposes, expands and squeezes to quantize the
    inputs and the kernel of an EinsumDense per output channel, and the equation of the
    inputs' gradient (the same derivation, so the scales have Keras's shapes)."""
    input_spec, weight_spec, output_spec = _quantization_specs(equation, ndim)
    input_reduced = [i for i, c in enumerate(input_spec) if c not in output_spec]
    weight_reduced = [i for i, c in enumerate(weight_spec) if c not in output_spec]
    input_expand = [i for i, c in enumerate(output_spec) if c not in input_spec]
    weight_expand = [i for i, c in enumerate(output_spec) if c not in weight_spec]
    input_transpose = [input_spec.find(c) for c in output_spec if c in input_spec]
    weight_transpose = [weight_spec.find(c) for c in output_spec if c in weight_spec]
    input_squeeze, weight_squeeze = [], []
    # As Keras: each reduced axis takes the place of an expanded one; when none is left it
    # is squeezed and inserted where the previous one went (first: where Keras's earlier
    # loop left its index, the output position of the kernel's last label).
    index = output_spec.find(weight_spec[-1])
    for original in input_reduced:
        if input_expand:
            index = input_expand.pop(0)
        else:
            input_squeeze.append(original)
        input_transpose.insert(index, original)
    for original in weight_reduced:
        if weight_expand:
            index = weight_expand.pop(0)
        else:
            weight_squeeze.append(original)
        weight_transpose.insert(index, original)
    gradient_equation = f"{output_spec},{weight_spec}->{input_spec}"
    weight_reverse = [i for (_, i) in sorted((v, i) for (i, v) in enumerate(weight_transpose))]
    return (
        input_reduced,
        weight_reduced,
        input_transpose,
        weight_transpose,
        input_expand,
        weight_expand,
        input_squeeze,
        weight_squeeze,
        gradient_equation,
        weight_reverse,
    )
