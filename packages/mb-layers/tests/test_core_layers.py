"""Core, activation and regularization layers through the layer harness, against NumPy."""

import numpy as np
import pytest

from mb_layers import layers
from mb_layers.testing import run_layer_test
from mb_ops import ops


def test_dense_harness_and_numbers():
    x = np.arange(6, dtype="float32").reshape(2, 3)
    run_layer_test(
        layers.Dense,
        {"units": 2, "kernel_initializer": "ones", "bias_initializer": "ones"},
        input_shape=(None, 3),
        input_data=x,
        expected_output_shape=(2, 2),
        expected_output_dtype="float32",
        expected_output=x.sum(axis=1, keepdims=True) + np.ones((2, 2), "float32"),
        expected_num_trainable_weights=2,
        expected_num_non_trainable_weights=0,
        supports_masking=True,
    )


def test_dense_on_rank_3_inputs_and_activation():
    x = np.linspace(-1, 1, 24, dtype="float32").reshape(2, 3, 4)
    layer = layers.Dense(5, activation="relu", kernel_initializer="ones")
    y = ops.convert_to_numpy(layer(x))
    np.testing.assert_allclose(y, np.maximum(x.sum(-1, keepdims=True), 0) * np.ones(5), rtol=1e-6)


def test_dense_rejects_unknown_last_axis():
    with pytest.raises(ValueError, match="last axis to be known"):
        layers.Dense(2).build((None, None))


def test_einsum_dense_shapes_and_numbers():
    x = np.random.default_rng(0).standard_normal((2, 3, 4)).astype("float32")
    layer = layers.EinsumDense(
        "abc,cd->abd", output_shape=(None, 5), bias_axes="d", kernel_initializer="ones"
    )
    y = ops.convert_to_numpy(layer(x))
    assert y.shape == (2, 3, 5)
    assert layer.kernel.shape == (4, 5) and layer.bias.shape == (5,)
    np.testing.assert_allclose(y, np.einsum("abc,cd->abd", x, np.ones((4, 5))), rtol=1e-5)
    run_layer_test(
        layers.EinsumDense,
        {
            "equation": "...b,bc->...c",
            "output_shape": 6,
            "bias_axes": "c",
            "kernel_initializer": "ones",
        },
        input_shape=(None, 3, 4),
        expected_output_shape=(None, 3, 6),
        expected_num_trainable_weights=2,
    )


def test_embedding_harness_and_mask_zero():
    run_layer_test(
        layers.Embedding,
        {"input_dim": 5, "output_dim": 3, "mask_zero": True, "embeddings_initializer": "ones"},
        input_shape=(None, 4),
        input_dtype="int32",
        input_data=np.array([[0, 1, 2, 0]], "int32"),
        expected_output_shape=(1, 4, 3),
        expected_output_dtype="float32",
        expected_num_trainable_weights=1,
        expected_mask_shape=(1, 4),
        supports_masking=True,
    )
    layer = layers.Embedding(4, 2)
    layer.build()
    table = np.arange(8, dtype="float32").reshape(4, 2)
    layer.set_weights([table])
    np.testing.assert_array_equal(ops.convert_to_numpy(layer(np.array([[3, 1]]))), table[[[3, 1]]])


def test_identity_and_masking():
    run_layer_test(
        layers.Identity,
        {},
        input_shape=(2, 3),
        expected_output_shape=(2, 3),
        supports_masking=True,
        assert_built_after_instantiation=True,
    )
    x = np.array([[[1.0, 2.0], [0.0, 0.0], [3.0, 0.0]]], "float32")
    layer = layers.Masking(mask_value=0.0)
    y = layer(x)
    from mb_layers import get_keras_mask

    assert np.asarray(get_keras_mask(y)).tolist() == [[True, False, True]]
    np.testing.assert_array_equal(np.asarray(y), x)


def test_lambda_runs_function_and_refuses_bytecode_in_safe_mode():
    layer = layers.Lambda(lambda x: x * 2.0)
    np.testing.assert_allclose(np.asarray(layer(np.ones((1, 2), "float32"))), [[2.0, 2.0]])
    config = layer.get_config()
    with pytest.raises(ValueError, match="safe_mode"):
        layers.Lambda.from_config(config)
    revived = layers.Lambda.from_config(config, safe_mode=False)
    np.testing.assert_allclose(np.asarray(revived(np.ones((1, 2), "float32"))), [[2.0, 2.0]])


@pytest.mark.parametrize(
    ("cls", "kwargs", "reference"),
    [
        (layers.ReLU, {}, lambda x: np.maximum(x, 0)),
        (
            layers.ReLU,
            {"max_value": 1.0, "negative_slope": 0.1, "threshold": 0.5},
            lambda x: np.where(x >= 1.0, 1.0, np.where(x > 0.5, x, 0.1 * (x - 0.5))),
        ),
        (layers.LeakyReLU, {"negative_slope": 0.2}, lambda x: np.where(x > 0, x, 0.2 * x)),
        (layers.ELU, {"alpha": 0.5}, lambda x: np.where(x > 0, x, 0.5 * (np.exp(x) - 1))),
        (layers.Softmax, {}, lambda x: np.exp(x) / np.exp(x).sum(-1, keepdims=True)),
        (layers.Activation, {"activation": "tanh"}, np.tanh),
        (layers.PReLU, {"alpha_initializer": "ones"}, lambda x: x),
    ],
)
def test_activation_layers_match_numpy(cls, kwargs, reference):
    x = np.linspace(-3, 3, 12, dtype="float32").reshape(3, 4)
    run_layer_test(
        cls,
        kwargs,
        input_shape=(None, 4),
        input_data=x,
        expected_output_shape=(3, 4),
        expected_output=reference(x),
        tolerance=1e-5,
    )


