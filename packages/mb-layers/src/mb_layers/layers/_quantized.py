"""Quantized weights and LoRA for the layers with a weight matrix (Dense, EinsumDense,
Embedding), written once as Keras 3.15 does them: same variables, names, dtypes,
shapes, order in files and numbers.

A layer keeps its float matrix in ``_<name>`` (``_kernel``, ``_embeddings``) and shows it
through a ``<name>`` property. Quantized, ``_<name>`` holds int8 values (int4: two per
byte, packed along the last axis) next to ``<name>_scale`` (and, for int4 sub-channel
quantization, ``<name>_zero`` and ``g_idx``). ``reduce_axis`` is the axis the scales
reduce: 0 for a ``(input_dim, units)`` kernel (one scale per output), -1 for an
``(input_dim, output_dim)`` embedding table (one scale per row).
"""

import math

from mb_layers import initializers
from mb_layers._ops import ops
from mb_layers._quantization_config import (
    Int4QuantizationConfig,
    QuantizationConfig,
    block_size_for_layer,
)
from mb_layers._quantization_config import deserialize as deserialize_quantizer
from mb_layers._quantization_config import serialize as serialize_quantizer
from mb_ops import Variable, dtypes
from mb_ops.quantizers import (
    AbsMaxQuantizer,
    abs_max_quantize,
    abs_max_quantize_grouped_with_zero_point,
    dequantize_with_sz_map,
    int8_matmul,
    pack_int4,
    unpack_int4,
)

# ----- config entries ---------------------------------------------------------------


def serialize_config(config):
    """The ``quantization_config`` entry of a layer config."""
    return None if config is None else serialize_quantizer(config)


def deserialize_config_entry(config):
    """A layer config with its ``quantization_config`` entry decoded."""
    config = dict(config)
    entry = config.get("quantization_config")
    if isinstance(entry, dict):
        config["quantization_config"] = deserialize_quantizer(entry)
    return config


def lora_config(layer):
    """``lora_rank`` / ``lora_alpha`` entries (only when set, as Keras writes them)."""
    if layer.lora_rank:
        return {"lora_rank": layer.lora_rank, "lora_alpha": layer.lora_alpha}
    return {}


# ----- LoRA ---------------------------------------------------------------------------


def lora_delta(layer, name):
    """``lora_alpha / lora_rank * lora_<name>_a @ lora_<name>_b``."""
    a = getattr(layer, f"lora_{name}_a")
    b = getattr(layer, f"lora_{name}_b")
    return ops.multiply(layer.lora_alpha / layer.lora_rank, ops.matmul(a, b))


def enable_lora(layer, name, shape, rank, lora_alpha, a_initializer, b_initializer):
    """Adds ``lora_<name>_a`` ``(*shape[:-1], rank)`` and ``lora_<name>_b``
    ``(rank, shape[-1])`` (float32, trainable) and freezes ``_<name>``."""
    if getattr(layer, f"{name}_constraint", None):
        raise ValueError(
            f"Lora is incompatible with {name} constraints. In order to enable lora on this "
            f"layer, remove the `{name}_constraint` argument."
        )
    if not layer.built:
        raise ValueError("Cannot enable lora on a layer that isn't yet built.")
    if layer.lora_enabled:
        raise ValueError("lora is already enabled. This can only be done once per layer.")
    if layer.quantization_mode == "gptq":
        raise NotImplementedError("lora is not currently supported with GPTQ quantization.")
    if not isinstance(rank, int) or isinstance(rank, bool) or rank <= 0:
        raise ValueError(f"The LoRA rank must be a positive int. Received: rank={rank!r}")
    regularizer = getattr(layer, f"{name}_regularizer", None)
    # float32, whatever the layer's dtype: low-rank updates underflow in float16.
    a = layer.add_weight(
        name=f"lora_{name}_a",
        shape=(*tuple(shape)[:-1], rank),
        initializer=initializers.get(a_initializer),
        dtype="float32",
        regularizer=regularizer,
    )
    b = layer.add_weight(
        name=f"lora_{name}_b",
        shape=(rank, tuple(shape)[-1]),
        initializer=initializers.get(b_initializer),
        dtype="float32",
        regularizer=regularizer,
    )
    setattr(layer, f"lora_{name}_a", a)
    setattr(layer, f"lora_{name}_b", b)
    getattr(layer, f"_{name}").trainable = False
    layer.lora_enabled = True
    layer.lora_rank = rank
    layer.lora_alpha = lora_alpha if lora_alpha is not None else rank


