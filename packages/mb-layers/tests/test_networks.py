"""Input, Functional and Sequential: graphs, nesting, sharing, sub-graphs, configs."""

import json

import numpy as np
import pytest

from mb_graph import KerasTensor
from mb_layers import Functional, Input, InputLayer, Sequential, get_keras_mask, layers


def dense(units, **kwargs):
    return layers.Dense(units, kernel_initializer="ones", **kwargs)


def test_input_returns_a_named_keras_tensor_from_an_input_layer():
    x = Input((4,), name="features", dtype="int32")
    assert isinstance(x, KerasTensor)
    assert (x.shape, x.dtype, x.name) == ((None, 4), "int32", "features")
    assert isinstance(x._keras_history.operation, InputLayer)
    assert x._keras_history.operation.get_config()["batch_shape"] == (None, 4)


def test_input_and_output_shapes_of_networks_include_the_batch_axis():
    x = Input((3,))
    net = Functional(x, dense(2)(x))
    assert (net.input_shape, net.output_shape) == ((None, 3), (None, 2))
    a, b = Input((3,)), Input((5,))
    two = Functional([a, b], [dense(2)(a), dense(4)(b)])
    assert two.input_shape == [(None, 3), (None, 5)]
    assert two.output_shape == [(None, 2), (None, 4)]
    seq = Sequential([Input((3,)), dense(6)])
    assert (seq.input_shape, seq.output_shape) == ((None, 3), (None, 6))


def test_functional_runs_the_graph_and_matches_layer_by_layer():
    x = Input((3,))
    h = dense(4, activation="relu")(x)
    y = dense(2)(h)
    net = Functional(x, y)
    data = np.array([[1.0, -2.0, 0.5]], "float32")
    expected = np.maximum(data.sum(1, keepdims=True), 0) * 4 * np.ones((1, 2))
    np.testing.assert_allclose(np.asarray(net(data)), expected, rtol=1e-6)
    assert [w.path for w in net.weights] == [
        f"{net.layers[1].name}/kernel",
        f"{net.layers[1].name}/bias",
        f"{net.layers[2].name}/kernel",
        f"{net.layers[2].name}/bias",
    ]


def test_functional_with_dict_inputs_list_outputs_and_a_shared_layer():
    a = Input((2,), name="a")
    b = Input((2,), name="b")
    shared = dense(3, name="shared")
    ya, yb = shared(a), shared(b)
    net = Functional({"a": a, "b": b}, [ya, yb], name="pair")
    assert len(shared._inbound_nodes) == 2
    out = net({"a": np.ones((1, 2), "float32"), "b": 2 * np.ones((1, 2), "float32")})
    np.testing.assert_allclose(np.asarray(out[0]), 2 * np.ones((1, 3)))
    np.testing.assert_allclose(np.asarray(out[1]), 4 * np.ones((1, 3)))
    assert len(net.weights) == 2


def test_list_input_network_accepts_a_dict_by_input_names():
    a = Input((2,), name="left")
    b = Input((2,), name="right")
    net = Functional([a, b], layers.Lambda(lambda t: t[0] - t[1])([a, b]))
    out = net({"right": np.ones((1, 2), "float32"), "left": 3 * np.ones((1, 2), "float32")})
    np.testing.assert_allclose(np.asarray(out), 2 * np.ones((1, 2)))


def test_sub_graph_extraction_from_intermediate_tensors():
    x = Input((3,))
    h = dense(4, name="hidden")(x)
    y = dense(2, name="head")(h)
    full = Functional(x, y)
    encoder = Functional(full.input, full.get_layer("hidden").output)
    assert [layer.name for layer in encoder.layers][1:] == ["hidden"]
    head_only = Functional(h, y)
    assert tuple(head_only(np.ones((1, 4), "float32")).shape) == (1, 2)


def test_functional_nested_in_another_graph_and_symbolic_shapes():
    x = Input((3,))
    inner = Functional(x, dense(2)(x), name="inner")
    z = Input((3,))
    outer = Functional(z, dense(1)(inner(z)), name="outer")
    assert outer.output.shape == (None, 1)
    assert tuple(outer(np.ones((5, 3), "float32")).shape) == (5, 1)
    assert len(outer.weights) == 4


def test_wrapping_keeps_frozen_layers_frozen_and_trainable_false_freezes_all():
    x = Input((3,))
    frozen = dense(2, name="frozen")
    inner = Functional(x, frozen(x), name="inner")
    frozen.trainable = False
    z = Input((3,))
    head = dense(1, name="head")
    outer = Functional(z, head(inner(z)), name="outer")
    assert not frozen.trainable
    assert [w.path for w in outer.trainable_weights] == ["head/kernel", "head/bias"]
    revived = Functional.from_config(json.loads(json.dumps(outer.get_config())))
    assert [w.path for w in revived.trainable_weights] == ["head/kernel", "head/bias"]
    locked = Functional(z, head(inner(z)), trainable=False)
    assert locked.trainable_weights == [] and not head.trainable


