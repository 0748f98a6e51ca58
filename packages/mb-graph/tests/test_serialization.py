import json

import pytest

import mb_graph
from mb_graph import Function, KerasTensor, deserialize_graph, serialize_graph


def json_round_trip(config):
    return json.loads(json.dumps(config))


def build_model(ops):
    """Entry operations, a shared operation, two outputs from one call, nested and
    keyword arguments, and a slice constant."""
    in_a, in_b = ops.Source((4,), name="in_a"), ops.Source((4,), name="in_b")
    shared = ops.Scale(2.0, name="shared")
    low, high = ops.Split(name="split")(shared(in_a.output))
    joined = ops.Concat(name="concat")([low, shared(in_b.output), high])
    shifted = ops.Offset(name="offset")(joined, bias=1.5, negate=True)
    taken = ops.Take(name="take")(shifted, slice(1, None, 2))
    return Function([in_a.output, in_b.output], {"taken": taken, "low": low}, name="model")


def test_round_trip_through_json_rebuilds_an_equivalent_graph(ops):
    fn = build_model(ops)
    config = json_round_trip(fn.get_config())
    with mb_graph.custom_objects_in_scope(ops.all_classes):
        rebuilt = Function.from_config(config)
    assert [op.name for op in rebuilt.operations] == [op.name for op in fn.operations]
    assert [type(op) for op in rebuilt.operations] == [type(op) for op in fn.operations]
    assert rebuilt.operations[0] is not fn.operations[0]
    shared = next(op for op in rebuilt.operations if op.name == "shared")
    assert len(shared._inbound_nodes) == 2
    values = [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]
    assert rebuilt(values) == fn(values)
    assert rebuilt.get_config() == config


def test_layout_matches_keras_functional_config(ops):
    # The two-input fixture of keras-file-format.md section 2.4, with toy operations.
    in_a, in_b = ops.Source((None, 4), name="in_a"), ops.Source((None, 4), name="in_b")
    shared = ops.Scale(name="shared_dense")
    concat = ops.Concat(name="concat")([shared(in_a.output), shared(in_b.output)])
    head = ops.Scale(name="head")(concat)
    config = serialize_graph(Function([in_a.output, in_b.output], head))

    def tensor(shape, history):
        return {
            "class_name": "__keras_tensor__",
            "config": {"shape": shape, "dtype": "float32", "keras_history": history},
        }

    graph = {entry["name"]: entry["inbound_nodes"] for entry in config["layers"]}
    assert list(graph) == ["in_a", "in_b", "shared_dense", "concat", "head"]
    assert graph["in_a"] == graph["in_b"] == []
    assert graph["shared_dense"] == [
        {"args": [tensor([None, 4], ["in_a", 0, 0])], "kwargs": {}},
        {"args": [tensor([None, 4], ["in_b", 0, 0])], "kwargs": {}},
    ]
    assert graph["concat"] == [
        {
            "args": [
                [
                    tensor([None, 4], ["shared_dense", 0, 0]),
                    tensor([None, 4], ["shared_dense", 1, 0]),
                ]
            ],
            "kwargs": {},
        }
    ]
    assert graph["head"] == [{"args": [tensor([None], ["concat", 0, 0])], "kwargs": {}}]
    assert config["input_layers"] == [["in_a", 0, 0], ["in_b", 0, 0]]
    assert config["output_layers"] == ["head", 0, 0]
    entry = config["layers"][2]
    assert entry["class_name"] == "Scale"
    assert entry["config"] == {"name": "shared_dense", "factor": 2.0}


