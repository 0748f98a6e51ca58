import types

import pytest

import mb_graph
from mb_graph import Function, KerasTensor


def test_nested_inputs_and_outputs_run_each_operation(ops):
    add, scale, split = ops.Add(), ops.Scale(3.0), ops.Split()
    inputs = {"a": KerasTensor((4,)), "b": KerasTensor((4,))}
    total = add(inputs["a"], inputs["b"])
    low, high = split(total)
    fn = Function(inputs, (scale(low), [high]))

    values = {"a": [1.0, 2.0, 3.0, 4.0], "b": [10.0, 20.0, 30.0, 40.0]}
    result = fn(values)

    # Reference: the same operations called eagerly, one by one.
    eager_low, eager_high = split(add(values["a"], values["b"]))
    assert result == (scale(eager_low), [eager_high])
    assert result == ([33.0, 66.0], [[33.0, 44.0]])


def test_operations_are_listed_in_keras_order_for_a_shared_layer(ops):
    # Keras 3 lists this model's layers as in_a, in_b, shared_dense, concat, head.
    in_a, in_b = ops.Source((None, 4), name="in_a"), ops.Source((None, 4), name="in_b")
    shared = ops.Scale(name="shared_dense")
    concat = ops.Concat(name="concat")([shared(in_a.output), shared(in_b.output)])
    head = ops.Scale(name="head")(concat)
    fn = Function([in_a.output, in_b.output], head)
    assert [op.name for op in fn.operations] == ["in_a", "in_b", "shared_dense", "concat", "head"]


def test_operations_order_with_skips_and_an_unused_input(ops):
    # Keras 3 orders the same topology (Dense/Add layers) as x, p, q, r, s, unused, t.
    x, unused = ops.Source((4,), name="x"), ops.Source((4,), name="unused")
    p = ops.Scale(name="p")(x.output)
    q = ops.Scale(name="q")(p)
    r = ops.Scale(name="r")(x.output)
    s = ops.Add(name="s")(q, r)
    t = ops.Add(name="t")(s, p)
    fn = Function([x.output, unused.output], [t, q])
    assert [op.name for op in fn.operations] == ["x", "p", "q", "r", "s", "unused", "t"]
    # Reference: the same operations applied eagerly.
    ones = [1.0] * 4
    ep = fn.operations[1](ones)
    eq = fn.operations[2](ep)
    expected_t = fn.operations[6](fn.operations[4](eq, fn.operations[3](ones)), ep)
    assert fn([ones, [0.0] * 4]) == [expected_t, eq]


def test_operation_shared_at_different_depths(ops):
    x = ops.Source((4,), name="x")
    a, b = ops.Scale(2.0, name="A"), ops.Scale(5.0, name="B")
    y = a(b(a(x.output)))
    fn = Function(x.output, y)
    assert [op.name for op in fn.operations] == ["x", "A", "B"]
    assert fn([1.0, 2.0, 3.0, 4.0]) == [20.0, 40.0, 60.0, 80.0]
    assert a.calls == 2 and b.calls == 1


def test_concrete_run_on_plain_tensors_without_entry_operations(ops):
    x = KerasTensor((2,))
    y = ops.Offset()(x, bias=1.0, negate=True)
    fn = Function([x], [y])
    assert fn([[5.0, 6.0]]) == [[4.0, 5.0]]
    assert [type(op).__name__ for op in fn.operations] == ["Offset"]


def test_symbolic_call_reapplies_the_same_operations(ops):
    scale, add = ops.Scale(2.0), ops.Add()
    x = KerasTensor((3,))
    fn = Function(x, add(scale(x), x))
    new_input = KerasTensor((3,))
    new_output = fn.call(new_input)
    # A new graph, made of new nodes of the same operations.
    assert new_output._keras_history.operation is add
    assert len(scale._inbound_nodes) == 2 and len(add._inbound_nodes) == 2
    again = Function(new_input, new_output)
    assert again.operations == fn.operations
    assert again([1.0, 2.0, 3.0]) == fn([1.0, 2.0, 3.0]) == [3.0, 6.0, 9.0]
    scale.factor = 10.0  # State is shared: both graphs see it.
    assert again([1.0, 0.0, 0.0]) == fn([1.0, 0.0, 0.0]) == [11.0, 0.0, 0.0]


def test_calling_a_function_on_symbolic_inputs_records_one_node(ops):
    scale = ops.Scale(2.0)
    x = KerasTensor((None,))
    inner = Function(x, scale(x), name="inner")
    y = KerasTensor((5,))
    out = inner(y)
    assert out.shape == (5,)  # Shapes are inferred through the graph.
    assert out._keras_history == (inner, 0, 0)
    assert len(scale._inbound_nodes) == 1  # The inner graph was not rebuilt.
    outer = Function(y, ops.Add()(out, y))
    assert next(op.name for op in outer.operations) == "inner"
    assert outer([1.0, 2.0, 3.0, 4.0, 5.0]) == [3.0, 6.0, 9.0, 12.0, 15.0]


def test_compute_output_spec_reinfers_when_shapes_change(ops):
    split = ops.Split()
    x = KerasTensor((None,))
    fn = Function(x, split(x))
    spec_calls = split.spec_calls
    same = fn.compute_output_spec(KerasTensor((None,)))
    assert [t.shape for t in same] == [(None,), (None,)]
    assert split.spec_calls == spec_calls  # Same input shapes: no walk needed.
    specs = fn.compute_output_spec(KerasTensor((6,)))
    assert [t.shape for t in specs] == [(3,), (3,)]
    assert split.spec_calls == spec_calls + 1
    assert fn.compute_output_shape((5,)) == ((2,), (3,))


