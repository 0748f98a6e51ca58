"""Layers and networks on the active backend (MB_BACKEND), against NumPy formulas.

The image tests use the leg's image_data_format (channels_first on the torch leg).
An op the backend declares unsupported (in a contract module's ``UNSUPPORTED``)
skips the test with the backend's reason; any other NotImplementedError fails it.
"""

from __future__ import annotations

import numpy as np
import pytest

import mb
import mb_layers
from mb_layers import layers
from mb_ops import config, dtypes, ops, testing

RNG = np.random.default_rng(0)


def _np(x):
    return np.asarray(ops.convert_to_numpy(x)).astype("float64")


declared_ops_only = testing.declared_ops_only


def _channels_first():
    return config.image_data_format() == "channels_first"


@declared_ops_only
def test_dense_matches_numpy_on_the_backend():
    x = RNG.standard_normal((3, 4)).astype("float32")
    layer = layers.Dense(5, activation="relu")
    layer.build((None, 4))
    kernel = RNG.standard_normal((4, 5)).astype("float32")
    bias = RNG.standard_normal((5,)).astype("float32")
    layer.set_weights([kernel, bias])
    np.testing.assert_allclose(_np(layer(x)), np.maximum(x @ kernel + bias, 0), atol=1e-5)
    assert [v.path for v in layer.weights] == [f"{layer.name}/kernel", f"{layer.name}/bias"]


@declared_ops_only
def test_default_initializers_create_weights_of_the_right_scale():
    layer = layers.Dense(200)
    layer.build((None, 300))
    kernel = layer.kernel.numpy()
    limit = np.sqrt(6 / (300 + 200))
    assert kernel.shape == (300, 200)
    assert np.all(np.abs(kernel) <= limit + 1e-6)
    assert abs(kernel.std() - limit / np.sqrt(3)) < 0.01
    np.testing.assert_array_equal(layer.bias.numpy(), np.zeros(200))


@declared_ops_only
def test_functional_and_sequential_networks_run_on_the_backend():
    x = mb_layers.Input((4,))
    hidden = layers.Dense(3, kernel_initializer="ones", name="hidden")
    head = layers.Dense(2, kernel_initializer="ones", name="head")
    net = mb_layers.Functional(x, head(hidden(x)))
    data = RNG.standard_normal((2, 4)).astype("float32")
    expected = np.ones((2, 2)) * data.sum(1, keepdims=True) * 3
    np.testing.assert_allclose(_np(net(data)), expected, rtol=1e-5, atol=1e-5)
    seq = mb_layers.Sequential([mb_layers.Input((4,)), layers.Dense(2, kernel_initializer="ones")])
    np.testing.assert_allclose(
        _np(seq(data)), np.ones((2, 2)) * data.sum(1, keepdims=True), rtol=1e-5, atol=1e-5
    )


def _naive_conv2d_channels_last(x, kernel):
    kh, kw = kernel.shape[:2]
    out_h, out_w = x.shape[1] - kh + 1, x.shape[2] - kw + 1
    out = np.zeros((x.shape[0], out_h, out_w, kernel.shape[-1]))
    for i in range(out_h):
        for j in range(out_w):
            patch = x[:, i : i + kh, j : j + kw, :]
            out[:, i, j, :] = np.einsum("bhwc,hwcf->bf", patch, kernel)
    return out


@declared_ops_only
def test_conv_and_pooling_follow_the_image_data_format():
    x_last = RNG.standard_normal((2, 6, 5, 3)).astype("float32")
    x = np.transpose(x_last, (0, 3, 1, 2)) if _channels_first() else x_last
    conv = layers.Conv2D(4, 3, use_bias=False)
    conv.build(x.shape)
    kernel = RNG.standard_normal((3, 3, 3, 4)).astype("float32")
    conv.set_weights([kernel])
    expected = _naive_conv2d_channels_last(x_last, kernel)
    got = _np(conv(x))
    if _channels_first():
        got = np.transpose(got, (0, 2, 3, 1))
    np.testing.assert_allclose(got, expected, atol=1e-4)
    pooled = _np(layers.GlobalAveragePooling2D()(x))
    np.testing.assert_allclose(pooled, x_last.mean(axis=(1, 2)), atol=1e-5)
    flat = mb_layers.Sequential(
        [mb_layers.Input(x.shape[1:]), layers.MaxPooling2D(2), layers.Flatten()]
    )
    assert flat.output.shape == (None, 3 * 3 * 2)
    assert tuple(flat(x).shape) == (2, 3 * 3 * 2)


