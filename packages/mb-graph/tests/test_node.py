import pytest

from mb_graph import KerasTensor, Node


def test_node_keeps_tensors_and_constants_apart(ops):
    offset = ops.Offset()
    x = KerasTensor((2,))
    offset(x, bias=0.5, negate=True)
    node = offset._inbound_nodes[0]
    assert node.operation is offset
    assert node.input_tensors == [x]
    assert node.arguments.args == (x,)
    assert node.arguments.kwargs == {"bias": 0.5, "negate": True}
    assert sorted(node.arguments.constants) == [((1, "bias"), 0.5), ((1, "negate"), True)]
    assert not node.is_input


def test_outbound_and_inbound_links_walk_the_graph(ops):
    scale, add = ops.Scale(), ops.Add()
    x = KerasTensor((2,))
    y = scale(x)
    z = add(y, y)
    node = add._inbound_nodes[0]
    assert scale._outbound_nodes == [node, node]
    assert node.parent_nodes == [scale._inbound_nodes[0], scale._inbound_nodes[0]]
    assert z._keras_history.operation._inbound_nodes[0] is node
    assert scale._inbound_nodes[0].parent_nodes == []  # x has no history


def test_multi_output_history_indexes(ops):
    split = ops.Split()
    a, b = split(KerasTensor((4,)))
    assert a._keras_history == (split, 0, 0)
    assert b._keras_history == (split, 0, 1)
    assert split._inbound_nodes[0].output_tensors == [a, b]


def test_shared_operation_gets_one_node_per_call(ops):
    scale = ops.Scale()
    first = scale(KerasTensor((2,)))
    second = scale(KerasTensor((3,)))
    assert [n.node_index for n in scale._inbound_nodes] == [0, 1]
    assert first._keras_history.node_index == 0
    assert second._keras_history.node_index == 1


def test_entry_node_has_no_inputs(ops):
    source = ops.Source((None, 3), name="src")
    (node,) = source._inbound_nodes
    assert node.is_input
    assert source.output._keras_history == (source, 0, 0)


def test_record_history_false_records_nothing(ops):
    scale = ops.Scale()
    out = scale(KerasTensor((2,), record_history=False))
    assert scale._inbound_nodes == []
    assert out._keras_history is None
    assert not out.record_history


def test_non_tensor_outputs_are_refused_with_the_operation_name(ops):
    with pytest.raises(ValueError, match=r"'bad' \(Scale\) returned a non-tensor .*1\.0"):
        Node(ops.Scale(name="bad"), (KerasTensor((1,)),), {}, outputs=[1.0])


def test_fill_in_replaces_tensors_only(ops):
    concat = ops.Concat()
    x, y = KerasTensor((1,)), KerasTensor((2,))
    concat([x, [5.0], y])
    arguments = concat._inbound_nodes[0].arguments
    args, kwargs = arguments.fill_in({id(x): [1.0], id(y): [2.0, 3.0]})
    assert args == ([[1.0], [5.0], [2.0, 3.0]],)
    assert kwargs == {}
