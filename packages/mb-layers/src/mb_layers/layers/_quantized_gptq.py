"""GPTQ and AWQ on the layers with a weight matrix (Dense, EinsumDense), as Keras 3.15.

``layer.quantize("gptq" | "awq", config=...)`` only creates the variables (the layer
keeps computing with its float ``_kernel``, "uncalibrated"); ``model.quantize`` then
runs calibration data through the model, block by block, and a `GPTQCalibrator` or
`AWQCalibrator` per layer turns what it saw into the quantized kernel, deleting the
float one.

Variables (names, dtypes, shapes as Keras writes them): ``quantized_kernel`` (uint8,
``(columns, rows)``, two 4-bit values per byte along the columns when 4-bit),
``kernel_scale`` and ``kernel_zero`` (``(columns, groups)``; uint8 zero points, named
``zero_point`` on EinsumDense), AWQ's ``awq_scales`` ``(rows,)`` and ``g_idx``
``(rows,)``, the float group of each input row. ``rows``/``columns`` flatten a 3-D
EinsumDense kernel as Keras does: the largest axis is the model dimension.
"""

import functools
import math

from mb_layers._dtype_policy import AWQDTypePolicy, DTypePolicyMap, GPTQDTypePolicy
from mb_layers._ops import ops
from mb_layers._quantization_config import AWQConfig, GPTQConfig
from mb_ops.quantizers import (
    awq_quantize_matrix,
    compute_quantization_parameters,
    damped_inverse_hessian,
    dequantize_with_sz_map,
    gptq_quantize_matrix,
    pack_int4,
    unpack_int4,
    update_activation_magnitudes,
    update_hessian,
)

CALIBRATED_MODES = ("gptq", "awq")

_CONFIGS = {"gptq": (GPTQConfig, GPTQDTypePolicy), "awq": (AWQConfig, AWQDTypePolicy)}


def bits_and_group(layer, config, mode):
    """``(weight_bits, group_size)`` of `layer`: from `config` (at ``quantize``), else
    from its `GPTQDTypePolicy` / `AWQDTypePolicy` (a layer loaded from a file)."""
    config_class, policy_class = _CONFIGS[mode]
    if isinstance(config, config_class):
        return config.weight_bits, config.group_size
    policy = layer.dtype_policy
    if isinstance(policy, DTypePolicyMap):
        policy = policy[getattr(layer, "path", None) or layer.name]
    if isinstance(policy, policy_class):
        return policy.weight_bits, policy.group_size
    raise ValueError(
        f"For {mode.upper()} quantization of layer '{layer.name}', the weight bits and the "
        f"group size come from a `{config_class.__name__}` (`config=`) or a "
        f"`{policy_class.__name__}` (e.g. dtype='{mode}/4/128_from_float32'). Received: "
        f"config={type(config).__name__}, dtype_policy={type(policy).__name__}."
    )


def flat_kernel_shape(kernel_shape, mode="gptq"):
    """``(rows, columns)``: the kernel as an ``(inputs, outputs)`` matrix. A 3-D kernel
    ``(model_dim, heads, head_dim)`` (a query/key/value projection) gives
    ``(model_dim, heads * head_dim)``; ``(heads, head_dim, model_dim)`` (an attention
    output) gives ``(heads * head_dim, model_dim)``; the model dimension is the largest."""
    shape = [int(d) for d in kernel_shape]
    if len(shape) == 2:
        return shape[0], shape[1]
    if len(shape) == 3:
        if shape.index(max(shape)) == 0:
            return shape[0], shape[1] * shape[2]
        return shape[0] * shape[1], shape[2]
    raise ValueError(
        f"{mode.upper()} quantization supports 2-D and 3-D kernels. Received a kernel of "
        f"shape {tuple(shape)}; leave this layer out with `filters=`."
    )


