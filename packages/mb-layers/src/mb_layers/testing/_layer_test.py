"""`run_layer_test`: the checks every layer goes through, on the active backend."""

import json

import numpy as np

from mb_graph import KerasTensor, tree
from mb_layers import _registry
from mb_layers._masking import get_keras_mask
from mb_layers._ops import ops
from mb_ops import dtypes


def _json_round_trip(config):
    return json.loads(json.dumps(config, default=_json_default))


def _json_default(value):
    if isinstance(value, (np.generic,)):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"get_config() returned a value JSON cannot hold: {value!r}")


def _random_data(shape, dtype, rng):
    shape = tuple(2 if d is None else d for d in shape)
    if dtypes.is_float_dtype(dtype):
        return rng.standard_normal(shape).astype(dtype)
    if dtype == "bool":
        return rng.random(shape) > 0.5
    return rng.integers(0, 4, size=shape).astype(dtype)


def _to_numpy(x):
    return np.asarray(ops.convert_to_numpy(x))


def _check(condition, message):
    if not condition:
        raise AssertionError(message)


def _check_weight_counts(layer, trainable, non_trainable, non_trainable_variables, seeds, when):
    if trainable is not None:
        _check(
            len(layer.trainable_weights) == trainable,
            f"{when}: expected {trainable} trainable weights, found "
            f"{len(layer.trainable_weights)}: {[v.path for v in layer.trainable_weights]}",
        )
    if non_trainable is not None:
        _check(
            len(layer.non_trainable_weights) == non_trainable,
            f"{when}: expected {non_trainable} non-trainable weights, found "
            f"{len(layer.non_trainable_weights)}",
        )
    if non_trainable_variables is not None:
        _check(
            len(layer.non_trainable_variables) == non_trainable_variables,
            f"{when}: expected {non_trainable_variables} non-trainable variables, found "
            f"{len(layer.non_trainable_variables)}",
        )
    if seeds is not None:
        found = len(layer._seed_generators)
        _check(found == seeds, f"{when}: expected {seeds} seed generators, found {found}")


