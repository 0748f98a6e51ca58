"""Attention layers: shapes (symbolic and eager), masks, configs, weights layout."""

import json

import numpy as np

import mb_layers
from mb_layers import layers
from mb_layers.testing import run_layer_test

RNG = np.random.default_rng(3)


def test_multi_head_attention_weights_shapes_and_symbolic_scores():
    mha = layers.MultiHeadAttention(num_heads=2, key_dim=4, name="mha")
    q, v = mb_layers.Input((3, 8)), mb_layers.Input((5, 6))
    out, scores = mha(q, v, return_attention_scores=True)
    assert out.shape == (None, 3, 8) and scores.shape == (None, 2, 3, 5)
    assert [w.path for w in mha.weights][::2] == [
        "mha/query/kernel",
        "mha/key/kernel",
        "mha/value/kernel",
        "mha/attention_output/kernel",
    ]
    assert mha.weights[0].shape == (8, 2, 4) and mha.weights[6].shape == (2, 4, 8)


def test_multi_head_attention_value_mask_hides_padded_steps():
    mha = layers.MultiHeadAttention(num_heads=1, key_dim=2)
    q = RNG.standard_normal((1, 2, 4)).astype("float32")
    v = RNG.standard_normal((1, 3, 4)).astype("float32")
    _, scores = mha(q, v, value_mask=np.array([[True, True, False]]), return_attention_scores=True)
    scores = np.asarray(scores)
    np.testing.assert_allclose(scores[..., 2], 0.0, atol=1e-6)
    np.testing.assert_allclose(scores.sum(-1), 1.0, rtol=1e-5)


def test_attention_layer_configs_round_trip():
    for layer in (
        layers.MultiHeadAttention(2, 3, output_shape=5, attention_axes=1),
        layers.GroupedQueryAttention(4, 4, 2),
        layers.Attention(use_scale=True),
        layers.AdditiveAttention(use_scale=False),
    ):
        config = json.loads(json.dumps(layers.serialize(layer)))
        revived = layers.deserialize(config)
        assert type(revived) is type(layer)
        assert json.loads(json.dumps(revived.get_config())) == config["config"]
    assert layers.serialize(layers.GroupedQueryAttention(4, 4, 2))["class_name"] == (
        "GroupQueryAttention"
    )


def test_dot_attention_harness_with_causal_mask():
    q = RNG.standard_normal((2, 3, 4)).astype("float32")
    run_layer_test(
        layers.Attention,
        {"use_scale": True},
        input_data=[q, q],
        call_kwargs={"use_causal_mask": True},
        expected_output_shape=(2, 3, 4),
        expected_num_trainable_weights=1,
    )
    first = np.asarray(layers.Attention()([q, q], use_causal_mask=True))[:, 0]
    np.testing.assert_allclose(first, q[:, 0], rtol=1e-5)  # Step 0 sees only itself.
