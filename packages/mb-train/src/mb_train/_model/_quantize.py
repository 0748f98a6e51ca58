"""`Model.quantize` and `Model.get_quantization_layer_structure` (Keras 3.15's)."""

import re
import warnings


def should_quantize_layer(layer, filters):
    """Whether `filters` (a regex, a list of regexes on the layer's name, or a callable
    taking the layer) selects `layer`; None selects every layer."""
    if filters is None:
        return True
    if isinstance(filters, str):
        return bool(re.search(filters, layer.name))
    if isinstance(filters, (list, tuple)):
        return any(re.search(pattern, layer.name) for pattern in filters)
    return bool(filters(layer))


class QuantizeMixin:
    """Quantization of a whole model (mixed into `Model`)."""

    def get_quantization_layer_structure(self, mode=None):
        """The topology GPTQ / AWQ walk: ``{"pre_block_layers": [...],
        "sequential_blocks": [...]}``, or None (the default; models override it)."""
        del mode
        return None

    def quantize(self, mode=None, config=None, filters=None, **kwargs):
        """Quantizes the weights of every leaf layer that supports `mode` (in place).

        Args:
            mode: ``"int8"``, ``"int4"``, ``"float8"``, ``"gptq"`` or ``"awq"``
                (optional when `config` is given).
            config: a `mb.quantizers.QuantizationConfig` (quantizers, int4 block size);
                for ``"gptq"`` / ``"awq"`` a `GPTQConfig` / `AWQConfig` with the
                calibration ``dataset`` and the model's ``quantization_layer_structure``
                (else `get_quantization_layer_structure(mode)` gives it).
            filters: a regex (or list of regexes) matched against layer names, or a
                callable taking the layer: only the layers it selects are quantized.

        Layers that cannot be quantized are skipped (with a warning for those that
        have weights but no quantized form). The model must be built.

        Example:

        >>> import numpy as np, mb_layers
        >>> from mb_train.models import Sequential
        >>> model = Sequential([mb_layers.Input((4,)), mb_layers.layers.Dense(2)])
        >>> model.quantize("int8")
        >>> model.layers[0].dtype_policy.name
        'int8_from_float32'
        """
        type_check = kwargs.pop("type_check", True)
        if kwargs:
            raise ValueError(
                f"Unrecognized keyword arguments passed to {type(self).__name__}: {kwargs}"
            )
        if filters is not None and not (
            isinstance(filters, (str, list, tuple)) or callable(filters)
        ):
            raise ValueError(
                "The `filters` argument must be a regex string, a list of regex strings, or "
                f"a callable. Received: {type(filters).__name__}"
            )
        mode = mode if mode is not None else getattr(config, "mode", None)
        if mode in ("gptq", "awq"):
            from mb_train._model import _calibrate

            structure = getattr(config, "quantization_layer_structure", None)
            if structure is None and getattr(config, "mode", None) == mode:
                structure = self.get_quantization_layer_structure(mode)
            _calibrate.check_config(mode, config, structure)
        modified = False
        for layer in self._flatten_layers():
            if not should_quantize_layer(layer, filters):
                continue
            if len(list(layer._flatten_layers())) != 1:
                continue
            try:
                layer.quantize(mode, type_check=type_check, config=config)
                modified = True
            except NotImplementedError as error:
                if layer.weights:
                    warnings.warn(str(error), stacklevel=2)
            except AttributeError:
                pass
        if mode in ("gptq", "awq"):
            _calibrate.calibrate(mode, config, structure, filters=filters)
        if modified:
            self._runners = {}
            self._trainable_cache = None