def add_lora(layer, inputs, x, name, first=None):
    """``x + lora_alpha / lora_rank * (inputs @ a) @ b`` when LoRA is on (``first`` maps
    the inputs through ``a``: a matmul by default, a row lookup for embeddings)."""
    if not layer.lora_enabled:
        return x
    a = getattr(layer, f"lora_{name}_a")
    b = getattr(layer, f"lora_{name}_b")
    low = ops.matmul(inputs, a) if first is None else first(a)
    low = ops.matmul(low, b)
    x = ops.add(x, ops.multiply(layer.lora_alpha / layer.lora_rank, low))
    return ops.cast(x, layer.compute_dtype)


# ----- building quantized variables ---------------------------------------------------


def build_int8_matrix(layer, name, shape, scale_shape, config, inputs_quantizer=True):
    """int8 ``_<name>`` and float ``<name>_scale`` (and the inputs' quantizer)."""
    if inputs_quantizer:
        layer.inputs_quantizer = QuantizationConfig.activation_quantizer_or_default(
            config, AbsMaxQuantizer()
        )
    setattr(
        layer,
        f"_{name}",
        layer.add_weight(
            name=name, shape=tuple(shape), initializer="zeros", dtype="int8", trainable=False
        ),
    )
    setattr(
        layer,
        f"{name}_scale",
        layer.add_weight(
            name=f"{name}_scale", shape=tuple(scale_shape), initializer="ones", trainable=False
        ),
    )


def add_int4_groups(layer, name, scale_shape, reduced, block_size):
    """The variables of a sub-channel int4 matrix `name` besides its values and scales:
    its zero points (shaped as the scales) and ``g_idx``, the group of each of its
    `reduced` rows (groups of `block_size`)."""
    setattr(
        layer,
        f"{name}_zero",
        layer.add_weight(
            name=f"{name}_zero",
            shape=scale_shape,
            initializer="zeros",
            dtype="int8",
            trainable=False,
        ),
    )
    layer.g_idx = layer.add_weight(
        name="g_idx", shape=(reduced,), initializer="zeros", dtype="float32", trainable=False
    )
    layer.g_idx.assign(ops.floor_divide(ops.arange(reduced, dtype="float32"), block_size))