def test_missing_input_is_reported_with_the_tensor():
    x = Input((3,), name="used")
    other = Input((3,), name="forgotten")
    y = layers.Lambda(lambda t: t[0] + t[1])([x, other])
    with pytest.raises(ValueError, match="forgotten"):
        Functional(x, y)


def test_functional_config_round_trip_through_json_keeps_the_graph():
    a = Input((2,), name="in_a")
    b = Input((2,), name="in_b")
    shared = dense(5, name="shared_dense")
    merged = layers.Lambda(lambda t: t, name="ident")(shared(a))
    net = Functional([a, b], [merged, shared(b)], name="two")
    config = json.loads(json.dumps(net.get_config()))
    entries = {entry["name"]: entry for entry in config["layers"]}
    assert entries["shared_dense"]["class_name"] == "Dense"
    assert entries["shared_dense"]["module"] == "keras.layers"
    assert len(entries["shared_dense"]["inbound_nodes"]) == 2
    assert config["input_layers"] == [["in_a", 0, 0], ["in_b", 0, 0]]
    assert config["output_layers"] == [["ident", 0, 0], ["shared_dense", 1, 0]]


def test_functional_config_round_trip_rebuilds_a_working_network():
    a = Input((2,), name="in_a")
    shared = dense(5, name="shared_dense")
    net = Functional(a, layers.Dense(1, kernel_initializer="ones", name="head")(shared(a)))
    config = json.loads(json.dumps(net.get_config()))
    revived = Functional.from_config(config)
    assert [layer.name for layer in revived.layers] == ["in_a", "shared_dense", "head"]
    revived.set_weights(net.get_weights())
    data = np.ones((2, 2), "float32")
    np.testing.assert_allclose(np.asarray(revived(data)), np.asarray(net(data)))


def test_sequential_with_input_builds_at_once_with_scoped_paths():
    net = Sequential([Input((4,)), dense(8), dense(2)], name="mlp")
    assert net.built
    assert [w.path for w in net.weights][:2] == [
        f"mlp/{net.layers[0].name}/kernel",
        f"mlp/{net.layers[0].name}/bias",
    ]
    assert tuple(net(np.ones((3, 4), "float32")).shape) == (3, 2)
    assert len(net.layers) == 2  # The input layer is not listed, as in Keras.


def test_sequential_without_input_builds_on_first_call_and_add_pop():
    net = Sequential([dense(3)])
    assert not net.built
    y = net(np.ones((2, 5), "float32"))
    assert tuple(y.shape) == (2, 3) and net.built
    net.add(dense(1))
    assert tuple(net(np.ones((2, 5), "float32")).shape) == (2, 1)
    popped = net.pop()
    assert isinstance(popped, layers.Dense)
    assert tuple(net(np.ones((2, 5), "float32")).shape) == (2, 3)


def test_sequential_rejects_duplicate_names_and_second_input():
    net = Sequential([Input((2,)), dense(2, name="same")])
    with pytest.raises(ValueError, match="unique names"):
        net.add(dense(2, name="same"))
    with pytest.raises(ValueError, match="input layer"):
        net.add(InputLayer(shape=(2,)))


def test_sequential_config_is_keras_shaped_and_round_trips():
    net = Sequential([Input((4,)), dense(3, activation="relu")], name="seq")
    config = json.loads(json.dumps(net.get_config()))
    assert config["layers"][0]["class_name"] == "InputLayer"
    assert config["layers"][0]["config"]["batch_shape"] == [None, 4]
    assert config["build_input_shape"] == [None, 4]
    assert config["dtype"]["class_name"] == "DTypePolicy"
    revived = Sequential.from_config(config)
    revived.set_weights(net.get_weights())
    data = np.linspace(-1, 1, 8, dtype="float32").reshape(2, 4)
    np.testing.assert_allclose(np.asarray(revived(data)), np.asarray(net(data)), rtol=1e-6)


def test_masks_flow_through_a_sequential_stack():
    net = Sequential(
        [Input((3,), dtype="int32"), layers.Embedding(4, 2, mask_zero=True), layers.Identity()]
    )
    y = net(np.array([[1, 0, 2]], "int32"))
    assert np.asarray(get_keras_mask(y)).tolist() == [[True, False, True]]


def test_get_source_inputs_walks_back_to_the_inputs_in_order():
    from mb_layers import get_source_inputs

    a, b, c = Input((2,), name="a"), Input((2,), name="b"), Input((2,), name="c")
    shared = layers.Dense(2)
    out = layers.Add()([shared(b), layers.Multiply()([shared(a), b])])
    assert [x.name for x in get_source_inputs(out)] == ["b", "a"]
    assert get_source_inputs(c) == [c]
    with pytest.raises(ValueError, match="expects a KerasTensor"):
        get_source_inputs(np.ones((2, 2)))
