"""The quantization side of `Layer`: `quantize`, `quantized_build`, `quantized_call`.

A layer that can be quantized (Dense, EinsumDense, Embedding) implements
``quantize(mode, type_check=True, config=None)``, which replaces its float weights by
quantized ones (``quantized_build``) and sets a quantized dtype policy; from then on,
calling the layer runs ``quantized_call``, which dispatches to ``_<mode>_call``.
"""

import functools

from mb_layers import _dtype_policy
from mb_layers._quantization_config import resolve_config


def wrap_quantize(quantize):
    """Wraps a layer class's `quantize` so that every call resolves and checks its args.

    As Keras: ``quantize(mode=None, config=None, **kwargs)`` accepts a mode, a config,
    or both (consistent), and refuses unbuilt, already quantized, or float16 layers.
    """

    @functools.wraps(quantize)
    def quantize_wrapper(self, mode=None, config=None, **kwargs):
        config = resolve_config(mode, config)
        self._check_quantize_args(config.mode, self.compute_dtype)
        return quantize(self, mode=config.mode, config=config, **kwargs)

    quantize_wrapper._mb_quantize_wrapper = True
    return quantize_wrapper


class QuantizationMixin:
    """Quantization methods shared by every layer (mixed into `Layer`)."""

    @property
    def quantization_mode(self):
        """The quantization mode of this layer, None if not quantized."""
        return self._own_dtype_policy().quantization_mode

    def _own_dtype_policy(self):
        policy = self._dtype_policy
        if isinstance(policy, _dtype_policy.DTypePolicyMap):
            return _dtype_policy.policy_for(policy, self._policy_path())
        return policy

    def _policy_path(self):
        return getattr(self, "path", None) or self.name

    def quantized_build(self, input_shape, mode):
        """Creates the quantized variables of `mode` (layers that can be quantized)."""
        raise self._not_implemented_error(self.quantized_build)

    def quantize(self, mode=None, type_check=True, config=None):
        """Quantizes the layer's weights in place (``"int8"``, ``"int4"``, ``"float8"``,
        ``"gptq"``, ``"awq"``); layers that cannot be quantized raise NotImplementedError.
        """
        raise self._not_implemented_error(self.quantize)

    def _check_quantize_args(self, mode, compute_dtype):
        if not self.built:
            raise ValueError(
                "Cannot quantize a layer that isn't yet built. "
                f"Layer '{self.name}' (of type '{type(self).__name__}') is not built yet. "
                "Call it on data or call `build(input_shape)` first."
            )
        if getattr(self, "_is_quantized", False):
            raise ValueError(
                f"Layer '{self.name}' is already quantized with "
                f"dtype_policy='{self.dtype_policy.name}'. Received: mode={mode}"
            )
        if mode not in _dtype_policy.QUANTIZATION_MODES:
            raise ValueError(
                f"Invalid quantization mode. Expected one of "
                f"{_dtype_policy.QUANTIZATION_MODES}. Received: mode={mode}"
            )
        if mode == "int8" and compute_dtype == "float16":
            raise ValueError(
                f"Quantization mode='{mode}' doesn't work well with compute_dtype='float16'. "
                "Consider loading model/layer with another dtype policy such as "
                "'mixed_bfloat16' or 'mixed_float16' before calling `quantize()`."
            )

    def quantized_call(self, *args, **kwargs):
        """`call` of the quantized layer: ``_int8_call``, ``_int4_call``, ... by mode."""
        mode = self.quantization_mode
        method = {
            "int8": self._int8_call,
            "float8": self._float8_call,
            "int4": self._int4_call,
            "gptq": self._gptq_call,
            "awq": self._awq_call,
        }.get(mode)
        if method is None:
            raise self._quantization_mode_error(mode)
        return method(*args, **kwargs)

    def _int4_call(self, *args, **kwargs):
        raise self._not_implemented_error(self._int4_call)

    def _int8_call(self, *args, **kwargs):
        raise self._not_implemented_error(self._int8_call)

    def _float8_call(self, *args, **kwargs):
        raise self._not_implemented_error(self._float8_call)

    def _gptq_call(self, *args, **kwargs):
        raise self._not_implemented_error(self._gptq_call)

    def _awq_call(self, *args, **kwargs):
        raise self._not_implemented_error(self._awq_call)

    def _not_implemented_error(self, attr, msg=None):
        if callable(attr):
            attr_name, attr_type = attr.__name__, "method"
        else:
            attr_name, attr_type = str(attr), "attribute"
        msg = f" {msg}" if msg is not None else ""
        return NotImplementedError(
            f"Layer {type(self).__name__} does not have a `{attr_name}` {attr_type} "
            f"implemented.{msg}"
        )

    def _quantization_mode_error(self, mode):
        return NotImplementedError(
            f"Invalid quantization mode. Expected one of {_dtype_policy.QUANTIZATION_MODES}. "
            f"Received: quantization_mode={mode}"
        )

    def _set_quantized_policy(self, mode, config):
        """After `quantize`: the policy ``"<mode>_from_<source>"`` (when not set yet)."""
        if self.dtype_policy.quantization_mode is not None:
            return
        from mb_layers._quantization_config import block_size_for_layer

        policy_name = mode
        if mode in ("gptq", "awq"):
            policy_name = config.dtype_policy_string()
        elif mode == "int4":
            block_size = block_size_for_layer(self, config)
            policy_name = f"int4/{-1 if block_size is None else block_size}"
        self.dtype_policy = _dtype_policy.get(f"{policy_name}_from_{self.dtype_policy.name}")