def build(layer, kernel_shape, mode, config, zero_name="kernel_zero"):
    """Creates the GPTQ / AWQ variables of `layer` (left uncalibrated)."""
    weight_bits, group_size = bits_and_group(layer, config, mode)
    rows, columns = flat_kernel_shape(kernel_shape, mode)
    layer.original_kernel_shape = tuple(int(d) for d in kernel_shape)
    layer._calibrated_bits = weight_bits
    layer._calibrated_columns = columns
    setattr(layer, f"is_{mode}_calibrated", False)
    packed = (columns + 1) // 2 if weight_bits == 4 else columns
    layer.quantized_kernel = layer.add_weight(
        name="kernel", shape=(packed, rows), initializer="zeros", dtype="uint8", trainable=False
    )
    groups = 1 if group_size == -1 else math.ceil(rows / group_size)
    layer.kernel_scale = layer.add_weight(
        name="kernel_scale", shape=(columns, groups), initializer="ones", trainable=False
    )
    layer.kernel_zero = layer.add_weight(
        name=zero_name, shape=(columns, groups), initializer="zeros", dtype="uint8", trainable=False
    )
    if mode == "awq":
        layer.awq_scales = layer.add_weight(
            name="awq_scales", shape=(rows,), initializer="ones", trainable=False
        )
    layer.g_idx = layer.add_weight(
        name="g_idx", shape=(rows,), initializer="zeros", dtype="float32", trainable=False
    )


def is_calibrated(layer):
    mode = layer.quantization_mode
    return mode in CALIBRATED_MODES and bool(getattr(layer, f"is_{mode}_calibrated", False))


def check_file(layer, store):
    """Refuses a GPTQ / AWQ layer's variables without zero points, as Keras 3.15 writes
    them: its files leave ``kernel_zero`` out, so the kernel cannot be restored (Keras
    cannot load them either)."""
    mode = layer.quantization_mode
    if mode not in CALIBRATED_MODES or layer.lora_enabled:
        return
    expected = 5 + (mode == "awq") - (layer.bias is None)
    if len(store) == expected - 1:
        raise ValueError(
            f"Layer '{layer.name}' ({mode.upper()}) expected {expected} variables, but the "
            f"file holds {len(store)}: it lacks the zero points (`kernel_zero`), which Keras "
            f"3.15 leaves out when it saves a {mode.upper()} layer, so the quantized kernel "
            "cannot be restored from it (Keras cannot load it either). Save the float model "
            f"and quantize it after loading, or save the {mode.upper()} model from mb."
        )


def mark_loaded(layer):
    """A GPTQ / AWQ layer whose variables came from a file is calibrated (as Keras)."""
    mode = layer.quantization_mode
    if mode in CALIBRATED_MODES:
        setattr(layer, f"is_{mode}_calibrated", True)


def integer_kernel(layer):
    """The ``(columns, rows)`` levels of a calibrated layer (``layer.kernel``, as Keras)."""
    if layer._calibrated_bits == 4:
        return unpack_int4(
            layer.quantized_kernel, orig_len=layer._calibrated_columns, axis=0, dtype="uint8"
        )
    return layer.quantized_kernel


def float_kernel(layer):
    """The kernel the layer computes with: the float one until calibrated, then the
    dequantized levels (divided by the AWQ scales), in the kernel's shape."""
    if not is_calibrated(layer):
        return layer._kernel
    weights = dequantize_with_sz_map(
        integer_kernel(layer), layer.kernel_scale, layer.kernel_zero, layer.g_idx
    )
    weights = ops.transpose(weights)
    if layer.quantization_mode == "awq":
        weights = ops.divide(weights, ops.expand_dims(layer.awq_scales, -1))
    weights = ops.reshape(weights, layer.original_kernel_shape)
    return ops.cast(weights, layer.compute_dtype)


def calibrated_call(layer, inputs, product):
    """``activation(product(inputs, kernel) + bias)`` with `float_kernel`."""
    x = product(inputs, float_kernel(layer))
    if layer.bias is not None:
        x = ops.add(x, layer.bias)
    return layer.activation(x) if layer.activation is not None else x


# ----- calibration: one object per layer ------------------------------------------------


