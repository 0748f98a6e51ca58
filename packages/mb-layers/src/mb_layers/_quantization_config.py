"""Quantization configs (``keras.quantizers.*Config``) and quantizer (de)serialization.

A config says how `Layer.quantize` quantizes: which quantizer makes the weights and
which quantizes the inputs (int8, int4), the int4 block size, or the GPTQ / AWQ
calibration settings. Configs serialize into layer configs as Keras 3.15 writes them.
"""

from mb_layers import _serialization
from mb_layers._dtype_policy import QUANTIZATION_MODES, DTypePolicyMap, Int4DTypePolicy
from mb_ops.quantizers import AbsMaxQuantizer, Quantizer


def _serialize_quantizer(obj):
    if obj is None:
        return None
    return serialize(obj)


def _deserialize_quantizer(config):
    if config is None:
        return None
    return deserialize(config)


class QuantizationConfig:
    """The base of quantization configs: a weight quantizer and an activation quantizer.

    Subclasses give the `mode` (``"int8"``, ``"int4"``, ...).

    Args:
        weight_quantizer: quantizes the weights (None: the layer's default).
        activation_quantizer: quantizes the inputs (None: weight-only quantization).
    """

    def __init__(self, weight_quantizer=None, activation_quantizer=None):
        self.weight_quantizer = weight_quantizer
        self.activation_quantizer = activation_quantizer

    @property
    def mode(self):
        raise NotImplementedError(
            "QuantizationConfig is a base class: use Int8QuantizationConfig, "
            "Int4QuantizationConfig, Float8QuantizationConfig, GPTQConfig or AWQConfig."
        )

    def get_config(self):
        return {
            "weight_quantizer": _serialize_quantizer(self.weight_quantizer),
            "activation_quantizer": _serialize_quantizer(self.activation_quantizer),
        }

    @classmethod
    def from_config(cls, config):
        return cls(
            weight_quantizer=_deserialize_quantizer(config.get("weight_quantizer")),
            activation_quantizer=_deserialize_quantizer(config.get("activation_quantizer")),
        )

    @staticmethod
    def weight_quantizer_or_default(config, default):
        """The config's weight quantizer, else `default`."""
        if config is not None and config.weight_quantizer is not None:
            return config.weight_quantizer
        return default

    @staticmethod
    def activation_quantizer_or_default(config, default):
        """The config's activation quantizer (None included) when there is a config."""
        if config is not None:
            return config.activation_quantizer
        return default


class Int8QuantizationConfig(QuantizationConfig):
    """int8 weights (per output channel) and, by default, int8 inputs (per row).

    Args:
        weight_quantizer: a quantizer with ``output_dtype="int8"`` (None: abs-max
            along the reduced axes).
        activation_quantizer: ``"default"``: `AbsMaxQuantizer` on the last axis;
            None: weight-only.
    """

    def __init__(self, weight_quantizer=None, activation_quantizer="default"):
        if isinstance(activation_quantizer, str) and activation_quantizer == "default":
            activation_quantizer = AbsMaxQuantizer()
        super().__init__(weight_quantizer, activation_quantizer)
        if self.weight_quantizer is not None and self.weight_quantizer.output_dtype != "int8":
            raise ValueError(
                "Int8QuantizationConfig requires a weight_quantizer with output_dtype='int8'. "
                f"Received: output_dtype={self.weight_quantizer.output_dtype}"
            )

    @property
    def mode(self):
        return "int8"


class Int4QuantizationConfig(QuantizationConfig):
    """int4 weights (two per byte), weight-only by default.

    Args:
        weight_quantizer: a quantizer with ``value_range=(-8, 7)`` and
            ``output_dtype="int8"`` (per-channel only).
        activation_quantizer: ``"default"``: None (weight-only).
        block_size: rows per group of sub-channel quantization (asymmetric,
            with zero points); None or -1: one scale per output channel.
    """

    def __init__(self, weight_quantizer=None, activation_quantizer="default", block_size=128):
        if isinstance(activation_quantizer, str) and activation_quantizer == "default":
            activation_quantizer = None
        super().__init__(weight_quantizer, activation_quantizer)
        if block_size is not None and block_size != -1 and block_size <= 0:
            raise ValueError(
                "block_size must be None, -1, or a positive integer. "
                f"Received: block_size={block_size}"
            )
        self.block_size = block_size
        sub_channel = block_size is not None and block_size > 0
        if sub_channel and (
            self.weight_quantizer is not None or self.activation_quantizer is not None
        ):
            raise ValueError(
                "Int4 sub-channel quantization (block_size > 0) does not support custom "
                "quantizers. Either set block_size to None or -1 for per-channel "
                "quantization, or remove the custom quantizer arguments. "
                f"Received: block_size={block_size}"
            )
        if self.weight_quantizer is not None:
            if tuple(self.weight_quantizer.value_range) != (-8, 7):
                raise ValueError(
                    "Int4QuantizationConfig requires a weight_quantizer with "
                    f"value_range=(-8, 7). Received: value_range="
                    f"{self.weight_quantizer.value_range}"
                )
            if self.weight_quantizer.output_dtype != "int8":
                raise ValueError(
                    "Int4QuantizationConfig requires a weight_quantizer with "
                    f"output_dtype='int8'. Received: output_dtype="
                    f"{self.weight_quantizer.output_dtype}"
                )

    @property
    def mode(self):
        return "int4"

    def get_config(self):
        return {**super().get_config(), "block_size": self.block_size}

    @classmethod
    def from_config(cls, config):
        return cls(
            weight_quantizer=_deserialize_quantizer(config.get("weight_quantizer")),
            activation_quantizer=_deserialize_quantizer(config.get("activation_quantizer")),
            # Files written before block_size existed were per-channel.
            block_size=config.get("block_size", None),
        )


