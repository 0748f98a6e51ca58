import operator

import pytest

import mb_graph
from mb_graph import KerasTensor, any_symbolic_tensors, is_keras_tensor


class RecordingOps:
    """An operator namespace that records which function each operator called."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return lambda *args, **kwargs: (name, args, kwargs)


@pytest.fixture
def recording_ops():
    previous = mb_graph.set_operator_hook(RecordingOps())
    yield
    mb_graph.set_operator_hook(previous)


@pytest.fixture
def no_ops():
    previous = mb_graph.set_operator_hook(None)
    yield
    mb_graph.set_operator_hook(previous)


def test_shape_dtype_flags_and_name():
    x = KerasTensor([None, 3], dtype="int32", sparse=True, name="ids")
    assert x.shape == (None, 3)
    assert x.dtype == "int32"
    assert x.ndim == 2
    assert x.sparse and not x.ragged
    assert x.name == "ids"
    assert x._keras_history is None
    assert is_keras_tensor(x)
    assert not is_keras_tensor(3.0)
    assert KerasTensor(()).ndim == 0


def test_default_names_are_unique():
    assert KerasTensor((1,)).name != KerasTensor((1,)).name


def test_attributes_are_immutable():
    x = KerasTensor((2,))
    with pytest.raises(AttributeError, match="immutable"):
        x.shape = (3,)
    with pytest.raises(AttributeError, match="immutable"):
        x.dtype = "int32"


@pytest.mark.parametrize(
    "shape, message",
    [(None, "undefined shapes"), ((2, -1), "negative"), ((2, 1.5), "float"), (3, "Cannot convert")],
)
def test_invalid_shapes_are_refused(shape, message):
    with pytest.raises(ValueError, match=message):
        KerasTensor(shape)


def test_sparse_and_ragged_together_are_refused():
    with pytest.raises(ValueError, match="both sparse and ragged"):
        KerasTensor((2,), sparse=True, ragged=True)


def test_dtype_standardizer_hook():
    assert KerasTensor((1,), dtype=float).dtype == "float32"
    assert KerasTensor((1,), dtype=None).dtype == "float32"
    previous = mb_graph.set_dtype_standardizer(lambda d: "float16" if d is None else str(d))
    try:
        assert KerasTensor((1,), dtype=None).dtype == "float16"
        # The built-in standardizer (no hook: what mb-graph alone does) names what it got,
        # also when an op library such as mb-ops has installed its own in this process.
        mb_graph.set_dtype_standardizer(None)
        with pytest.raises(TypeError, match="Cannot read a dtype"):
            KerasTensor((1,), dtype=3)
    finally:
        mb_graph.set_dtype_standardizer(previous)


def test_refuses_to_be_used_as_data():
    x = KerasTensor((None, 3))
    with pytest.raises(TypeError, match="boolean"):
        bool(x)
    with pytest.raises(TypeError, match="unknown"):
        len(x)
    with pytest.raises(TypeError, match="iterated"):
        iter(x)
    with pytest.raises(TypeError, match="unpacked"):
        _a, _b = KerasTensor((2,))
    with pytest.raises(ValueError, match="NumPy array"):
        x.__array__()
    with pytest.raises(ValueError, match="Python float"):
        float(x)
    assert len(KerasTensor((4, 3))) == 4


def test_operators_without_an_op_library_say_what_to_import(no_ops):
    x = KerasTensor((2,))
    with pytest.raises(TypeError, match="import mb_ops"):
        x + 1
    with pytest.raises(TypeError, match="get_item"):
        x[0]


BINARY = [
    (operator.add, "add"),
    (operator.sub, "subtract"),
    (operator.mul, "multiply"),
    (operator.truediv, "true_divide"),
    (operator.floordiv, "floor_divide"),
    (operator.mod, "mod"),
    (operator.pow, "power"),
    (operator.matmul, "matmul"),
    (operator.and_, "logical_and"),
    (operator.or_, "logical_or"),
    (operator.xor, "logical_xor"),
]


@pytest.mark.parametrize("fn, op_name", BINARY)
def test_binary_operators_route_to_the_hook_and_reflect(recording_ops, fn, op_name):
    x = KerasTensor((2,))
    assert fn(x, 5) == (op_name, (x, 5), {})
    assert fn(5, x) == (op_name, (5, x), {})


@pytest.mark.parametrize(
    "fn, op_name, swapped",
    [
        (operator.lt, "less", "greater"),
        (operator.le, "less_equal", "greater_equal"),
        (operator.gt, "greater", "less"),
        (operator.ge, "greater_equal", "less_equal"),
        (operator.ne, "not_equal", "not_equal"),
    ],
)
def test_comparisons_route_to_the_hook(recording_ops, fn, op_name, swapped):
    x = KerasTensor((2,))
    assert fn(x, 1) == (op_name, (x, 1), {})
    assert fn(1, x) == (swapped, (x, 1), {})


def test_equality_stays_identity_so_membership_tests_work(recording_ops):
    x, y = KerasTensor((2,)), KerasTensor((2,))
    assert x == x
    assert (x != 1) == ("not_equal", (x, 1), {})
    assert y in [x, y]
    assert {x: 1}[x] == 1


def test_unary_operators_indexing_and_round(recording_ops):
    x = KerasTensor((2, 3))
    assert -x == ("negative", (x,), {})
    assert abs(x) == ("absolute", (x,), {})
    assert ~x == ("logical_not", (x,), {})
    assert x[0, 1:] == ("get_item", (x, (0, slice(1, None))), {})
    assert round(x) == ("round", (x,), {"decimals": 0})
    assert round(x, 2) == ("round", (x,), {"decimals": 2})
    assert x.reshape((3, 2)) == ("reshape", (x, (3, 2)), {})


def test_any_symbolic_tensors_finds_nested_tensors():
    x = KerasTensor((2,))
    assert not any_symbolic_tensors()
    assert not any_symbolic_tensors((1, [2.0, {"a": None}]), {"k": (3,)})
    assert any_symbolic_tensors((x,))
    assert any_symbolic_tensors((1, [2.0, {"a": [x]}]))
    assert any_symbolic_tensors((), {"k": {"deep": (x,)}})
    assert not any_symbolic_tensors(("not a tensor", object()))