@declared_ops_only
def test_batch_normalization_training_updates_statistics_statelessly():
    x = (RNG.standard_normal((8, 3)) * 2 + 1).astype("float32")
    layer = layers.BatchNormalization(momentum=0.5)
    layer.build((None, 3))
    trainable = [v.value for v in layer.trainable_variables]
    non_trainable = [v.value for v in layer.non_trainable_variables]
    outputs, new_non_trainable = layer.stateless_call(trainable, non_trainable, x, training=True)
    mean, var = x.mean(0), x.var(0)
    np.testing.assert_allclose(_np(outputs), (x - mean) / np.sqrt(var + 1e-3), atol=1e-4)
    np.testing.assert_allclose(_np(new_non_trainable[0]), 0.5 * mean, atol=1e-5)
    np.testing.assert_allclose(_np(new_non_trainable[1]), 0.5 + 0.5 * var, atol=1e-4)
    np.testing.assert_allclose(layer.moving_mean.numpy(), np.zeros(3))


@declared_ops_only
def test_mixed_bfloat16_computes_in_bfloat16():
    layer = layers.Dense(2, kernel_initializer="ones", dtype="mixed_bfloat16")
    y = layer(np.ones((1, 3), "float32"))
    assert dtypes.standardize_dtype(y.dtype) == "bfloat16"
    assert layer.kernel._dtype == "float32"
    np.testing.assert_allclose(_np(y), [[3.0, 3.0]])


@declared_ops_only
def test_embedding_mask_reaches_a_masking_aware_layer():
    net = mb_layers.Sequential(
        [
            mb_layers.Input((4,), dtype="int32"),
            layers.Embedding(5, 2, mask_zero=True, embeddings_initializer="zeros"),
            layers.GlobalAveragePooling1D(data_format="channels_last"),
        ]
    )
    table = RNG.standard_normal((5, 2)).astype("float32")
    net.layers[0].set_weights([table])
    ids = np.array([[1, 2, 0, 0]], "int32")
    np.testing.assert_allclose(_np(net(ids)), table[[1, 2]].mean(0, keepdims=True), atol=1e-5)


@declared_ops_only
def test_lstm_matches_a_numpy_loop_on_the_backend():
    x = RNG.standard_normal((2, 4, 3)).astype("float32")
    layer = layers.LSTM(2, return_sequences=True)
    layer.build((None, 4, 3))
    kernel, recurrent, bias = (
        RNG.standard_normal(w.shape).astype("float32") * 0.5 for w in layer.weights
    )
    layer.set_weights([kernel, recurrent, bias])

    def sigmoid(v):
        return 1 / (1 + np.exp(-v))

    h, c, expected = np.zeros((2, 2)), np.zeros((2, 2)), []
    for t in range(4):
        z = x[:, t] @ kernel + h @ recurrent + bias
        i, f, g, o = np.split(z, 4, axis=-1)
        c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
        h = sigmoid(o) * np.tanh(c)
        expected.append(h)
    np.testing.assert_allclose(_np(layer(x)), np.stack(expected, 1), atol=1e-5)


@declared_ops_only
def test_multi_head_attention_scores_are_a_distribution_on_the_backend():
    q = RNG.standard_normal((2, 3, 8)).astype("float32")
    mha = layers.MultiHeadAttention(num_heads=2, key_dim=4)
    out, scores = mha(q, q, return_attention_scores=True, use_causal_mask=True)
    scores = _np(scores)
    assert tuple(out.shape) == (2, 3, 8) and scores.shape == (2, 2, 3, 3)
    np.testing.assert_allclose(scores.sum(-1), 1.0, atol=1e-5)
    np.testing.assert_allclose(scores[..., 0, 1:], 0.0, atol=1e-6)