class Float8QuantizationConfig(QuantizationConfig):
    """float8 training with delayed scaling (no custom quantizers)."""

    def __init__(self):
        super().__init__(None, None)

    @property
    def mode(self):
        return "float8"

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls()


def _check_calibration_args(num_samples, sequence_length, group_size, meaning):
    if num_samples <= 0:
        raise ValueError(f"num_samples must be a positive integer. Received: {num_samples}")
    if sequence_length <= 0:
        raise ValueError(f"sequence_length must be a positive integer. Received: {sequence_length}")
    if group_size < -1 or group_size == 0:
        raise ValueError(
            f"Invalid group_size. Supported values are -1 ({meaning}) or a positive "
            f"integer, but got {group_size}."
        )


class GPTQConfig(QuantizationConfig):
    """Settings of GPTQ post-training quantization (calibrated on `dataset`).

    Args:
        dataset: calibration samples (strings, token arrays, or an iterable).
        tokenizer: turns strings into token ids (a callable or an object with
            ``tokenize``).
        weight_bits: 2, 3, 4 or 8.
        num_samples: calibration samples used.
        per_channel: one scale per output channel.
        sequence_length: tokens per sample.
        hessian_damping: fraction of the mean Hessian diagonal added to it.
        group_size: input rows per group; -1: the whole row.
        symmetric: symmetric quantization (no zero points).
        activation_order: process columns in order of decreasing Hessian diagonal.
        quantization_layer_structure: ``{"pre_block_layers": [...],
            "sequential_blocks": [...]}``.
    """

    def __init__(
        self,
        dataset,
        tokenizer,
        *,
        weight_bits=4,
        num_samples=128,
        per_channel=True,
        sequence_length=512,
        hessian_damping=0.01,
        group_size=128,
        symmetric=False,
        activation_order=False,
        quantization_layer_structure=None,
    ):
        super().__init__()
        if weight_bits not in (2, 3, 4, 8):
            raise ValueError(
                f"Unsupported weight_bits {weight_bits}. Supported values are 2, 3, 4, and 8."
            )
        if hessian_damping < 0 or hessian_damping > 1:
            raise ValueError(
                f"hessian_damping must be between 0 and 1. Received: {hessian_damping}"
            )
        _check_calibration_args(num_samples, sequence_length, group_size, "whole-tensor")
        self.dataset = dataset
        self.tokenizer = tokenizer
        self.num_samples = num_samples
        self.per_channel = per_channel
        self.sequence_length = sequence_length
        self.hessian_damping = hessian_damping
        self.weight_bits = weight_bits
        self.group_size = group_size
        self.symmetric = symmetric
        self.activation_order = activation_order
        self.quantization_layer_structure = quantization_layer_structure

    def get_config(self):
        # The dataset and tokenizer serve the one-time calibration; not saved.
        return {
            "dataset": None,
            "tokenizer": None,
            "weight_bits": self.weight_bits,
            "num_samples": self.num_samples,
            "per_channel": self.per_channel,
            "sequence_length": self.sequence_length,
            "hessian_damping": self.hessian_damping,
            "group_size": self.group_size,
            "symmetric": self.symmetric,
            "activation_order": self.activation_order,
            "quantization_layer_structure": self.quantization_layer_structure,
        }

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    @property
    def mode(self):
        return "gptq"

    def dtype_policy_string(self):
        """``"gptq/<weight_bits>/<group_size>"``, the mode of the layers' policy."""
        return f"gptq/{self.weight_bits}/{self.group_size}"


