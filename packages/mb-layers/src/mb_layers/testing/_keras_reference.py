"""Runs layers in Keras 3 (a subprocess with KERAS_BACKEND=numpy) for comparisons.

Keras is a test-only dependency: it is never imported here, only run in a
child process when the helpers are called.

Each case is a layer serialized by mb (so Keras reading mb's config is part of
the check), the weights to set, the inputs and call keyword arguments. Keras
builds the layer on the inputs, takes the weights, and returns its outputs.
"""

import numpy as np

from mb_layers import _registry
from mb_layers._ops import ops
from mb_ops import testing

_SCRIPT = r"""
results = {}
def decode(value):
    if isinstance(value, dict) and "__ndarray__" in value:
        return np.asarray(value["__ndarray__"], dtype=value["dtype"])
    if isinstance(value, dict):
        return {k: decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [decode(v) for v in value]
    return value
for i, case in enumerate(cases):
    config = dict(case["config"])
    config.pop("build_config", None)
    layer = keras.layers.deserialize(config)
    inputs = [arrays[f"{i}_in_{j}"] for j in range(case["num_inputs"])]
    kwargs = decode(case["kwargs"])
    def run():
        if case["positional"]:
            return layer(*inputs, **kwargs)
        return layer(inputs if case["is_list"] else inputs[0], **kwargs)
    if case["num_weights"]:
        run()
        layer.set_weights([arrays[f"{i}_w_{k}"] for k in range(case["num_weights"])])
    out = run()
    outs = out if isinstance(out, (list, tuple)) else [out]
    for k, o in enumerate(outs):
        results[f"{i}_out_{k}"] = keras.ops.convert_to_numpy(o)
np.savez(f"{folder}/results.npz", **results)
"""


def _jsonable(value):
    if isinstance(value, np.ndarray):
        return {"__ndarray__": value.tolist(), "dtype": str(value.dtype)}
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def keras_outputs(cases):
    """Keras 3's outputs for `cases`: a list of ``(layer, inputs, call_kwargs)``.

    `layer` must be built (its weights are copied). `inputs` given as a tuple
    are passed as positional arguments (``layer(query, value)``), a list as
    one argument. Array call arguments named ``*mask`` are supported. Returns
    one list of output arrays per case.
    """
    meta, arrays = [], {}
    for i, (layer, inputs, kwargs) in enumerate(cases):
        is_list = isinstance(inputs, (list, tuple))
        positional = isinstance(inputs, tuple)
        flat = list(inputs) if is_list else [inputs]
        weights = layer.get_weights()
        for j, x in enumerate(flat):
            arrays[f"{i}_in_{j}"] = ops.convert_to_numpy(x)
        for k, w in enumerate(weights):
            arrays[f"{i}_w_{k}"] = w
        meta.append(
            {
                "config": _registry.serialize(layer),
                "num_inputs": len(flat),
                "is_list": is_list,
                "positional": positional,
                "num_weights": len(weights),
                "kwargs": _jsonable(kwargs),
            }
        )
    found = testing.keras_cases(_SCRIPT, meta, arrays, backend="numpy")
    out = []
    for i in range(len(cases)):
        keys = sorted(
            (k for k in found if k.startswith(f"{i}_out_")),
            key=lambda k: int(k.rsplit("_", 1)[1]),
        )
        out.append([found[k] for k in keys])
    return out


def compare_with_keras(cases, atol=1e-5, rtol=1e-5):
    """Asserts mb's outputs equal Keras 3's for each ``(layer, inputs, call_kwargs)``."""
    expected = keras_outputs(cases)
    for (layer, inputs, kwargs), reference in zip(cases, expected, strict=True):
        got = layer(*inputs, **kwargs) if isinstance(inputs, tuple) else layer(inputs, **kwargs)
        got = got if isinstance(got, (list, tuple)) else [got]
        assert len(got) == len(reference), layer.name
        for g, r in zip(got, reference, strict=True):
            np.testing.assert_allclose(
                ops.convert_to_numpy(g),  # detached: a torch output may need grad
                r,
                atol=atol,
                rtol=rtol,
                err_msg=f"{type(layer).__name__} ({layer.name}) differs from Keras 3",
            )
