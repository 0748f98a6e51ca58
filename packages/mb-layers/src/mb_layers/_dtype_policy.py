"""Dtype policies: the dtype a layer computes in and the dtype of its variables."""

import threading

from mb_graph import is_keras_tensor
from mb_layers import _backend, _serialization
from mb_layers._ops import ops
from mb_ops import config, dtypes

_MIXED = {"mixed_float16": "float16", "mixed_bfloat16": "bfloat16"}


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
        """None: quantized policies are not part of mb yet."""
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
        return type(other) is type(self) and other.name == self.name

    def __hash__(self):
        return hash((type(self).__name__, self.name))

    def __repr__(self):
        return f'<DTypePolicy "{self.name}">'


class FloatDTypePolicy(DTypePolicy):
    """Kept for compatibility with older Keras 3 configs; same as `DTypePolicy`."""


ALL_POLICIES = {"DTypePolicy": DTypePolicy, "FloatDTypePolicy": FloatDTypePolicy}


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
        return DTypePolicy(identifier)
    try:
        return DTypePolicy(dtypes.standardize_dtype(identifier))
    except (ValueError, TypeError):
        raise ValueError(
            f"Cannot interpret {identifier!r} as a dtype policy. Expected None, a dtype name, "
            "'mixed_float16', 'mixed_bfloat16', a DTypePolicy or its serialized dict."
        ) from None


def serialize(policy):
    """The serialized dict of a policy (module ``"keras"``, as Keras writes it)."""
    return _serialization.serialize_object(policy, ALL_POLICIES, "keras")


def deserialize(config, custom_objects=None):
    """The policy described by `config` (a dict or a name)."""
    if isinstance(config, str):
        return DTypePolicy(config)
    return _serialization.deserialize_object(
        config, ALL_POLICIES, "dtype policy", custom_objects=custom_objects
    )
