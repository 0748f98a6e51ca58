"""GPTQ / AWQ calibration of a model, block by block (Keras 3.15's ``gptq_core`` /
``awq_core`` walk).

The calibration samples go through the ``pre_block_layers`` (an embedding), then through
each of the ``sequential_blocks`` in turn: while a block runs, every Dense/EinsumDense
inside it shows its inputs to its calibrator; then these layers are quantized, and the
block runs again (now quantized) to make the next block's inputs, so that each block is
calibrated on what the quantized blocks before it produce.

Unlike Keras 3.15, whose hooks wrap ``layer.call`` (which a quantized layer never runs,
so its calibrators see no data and GPTQ/AWQ reduce to round-to-nearest), the hooks here
wrap the ``_gptq_call`` / ``_awq_call`` the layers do run.
"""

import contextlib
import math

import numpy as np

from mb_layers._ops import ops
from mb_layers.layers import Dense, EinsumDense
from mb_layers.layers._quantized_gptq import CALIBRATORS
from mb_train._model._quantize import should_quantize_layer


def check_config(mode, config, structure):
    """Refuses, before any layer changes, what calibration cannot run with."""
    if config is None or getattr(config, "mode", None) != mode:
        name = "GPTQConfig" if mode == "gptq" else "AWQConfig"
        raise ValueError(
            f"For {mode.upper()}, you must pass a `{name}` object in the `config` argument. "
            f"Received: config={config!r}"
        )
    if config.dataset is None:
        raise ValueError(
            f"{mode.upper()} quantization requires a calibration dataset: pass "
            f"`{type(config).__name__}(dataset=..., tokenizer=...)` (a list of strings with "
            "a tokenizer, or of token id arrays)."
        )
    if not hasattr(config.dataset, "__iter__") or isinstance(config.dataset, (str, bytes)):
        raise TypeError(
            "The `dataset` argument must be an iterable (e.g., a list of strings, a "
            f"generator, or a NumPy array). Got type: {type(config.dataset).__name__}. "
            "Please pass the loaded dataset directly."
        )
    if not isinstance(structure, dict) or not structure.get("sequential_blocks"):
        raise ValueError(
            f"For mode='{mode}', a valid quantization structure must be provided either via "
            "`config.quantization_layer_structure` or by overriding "
            "`model.get_quantization_layer_structure(mode)`. The structure should be a "
            "dictionary with keys 'pre_block_layers' and 'sequential_blocks' (a non-empty "
            f"list of layers). Received: {structure!r}"
        )


def _tokenize(tokenizer, text):
    if tokenizer is None:
        raise ValueError(
            "The calibration dataset holds strings, so the config needs a `tokenizer` (an "
            "object with `tokenize(text)` or a callable). Received: tokenizer=None."
        )
    tokens = tokenizer.tokenize(text) if hasattr(tokenizer, "tokenize") else tokenizer(text)
    return np.asarray(ops.convert_to_numpy(tokens)).reshape(-1)


def calibration_samples(config):
    """``(num_samples, 1, sequence_length)`` int32 windows of the dataset's tokens.

    As Keras: the documents' tokens are joined (repeated when too few) and windows are
    taken at a regular stride. The first window starts at token 0 here, so calibration
    is reproducible (Keras 3.15 starts at an offset drawn from Python's per-process
    string hash, so two runs calibrate on different windows).
    """
    documents = list(config.dataset)
    if not documents:
        raise ValueError("Provided dataset is empty.")
    if isinstance(documents[0], str):
        pieces = [_tokenize(config.tokenizer, text) for text in documents]
    else:
        pieces = [np.asarray(ops.convert_to_numpy(doc)).reshape(-1) for doc in documents]
    tokens = np.concatenate([p.astype("int32", copy=False) for p in pieces])
    length, count = config.sequence_length, config.num_samples
    if tokens.size < count * length:
        tokens = np.tile(tokens, math.ceil(count * length / max(1, tokens.size)))
    max_start = tokens.size - length
    if max_start < 0:
        raise ValueError(
            f"Not enough tokens to form one sample of length {length} (have {tokens.size})."
        )
    stride = max(1, (max_start + 1) // count)
    starts = (np.arange(count, dtype="int64") * stride) % (max_start + 1)
    windows = np.lib.stride_tricks.sliding_window_view(tokens, length)
    return windows[starts].astype("int32")[:, None, :]


def layers_in_block(block, filters):
    """``{path: layer}`` of the Dense / EinsumDense leaves of `block` that `filters` keep."""
    found = {}
    for layer in block._flatten_layers():
        if len(list(layer._flatten_layers())) != 1:
            continue
        if isinstance(layer, (Dense, EinsumDense)) and should_quantize_layer(layer, filters):
            found[getattr(layer, "path", None) or layer.name] = layer
    return found


@contextlib.contextmanager
def _watching(layers, calibrators, mode):
    """While inside, each layer's ``_<mode>_call`` shows its inputs to its calibrator."""
    method = f"_{mode}_call"
    try:
        for name, layer in layers.items():
            original = getattr(layer, method)

            def hook(inputs, *args, _original=original, _calibrator=calibrators[name], **kwargs):
                _calibrator.observe(inputs)
                return _original(inputs, *args, **kwargs)

            setattr(layer, method, hook)
        yield
    finally:
        for layer in layers.values():
            if method in layer.__dict__:
                delattr(layer, method)


def _batched(sample):
    return ops.expand_dims(sample, axis=0) if len(sample.shape) == 2 else sample


def calibrate(mode, config, structure, filters=None):
    """Runs GPTQ or AWQ calibration over `structure` (see the module docstring)."""
    pre_layers = list(structure.get("pre_block_layers") or [])
    blocks = list(structure["sequential_blocks"])
    inputs = []
    for sample in calibration_samples(config):
        x = ops.convert_to_tensor(sample, dtype="int32")
        for layer in pre_layers:
            x = layer(x)
        inputs.append(x)
    inputs = inputs[: config.num_samples]
    for index, block in enumerate(blocks):
        layers = layers_in_block(block, filters)
        for name, layer in list(layers.items()):
            if layer.quantization_mode != mode:
                del layers[name]
        if layers:
            calibrators = {name: CALIBRATORS[mode](layer, config) for name, layer in layers.items()}
            with _watching(layers, calibrators, mode):
                for x in inputs:
                    block(_batched(x))
            for calibrator in calibrators.values():
                calibrator.quantize()
            del calibrators
        if index < len(blocks) - 1:
            inputs = [block(_batched(x))[0] for x in inputs]