@declared_ops_only
@pytest.mark.parametrize("masking", ["none", "padding", "causal"])
@pytest.mark.parametrize("kind", ["mha", "gqa"])
def test_fused_attention_kernel_gives_the_generic_paths_numbers(kind, masking, monkeypatch):
    """Without scores or dropout the attention layers call the engine's fused kernel
    (ops.dot_product_attention); asking for the scores runs the einsum path. Both must
    agree, also on a query row whose keys are all masked (uniform weights, no NaN)."""
    q = RNG.standard_normal((2, 5, 8)).astype("float32")
    v = RNG.standard_normal((2, 7, 8)).astype("float32")
    if kind == "mha":
        layer = layers.MultiHeadAttention(num_heads=3, key_dim=4, value_dim=6)
    else:
        layer = layers.GroupedQueryAttention(head_dim=4, num_query_heads=4, num_key_value_heads=2)
    kwargs = {}
    if masking == "padding":
        mask = RNG.random((2, 5, 7)) > 0.4
        mask[0, 1] = False
        kwargs["attention_mask"] = mask
    elif masking == "causal":
        kwargs["use_causal_mask"] = True
    kernel_calls = []
    kernel = ops.dot_product_attention
    monkeypatch.setattr(
        ops, "dot_product_attention", lambda *a, **k: kernel_calls.append(1) or kernel(*a, **k)
    )
    fused = _np(layer(q, v, **kwargs))
    assert kernel_calls, "the layer did not call the fused kernel"
    generic, _ = layer(q, v, return_attention_scores=True, **kwargs)
    assert len(kernel_calls) == 1, "asking for the scores must run the einsum path"
    assert np.isfinite(fused).all()
    np.testing.assert_allclose(fused, _np(generic), rtol=1e-5, atol=1e-5)


@pytest.mark.skipif(
    config.backend() != "tensorflow",
    reason=f"tf.function with an unknown batch; this process runs {config.backend()}",
)
def test_activity_regularizer_divides_by_the_batch_a_tf_function_leaves_unknown():
    tf = pytest.importorskip("tensorflow")
    inputs = mb_layers.Input((3,))
    dense = layers.Dense(2, activity_regularizer="l2", kernel_initializer="ones")
    network = mb_layers.Functional(inputs, dense(inputs))

    @tf.function(input_signature=[tf.TensorSpec((None, 3), "float32")], autograph=False)
    def regularization(x):
        network(x)
        return ops.sum(ops.stack(network.losses))

    x = RNG.standard_normal((5, 3)).astype("float32")
    y = x.sum(axis=1, keepdims=True) * np.ones((1, 2))
    expected = 0.01 * (y**2).sum() / len(x)
    np.testing.assert_allclose(_np(regularization(x)), expected, rtol=1e-5)


@pytest.mark.skipif(
    config.backend() != "tensorflow",
    reason=f"raw tf.* calls on a layer's inputs; this process runs {config.backend()}",
)
def test_a_layer_calling_raw_tensorflow_builds_a_functional_model():
    # Keras allows `tf.*` on a layer's inputs on the tensorflow backend: the model is
    # built by tracing `call` on TensorFlow placeholders (a KerasTensor has no values).
    tf = pytest.importorskip("tensorflow")

    class RawTF(mb_layers.Layer):
        def call(self, x):
            return tf.concat([tf.math.square(x), tf.reduce_sum(x, axis=-1, keepdims=True)], -1)

    inputs = mb_layers.Input((3,))
    outputs = RawTF()(inputs)
    assert tuple(outputs.shape) == (None, 4)
    network = mb_layers.Functional(inputs, outputs)
    x = RNG.standard_normal((2, 3)).astype("float32")
    expected = np.concatenate([x**2, x.sum(axis=-1, keepdims=True)], axis=-1)
    np.testing.assert_allclose(_np(network(x)), expected, rtol=1e-6)


