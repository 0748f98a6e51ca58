"""Dtype policies: the dtype a layer computes in and the dtype of its variables."""

import re
import threading
from collections.abc import MutableMapping

from mb_graph import is_keras_tensor
from mb_layers import _backend, _serialization
from mb_layers._ops import ops
from mb_ops import config, dtypes

_MIXED = {"mixed_float16": "float16", "mixed_bfloat16": "bfloat16"}

QUANTIZATION_MODES = ("int8", "float8", "int4", "gptq", "awq")


class DTypePolicy:
    """The dtypes of a layer's computations and of its variables.

    Args:
        name: a dtype name (``"float32"``, ``"bfloat16"``, ...): both dtypes
            are that dtype; or ``"mixed_float16"`` / ``"mixed_bfloat16"``:
            computations in float16/bfloat16, variables in float32. None
            means `mb_ops.config.floatx()`.

    Example:

    >>> policy = DTypePolicy("mixed_bfloat16")
    >>> policy.compute_dtype, policy.variable_dtype
    ('bfloat16', 'float32')
    """

    def __init__(self, name=None):
        if name is None:
            name = config.floatx()
        if not isinstance(name, str):
            raise TypeError(
                f"DTypePolicy takes a string name, e.g. 'float32' or 'mixed_float16'. "
                f"Received: name={name!r} (of type {type(name).__name__})."
            )
        self._name = name
        self._compute_dtype, self._variable_dtype = self._parse_name(name)

    @staticmethod
    def _parse_name(name):
        if name in _MIXED:
            return _MIXED[name], "float32"
        try:
            dtype = dtypes.standardize_dtype(name)
        except (ValueError, TypeError):
            raise ValueError(
                f"Cannot make a dtype policy from {name!r}. Expected a dtype name such as "
                "'float32' or 'bfloat16', or 'mixed_float16' / 'mixed_bfloat16'."
            ) from None
        return dtype, dtype

    @property
    def name(self):
        """The policy's name."""
        return self._name

    @property
    def compute_dtype(self):
        """The dtype of the layer's computations (and of its float inputs)."""
        return self._compute_dtype

    @property
    def variable_dtype(self):
        """The dtype of the layer's variables."""
        return self._variable_dtype

    @property
    def quantization_mode(self):
        """The quantization mode (``"int8"``, ...), None for a float policy."""
        return None

    def convert_input(self, x, autocast, dtype):
        """Casts a float tensor (or converts an array) to `dtype` when `autocast`."""
        dtype = dtypes.standardize_dtype(dtype)
        if is_keras_tensor(x) or _backend.is_tensor(x):
            x_dtype = dtypes.standardize_dtype(x.dtype)
            if (
                autocast
                and dtypes.is_float_dtype(x_dtype)
                and dtypes.is_float_dtype(dtype)
                and x_dtype != dtype
            ):
                return ops.cast(x, dtype)
            return x
        if hasattr(x, "__array__") and hasattr(x, "dtype") and hasattr(x, "shape"):
            core = _backend.core()
            x_dtype = dtypes.standardize_dtype(x.dtype)
            if autocast and dtypes.is_float_dtype(x_dtype) and dtypes.is_float_dtype(dtype):
                return core.convert_to_tensor(x, dtype=dtype)
            return core.convert_to_tensor(x)
        return x

    def get_config(self):
        return {"name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __eq__(self, other):
        float_classes = (DTypePolicy, FloatDTypePolicy)
        if type(self) in float_classes:
            if type(other) not in float_classes:
                return False
        elif type(other) is not type(self):
            return False
        return other.name == self.name

    def __hash__(self):
        return hash((type(self).__name__, self.name))

    def __repr__(self):
        name = type(self).__name__
        if name == "FloatDTypePolicy":
            name = "DTypePolicy"
        return f'<{name} "{self.name}">'


class FloatDTypePolicy(DTypePolicy):
    """Kept for compatibility with older Keras 3 configs; same as `DTypePolicy`."""


class QuantizedDTypePolicy(DTypePolicy):
    """The policy of a quantized layer: ``"<mode>_from_<source policy>"``.

    The compute and variable dtypes are those of the source policy; the layer's
    quantized weights have their own dtypes (int8 kernels, float scales).

    Args:
        mode: one of ``"int8"``, ``"float8"``, ``"int4"``, ``"gptq"``, ``"awq"``.
        source_name: the float policy the layer had before quantization
            (default: the global policy's name).

    Example:

    >>> policy = QuantizedDTypePolicy("int8", "float32")
    >>> policy.name, policy.quantization_mode, policy.compute_dtype
    ('int8_from_float32', 'int8', 'float32')
    """

    def __init__(self, mode, source_name=None):
        if source_name is None:
            source_name = dtype_policy().name
        self._compute_dtype, self._variable_dtype = self._parse_name(source_name)
        self._check_quantization_mode(mode, self._compute_dtype)
        self._name = f"{mode}_from_{source_name}"
        self._source_name = source_name
        self._quantization_mode = mode

    @property
    def quantization_mode(self):
        return self._quantization_mode

    @staticmethod
    def _check_quantization_mode(mode, compute_dtype):
        if mode not in QUANTIZATION_MODES:
            raise ValueError(
                f"Invalid quantization mode. Expected one of {QUANTIZATION_MODES}. "
                f"Received: mode={mode!r}"
            )
        if compute_dtype == "float16" and mode == "int8":
            raise ValueError(
                f"Quantization mode='{mode}' doesn't work well with compute_dtype='float16'. "
                "Use a float32 or bfloat16 source policy (e.g. 'mixed_bfloat16')."
            )

    def __eq__(self, other):
        if not super().__eq__(other):
            return False
        return (
            self._quantization_mode == other._quantization_mode
            and self._source_name == other._source_name
        )

    def __hash__(self):
        return hash((type(self).__name__, self.name))

    def get_config(self):
        return {"mode": self._quantization_mode, "source_name": self._source_name}


class QuantizedFloat8DTypePolicy(QuantizedDTypePolicy):
    """The policy of a float8-trained layer, with the length of its amax history.

    Args:
        mode: ``"float8"``.
        source_name: the source float policy's name.
        amax_history_length: how many steps of absolute maxima scale the
            float8 casts (delayed scaling).
    """

    default_amax_history_length = 1024

    def __init__(self, mode, source_name=None, amax_history_length=1024):
        super().__init__(mode=mode, source_name=source_name)
        if not isinstance(amax_history_length, int) or isinstance(amax_history_length, bool):
            raise TypeError(
                "`amax_history_length` must be an integer. "
                f"Received: amax_history_length={amax_history_length!r}"
            )
        self._amax_history_length = amax_history_length

    @property
    def amax_history_length(self):
        """The length of the amax history window (float8 scaling)."""
        return self._amax_history_length

    def __eq__(self, other):
        return super().__eq__(other) and self._amax_history_length == other._amax_history_length

    def __hash__(self):
        return hash((type(self).__name__, self.name, self._amax_history_length))

    def get_config(self):
        return {**super().get_config(), "amax_history_length": self._amax_history_length}


def _parse_mode(cls_name, mode, expected, n_ints):
    parts = mode.split("/") if isinstance(mode, str) else []
    base = expected.split("/")[0].strip("'")
    if len(parts) != n_ints + 1 or parts[0] != base:
        raise ValueError(
            f"Invalid mode for {cls_name}. Expected format {expected}, but got {mode!r}."
        )
    try:
        return [int(p) for p in parts[1:]]
    except ValueError:
        raise ValueError(
            f"Invalid mode for {cls_name}: the numbers must be integers. Expected format "
            f"{expected}, but got {mode!r}."
        ) from None


def _check_group(what, value, mode, meaning):
    if value < -1 or value == 0:
        raise ValueError(
            f"Invalid {what} in mode. Supported values are -1 ({meaning}) or a positive "
            f"integer, but got {value} from {mode!r}."
        )


class Int4DTypePolicy(QuantizedDTypePolicy):
    """The policy of an int4 layer, with its block size: ``"int4/<block_size>"``.

    Args:
        mode: ``"int4/128"`` (groups of 128 input rows) or ``"int4/-1"``
            (one scale per output channel).
        source_name: the source float policy's name.
    """

    def __init__(self, mode, source_name=None):
        (block_size,) = _parse_mode("Int4DTypePolicy", mode, "'int4/<block_size>'", 1)
        _check_group("block_size", block_size, mode, "per-channel")
        super().__init__(mode="int4", source_name=source_name)
        self._name = f"{mode}_from_{self._source_name}"
        self.mode = "int4"
        self.block_size = block_size

    def __eq__(self, other):
        return super().__eq__(other) and self.block_size == other.block_size

    def __hash__(self):
        return hash((type(self).__name__, self.name))

    def get_config(self):
        return {**super().get_config(), "mode": f"int4/{self.block_size}"}


class _BitsGroupPolicy(QuantizedDTypePolicy):
    _base = ""
    _allowed_bits = ()

    def __init__(self, mode, source_name=None):
        cls_name = type(self).__name__
        expected = f"'{self._base}/<weight_bits>/<group_size>'"
        weight_bits, group_size = _parse_mode(cls_name, mode, expected, 2)
        if weight_bits not in self._allowed_bits:
            raise ValueError(
                f"Invalid weight_bits in mode. Supported values are {self._allowed_bits}, "
                f"but got {weight_bits} from {mode!r}."
            )
        _check_group("group_size", group_size, mode, "per-channel")
        super().__init__(mode=self._base, source_name=source_name)
        self._name = f"{mode}_from_{self._source_name}"
        self.mode = self._base
        self.weight_bits = weight_bits
        self.group_size = group_size

    def __eq__(self, other):
        return (
            super().__eq__(other)
            and self.weight_bits == other.weight_bits
            and self.group_size == other.group_size
        )

    def __hash__(self):
        return hash((type(self).__name__, self.name))

    def get_config(self):
        return {
            **super().get_config(),
            "mode": f"{self._base}/{self.weight_bits}/{self.group_size}",
        }


class GPTQDTypePolicy(_BitsGroupPolicy):
    """The policy of a GPTQ layer: ``"gptq/<weight_bits>/<group_size>"``.

    Args:
        mode: e.g. ``"gptq/4/128"``; weight bits 2, 3, 4 or 8, group size -1
            (whole rows) or positive.
        source_name: the source float policy's name.
    """

    _base = "gptq"
    _allowed_bits = (2, 3, 4, 8)


class AWQDTypePolicy(_BitsGroupPolicy):
    """The policy of an AWQ layer: ``"awq/4/<group_size>"`` (AWQ is 4-bit only).

    Args:
        mode: e.g. ``"awq/4/128"``.
        source_name: the source float policy's name.
    """

    _base = "awq"
    _allowed_bits = (4,)


class DTypePolicyMap(DTypePolicy, MutableMapping):
    """A dict-like policy: layer paths (or regular expressions) to dtype policies.

    A layer whose policy is a map looks itself up by its path: an exact key
    first, else the one key that ``re.fullmatch``-es it, else `default_policy`.

    Args:
        default_policy: the policy of paths not in the map (default: the
            global policy).
        policy_map: an optional dict of path -> policy.

    Example:

    >>> policy_map = DTypePolicyMap(default_policy="float32")
    >>> policy_map["encoder/.*"] = "bfloat16"
    >>> policy_map["encoder/dense"].name, policy_map["decoder"].name
    ('bfloat16', 'float32')
    """

    def __init__(self, default_policy=None, policy_map=None):
        if isinstance(default_policy, DTypePolicyMap):
            raise ValueError("`default_policy` cannot be a `DTypePolicyMap`.")
        if policy_map is not None and not isinstance(policy_map, dict):
            raise TypeError(
                "If specified, `policy_map` must be a dict. "
                f"Received: policy_map={policy_map!r} of type {type(policy_map).__name__}"
            )
        self._default_policy_arg = default_policy
        self._default_policy = get(default_policy)
        self._policy_map = dict(policy_map or {})

    @property
    def name(self):
        return f"map_{self.default_policy.name}"

    @property
    def default_policy(self):
        """The policy of paths that no key matches."""
        return get(self._default_policy)

    @property
    def variable_dtype(self):
        return self.default_policy.variable_dtype

    @property
    def compute_dtype(self):
        return self.default_policy.compute_dtype

    @property
    def quantization_mode(self):
        return self.default_policy.quantization_mode

    def convert_input(self, x, autocast, dtype):
        return self.default_policy.convert_input(x, autocast, dtype)

    def __getitem__(self, key):
        if key in self._policy_map:
            return self._policy_map[key]
        matches = [pattern for pattern in self._policy_map if re.fullmatch(pattern, key)]
        if len(matches) > 1:
            raise ValueError(
                f"Path '{key}' matches multiple dtype policy specification keys: {matches}. "
                "Please make sure each path only matches at most one dtype policy "
                "specification key in the DTypePolicyMap."
            )
        if matches:
            return self._policy_map[matches[0]]
        return self.default_policy

    def __setitem__(self, key, policy):
        if key in self._policy_map:
            raise ValueError(
                f"{key} already exist in the DTypePolicyMap with value "
                f"{self._policy_map[key]}. Please make sure to not use duplicated keys."
            )
        try:
            policy = get(policy)
        except Exception:
            raise ValueError(
                "Cannot interpret the assigned value by `keras.dtype_policies.get`. "
                f"Received: {policy!r} of type {type(policy).__name__}"
            ) from None
        self._policy_map[key] = policy

    def __delitem__(self, key):
        return self._policy_map.pop(key)

    def __contains__(self, key):
        return key in self._policy_map

    def __len__(self):
        return len(self._policy_map)

    def __iter__(self):
        return iter(self._policy_map)

    def __eq__(self, other):
        return (
            type(other) is DTypePolicyMap
            and other.default_policy == self.default_policy
            and other._policy_map == self._policy_map
        )

    def __hash__(self):
        return id(self)

    def get_config(self):
        policy_map = {}
        for key, policy in self._policy_map.items():
            entry = serialize(policy)
            if self._default_policy_arg is None:
                # As Keras: without a default, the entries defer to the global policy
                # when loaded (their source names are written as None).
                entry = {**entry, "config": dict(entry["config"])}
                if isinstance(policy, QuantizedDTypePolicy):
                    entry["config"]["source_name"] = None
                else:
                    entry["config"]["name"] = None
            policy_map[key] = entry
        default = self._default_policy_arg
        if isinstance(default, DTypePolicy):
            default = serialize(default)
        return {"default_policy": default, "policy_map": policy_map}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        default = config.get("default_policy")
        if isinstance(default, dict):
            default = deserialize(default, custom_objects=custom_objects)
        policy_map = {
            key: deserialize(value, custom_objects=custom_objects)
            if isinstance(value, dict)
            else value
            for key, value in (config.get("policy_map") or {}).items()
        }
        return cls(default_policy=default, policy_map=policy_map)

    def __repr__(self):
        mapping = [(k, v.name) for k, v in self._policy_map.items()]
        return (
            f"<DTypePolicyMap at {hex(id(self))} default_policy={self._default_policy.name}, "
            f"mapping={mapping}>"
        )


ALL_POLICIES = {
    "DTypePolicy": DTypePolicy,
    "FloatDTypePolicy": FloatDTypePolicy,
    "QuantizedDTypePolicy": QuantizedDTypePolicy,
    "QuantizedFloat8DTypePolicy": QuantizedFloat8DTypePolicy,
    "Int4DTypePolicy": Int4DTypePolicy,
    "GPTQDTypePolicy": GPTQDTypePolicy,
    "AWQDTypePolicy": AWQDTypePolicy,
    "DTypePolicyMap": DTypePolicyMap,
}

# The module Keras writes for each class (DTypePolicy is exported at the top level).
_MODULES = {"DTypePolicy": "keras", "FloatDTypePolicy": "keras"}


def quantized_policy_from_name(name):
    """The quantized policy named ``"<mode>_from_<source>"`` (``"int4/128_from_float32"``)."""
    if not isinstance(name, str) or not name.startswith(QUANTIZATION_MODES):
        raise ValueError(
            f"{name!r} is not a quantized dtype policy name. Expected '<mode>_from_<source>' "
            f"with a mode in {QUANTIZATION_MODES}, e.g. 'int8_from_float32'."
        )
    parts = name.split("_from_")
    if len(parts) != 2:
        raise ValueError(
            "Cannot convert `policy` into a valid pair (`mode`, `source_name`) to "
            f"instantiate `QuantizedDTypePolicy`. Received: policy={name!r}"
        )
    mode, source_name = parts
    if mode.startswith("int4") and "/" in mode:
        return Int4DTypePolicy(mode, source_name)
    if mode.startswith("gptq"):
        return GPTQDTypePolicy(mode, source_name)
    if mode.startswith("awq"):
        return AWQDTypePolicy(mode, source_name)
    if mode.startswith("float8"):
        return QuantizedFloat8DTypePolicy(mode, source_name)
    return QuantizedDTypePolicy(mode, source_name)


def policy_for(policy, path):
    """The policy that applies to the layer at `path` (a map's entry, else `policy`)."""
    if isinstance(policy, DTypePolicyMap) and path:
        return policy[path]
    return policy


class _Global(threading.local):
    policy = None


_GLOBAL = _Global()


def set_dtype_policy(policy):
    """Sets the default dtype policy of layers created from now on.

    This is ``keras.config.set_dtype_policy``.
    """
    if policy is None:
        _GLOBAL.policy = None
        return
    if not isinstance(policy, (str, DTypePolicy)):
        raise ValueError(
            "Invalid `policy` argument. Expected the string name of a policy (such as "
            f"'mixed_float16') or a `DTypePolicy` instance. Received: policy={policy!r} "
            f"(of type {type(policy).__name__})"
        )
    _GLOBAL.policy = get(policy)


def dtype_policy():
    """The default dtype policy: the one set, else ``DTypePolicy(floatx())``."""
    if _GLOBAL.policy is None:
        return DTypePolicy(config.floatx())
    return _GLOBAL.policy


def get(identifier):
    """A DTypePolicy from None (the default), a name, a dict config, or a policy."""
    if identifier is None:
        return dtype_policy()
    if isinstance(identifier, DTypePolicy):
        return identifier
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        if identifier.startswith(QUANTIZATION_MODES):
            return quantized_policy_from_name(identifier)
        return DTypePolicy(identifier)
    try:
        return DTypePolicy(dtypes.standardize_dtype(identifier))
    except (ValueError, TypeError):
        raise ValueError(
            f"Cannot interpret {identifier!r} as a dtype policy. Expected None, a dtype name, "
            "'mixed_float16', 'mixed_bfloat16', a DTypePolicy or its serialized dict."
        ) from None


def serialize(dtype_policy):
    """The serialized dict of a policy (module ``"keras"``, as Keras writes it)."""
    module = _MODULES.get(type(dtype_policy).__name__, "keras.dtype_policies")
    return _serialization.serialize_object(dtype_policy, ALL_POLICIES, module)


def deserialize(config, custom_objects=None):
    """The policy described by `config` (a dict or a name)."""
    if isinstance(config, str):
        return get(config)
    return _serialization.deserialize_object(
        config,
        ALL_POLICIES,
        "dtype policy",
        custom_objects=custom_objects,
        pass_custom_objects=True,
    )
