"""Variable, scopes and seeds on the NumPy backend (the live value is always visible)."""

import numpy as np
import pytest

import mb_ops
from mb_ops import KerasTensor
from mb_ops import numpy as mnp
from mb_ops import random as mrandom


def test_mb_ops_variable_makes_the_backends_variable():
    v = mb_ops.Variable(np.ones((2, 2), "float32"), name="w")
    backend_variable = mb_ops.backends.backend_module("core").Variable
    assert isinstance(v, backend_variable) and isinstance(v, mb_ops.Variable)
    assert (v.shape, v.dtype, v.name) == ((2, 2), "float32", "w")


def test_variable_python_operators_and_ops_accept_variables():
    v = mb_ops.Variable(np.array([1.0, 2.0], "float32"))
    np.testing.assert_allclose(v + 1, [2.0, 3.0])
    np.testing.assert_allclose(2 * v, [2.0, 4.0])
    np.testing.assert_allclose(v @ np.array([1.0, 1.0], "float32"), 3.0)
    np.testing.assert_array_equal(v > 1.5, [False, True])
    np.testing.assert_allclose(-v, [-1.0, -2.0])
    np.testing.assert_allclose(mnp.exp(v), np.exp([1.0, 2.0]), rtol=1e-6)
    assert float(v[1]) == 2.0


def test_variable_with_a_keras_tensor_is_symbolic():
    v = mb_ops.Variable(np.ones((3,), "float32"))
    out = v + KerasTensor((None, 3))
    assert isinstance(out, KerasTensor) and out.shape == (None, 3)


def test_assign_add_and_sub_change_the_live_value():
    v = mb_ops.Variable(np.zeros(2, "float32"))
    v.assign_add([1.0, 2.0])
    v.assign_sub(np.array([0.5, 0.5], "float32"))
    np.testing.assert_allclose(v.numpy(), [0.5, 1.5])


def test_stateless_scope_overrides_only_while_active():
    v = mb_ops.Variable(np.float32(1.0))
    with mb_ops.StatelessScope([(v, np.float32(10.0))]) as scope:
        v.assign_add(np.float32(1.0))
        assert float(v.value) == 11.0
    assert float(scope.get_current_value(v)) == 11.0
    assert float(v.numpy()) == 1.0
    # A trainer writes the scope's results back; user code then sees them.
    for variable, value in scope.updated_variables():
        variable.assign(value)
    assert float(v.numpy()) == 11.0


def test_seed_generator_advances_and_is_reproducible():
    gen = mrandom.SeedGenerator(42)
    first = np.asarray(mrandom.draw_seed(gen))
    second = np.asarray(mrandom.draw_seed(gen))
    assert first.shape == (2,) and not np.array_equal(first, second)
    again = mrandom.SeedGenerator(42)
    np.testing.assert_array_equal(np.asarray(mrandom.draw_seed(again)), first)
    assert gen.state.path.endswith("seed_generator_state")
    assert not gen.state.trainable
    assert mrandom.SeedGenerator.from_config(gen.get_config()).get_config() == {"seed": 42}


def test_seed_generator_backend_is_the_active_one_as_keras_dynamic_backend():
    gen = mrandom.SeedGenerator(5, backend=mb_ops.config.backend())
    assert gen.backend.name == mb_ops.config.backend()
    np.testing.assert_array_equal(np.asarray(gen.backend.numpy.add(gen.state, 1)), [6, 1])
    same = mrandom.SeedGenerator(5, backend=gen.backend)
    np.testing.assert_array_equal(np.asarray(same.state), [5, 0])
    other = "jax" if mb_ops.config.backend() != "jax" else "torch"
    with pytest.raises(
        ValueError, match=f"SeedGenerator\\(backend='{other}'\\).*MB_BACKEND={other}"
    ):
        mrandom.SeedGenerator(5, backend=other)
    with pytest.raises(ValueError, match="Received: backend='tf'"):
        gen.backend.set_backend("tf")


def test_draw_seed_accepts_int_and_none_and_rejects_others():
    np.testing.assert_array_equal(np.asarray(mrandom.draw_seed(7)), [7, 0])
    a = np.asarray(mrandom.draw_seed(None))
    b = np.asarray(mrandom.draw_seed(None))
    assert not np.array_equal(a, b)
    with pytest.raises(ValueError, match="seed must be an int"):
        mrandom.draw_seed("seven")
    with pytest.raises(ValueError, match="int seed"):
        mrandom.SeedGenerator(1.5)


def test_seed_draws_inside_a_stateless_scope_are_recorded_not_applied():
    gen = mrandom.SeedGenerator(3)
    before = np.asarray(gen.state.numpy()).copy()
    with mb_ops.StatelessScope() as scope:
        mrandom.draw_seed(gen)
    np.testing.assert_array_equal(gen.state.numpy(), before)
    np.testing.assert_array_equal(
        np.asarray(scope.get_current_value(gen.state)), np.add(before, [0, 1])
    )


def test_random_normal_is_seeded():
    if not hasattr(mb_ops.backends.backend_module("random"), "normal"):
        pytest.fail("the numpy backend should provide random.normal")
    a = np.asarray(mrandom.normal((1000,), seed=1))
    b = np.asarray(mrandom.normal((1000,), seed=1))
    np.testing.assert_array_equal(a, b)
    assert abs(a.mean()) < 0.15 and abs(a.std() - 1) < 0.15
    assert mb_ops.dtypes.standardize_dtype(a.dtype) == "float32"


def test_set_random_seed_makes_unseeded_draws_repeat():
    import random

    from mb_ops import ops
    from mb_ops.random import normal, set_random_seed

    set_random_seed(123)
    first = (ops.convert_to_numpy(normal((3,))), np.random.rand(), random.random())
    set_random_seed(123)
    again = (ops.convert_to_numpy(normal((3,))), np.random.rand(), random.random())
    np.testing.assert_array_equal(first[0], again[0])
    assert first[1:] == again[1:]
    with pytest.raises(TypeError, match="int seed"):
        set_random_seed(1.5)