KERAS_FIXTURE = """
{"layers": [
 {"class_name": "InputLayer", "config": {"batch_shape": [null, 4]}, "name": "in_a",
  "inbound_nodes": []},
 {"class_name": "InputLayer", "config": {"batch_shape": [null, 4]}, "name": "in_b",
  "inbound_nodes": []},
 {"class_name": "Dense", "config": {}, "name": "shared_dense", "inbound_nodes": [
  {"args": [{"class_name": "__keras_tensor__", "config": {"shape": [null, 4], "dtype": "float32",
    "keras_history": ["in_a", 0, 0]}}], "kwargs": {}},
  {"args": [{"class_name": "__keras_tensor__", "config": {"shape": [null, 4], "dtype": "float32",
    "keras_history": ["in_b", 0, 0]}}], "kwargs": {}}]},
 {"class_name": "Concatenate", "config": {}, "name": "concat", "inbound_nodes": [{"args": [[
  {"class_name": "__keras_tensor__", "config": {"shape": [null, 5], "dtype": "float32",
   "keras_history": ["shared_dense", 0, 0]}},
  {"class_name": "__keras_tensor__", "config": {"shape": [null, 5], "dtype": "float32",
   "keras_history": ["shared_dense", 1, 0]}}]], "kwargs": {}}]},
 {"class_name": "Dense", "config": {}, "name": "head", "inbound_nodes": [{"args": [
  {"class_name": "__keras_tensor__", "config": {"shape": [null, 10], "dtype": "float32",
   "keras_history": ["concat", 0, 0]}}], "kwargs": {}}]}],
 "input_layers": [["in_a", 0, 0], ["in_b", 0, 0]],
 "output_layers": ["head", 0, 0]}
"""


def test_reads_the_keras_fixture_with_a_caller_supplied_operation_factory(ops):
    def make(entry):  # What mb-saving does with real layers.
        if entry["class_name"] == "InputLayer":
            return ops.Source(entry["config"]["batch_shape"], name=entry["name"])
        cls = {"Dense": ops.Scale, "Concatenate": ops.Concat}[entry["class_name"]]
        return cls(name=entry["name"])

    # Listed in reverse: the reader orders the calls itself.
    config = json.loads(KERAS_FIXTURE)
    config["layers"].reverse()
    inputs, output = deserialize_graph(config, deserialize_operation=make)
    fn = Function(inputs, output)
    assert [op.name for op in fn.operations] == ["in_a", "in_b", "shared_dense", "concat", "head"]
    assert fn([[1.0, 2.0], [3.0]]) == [4.0, 8.0, 12.0]
    restored = json.loads(KERAS_FIXTURE)
    written = serialize_graph(fn)
    for entry, original in zip(written["layers"], restored["layers"], strict=True):
        assert entry["name"] == original["name"]
        assert len(entry["inbound_nodes"]) == len(original["inbound_nodes"])
    assert written["input_layers"] == restored["input_layers"]
    assert written["output_layers"] == restored["output_layers"]


def test_node_indices_count_only_calls_inside_the_graph(ops):
    shared = ops.Scale(name="shared")
    shared(KerasTensor((2,)))  # A call outside the function: node 0.
    x = KerasTensor((2,), name="x")
    fn = Function(x, shared(x))
    config = serialize_graph(fn)
    assert config["output_layers"] == ["shared", 0, 0]
    offset = serialize_graph(fn, node_index_offset=lambda op: 1)
    assert offset["output_layers"] == ["shared", 1, 0]
    inputs, outputs = deserialize_graph(
        offset, custom_objects=ops.all_classes, node_index_offset=lambda op: 1
    )
    assert Function(inputs, outputs)([1.0, 2.0]) == [2.0, 4.0]


def test_bare_input_tensors_are_written_as_input_entries(ops):
    x = KerasTensor((None,), dtype="float16", name="features")
    fn = Function({"x": x}, ops.Scale(3.0)(x))
    config = json_round_trip(fn.get_config())
    assert config["layers"][0]["class_name"] == mb_graph.INPUT_TENSOR_CLASS_NAME
    assert config["input_layers"] == {"x": ["features", 0, 0]}
    with mb_graph.custom_objects_in_scope(ops.all_classes):
        rebuilt = Function.from_config(config)
    assert rebuilt.inputs[0].dtype == "float16"
    assert rebuilt({"x": [1.0, 2.0]}) == [3.0, 6.0]


def test_nested_function_round_trip(ops):
    x = KerasTensor((2,), name="inner_x")
    inner = Function(x, ops.Scale(2.0, name="double")(x), name="inner")
    y = KerasTensor((2,), name="outer_x")
    outer = Function(y, ops.Add(name="plus")(inner(y), y), name="outer")
    config = json_round_trip(outer.get_config())
    with mb_graph.custom_objects_in_scope(ops.all_classes):
        rebuilt = Function.from_config(config)
    assert rebuilt([1.0, 2.0]) == outer([1.0, 2.0]) == [3.0, 6.0]