def build_int4_matrix(layer, name, shape, config, reduce_axis, inputs_quantizer=True):
    """Packed int4 ``_<name>`` ``(rows, ceil(cols / 2))``, its scales, and for sub-channel
    quantization int8 zero points and the float32 group index ``g_idx``."""
    if inputs_quantizer:
        layer.inputs_quantizer = QuantizationConfig.activation_quantizer_or_default(config, None)
    rows, cols = shape
    setattr(
        layer,
        f"_{name}",
        layer.add_weight(
            name=name,
            shape=(rows, (cols + 1) // 2),
            initializer="zeros",
            dtype="int8",
            trainable=False,
        ),
    )
    block_size = block_size_for_layer(layer, config)
    layer._int4_block_size = block_size
    grouped = block_size is not None and block_size > 0
    if reduce_axis == 0:
        # Groups of input rows; one scale per (group, output column).
        kept, reduced = cols, rows
        scale_shape = (math.ceil(reduced / block_size), kept) if grouped else (kept,)
    else:
        # Groups of output columns; one scale per (row, group).
        kept, reduced = rows, cols
        scale_shape = (kept, math.ceil(reduced / block_size)) if grouped else (kept,)
    setattr(
        layer,
        f"{name}_scale",
        layer.add_weight(
            name=f"{name}_scale", shape=scale_shape, initializer="ones", trainable=False
        ),
    )
    if grouped:
        add_int4_groups(layer, name, scale_shape, reduced, block_size)
    layer._orig_input_dim = rows
    layer._orig_output_dim = cols


# ----- quantizing a float matrix --------------------------------------------------------


def _int4_grouped(matrix, block_size, reduce_axis):
    """The sub-channel int4 values, scales and zero points of `matrix`, in groups of
    `block_size` along `reduce_axis` (0, or the last axis)."""
    if reduce_axis == 0:
        return abs_max_quantize_grouped_with_zero_point(
            matrix, block_size=block_size, to_numpy=True
        )
    value_t, scale_t, zero_t = abs_max_quantize_grouped_with_zero_point(
        ops.transpose(matrix),
        block_size=block_size,
        value_range=(-8, 7),
        dtype="int8",
        to_numpy=True,
    )
    return tuple(ops.transpose(t) for t in (value_t, scale_t, zero_t))


def quantize_matrix(layer, name, mode, config, reduce_axis, inputs_quantizer=True):
    """Replaces the float ``_<name>`` by its `mode` quantization (Keras's numbers)."""
    float_value = getattr(layer, f"_{name}")
    shape = tuple(float_value.shape)
    zero = None
    if mode == "int8":
        quantizer = QuantizationConfig.weight_quantizer_or_default(
            config, AbsMaxQuantizer(axis=reduce_axis)
        )
        value, scale = quantizer(float_value, to_numpy=True)
        scale = ops.squeeze(scale, axis=reduce_axis)
    elif mode == "int4":
        block_size = config.block_size if isinstance(config, Int4QuantizationConfig) else None
        if block_size is None or block_size == -1:
            quantizer = QuantizationConfig.weight_quantizer_or_default(
                config, AbsMaxQuantizer(axis=reduce_axis, value_range=(-8, 7), output_dtype="int8")
            )
            value, scale = quantizer(float_value, to_numpy=True)
            scale = ops.squeeze(scale, axis=reduce_axis)
        else:
            value, scale, zero = _int4_grouped(float_value, block_size, reduce_axis)
        value = pack_int4(value, axis=-1)[0]
    else:
        raise layer._quantization_mode_error(mode)
    delattr(layer, f"_{name}")
    layer.quantized_build(shape, mode, config)
    getattr(layer, f"_{name}").assign(value)
    getattr(layer, f"{name}_scale").assign(scale)
    if zero is not None:
        getattr(layer, f"{name}_zero").assign(zero)


def dequantized_matrix(layer, name, reduce_axis):
    """The float matrix a quantized ``_<name>`` stands for, in the compute dtype."""
    value = getattr(layer, f"_{name}")
    scale = getattr(layer, f"{name}_scale")
    compute = layer.compute_dtype
    if layer.quantization_mode == "int4":
        value = unpack_int4(value, layer._orig_output_dim, axis=-1)
        block_size = getattr(layer, "_int4_block_size", None)
        if block_size is not None and block_size != -1:
            zero = getattr(layer, f"{name}_zero")
            if reduce_axis == 0:
                out = dequantize_with_sz_map(value, scale, zero, layer.g_idx, group_axis=0)
            else:
                out = dequantize_with_sz_map(
                    ops.cast(value, compute), scale, zero, layer.g_idx, group_axis=-1
                )
            return ops.cast(out, compute)
    if reduce_axis != 0:
        scale = ops.expand_dims(scale, axis=-1)
    return ops.divide(ops.cast(value, compute), scale)


def merged_matrix(layer, name, reduce_axis):
    """``(value, scale, zero)`` that files hold: with LoRA on, the update merged in (and,
    quantized, re-quantized from the dequantized sum), as Keras saves it."""
    mode = layer.quantization_mode
    if mode in (None, "gptq", "awq"):
        return getattr(layer, name), None, None
    value = getattr(layer, f"_{name}")
    scale = getattr(layer, f"{name}_scale")
    zero = getattr(layer, f"{name}_zero", None)
    if not layer.lora_enabled:
        return value, scale, zero
    if mode not in ("int8", "int4"):
        raise ValueError(f"Unsupported quantization mode: {mode}")
    merged = ops.add(dequantized_matrix(layer, name, reduce_axis), lora_delta(layer, name))
    block_size = getattr(layer, "_int4_block_size", None)
    zero = None
    if mode == "int4" and block_size is not None and block_size != -1:
        value, scale, zero = _int4_grouped(merged, block_size, reduce_axis)
    else:
        value_range = (-8, 7) if mode == "int4" else (-127, 127)
        value, scale = abs_max_quantize(
            merged, axis=reduce_axis, value_range=value_range, dtype="int8", to_numpy=True
        )
        scale = ops.squeeze(scale, axis=reduce_axis)
    if mode == "int4":
        value = pack_int4(value, axis=-1)[0]
    return value, scale, zero


# ----- files ------------------------------------------------------------------------------


def _numpy(value):
    if isinstance(value, Variable):
        return value.numpy()
    return ops.convert_to_numpy(value)


def _present(layer, name, main):
    if name == main:
        return True
    if name == "bias":
        return getattr(layer, "bias", None) is not None
    return isinstance(getattr(layer, name, None), Variable)


def uses_spec(layer):
    """Whether files hold the layer's variables in its ``variable_serialization_spec``
    order (quantized or LoRA); else the generic order, which is the same for the float
    layer and keeps the variables subclasses add."""
    return layer.quantization_mode is not None or layer.lora_enabled


def generic_layout(layer):
    """Whether `layer`'s variables load in the generic order (neither quantized nor
    LoRA): its own ``load_own_variables`` then does what the stock one does."""
    return not uses_spec(layer)


def save_kernel_layer(layer, store, name, merged):
    """Writes the variables of ``variable_serialization_spec[mode]`` as ``"0"``, ``"1"``, ..."""
    mode = layer.quantization_mode
    spec = layer.variable_serialization_spec
    if mode not in spec:
        raise layer._quantization_mode_error(mode)
    value, scale, zero = merged
    index = 0
    for entry in spec[mode]:
        if entry == name:
            out = value
        elif entry == f"{name}_zero" and mode in ("int4", "int8"):
            if zero is None:
                continue
            out = zero
        elif entry == f"{name}_scale" and mode in ("int4", "int8"):
            out = scale
        elif _present(layer, entry, name):
            out = getattr(layer, entry)
        else:
            continue
        store[str(index)] = _numpy(out)
        index += 1


def load_kernel_layer(layer, store, name):
    """Assigns the variables of ``variable_serialization_spec[mode]`` from `store`."""
    mode = layer.quantization_mode
    spec = layer.variable_serialization_spec
    if mode not in spec:
        raise layer._quantization_mode_error(mode)
    entries = [entry for entry in spec[mode] if _present(layer, entry, name)]
    if not layer.lora_enabled and len(store) != len(entries):
        raise ValueError(
            f"Layer '{layer.name}' expected {len(entries)} variables ({', '.join(entries)}"
            f"{', quantization mode ' + mode if mode else ''}), but received {len(store)} "
            "variables during loading. Was the file saved from a model quantized the same way?"
        )
    for index, entry in enumerate(entries):
        target = getattr(layer, f"_{name}") if entry == name else getattr(layer, entry)
        target.assign(store[str(index)])
    if layer.lora_enabled:
        for part in ("a", "b"):
            variable = getattr(layer, f"lora_{name}_{part}")
            variable.assign(ops.zeros(variable.shape, dtype=variable.dtype))


# ----- quantized products ---------------------------------------------------------------


def _quantized_product(x_q, kernel, compute_dtype):
    if dtypes.standardize_dtype(x_q.dtype) == "int8" and (
        dtypes.standardize_dtype(kernel.dtype) == "int8"
    ):
        return ops.cast(int8_matmul(x_q, kernel), compute_dtype)
    return ops.cast(ops.matmul(x_q, ops.cast(kernel, compute_dtype)), compute_dtype)


def _per_channel_matmul(layer, inputs, unpack=None):
    """``inputs @ kernel`` with the integer kernel (`unpack` of it, if given) and its
    per-channel scales: the (quantized) inputs times it in int32 where both are int8,
    then divided by both scales; the inputs' gradient uses the dequantized kernel."""
    compute = layer.compute_dtype
    quantizer = layer.inputs_quantizer

    @ops.custom_gradient
    def product(inputs, kernel, kernel_scale):
        if unpack is not None:
            kernel = unpack(kernel)

        def grad_fn(*args, upstream=None):
            if upstream is None:
                (upstream,) = args
            float_kernel = ops.divide(ops.cast(kernel, compute), kernel_scale)
            return ops.matmul(upstream, ops.transpose(float_kernel)), None, None

        output_scale = kernel_scale
        if quantizer:
            inputs, inputs_scale = quantizer(inputs, axis=-1)
            output_scale = ops.multiply(output_scale, inputs_scale)
        x = _quantized_product(inputs, kernel, compute)
        return ops.divide(x, output_scale), grad_fn

    return product(
        inputs, ops.convert_to_tensor(layer._kernel), ops.convert_to_tensor(layer.kernel_scale)
    )


def int8_matmul_call(layer, inputs):
    """``inputs @ kernel`` of an int8 Dense: int8 inputs times the int8 kernel in int32,
    then divided by both scales; the inputs' gradient uses the dequantized kernel."""
    return _per_channel_matmul(layer, inputs)


def int4_matmul_call(layer, inputs):
    """``inputs @ kernel`` of an int4 Dense (per-channel: as int8 on the unpacked kernel;
    sub-channel: the dequantized kernel)."""
    compute = layer.compute_dtype
    block_size = getattr(layer, "_int4_block_size", None)
    out_dim = layer._orig_output_dim
    if block_size is None or block_size == -1:
        return _per_channel_matmul(
            layer, inputs, unpack=lambda kernel: unpack_int4(kernel, out_dim, axis=-1)
        )

    @ops.custom_gradient
    def sub_channel(inputs, kernel, kernel_scale, kernel_zero, g_idx):
        unpacked = unpack_int4(kernel, out_dim, axis=-1)
        float_kernel = ops.cast(
            dequantize_with_sz_map(unpacked, kernel_scale, kernel_zero, g_idx, group_axis=0),
            compute,
        )

        def grad_fn(*args, upstream=None):
            if upstream is None:
                (upstream,) = args
            return ops.matmul(upstream, ops.transpose(float_kernel)), None, None, None, None

        return ops.matmul(inputs, float_kernel), grad_fn

    return sub_channel(
        inputs,
        ops.convert_to_tensor(layer._kernel),
        ops.convert_to_tensor(layer.kernel_scale),
        ops.convert_to_tensor(layer.kernel_zero),
        ops.convert_to_tensor(layer.g_idx),
    )
