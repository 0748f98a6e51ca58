"""Input signatures: what `model.export(input_signature=...)` accepts and the names the
artifact's inputs get."""

from __future__ import annotations

import numpy as np
import pytest

import mb_layers
from mb_export import _signature
from mb_graph import KerasTensor


def test_a_tensor_makes_the_batch_axis_dynamic_and_a_spec_keeps_its_shape():
    (from_array,) = _signature.normalize([np.zeros((4, 3), "float32")])
    assert from_array.shape == (None, 3) and from_array.dtype == "float32"
    (fixed,) = _signature.normalize([mb_layers.InputSpec(shape=(4, 3), dtype="float32")])
    assert fixed.shape == (4, 3)
    (symbolic,) = _signature.normalize([KerasTensor((None, 5), dtype="int32", name="ids")])
    assert (symbolic.shape, symbolic.dtype, symbolic.name) == ((None, 5), "int32", "ids")


def test_dict_leaves_are_named_by_their_keys_and_names_are_made_unique():
    spec = mb_layers.InputSpec(shape=(None, 2), dtype="float32")
    arguments = _signature.normalize([{"image": spec, "mask": spec}, spec, spec])
    names = [s.name for s in _signature.flat_specs(arguments)]
    assert names == ["image", "mask", "input_2", "input_3"]
    odd = _signature.normalize([KerasTensor((None, 2), name="1st/input:0")] * 2)
    assert [s.name for s in _signature.flat_specs(odd)] == [
        "input_1st_input_0",
        "input_1st_input_0_1",
    ]


def test_a_signature_survives_json_for_the_converting_subprocess():
    spec = mb_layers.InputSpec(shape=(None, 2), dtype="float32")
    arguments = _signature.normalize([{"a": spec, "b": [spec, spec]}])
    assert _signature.from_json(_signature.to_json(arguments)) == arguments


def test_bad_leaves_say_what_a_leaf_must_be():
    with pytest.raises(TypeError, match=r"must be an mb\.InputSpec, an mb\.KerasTensor"):
        _signature.normalize(["float32"])
    with pytest.raises(ValueError, match="needs a full shape and a dtype"):
        _signature.normalize([mb_layers.InputSpec(ndim=2)])


def test_an_unbuilt_model_asks_for_an_input_signature():
    model = mb_layers.Sequential([mb_layers.layers.Dense(2)])
    with pytest.raises(ValueError, match=r"has not been built.*pass `input_signature`"):
        _signature.from_model(model)
