"""Initializers, regularizers, constraints, activations and dtype policies: get/serialize."""

import numpy as np
import pytest

from mb_layers import (
    activations,
    constraints,
    dtype_policies,
    initializers,
    layers,
    regularizers,
)

INITIALIZER_NAMES = [
    "Constant",
    "GlorotNormal",
    "GlorotUniform",
    "HeNormal",
    "HeUniform",
    "Identity",
    "LecunNormal",
    "LecunUniform",
    "Ones",
    "Orthogonal",
    "RandomNormal",
    "RandomUniform",
    "STFT",
    "TruncatedNormal",
    "VarianceScaling",
    "Zeros",
]


@pytest.mark.parametrize("name", INITIALIZER_NAMES)
def test_every_initializer_round_trips_and_has_a_snake_case_alias(name):
    cls = getattr(initializers, name)
    instance = cls()
    config = initializers.serialize(instance)
    assert config["module"] == "keras.initializers" and config["class_name"] == name
    revived = initializers.deserialize(config)
    assert type(revived) is cls and revived.get_config() == instance.get_config()
    alias = {"STFT": "stft"}.get(name) or "".join(
        f"_{c.lower()}" if c.isupper() and i else c.lower() for i, c in enumerate(name)
    )
    assert getattr(initializers, alias) is cls
    assert type(initializers.get(alias)) is cls


def test_initializer_values_follow_their_formulas():
    np.testing.assert_array_equal(
        np.asarray(initializers.Constant(3.0)((2, 2))), np.full((2, 2), 3.0)
    )
    np.testing.assert_array_equal(np.asarray(initializers.Identity(2.0)((2, 3))), 2 * np.eye(2, 3))
    values = np.asarray(initializers.HeNormal(seed=1)((400, 300)))
    assert abs(values.std() - np.sqrt(2 / 400)) < 0.1 * np.sqrt(2 / 400)
    assert np.abs(values).max() <= 2 * np.sqrt(2 / 400) / 0.87962566103423978 + 1e-6
    uniform = np.asarray(initializers.RandomUniform(-1.0, 2.0, seed=3)((1000,)))
    assert uniform.min() >= -1.0 and uniform.max() < 2.0
    q = np.asarray(initializers.Orthogonal(seed=2)((5, 3)))
    np.testing.assert_allclose(q.T @ q, np.eye(3), atol=1e-5)
    same = initializers.GlorotUniform(seed=7)
    np.testing.assert_array_equal(np.asarray(same((3, 3))), np.asarray(same((3, 3))))


def test_stft_initializer_is_a_windowed_fourier_basis():
    kernel = np.asarray(initializers.STFT("real", window=None, scaling=None)((4, 1, 3)))
    time = np.arange(4)[:, None]
    freq = np.arange(3)[None, :] / 4
    np.testing.assert_allclose(kernel[:, 0, :], np.cos(-2 * np.pi * time * freq), atol=1e-6)


def test_regularizers_compute_penalties_and_round_trip():
    x = np.array([[1.0, -2.0], [3.0, 0.0]], "float32")
    np.testing.assert_allclose(float(regularizers.L1(0.1)(x)), 0.6, rtol=1e-6)
    np.testing.assert_allclose(float(regularizers.L2(0.1)(x)), 1.4, rtol=1e-6)
    np.testing.assert_allclose(float(regularizers.L1L2(0.1, 0.1)(x)), 2.0, rtol=1e-6)
    assert float(regularizers.OrthogonalRegularizer(1.0)(np.eye(2, dtype="float32"))) == 0.0
    config = regularizers.serialize(regularizers.L1L2(l1=0.1, l2=0.2))
    assert config == {
        "module": "keras.regularizers",
        "class_name": "L1L2",
        "config": {"l1": 0.1, "l2": 0.2},
        "registered_name": None,
    }
    assert type(regularizers.get("l1_l2")) is regularizers.L1L2
    with pytest.raises(ValueError, match="non-negative"):
        regularizers.L2(-1.0)


def test_constraints_project_weights():
    w = np.array([[3.0, -4.0], [4.0, 3.0]], "float32")
    np.testing.assert_allclose(np.asarray(constraints.NonNeg()(w)), np.maximum(w, 0))
    np.testing.assert_allclose(
        np.linalg.norm(np.asarray(constraints.UnitNorm()(w)), axis=0), [1.0, 1.0], rtol=1e-5
    )
    np.testing.assert_allclose(
        np.linalg.norm(np.asarray(constraints.MaxNorm(2.0)(w)), axis=0), [2.0, 2.0], rtol=1e-5
    )
    assert type(constraints.get("min_max_norm")) is constraints.MinMaxNorm
    assert constraints.serialize(constraints.MaxNorm())["config"] == {"max_value": 2, "axis": 0}


def test_activations_by_name_and_serialization():
    x = np.linspace(-2, 2, 5).astype("float32")
    assert activations.get("swish") is activations.silu
    assert activations.get(None) is activations.linear
    assert activations.serialize(activations.relu) == "relu"
    np.testing.assert_allclose(
        np.asarray(activations.get("mish")(x)), x * np.tanh(np.log1p(np.exp(x))), rtol=1e-5
    )
    with pytest.raises(ValueError, match="Unknown activation"):
        activations.get("not_an_activation")
    assert len(activations.ALL_OBJECTS) == 30


def test_dtype_policies():
    policy = dtype_policies.get("mixed_float16")
    assert (policy.compute_dtype, policy.variable_dtype) == ("float16", "float32")
    assert dtype_policies.serialize(dtype_policy=policy) == {
        "module": "keras",
        "class_name": "DTypePolicy",
        "config": {"name": "mixed_float16"},
        "registered_name": None,
    }
    assert dtype_policies.deserialize(dtype_policies.serialize(policy)) == policy
    with pytest.raises(ValueError, match="dtype policy"):
        dtype_policies.get("mixed_int8")
    dtype_policies.set_dtype_policy("mixed_bfloat16")
    try:
        assert layers.Dense(2).compute_dtype == "bfloat16"
    finally:
        dtype_policies.set_dtype_policy(None)