def test_multi_output_operation_outputs_feed_different_consumers(ops):
    x = KerasTensor((4,))
    low, high = ops.Split()(x)
    fn = Function(x, {"product": ops.Multiply()(low, high), "low": low})
    assert fn([1.0, 2.0, 3.0, 4.0]) == {"product": [3.0, 8.0], "low": [1.0, 2.0]}


def test_intermediate_tensors_slice_sub_graphs(ops):
    first, second, third = ops.Scale(2.0), ops.Scale(3.0), ops.Scale(5.0)
    x = KerasTensor((1,))
    h1 = first(x)
    h2 = second(h1)
    out = third(h2)
    head = Function(x, h1)  # An intermediate tensor as output.
    assert head([1.0]) == [2.0]
    assert head.operations == [first]
    tail = Function(h1, out)  # An intermediate tensor as input.
    assert tail([1.0]) == [15.0]
    assert tail.operations == [second, third]
    assert first.calls == 1


def test_output_not_computable_from_inputs_names_the_missing_input(ops):
    x = KerasTensor((None, 3), name="x")
    y = KerasTensor((None, 3), name="needed_input")
    out = ops.Add(name="adder")(ops.Scale()(x), y)
    with pytest.raises(ValueError, match="'needed_input'") as info:
        Function(x, {"result": out}, name="f")
    message = str(info.value)
    assert "Function 'f'" in message
    assert "outputs['result']" in message
    assert "shape=(None, 3)" in message
    assert "operation 'adder'" in message
    assert "Add it to `inputs`" in message


def test_missing_entry_operation_input_is_named(ops):
    a, b = ops.Source((2,), name="a"), ops.Source((2,), name="b")
    out = ops.Add()(a.output, b.output)
    with pytest.raises(ValueError, match="KerasTensor 'b' shape=\\(2,\\)"):
        Function(a.output, out)


def test_inputs_and_outputs_must_be_tensors():
    with pytest.raises(ValueError, match=r"`inputs\[1\]` is 3\.0"):
        Function([KerasTensor((1,)), 3.0], KerasTensor((1,)))
    with pytest.raises(ValueError, match="at least one KerasTensor"):
        Function([], KerasTensor((1,)))


def test_duplicate_operation_names_are_refused(ops):
    x = KerasTensor((1,))
    y = ops.Scale(name="same")(ops.Scale(name="same")(x))
    with pytest.raises(ValueError, match="named 'same'"):
        Function(x, y)


def test_incompatible_input_shape_names_the_input_and_shapes(ops):
    x = KerasTensor((None, 3), name="features")
    fn = Function(x, ops.Scale()(x), name="f")
    with pytest.raises(ValueError, match=r"'features': expected shape \(None, 3\), received shape"):
        fn.compute_output_spec(KerasTensor((2, 4)))
    with pytest.raises(TypeError, match="'features' must be a KerasTensor, received list"):
        fn.compute_output_spec([KerasTensor((1, 3))])
    pair = Function([x, x], ops.Scale()(x))
    with pytest.raises(ValueError, match="nested differently"):
        pair({"a": [1.0], "b": [2.0]})


def test_errors_while_running_name_the_operation_and_inputs(ops):
    x, y = KerasTensor((None,), name="x"), KerasTensor((None,), name="y")
    fn = Function([x, y], ops.Add(name="adder")(x, y), name="f")
    with pytest.raises(ValueError) as info:
        fn([[1.0, 2.0, 3.0], [1.0]])  # The toy op's zip(strict=True) refuses.
    note = "".join(info.value.__notes__)
    assert "Function 'f' ran operation 'adder' (Add)" in note
    assert "args[0]: [1.0, 2.0, 3.0] (fed for KerasTensor 'x' shape=(None,)" in note
    assert "args[1]: [1.0] (fed for KerasTensor 'y' shape=(None,)" in note


def test_deep_chain_has_no_recursion_limit(ops):
    scale = ops.Scale(1.0)
    x = KerasTensor((1,))
    y = x
    for _ in range(3000):
        y = scale(y)
    fn = Function(x, y)
    assert fn([2.0]) == [2.0]
    assert scale.calls == 3000


def test_python_operators_build_nodes_through_the_registered_op_library(ops):
    library = types.SimpleNamespace(
        add=lambda a, b: ops.Add()(a, b),
        multiply=lambda a, b: ops.Multiply()(a, b),
        negative=lambda x: ops.Scale(-1.0)(x),
    )
    previous = mb_graph.set_operator_hook(library)
    try:
        x = KerasTensor((3,), name="x")
        y = -(x * 2.0) + x
        fn = Function(x, y)
    finally:
        mb_graph.set_operator_hook(previous)
    assert [type(op).__name__ for op in fn.operations] == ["Multiply", "Scale", "Add"]
    values = [1.0, 2.0, 3.0]
    expected = [-(v * 2.0) + v for v in values]  # The same expression on floats.
    assert fn(values) == expected


def test_lists_and_tuples_are_interchangeable_in_inputs_and_op_outputs(ops):
    class ListSplit(ops.Split):
        """Symbolic outputs in a list, concrete outputs in a tuple (engines differ so)."""

        def compute_output_spec(self, x):
            return list(super().compute_output_spec(x))

    a, b = KerasTensor((4,), name="a"), KerasTensor((4,), name="b")
    low, high = ListSplit()(a)
    fn = Function([a, {"b": b}], [low, ops.Add()(high, ops.Split()(b)[0])])
    values = ([1.0, 2.0, 3.0, 4.0], {"b": [10.0, 20.0, 30.0, 40.0]})  # A tuple, not a list.
    assert fn(values) == [[1.0, 2.0], [13.0, 24.0]]
    with pytest.raises(ValueError, match="nested differently"):
        fn(([1.0], {"c": [2.0]}))