def test_unknown_values_need_hooks_both_ways(ops):
    class Marker:
        def __init__(self, amount):
            self.amount = amount

        def __radd__(self, other):
            return other + self.amount

    x = KerasTensor((), name="x")
    offset = ops.Offset(name="offset")
    fn = Function(x, offset(x, bias=Marker(4.0)))
    assert fn(1.0) == 5.0
    with pytest.raises(TypeError, match=r"Call 0 of operation 'offset': cannot serialize"):
        serialize_graph(fn)
    config = serialize_graph(
        fn, serialize_value=lambda v: {"class_name": "Marker", "config": {"amount": v.amount}}
    )
    with pytest.raises(TypeError, match="cannot decode"):
        deserialize_graph(json_round_trip(config), custom_objects=ops.all_classes)
    inputs, outputs = deserialize_graph(
        json_round_trip(config),
        custom_objects=ops.all_classes,
        deserialize_value=lambda data: 10.0 * data["config"]["amount"],
    )
    assert Function(inputs, outputs)(1.0) == 41.0


def test_intermediate_inputs_cannot_be_serialized(ops):
    x = KerasTensor((1,), name="x")
    hidden = ops.Scale(name="first")(x)
    fn = Function(hidden, ops.Scale(name="second")(hidden))
    with pytest.raises(ValueError, match="'first', which is outside the graph"):
        serialize_graph(fn)


def test_unknown_operation_class_says_how_to_register_it(ops):
    config = build_model(ops).get_config()
    with pytest.raises(
        ValueError, match=r"Unknown operation class 'Source' for 'in_a'.*custom_objects"
    ):
        deserialize_graph(config)


def test_broken_configs_are_refused_with_the_call_named(ops):
    config = json_round_trip(build_model(ops).get_config())
    concat = next(e for e in config["layers"] if e["name"] == "concat")
    concat["inbound_nodes"][0]["args"][0][1]["config"]["keras_history"] = ["shared", 7, 0]
    with pytest.raises(ValueError, match="call 0 of 'concat' refers to call 7 of 'shared'"):
        deserialize_graph(config, custom_objects=ops.all_classes)
    concat["inbound_nodes"][0]["args"][0][1]["config"]["keras_history"] = ["ghost", 0, 0]
    with pytest.raises(ValueError, match="unknown operation 'ghost'"):
        deserialize_graph(config, custom_objects=ops.all_classes)
    with pytest.raises(ValueError, match="needs the key 'layers'"):
        deserialize_graph({"input_layers": [], "output_layers": []})


def test_cycles_in_a_config_are_reported(ops):
    config = json_round_trip(build_model(ops).get_config())
    entries = {e["name"]: e for e in config["layers"]}
    split_input = entries["split"]["inbound_nodes"][0]["args"][0]
    split_input["config"]["keras_history"] = ["concat", 0, 0]
    with pytest.raises(ValueError, match=r"cycle.*call 0 of 'split'"):
        deserialize_graph(config, custom_objects=ops.all_classes)


def test_large_graph_round_trip_calls_each_node_once(ops):
    x = KerasTensor((1,), name="x")
    scales = [ops.Scale(1.0, name=f"s{i}") for i in range(300)]
    y = x
    for scale in scales:
        y = scale(y)
    config = json_round_trip(Function(x, y).get_config())
    config["layers"].reverse()  # Worst order for a reader that retries.
    calls = []

    def make(entry):
        op = ops.Scale.from_config(entry["config"])
        original = op.compute_output_spec

        def counting(*args, **kwargs):
            calls.append(entry["name"])
            return original(*args, **kwargs)

        op.compute_output_spec = counting
        return op

    inputs, outputs = deserialize_graph(config, deserialize_operation=make)
    assert sorted(calls) == sorted(s.name for s in scales)
    assert Function(inputs, outputs)([3.0]) == [3.0]


def test_from_config_names_the_class_missing_from_the_scope(ops):
    x = KerasTensor((2,), name="x")
    config = json_round_trip(Function(x, ops.Scale(2.0, name="double")(x)).get_config())
    with pytest.raises(ValueError, match="Unknown operation class 'Scale'"):
        Function.from_config(config)  # Keras's signature: no custom_objects, no scope
    with mb_graph.custom_objects_in_scope({"Scale": ops.Scale}):
        assert Function.from_config(config)([1.0, 2.0]) == [2.0, 4.0]
    assert mb_graph.scoped_objects() == {}  # the scope ends with the block