class AWQConfig(QuantizationConfig):
    """Settings of AWQ (activation-aware 4-bit) post-training quantization.

    Args:
        dataset, tokenizer, num_samples, sequence_length, group_size,
        quantization_layer_structure: as in `GPTQConfig`.
        weight_bits: 4 (AWQ is 4-bit only).
        num_grid_points: points of the grid search of the scaling exponent.
    """

    def __init__(
        self,
        dataset,
        tokenizer,
        *,
        weight_bits=4,
        num_samples=128,
        sequence_length=512,
        group_size=128,
        num_grid_points=20,
        quantization_layer_structure=None,
    ):
        super().__init__()
        if weight_bits != 4:
            raise ValueError(
                f"AWQ only supports 4-bit quantization. Received weight_bits={weight_bits}."
            )
        _check_calibration_args(num_samples, sequence_length, group_size, "per-channel")
        if num_grid_points <= 0:
            raise ValueError(
                f"num_grid_points must be a positive integer. Received: {num_grid_points}"
            )
        self.dataset = dataset
        self.tokenizer = tokenizer
        self.weight_bits = weight_bits
        self.num_samples = num_samples
        self.sequence_length = sequence_length
        self.group_size = group_size
        self.num_grid_points = num_grid_points
        self.quantization_layer_structure = quantization_layer_structure

    @property
    def mode(self):
        return "awq"

    def dtype_policy_string(self):
        """``"awq/<weight_bits>/<group_size>"``, the mode of the layers' policy."""
        return f"awq/{self.weight_bits}/{self.group_size}"

    def get_config(self):
        return {
            "dataset": None,
            "tokenizer": None,
            "weight_bits": self.weight_bits,
            "num_samples": self.num_samples,
            "sequence_length": self.sequence_length,
            "group_size": self.group_size,
            "num_grid_points": self.num_grid_points,
            "quantization_layer_structure": self.quantization_layer_structure,
        }

    @classmethod
    def from_config(cls, config):
        return cls(**config)


ALL_OBJECTS = {
    cls.__name__: cls
    for cls in (
        Quantizer,
        AbsMaxQuantizer,
        QuantizationConfig,
        Int8QuantizationConfig,
        Int4QuantizationConfig,
        Float8QuantizationConfig,
        GPTQConfig,
        AWQConfig,
    )
}


def _snake(name):
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i and not name[i - 1].isupper():
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


_ALIASES = {**ALL_OBJECTS, **{_snake(name): cls for name, cls in ALL_OBJECTS.items()}}


def serialize(initializer):
    """The serialized dict of a quantizer or quantization config (as Keras writes it).

    The argument keeps Keras's name (``keras.quantizers.serialize(initializer)``).
    """
    if initializer is None:
        return None
    return _serialization.serialize_object(initializer, ALL_OBJECTS, "keras.quantizers")


def deserialize(config, custom_objects=None):
    """The quantizer or config described by `config` (a serialized dict or a name)."""
    return _serialization.deserialize_object(
        config, _ALIASES, "quantizer", custom_objects=custom_objects
    )


def get(identifier, **kwargs):
    """A quantizer from None, a serialized dict, a class name, or a quantizer."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        obj = deserialize(identifier)
    elif isinstance(identifier, str):
        obj = _ALIASES.get(identifier)
    else:
        obj = identifier
    if isinstance(obj, type):
        return obj(kwargs)
    if callable(obj):
        return obj
    raise ValueError(
        f"Could not interpret quantizer identifier: {identifier!r}. Expected None, a "
        f"serialized dict, one of {sorted(ALL_OBJECTS)}, or a quantizer."
    )


def resolve_config(mode, config):
    """The config `Layer.quantize` / `Model.quantize` use for (`mode`, `config`).

    A string `config` is a mode; no config gives the mode's default (GPTQ and AWQ need
    one); a config that contradicts `mode` is an error.
    """
    if isinstance(config, str):
        mode, config = config, None
    _check_mode(mode)
    if config is None:
        defaults = {
            "int8": Int8QuantizationConfig,
            "int4": Int4QuantizationConfig,
            "float8": Float8QuantizationConfig,
        }
        if mode in ("gptq", "awq"):
            name = "GPTQConfig" if mode == "gptq" else "AWQConfig"
            raise ValueError(
                f"For {mode.upper()}, you must pass a `{name}` object in the `config` argument."
            )
        if mode is None:
            raise ValueError("You must provide either `mode` or `config` to `quantize`.")
        config = defaults[mode]()
    elif not isinstance(config, QuantizationConfig):
        raise ValueError(
            "Argument `config` must be an instance of `QuantizationConfig`. "
            f"Received: config={config!r} (of type {type(config).__name__})"
        )
    if mode is not None and config.mode != mode:
        raise ValueError(f"Contradictory arguments: mode='{mode}' but config.mode='{config.mode}'")
    _check_mode(config.mode)
    if config.mode == "gptq" and not isinstance(config, GPTQConfig):
        raise ValueError(f"Mode 'gptq' requires a `GPTQConfig`. Received: {type(config).__name__}")
    if config.mode == "awq" and not isinstance(config, AWQConfig):
        raise ValueError(f"Mode 'awq' requires an `AWQConfig`. Received: {type(config).__name__}")
    return config


def _check_mode(mode):
    if mode is not None and mode not in QUANTIZATION_MODES:
        raise ValueError(
            f"Invalid quantization mode. Expected one of {QUANTIZATION_MODES}. "
            f"Received: mode={mode!r}"
        )


def block_size_for_layer(layer, config):
    """The int4 block size: from the config, else the layer's `Int4DTypePolicy`.

    None means per-channel (a policy's -1 reads as None).
    """
    if isinstance(config, Int4QuantizationConfig):
        return config.block_size
    policy = layer.dtype_policy
    if isinstance(policy, DTypePolicyMap):
        policy = policy[getattr(layer, "path", None) or layer.name]
    if isinstance(policy, Int4DTypePolicy):
        return None if policy.block_size == -1 else policy.block_size
    return None