def run_layer_test(
    layer_cls,
    init_kwargs,
    input_shape=None,
    input_dtype="float32",
    input_data=None,
    call_kwargs=None,
    expected_output_shape=None,
    expected_output_dtype=None,
    expected_output=None,
    expected_num_trainable_weights=None,
    expected_num_non_trainable_weights=None,
    expected_num_non_trainable_variables=None,
    expected_num_seed_generators=None,
    expected_num_losses=None,
    supports_masking=None,
    expected_mask_shape=None,
    custom_objects=None,
    run_mixed_precision_check=True,
    assert_built_after_instantiation=False,
    tolerance=1e-5,
):
    """Runs the standard checks of a layer and raises AssertionError on the first failure.

    Checks: the config survives JSON and recreates an equal layer (also
    through `mb_layers.layers.serialize`); a symbolic call gives the expected
    shape and dtype and builds the expected weights; an eager call gives the
    expected output (shape, dtype, values within `tolerance`), weights,
    losses and mask; `stateless_call` with the current values matches the
    eager call; under ``mixed_float16`` float outputs are float16 while
    variables stay float32.

    Args:
        layer_cls: the layer class.
        init_kwargs: constructor arguments.
        input_shape: shape (or nested shapes) of the input; None entries
            become 2 for generated data.
        input_dtype: dtype of generated data and of symbolic inputs.
        input_data: explicit input arrays (instead of generated ones).
        call_kwargs: extra keyword arguments of the call.
        expected_output_shape, expected_output_dtype, expected_output: what
            the eager call must return.
        expected_num_trainable_weights, expected_num_non_trainable_weights,
        expected_num_non_trainable_variables, expected_num_seed_generators:
            counts after building.
        expected_num_losses: length of `losses` after the eager call.
        supports_masking: the expected value of `layer.supports_masking`.
        expected_mask_shape: shape of the mask on the eager output.
        custom_objects: for deserialization.
        run_mixed_precision_check: whether to run the ``mixed_float16`` check.
        assert_built_after_instantiation: the layer must be built at once.
        tolerance: absolute and relative tolerance of `expected_output`.
    """
    call_kwargs = call_kwargs or {}
    rng = np.random.default_rng(0)
    counts = (
        expected_num_trainable_weights,
        expected_num_non_trainable_weights,
        expected_num_non_trainable_variables,
        expected_num_seed_generators,
    )

    # 1. Config round trip (through JSON), directly and through the registry.
    layer = layer_cls(**init_kwargs)
    if assert_built_after_instantiation:
        _check(layer.built, f"{layer_cls.__name__} should be built after instantiation.")
    if supports_masking is not None:
        _check(
            layer.supports_masking == supports_masking,
            f"{layer_cls.__name__}.supports_masking is {layer.supports_masking}, expected "
            f"{supports_masking}.",
        )
    config = _json_round_trip(layer.get_config())
    revived = layer_cls.from_config(config)
    _check(
        _json_round_trip(revived.get_config()) == config,
        f"{layer_cls.__name__}: from_config(get_config()) changed the config.\nBefore: "
        f"{config}\nAfter: {_json_round_trip(revived.get_config())}",
    )
    serialized = _json_round_trip(_registry.serialize(layer))
    revived = _registry.deserialize(serialized, custom_objects=custom_objects)
    _check(
        type(revived) is layer_cls,
        f"deserialize(serialize(layer)) gave {type(revived).__name__}, "
        f"expected {layer_cls.__name__}.",
    )

    # 2. Symbolic call.
    if input_shape is not None:
        layer = layer_cls(**init_kwargs)
        symbolic = tree.map_shape_structure(
            lambda s: KerasTensor(s, dtype=input_dtype), input_shape
        )
        outputs = layer(symbolic, **call_kwargs)
        flat = tree.flatten(outputs)
        if expected_output_shape is not None:
            got = tree.map_structure(lambda x: x.shape, outputs)
            _check(
                _shapes_match(got, expected_output_shape, symbolic=True),
                f"Symbolic call: output shape {got}, expected {expected_output_shape}.",
            )
        if expected_output_dtype is not None:
            _check(
                all(x.dtype == expected_output_dtype for x in flat),
                f"Symbolic call: output dtypes {[x.dtype for x in flat]}, expected "
                f"{expected_output_dtype}.",
            )
        _check_weight_counts(layer, *counts, "After a symbolic call")

    # 3. Eager call.
    if input_data is None and input_shape is not None:
        input_data = tree.map_shape_structure(
            lambda s: _random_data(s, input_dtype, rng), input_shape
        )
    if input_data is None:
        return
    layer = layer_cls(**init_kwargs)
    outputs = layer(input_data, **call_kwargs)
    flat = tree.flatten(outputs)
    if expected_output_shape is not None:
        got = tree.map_structure(lambda x: tuple(x.shape), outputs)
        _check(
            _shapes_match(got, expected_output_shape, symbolic=False),
            f"Eager call: output shape {got}, expected {expected_output_shape}.",
        )
    if expected_output_dtype is not None:
        got = [dtypes.standardize_dtype(x.dtype) for x in flat]
        _check(
            all(d == expected_output_dtype for d in got),
            f"Eager call: output dtypes {got}, expected {expected_output_dtype}.",
        )
    if expected_output is not None:
        for x, e in zip(flat, tree.flatten(expected_output), strict=True):
            np.testing.assert_allclose(_to_numpy(x), np.asarray(e), atol=tolerance, rtol=tolerance)
    _check_weight_counts(layer, *counts, "After an eager call")
    if expected_num_losses is not None:
        _check(
            len(layer.losses) == expected_num_losses,
            f"Expected {expected_num_losses} losses, found {len(layer.losses)}.",
        )
    if expected_mask_shape is not None:
        mask = get_keras_mask(flat[0])
        _check(mask is not None, "Expected a mask on the output, found none.")
        _check(
            tuple(mask.shape) == tuple(expected_mask_shape),
            f"Output mask shape {tuple(mask.shape)}, expected {expected_mask_shape}.",
        )

    # 4. stateless_call with the current values gives the same outputs.
    if layer.variables and not call_kwargs.get("training"):
        values_t = [v.value for v in layer.trainable_variables]
        values_nt = [v.value for v in layer.non_trainable_variables]
        stateless_out, _ = layer.stateless_call(values_t, values_nt, input_data, **call_kwargs)
        for x, y in zip(flat, tree.flatten(stateless_out), strict=True):
            np.testing.assert_allclose(_to_numpy(x), _to_numpy(y), atol=tolerance, rtol=tolerance)

    # 5. Mixed precision: float16 computations, float32 variables.
    if run_mixed_precision_check and all(dtypes.is_float_dtype(x.dtype) for x in flat):
        layer = layer_cls(**{**init_kwargs, "dtype": "mixed_float16"})
        outputs = layer(input_data, **call_kwargs)
        for x in tree.flatten(outputs):
            if dtypes.is_float_dtype(x.dtype):
                _check(
                    dtypes.standardize_dtype(x.dtype) == "float16",
                    f"Under mixed_float16 the output dtype is {x.dtype}, expected float16.",
                )
        for v in layer.weights:
            if dtypes.is_float_dtype(v._dtype):
                _check(
                    v._dtype == "float32",
                    f"Under mixed_float16 variable {v.path} is {v._dtype}, expected float32.",
                )


def _shapes_match(got, expected, symbolic):
    if _is_shape(got):
        got_flat, exp_flat = [got], [tuple(expected)]
    else:
        got_flat = _shape_leaves(got)
        exp_flat = _shape_leaves(expected)
    if len(got_flat) != len(exp_flat):
        return False
    for g, e in zip(got_flat, exp_flat, strict=True):
        if len(g) != len(e):
            return False
        for gd, ed in zip(g, e, strict=True):
            if ed is None or (symbolic and gd is None):
                continue
            if gd != ed:
                return False
    return True


def _is_shape(x):
    return isinstance(x, (tuple, list)) and all(d is None or isinstance(d, int) for d in x)


def _shape_leaves(structure):
    if _is_shape(structure):
        return [tuple(structure)]
    if isinstance(structure, dict):
        return [s for k in sorted(structure) for s in _shape_leaves(structure[k])]
    return [s for item in structure for s in _shape_leaves(item)]
