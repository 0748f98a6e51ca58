import numpy as np
import pytest

import mb_ops


class NumpyTestVariable(mb_ops.Variable):
    def _convert_to_tensor(self, value, dtype=None):
        if isinstance(value, mb_ops.Variable):
            value = value.value
        dtype = None if dtype is None else mb_ops.dtypes.standardize_dtype(dtype)
        return np.asarray(value, dtype=dtype)

    def _initialize(self, value):
        self._value = np.array(value)

    def _direct_assign(self, value):
        self._value = np.array(value)


def test_variable_from_value_infers_shape_and_dtype():
    v = NumpyTestVariable(np.zeros((2, 3), dtype="int64"), name="counts")
    assert v.shape == (2, 3)
    assert v.dtype == "int64"
    assert v.ndim == 2
    assert v.name == "counts" and v.path == "counts"


def test_variable_from_callable_needs_shape():
    with pytest.raises(ValueError, match="needs a shape"):
        NumpyTestVariable(lambda shape, dtype=None: np.zeros(shape))
    v = NumpyTestVariable(lambda shape, dtype=None: np.ones(shape), shape=(4,), dtype="float32")
    np.testing.assert_array_equal(v.numpy(), np.ones(4))
    assert v.dtype == "float32"


def test_variable_name_rejects_slash():
    with pytest.raises(ValueError, match="without '/'"):
        NumpyTestVariable(1.0, name="a/b")


def test_variable_path_follows_name_scopes():
    with mb_ops.name_scope("dense"), mb_ops.name_scope("inner"):
        v = NumpyTestVariable(1.0, name="kernel")
    assert v.path == "dense/inner/kernel"
    assert mb_ops.current_path() == ""


def test_name_scope_override_parent_puts_variables_under_that_path():
    with mb_ops.name_scope("outer"):
        scope = mb_ops.name_scope("inner", override_parent="model/block")
        with scope:
            v = NumpyTestVariable(1.0, name="kernel")
        w = NumpyTestVariable(1.0, name="bias")
    assert scope.override_parent == "model/block"
    assert v.path == "model/block/inner/kernel"
    assert w.path == "outer/bias"


def test_name_scope_rejects_unknown_keywords_and_slashes():
    with pytest.raises(TypeError, match="override_parent"):
        mb_ops.name_scope("a", parent="b")
    with pytest.raises(ValueError, match="without '/'"):
        mb_ops.name_scope("a/b")


def test_variable_shows_its_constructor_arguments():
    import inspect

    params = list(inspect.signature(mb_ops.Variable).parameters)
    assert params[:3] == ["initializer", "shape", "dtype"]
    assert "layout" in params