@pytest.mark.skipif(
    config.backend() != "jax",
    reason=f"raw jax.numpy calls on a layer's inputs; this process runs {config.backend()}",
)
def test_a_layer_calling_raw_jax_numpy_builds_a_functional_model_that_trains():
    # JAX refuses a KerasTensor in its own words (no __jax_array__ call): the layer is
    # traced on JAX's abstract values instead, as Keras does.
    import jax.numpy as jnp

    class RawJax(mb_layers.Layer):
        def call(self, x):
            return jnp.concatenate([jnp.tanh(x), jnp.sum(x, axis=-1, keepdims=True)], -1)

    inputs = mb_layers.Input((3,))
    outputs = layers.Dense(2)(RawJax()(inputs))
    assert tuple(outputs.shape) == (None, 2)
    model = mb.Model(inputs, outputs)
    x = RNG.standard_normal((8, 3)).astype("float32")
    kernel, bias = (_np(w) for w in model.layers[-1].weights)
    features = np.concatenate([np.tanh(x), x.sum(axis=-1, keepdims=True)], axis=-1)
    np.testing.assert_allclose(_np(model(x)), features @ kernel + bias, rtol=1e-5, atol=1e-6)
    model.compile(optimizer="sgd", loss="mse")
    history = model.fit(x, np.zeros((8, 2), "float32"), epochs=3, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    # A plain bug in call is still reported as itself, not retraced away.

    class Broken(mb_layers.Layer):
        def call(self, x):
            return ops.matmul(x, ops.ones((4, 2)))

    with pytest.raises(ValueError, match=r"matmul.*\(None, 3\).*\(4, 2\)|\(4, 2\).*matmul"):
        Broken()(inputs)


@pytest.mark.trains
@declared_ops_only
@pytest.mark.slow
def test_image_augmentations_train_inside_the_compiled_step():
    shape = (3, 8, 8) if _channels_first() else (8, 8, 3)
    inputs = mb.Input(shape)
    augmentations = [
        layers.RandAugment(num_ops=1, seed=1),
        layers.AugMix(num_chains=1, chain_depth=1, all_ops=False, seed=2),
        layers.CutMix(seed=3),
        layers.MixUp(seed=4),
        layers.Solarization(0.1, 0.5, seed=5),
        layers.ContrastLimitedAdaptiveHistogramEqualization(tile_grid_size=(2, 2)),
        layers.Equalization(),
        layers.AutoContrast(),
    ]
    x = inputs
    for layer in augmentations:
        x = layer(x)
    model = mb.Model(inputs, layers.Dense(1)(layers.Flatten()(x)))
    model.compile(optimizer="sgd", loss="mse")
    seeds = [layer.generator.state for layer in augmentations if hasattr(layer, "generator")]
    before = [_np(s.value) for s in seeds]
    images = (RNG.random((8, *shape)) * 255).astype("float32")
    history = model.fit(images, np.zeros((8, 1), "float32"), batch_size=4, epochs=1, verbose=0)
    assert np.isfinite(history.history["loss"][0])
    # Every random layer drew in training (its seed state moved on, once per step).
    assert all(not np.array_equal(_np(s.value), b) for s, b in zip(seeds, before, strict=True))
    np.testing.assert_array_equal(_np(augmentations[3](images, training=False)), images)


# ----- engine wrappers: TorchModuleWrapper (torch), JaxLayer and FlaxLayer (jax) ----------


def _one_sgd_step_reference(x, y, w, b, lr):
    """A linear model's weights after one full-batch SGD step on the mean squared error."""
    error = x @ w + b - y
    return w - lr * 2 * x.T @ error / len(x), b - lr * 2 * error.mean(axis=0)


def _fit_one_step(layer, x, y, lr):
    inputs = mb.Input((x.shape[1],))
    model = mb.Model(inputs, layer(inputs))
    model.compile(optimizer=mb.optimizers.SGD(lr), loss="mse")
    model.fit(x, y, batch_size=len(x), epochs=1, shuffle=False, verbose=0)
    return model


LINEAR_X = RNG.standard_normal((16, 3)).astype("float32")
LINEAR_Y = (LINEAR_X @ np.array([[1.0], [-2.0], [0.5]]) + 0.3).astype("float32")


@pytest.mark.skipif(
    config.backend() != "torch", reason=f"wraps torch modules; this process runs {config.backend()}"
)
def test_torch_module_wrapper_trains_the_modules_own_parameters(tmp_path):
    torch = pytest.importorskip("torch")
    linear = torch.nn.Linear(3, 1)
    w0 = linear.weight.detach().cpu().numpy().T.astype("float64")
    b0 = linear.bias.detach().cpu().numpy().astype("float64")
    layer = layers.TorchModuleWrapper(linear)
    model = _fit_one_step(layer, LINEAR_X, LINEAR_Y, lr=0.1)
    w1, b1 = _one_sgd_step_reference(LINEAR_X, LINEAR_Y, w0, b0, lr=0.1)
    np.testing.assert_allclose(linear.weight.detach().cpu().numpy().T, w1, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(linear.bias.detach().cpu().numpy(), b1, rtol=1e-5, atol=1e-6)
    # The weights file holds the module's state_dict and loads back into it.
    model.save_weights(tmp_path / "m.weights.h5")
    with torch.no_grad():
        linear.weight.zero_()
    model.load_weights(tmp_path / "m.weights.h5")
    np.testing.assert_allclose(linear.weight.detach().cpu().numpy().T, w1, rtol=1e-5, atol=1e-6)
    # The config pickles the module: loading it is refused unless safe mode is off.
    config_ = layer.get_config()
    with pytest.raises(ValueError, match="safe_mode"):
        layers.TorchModuleWrapper.from_config(config_)
    clone = layers.TorchModuleWrapper.from_config(config_, safe_mode=False)
    np.testing.assert_allclose(_np(clone(LINEAR_X)), _np(layer(LINEAR_X)), rtol=1e-6)


@pytest.mark.skipif(
    config.backend() != "jax", reason=f"wraps JAX functions; this process runs {config.backend()}"
)
def test_jax_layer_trains_its_params_pytree():
    jnp = pytest.importorskip("jax.numpy")
    w0 = RNG.standard_normal((3, 1)).astype("float32")
    params = {"dense": {"w": jnp.asarray(w0), "b": jnp.zeros((1,))}}

    def call_fn(params, inputs):
        return inputs @ params["dense"]["w"] + params["dense"]["b"]

    layer = layers.JaxLayer(call_fn, params=params)
    _fit_one_step(layer, LINEAR_X, LINEAR_Y, lr=0.1)
    w1, b1 = _one_sgd_step_reference(LINEAR_X, LINEAR_Y, w0.astype("float64"), np.zeros(1), 0.1)
    np.testing.assert_allclose(_np(layer.params["dense"]["w"]), w1, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(_np(layer.params["dense"]["b"]), b1, rtol=1e-5, atol=1e-6)


@pytest.mark.skipif(
    config.backend() != "jax", reason=f"wraps Flax modules; this process runs {config.backend()}"
)
def test_flax_layer_trains_params_and_updates_its_state():
    nn = pytest.importorskip("flax.linen")

    class Block(nn.Module):
        @nn.compact
        def __call__(self, inputs, training=False):
            hidden = nn.BatchNorm(use_running_average=not training)(nn.Dense(4)(inputs))
            hidden = nn.Dropout(0.5, deterministic=not training)(hidden)
            return nn.Dense(1)(hidden)

    layer = layers.FlaxLayer(Block(), seed=3)
    inputs = mb.Input((3,))
    model = mb.Model(inputs, layer(inputs))
    assert (len(layer.trainable_weights), len(layer.non_trainable_weights)) == (6, 2)
    statistics = [_np(v.value) for v in layer.non_trainable_weights]
    model.compile(optimizer=mb.optimizers.Adam(0.05), loss="mse")
    # Judged without dropout (evaluate), so the noise of a 0.5 dropout cannot decide it.
    before = model.evaluate(LINEAR_X, LINEAR_Y, verbose=0)
    model.fit(LINEAR_X, LINEAR_Y, batch_size=8, epochs=15, verbose=0)
    assert model.evaluate(LINEAR_X, LINEAR_Y, verbose=0) < 0.5 * before
    # Batch statistics moved in training; inference uses them (no dropout: repeatable).
    assert all(
        not np.allclose(s, _np(v.value))
        for s, v in zip(statistics, layer.non_trainable_weights, strict=True)
    )
    np.testing.assert_array_equal(_np(model(LINEAR_X)), _np(model(LINEAR_X)))


def test_engine_wrappers_name_the_backend_they_need():
    if config.backend() != "torch":
        with pytest.raises(
            ValueError, match=f"needs MB_BACKEND=torch; the active backend is {config.backend()}"
        ):
            layers.TorchModuleWrapper(object())
    if config.backend() != "jax":
        with pytest.raises(
            ValueError, match=f"needs MB_BACKEND=jax; the active backend is {config.backend()}"
        ):
            layers.JaxLayer(lambda inputs: inputs)