def test_softmax_mask_gives_masked_positions_no_weight():
    x = np.zeros((1, 3), "float32")
    y = np.asarray(layers.Softmax()(x, mask=np.array([[True, True, False]])))
    np.testing.assert_allclose(y, [[0.5, 0.5, 0.0]], atol=1e-6)


@pytest.mark.parametrize(
    ("cls", "kwargs"),
    [
        (layers.Dropout, {"rate": 0.5, "seed": 1}),
        (layers.SpatialDropout1D, {"rate": 0.5, "seed": 1}),
        (layers.SpatialDropout2D, {"rate": 0.5, "seed": 1}),
        (layers.GaussianNoise, {"stddev": 0.5, "seed": 1}),
        (layers.GaussianDropout, {"rate": 0.5, "seed": 1}),
        (layers.AlphaDropout, {"rate": 0.5, "seed": 1}),
    ],
)
def test_noise_layers_are_identity_at_inference(cls, kwargs):
    shape = (2, 3, 4, 5) if cls is layers.SpatialDropout2D else (2, 3, 4)
    x = np.random.default_rng(0).standard_normal(shape).astype("float32")
    run_layer_test(
        cls,
        kwargs,
        input_shape=shape,
        input_data=x,
        expected_output=x,
        expected_output_shape=shape,
        expected_num_trainable_weights=0,
        expected_num_seed_generators=1,
    )


def test_activity_regularization_adds_one_loss():
    x = np.array([[1.0, -2.0]], "float32")
    layer = layers.ActivityRegularization(l1=0.1, l2=0.2)
    layer(x)
    (loss,) = layer.losses
    np.testing.assert_allclose(float(np.asarray(loss)), 0.1 * 3 + 0.2 * 5, rtol=1e-6)


@pytest.mark.parametrize("rank", [1, 2, 3])
def test_convolutions_with_a_lora_rank_train_a_low_rank_update_of_a_frozen_kernel(rank):
    cls = {1: layers.Conv1D, 2: layers.Conv2D, 3: layers.Conv3D}[rank]
    x = np.random.default_rng(rank).normal(size=(2, *(5,) * rank, 3)).astype("float32")
    layer = cls(4, 3, lora_rank=2, lora_alpha=6, data_format="channels_last")
    layer(x)
    assert layer.lora_enabled and not layer._kernel.trainable
    assert sorted(v.name for v in layer.trainable_weights) == [
        "bias",
        "lora_kernel_a",
        "lora_kernel_b",
    ]
    assert tuple(layer.lora_kernel_a.shape) == (*(3,) * rank, 3, 2)
    assert tuple(layer.lora_kernel_b.shape) == (2, 4)
    layer.lora_kernel_b.assign(np.full((2, 4), 0.5, "float32"))
    kernel = np.asarray(layer._kernel.numpy())
    a = np.asarray(layer.lora_kernel_a.numpy())
    merged = kernel + 6 / 2 * (a @ np.full((2, 4), 0.5, "float32"))
    np.testing.assert_allclose(ops.convert_to_numpy(layer.kernel), merged, rtol=1e-5, atol=1e-6)
    plain = cls(4, 3, data_format="channels_last")
    plain(x)
    plain.set_weights([merged, np.asarray(layer.bias.numpy())])
    np.testing.assert_allclose(
        ops.convert_to_numpy(layer(x)), ops.convert_to_numpy(plain(x)), rtol=1e-4, atol=1e-5
    )
    config = layer.get_config()
    assert (config["lora_rank"], config["lora_alpha"]) == (2, 6)
    assert cls.from_config(config).lora_rank == 2
    assert "lora_rank" not in cls(2, 3, lora_rank=None, lora_alpha=None).get_config()


def test_conv_enable_lora_refuses_what_keras_refuses():
    with pytest.raises(ValueError, match="isn't yet built"):
        layers.Conv2D(2, 3).enable_lora(2)
    layer = layers.Conv2D(2, 3, data_format="channels_last")
    layer(np.ones((1, 4, 4, 1), "float32"))
    layer.enable_lora(2)
    with pytest.raises(ValueError, match="already enabled"):
        layer.enable_lora(2)
    constrained = layers.Conv2D(2, 3, kernel_constraint="non_neg", data_format="channels_last")
    constrained(np.ones((1, 4, 4, 1), "float32"))
    with pytest.raises(ValueError, match="incompatible with kernel constraints"):
        constrained.enable_lora(2)


_FLOAT16 = {
    "module": "keras",
    "class_name": "DTypePolicy",
    "config": {"name": "float16"},
    "registered_name": None,
}


@pytest.mark.parametrize(
    "cls, config",
    [
        (layers.Rescaling, {"scale": 2.0, "offset": 1.0}),
        (layers.SpatialDropout1D, {"rate": 0.5, "seed": 3, "trainable": True}),
        (layers.SpatialDropout2D, {"rate": 0.5, "seed": 3, "data_format": "channels_first"}),
        (layers.SpatialDropout3D, {"rate": 0.5, "seed": None}),
    ],
)
def test_from_config_goes_through_layer_from_config(cls, config):
    # Layer.from_config decodes a serialized dtype policy (and names the layer on errors).
    layer = cls.from_config({**config, "name": "x", "dtype": _FLOAT16})
    assert layer.compute_dtype == "float16" and layer.name == "x"
    assert cls.from_config(layer.get_config()).get_config() == layer.get_config()
    with pytest.raises(TypeError, match=f"Error when deserializing class '{cls.__name__}'"):
        cls.from_config({**config, "no_such_argument": 1})
