import pytest

from mb_graph import KerasTensor, Operation, naming


def test_concrete_arguments_run_call(ops):
    add = ops.Add()
    assert add([1.0, 2.0], [10.0, 20.0]) == [11.0, 22.0]
    assert add.calls == 1
    assert add.spec_calls == 0
    assert add._inbound_nodes == []


def test_symbolic_arguments_return_specs_and_record_a_node(ops):
    add = ops.Add()
    x, y = KerasTensor((3,)), KerasTensor((3,), dtype="float16")
    out = add(x, y)
    assert isinstance(out, KerasTensor)
    assert (out.shape, out.dtype) == ((3,), "float32")
    assert add.calls == 0
    assert add.spec_calls == 1
    assert len(add._inbound_nodes) == 1
    assert out._keras_history == (add, 0, 0)


def test_symbolic_tensor_nested_anywhere_triggers_a_symbolic_call(ops):
    concat = ops.Concat()
    x = KerasTensor((2,))
    out = concat([[1.0], x])
    assert out.shape == (3,)
    assert concat._inbound_nodes[0].input_tensors == [x]
    offset = ops.Offset()
    out = offset(1.0, bias=x)
    assert offset._inbound_nodes[0].input_tensors == [x]
    assert out.shape == (2,)


def test_auto_names_are_snake_case_and_unique(ops):
    naming.reset_uids()
    first, second = ops.Add(), ops.Add()
    assert (first.name, second.name) == ("add", "add_1")
    assert ops.Scale(name="given").name == "given"


@pytest.mark.parametrize("name", ["a/b", 3])
def test_invalid_names_are_refused(ops, name):
    with pytest.raises(ValueError, match="without '/'"):
        ops.Add(name=name)


def test_auto_config_round_trip(ops):
    scale = ops.Scale(3.5, name="triple")
    config = scale.get_config()
    assert config == {"name": "triple", "factor": 3.5}
    clone = ops.Scale.from_config(config)
    assert (clone.name, clone.factor) == ("triple", 3.5)
    assert ops.Add(name="a").get_config() == {"name": "a"}


def test_auto_config_refuses_non_plain_arguments():
    class Holder(Operation):
        def __init__(self, thing, name=None):
            super().__init__(name=name)
            self.thing = thing

    with pytest.raises(NotImplementedError, match="not a plain Python value"):
        Holder(object()).get_config()
    assert Holder([1, {"a": (2, None)}]).get_config()["thing"] == [1, {"a": (2, None)}]


def test_auto_config_leaves_out_the_arguments_a_class_writes_itself():
    class Typed(Operation):
        _auto_config_skip = ("policy",)

        def __init__(self, size, policy=None, name=None):
            super().__init__(name=name)
            self.size = size

    # `policy` may be any object: the class serializes it in its own get_config.
    assert Typed(3, policy=object(), name="t").get_config() == {"name": "t", "size": 3}


def test_auto_config_refuses_varargs():
    class Varargs(Operation):
        def __init__(self, *sizes, name=None):
            super().__init__(name=name)

    assert Varargs(name="v").get_config() == {"name": "v"}
    with pytest.raises(NotImplementedError, match=r"\*args"):
        Varargs(1, 2).get_config()


def test_overridden_get_config_receives_only_the_name(ops):
    source = ops.Source((None, 2), name="src")
    assert source.get_config() == {"name": "src", "shape": [None, 2], "dtype": "float32"}


def test_from_config_error_names_the_class_and_config(ops):
    with pytest.raises(TypeError, match="Could not create Scale from its config"):
        ops.Scale.from_config({"name": "s", "unknown": 1})


def test_input_and_output_properties(ops):
    scale = ops.Scale()
    with pytest.raises(AttributeError, match="never been called"):
        _ = scale.output
    x = KerasTensor((2,))
    y = scale(x)
    assert scale.input is x
    assert scale.output is y


def test_missing_compute_output_spec_says_how_to_fix():
    class NoSpec(Operation):
        def call(self, x):
            return x

    with pytest.raises(NotImplementedError, match="compute_output_spec") as info:
        NoSpec(name="nospec")(KerasTensor((2, 5)))
    assert "nospec" in "".join(info.value.__notes__)
    assert "shape=(2, 5)" in "".join(info.value.__notes__)


def test_output_spec_hook_is_the_default_inference():
    import mb_graph

    class Identity(Operation):
        def call(self, x):
            return x

    seen = []

    def hook(call_fn, *args, **kwargs):
        seen.append(call_fn)
        return KerasTensor(args[0].shape, args[0].dtype)

    previous = mb_graph.set_output_spec_hook(hook)
    try:
        op = Identity()
        out = op(KerasTensor((4,)))
    finally:
        mb_graph.set_output_spec_hook(previous)
    assert out.shape == (4,)
    assert seen == [op.call]


def test_shape_errors_name_the_operation_and_the_shapes(ops):
    add = ops.Add(name="adder")
    with pytest.raises(ValueError, match=r"\(3,\) and \(4,\)") as info:
        add(KerasTensor((3,), name="left"), KerasTensor((4,), name="right"))
    note = "".join(info.value.__notes__)
    assert "'adder' (Add)" in note
    assert "'left' shape=(3,)" in note
    assert "'right' shape=(4,)" in note


def test_call_without_implementation_names_the_operation():
    with pytest.raises(NotImplementedError, match=r"'bare' .* does not implement `call`"):
        Operation(name="bare")(1.0)