def test_assign_checks_shape_and_changes_live_value():
    v = NumpyTestVariable(np.zeros(3, dtype="float32"))
    v.assign([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match=r"shape \(2,\).*shape \(3,\)"):
        v.assign([1.0, 2.0])


def test_trainable_is_settable():
    v = NumpyTestVariable(1.0, trainable=False)
    assert not v.trainable
    v.trainable = True
    assert v.trainable


def test_stateless_scope_reads_mapping_and_records_assignments():
    v = NumpyTestVariable(np.float32(1.0))
    with mb_ops.StatelessScope([(v, np.float32(5.0))]) as scope:
        assert float(v.value) == 5.0
        v.assign(np.float32(7.0))
        assert float(v.value) == 7.0
    assert float(scope.get_current_value(v)) == 7.0
    # The live value is untouched, and reads outside the scope see it.
    assert float(v.numpy()) == 1.0
    assert not mb_ops.in_stateless_scope()


def test_outside_a_scope_reads_and_writes_are_live():
    v = NumpyTestVariable(np.float32(1.0))
    with mb_ops.StatelessScope([(v, np.float32(2.0))]):
        pass
    v.assign(np.float32(3.0))  # e.g. from a callback between steps
    assert float(v.value) == 3.0


def test_stateless_scope_rejects_mismatched_shapes():
    v = NumpyTestVariable(np.zeros(3, dtype="float32"))
    with pytest.raises(ValueError, match="shape"):
        mb_ops.StatelessScope([(v, np.zeros(2, dtype="float32"))])


def test_variables_created_in_a_stateless_scope_initialize_on_exit():
    with mb_ops.StatelessScope():
        v = NumpyTestVariable(lambda shape, dtype=None: np.full(shape, 2.0), shape=(2,))
        np.testing.assert_array_equal(v.value, [2.0, 2.0])
        with pytest.raises(ValueError, match="StatelessScope"):
            NumpyTestVariable(1.0)
    assert v._value is not None
    np.testing.assert_array_equal(v.numpy(), [2.0, 2.0])


def test_autocast_scope_reads_float_variables_in_compute_dtype():
    class CastingVariable(NumpyTestVariable):
        pass

    v = CastingVariable(np.ones(2, dtype="float32"))
    i = CastingVariable(np.ones(2, dtype="int32"))
    with mb_ops.AutocastScope("float16"):
        assert v.dtype == "float16"
        assert i.dtype == "int32"
    assert v.dtype == "float32"


def test_symbolic_scope_flag():
    assert not mb_ops.in_symbolic_scope()
    with mb_ops.SymbolicScope():
        assert mb_ops.in_symbolic_scope()
    assert not mb_ops.in_symbolic_scope()


def test_numpy_conversions():
    v = NumpyTestVariable(np.float32(2.5))
    assert float(v) == 2.5
    assert np.asarray(v).dtype == np.float32
    with pytest.raises(TypeError, match="scalar"):
        int(NumpyTestVariable(np.zeros(2)))


def test_clear_session_restarts_automatic_names():
    mb_ops.clear_session()
    first = NumpyTestVariable(1.0)
    second = NumpyTestVariable(1.0)
    mb_ops.clear_session()
    again = NumpyTestVariable(1.0)
    assert first.name == again.name
    assert second.name == f"{first.name}_1"


def test_clear_session_frees_what_only_reference_cycles_hold():
    import gc
    import weakref

    class Holder:
        pass

    def dropped_cycle():
        holder = Holder()
        holder.me, holder.variable = holder, NumpyTestVariable(np.zeros(1000))
        return weakref.ref(holder)

    gc.disable()  # only clear_session may collect here
    try:
        kept = dropped_cycle()
        mb_ops.clear_session(free_memory=False)
        assert kept() is not None  # free_memory=False leaves the cycle to the collector
        mb_ops.clear_session()  # Keras's default, free_memory=True
        assert kept() is None
    finally:
        gc.enable()


def test_donating_stateless_scope_knows_which_values_were_donated():
    import mb_ops

    a, b = mb_ops.Variable(np.zeros(2, "float32")), mb_ops.Variable(np.ones(2, "float32"))
    mine = np.full(2, 3.0, "float32")
    pairs = iter([(a, mine), (b, np.ones(2, "float32"))])  # any iterable of pairs
    with mb_ops.DonatingStatelessScope(pairs, donated=[mine]) as s:
        assert s.is_donated(s.get_current_value(a))
        assert not s.is_donated(s.get_current_value(b))
        a.assign(np.full(2, 4.0, "float32"))
        assert not s.is_donated(s.get_current_value(a))  # a new value is not the donated one


def test_stateless_scope_takes_keras_arguments_only():
    import inspect

    import mb_ops

    params = list(inspect.signature(mb_ops.StatelessScope).parameters)
    assert params == ["state_mapping", "collect_losses", "initialize_variables"]
    with pytest.raises(TypeError, match="donated"):
        mb_ops.StatelessScope(donated=())
    v = mb_ops.Variable(np.zeros(2, "float32"))
    with mb_ops.StatelessScope([(v, np.ones(2, "float32"))]) as s:
        assert not s.is_donated(s.get_current_value(v))