class _Calibrator:
    mode = ""

    def __init__(self, layer, config):
        if layer.quantization_mode != self.mode or is_calibrated(layer):
            raise ValueError(
                f"Layer '{layer.name}' must be quantized with mode='{self.mode}' and not yet "
                f"calibrated. Received: quantization_mode={layer.quantization_mode!r}, "
                f"calibrated={is_calibrated(layer)}."
            )
        if getattr(layer, "_kernel", None) is None:
            raise TypeError(
                f"Unsupported layer type for {self.mode.upper()}: {type(layer).__name__} "
                "(Dense and EinsumDense are supported)."
            )
        self.layer = layer
        self.config = config
        self.rows, self.columns = flat_kernel_shape(layer._kernel.shape, self.mode)

    def observe(self, inputs):
        """Takes in the layer's inputs of one calibration batch."""
        raise NotImplementedError

    def _weights_transpose(self):
        return ops.transpose(ops.reshape(self.layer._kernel, (self.rows, self.columns)))

    def _store(self, levels, scale, zero, g_idx, **extra):
        layer = self.layer
        levels = ops.cast(levels, "uint8")
        if layer._calibrated_bits == 4:
            levels = pack_int4(levels, axis=0, dtype="uint8")[0]
        del layer._kernel
        layer.quantized_kernel.assign(levels)
        layer.kernel_scale.assign(ops.cast(scale, layer.kernel_scale.dtype))
        layer.kernel_zero.assign(ops.cast(zero, "uint8"))
        layer.g_idx.assign(ops.cast(g_idx, "float32"))
        for name, value in extra.items():
            getattr(layer, name).assign(ops.cast(value, getattr(layer, name).dtype))
        setattr(layer, f"is_{self.mode}_calibrated", True)


class GPTQCalibrator(_Calibrator):
    """Accumulates ``H = 2 X^T X`` of the layer's inputs, then quantizes its kernel
    column by column, pushing each column's error onto the columns not yet done."""

    mode = "gptq"

    def __init__(self, layer, config):
        super().__init__(layer, config)
        self.hessian = ops.zeros((self.rows, self.rows), dtype="float32")
        self.num_samples = 0

    def observe(self, inputs):
        rows = ops.reshape(inputs, (-1, self.rows))
        self.hessian, self.num_samples = update_hessian(self.hessian, self.num_samples, rows)

    def quantize(self, blocksize=128):
        config = self.config
        inverse, damped = damped_inverse_hessian(self.hessian, config.hessian_damping)
        find = functools.partial(
            compute_quantization_parameters,
            bits=config.weight_bits,
            symmetric=config.symmetric,
            per_channel=config.per_channel,
            group_size=config.group_size,
            compute_dtype=self.layer.variable_dtype,
        )
        levels, scale, zero, g_idx = gptq_quantize_matrix(
            self._weights_transpose(),
            inverse,
            blocksize=blocksize,
            group_size=config.group_size,
            activation_order=config.activation_order,
            order_metric=ops.diagonal(damped),
            compute_scale_zero=find,
        )
        self._store(levels, scale, zero, g_idx)


class AWQCalibrator(_Calibrator):
    """Keeps the largest ``|x|`` of each input, then searches the per-input scales that
    shield the weights of large inputs and quantizes the scaled kernel to 4 bits."""

    mode = "awq"

    def __init__(self, layer, config):
        super().__init__(layer, config)
        self.magnitudes = ops.zeros((self.rows,), dtype="float32")

    def observe(self, inputs):
        rows = ops.reshape(inputs, (-1, self.rows))
        self.magnitudes, _ = update_activation_magnitudes(self.magnitudes, rows)

    def quantize(self):
        levels, scale, zero, awq_scales, g_idx = awq_quantize_matrix(
            self._weights_transpose(),
            self.magnitudes,
            num_grid_points=self.config.num_grid_points,
            group_size=self.config.group_size,
        )
        self._store(levels, scale, zero, g_idx, awq_scales=awq_scales)


CALIBRATORS = {"gptq": GPTQCalibrator, "awq": AWQCalibrator}
