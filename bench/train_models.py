"""The larger models of ``train_bench.py``: a transformer encoder, a residual convnet with
batch normalization, an Embedding+GRU text classifier.

For each: the data, the model built by mb and Keras 3 from the same code, and the native
versions (one forward function over a small per-engine namespace for jax and tensorflow,
``torch.nn`` modules for torch). All three classify into 2 or 10 classes with sparse
categorical cross-entropy from logits.

- ``transformer``: Embedding(1000, 128) over 128 tokens -> 2 encoder blocks (4-head
  self-attention, key_dim 32, residual + LayerNorm; FFN 256 relu -> 128, residual +
  LayerNorm) -> mean over the sequence -> Dense(2). Batch 32.
- ``resnet``: 32x32x3 -> Conv(16, 3) BN relu -> residual block 16 -> residual block 32
  with stride 2 (1x1 projection) -> global average pool -> Dense(10). Convolutions without
  bias before batch norm, "same" padding. Batch 64.
- ``gru``: 64 tokens -> Embedding(1000, 32) -> GRU(64) (reset_after, Keras's default and
  torch's form) -> Dense(2). Batch 64.
"""

import time

VOCAB = 1000
SEQ, WIDTH, HEADS, FFN, BLOCKS = 128, 128, 4, 256, 2
GRU_SEQ, GRU_EMBED, GRU_UNITS = 64, 32, 64
BN_MOMENTUM, BN_EPS, LN_EPS = 0.99, 1e-3, 1e-3

# name: default samples, batch size, loss (train_bench.MODELS's form)
MODELS = {
    "transformer": (512, 32, "sparse_ce"),
    "resnet": (1024, 64, "sparse_ce"),
    "gru": (1280, 64, "sparse_ce"),
}
CLASSES = {"transformer": 2, "resnet": 10, "gru": 2}


def data(model, samples):
    import numpy as np

    rng = np.random.default_rng(0)
    if model == "resnet":
        x = rng.normal(size=(samples, 32, 32, 3)).astype("float32")
        projection = rng.normal(size=(32 * 32 * 3, 10)).astype("float32")
        return x, np.argmax(x.reshape(samples, -1) @ projection, axis=1).astype("int32")
    seq = SEQ if model == "transformer" else GRU_SEQ
    x = rng.integers(0, VOCAB, size=(samples, seq)).astype("int32")
    return x, (x[:, :8].sum(axis=1) % 2).astype("int32")


# ----- mb and Keras 3 -----------------------------------------------------------------


def build(keras, model):
    layers = keras.layers
    if model == "gru":
        stack = [keras.Input((GRU_SEQ,), dtype="int32"), layers.Embedding(VOCAB, GRU_EMBED)]
        return keras.Sequential([*stack, layers.GRU(GRU_UNITS), layers.Dense(2)])
    if model == "transformer":
        inputs = keras.Input((SEQ,), dtype="int32")
        x = layers.Embedding(VOCAB, WIDTH)(inputs)
        for _ in range(BLOCKS):
            attended = layers.MultiHeadAttention(HEADS, WIDTH // HEADS)(x, x)
            x = layers.LayerNormalization(epsilon=LN_EPS)(layers.Add()([x, attended]))
            ffn = layers.Dense(WIDTH)(layers.Dense(FFN, activation="relu")(x))
            x = layers.LayerNormalization(epsilon=LN_EPS)(layers.Add()([x, ffn]))
        outputs = layers.Dense(2)(layers.GlobalAveragePooling1D()(x))
        return keras.Model(inputs, outputs)

    def conv_bn(x, filters, stride=1, relu=True, size=3):
        x = layers.Conv2D(filters, size, stride, padding="same", use_bias=False)(x)
        x = layers.BatchNormalization(momentum=BN_MOMENTUM, epsilon=BN_EPS)(x)
        return layers.ReLU()(x) if relu else x

    def block(x, filters, stride):
        y = conv_bn(conv_bn(x, filters, stride), filters, relu=False)
        if stride != 1 or x.shape[-1] != filters:
            x = layers.Conv2D(filters, 1, stride, use_bias=False)(x)
        return layers.ReLU()(layers.Add()([y, x]))

    inputs = keras.Input((32, 32, 3))
    x = block(block(conv_bn(inputs, 16), 16, 1), 32, 2)
    outputs = layers.Dense(10)(layers.GlobalAveragePooling2D()(x))
    return keras.Model(inputs, outputs)


# ----- native jax and tensorflow: dict parameters, one forward -------------------------


def init_params(model):
    """NumPy parameters (Glorot uniform kernels, zero biases, uniform embeddings) and the
    batch-norm moving statistics (empty for the models without batch norm)."""
    import numpy as np

    rng = np.random.default_rng(0)

    def glorot(shape, fan_in, fan_out):
        limit = (6 / (fan_in + fan_out)) ** 0.5
        return rng.uniform(-limit, limit, size=shape).astype("float32")

    def zeros(n):
        return np.zeros(n, "float32")

    def embedding(dim):
        return rng.uniform(-0.05, 0.05, size=(VOCAB, dim)).astype("float32")

    p, stats = {}, {}
    if model == "gru":
        p["emb"] = embedding(GRU_EMBED)
        p["kernel"] = glorot((GRU_EMBED, 3 * GRU_UNITS), GRU_EMBED, 3 * GRU_UNITS)
        p["recurrent"] = glorot((GRU_UNITS, 3 * GRU_UNITS), GRU_UNITS, 3 * GRU_UNITS)
        p["bias"] = np.zeros((2, 3 * GRU_UNITS), "float32")
        p["head"], p["head_b"] = glorot((GRU_UNITS, 2), GRU_UNITS, 2), zeros(2)
    elif model == "transformer":
        p["emb"] = embedding(WIDTH)
        for b in range(BLOCKS):
            for name in ("q", "k", "v", "o"):
                p[f"{b}{name}"] = glorot((WIDTH, WIDTH), WIDTH, WIDTH)
                p[f"{b}{name}_b"] = zeros(WIDTH)
            p[f"{b}ffn1"], p[f"{b}ffn1_b"] = glorot((WIDTH, FFN), WIDTH, FFN), zeros(FFN)
            p[f"{b}ffn2"], p[f"{b}ffn2_b"] = glorot((FFN, WIDTH), FFN, WIDTH), zeros(WIDTH)
            for ln in ("ln1", "ln2"):
                p[f"{b}{ln}_g"], p[f"{b}{ln}_b"] = np.ones(WIDTH, "float32"), zeros(WIDTH)
        p["head"], p["head_b"] = glorot((WIDTH, 2), WIDTH, 2), zeros(2)
    else:
        for name, cin, cout, size in RESNET_CONVS:
            p[name] = glorot((size, size, cin, cout), size * size * cin, size * size * cout)
            if name in RESNET_BNS:
                p[f"{name}_g"], p[f"{name}_b"] = np.ones(cout, "float32"), zeros(cout)
                stats[f"{name}_mean"], stats[f"{name}_var"] = zeros(cout), np.ones(cout, "float32")
        p["head"], p["head_b"] = glorot((32, 10), 32, 10), zeros(10)
    return p, stats


# (name, in channels, out channels, kernel size); each but the projection has a batch norm
RESNET_CONVS = [
    ("stem", 3, 16, 3),
    ("a1", 16, 16, 3),
    ("a2", 16, 16, 3),
    ("b1", 16, 32, 3),
    ("b2", 32, 32, 3),
    ("bproj", 16, 32, 1),
]
RESNET_BNS = ("stem", "a1", "a2", "b1", "b2")


def forward(nn, model, p, stats, x, training):
    """Logits and the updated batch-norm statistics (``stats`` itself when not training)."""
    if model == "gru":
        h = nn.gru(nn.take(p["emb"], x), p["kernel"], p["recurrent"], p["bias"])
        return h @ p["head"] + p["head_b"], stats
    if model == "transformer":
        h = nn.take(p["emb"], x)
        for b in range(BLOCKS):
            q, k, v = (nn.heads(h @ p[f"{b}{n}"] + p[f"{b}{n}_b"]) for n in ("q", "k", "v"))
            scores = nn.einsum("bqhd,bkhd->bhqk", q, k) * (WIDTH // HEADS) ** -0.5
            attended = nn.merge(nn.einsum("bhqk,bkhd->bqhd", nn.softmax(scores), v))
            h = _layer_norm(nn, h + attended @ p[f"{b}o"] + p[f"{b}o_b"], p, f"{b}ln1")
            ffn = nn.relu(h @ p[f"{b}ffn1"] + p[f"{b}ffn1_b"]) @ p[f"{b}ffn2"] + p[f"{b}ffn2_b"]
            h = _layer_norm(nn, h + ffn, p, f"{b}ln2")
        return nn.mean(h, axis=1) @ p["head"] + p["head_b"], stats
    new = {}

    def conv_bn(x, name, stride=1, relu=True):
        x = nn.conv(x, p[name], stride)
        if training:
            mean = nn.mean(x, axis=(0, 1, 2))
            var = nn.mean(nn.square(x - mean), axis=(0, 1, 2))
            for s, value in (("mean", mean), ("var", var)):
                old = stats[f"{name}_{s}"]
                new[f"{name}_{s}"] = old * BN_MOMENTUM + nn.stop_gradient(value) * (1 - BN_MOMENTUM)
        else:
            mean, var = stats[f"{name}_mean"], stats[f"{name}_var"]
        x = (x - mean) * (nn.rsqrt(var + BN_EPS) * p[f"{name}_g"]) + p[f"{name}_b"]
        return nn.relu(x) if relu else x

    x = conv_bn(x, "stem")
    x = nn.relu(conv_bn(conv_bn(x, "a1"), "a2", relu=False) + x)
    x = nn.relu(conv_bn(conv_bn(x, "b1", 2), "b2", relu=False) + nn.conv(x, p["bproj"], 2))
    return nn.mean(x, axis=(1, 2)) @ p["head"] + p["head_b"], (new if training else stats)


def _layer_norm(nn, x, p, name):
    mean = nn.mean(x, axis=-1, keepdims=True)
    var = nn.mean(nn.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) * nn.rsqrt(var + LN_EPS) * p[f"{name}_g"] + p[f"{name}_b"]


def _gru_cell(nn, x_proj, h, recurrent, recurrent_bias):
    """Keras's GRU with reset_after=True; gates z, r, h in that order."""
    xz, xr, xh = nn.split3(x_proj)
    hz, hr, hh = nn.split3(h @ recurrent + recurrent_bias)
    z, r = nn.sigmoid(xz + hz), nn.sigmoid(xr + hr)
    return z * h + (1 - z) * nn.tanh(xh + r * hh)


def jax_nn():
    import jax
    import jax.numpy as jnp
    from jax import lax

    class JaxNN:
        relu, sigmoid, tanh, softmax = jax.nn.relu, jax.nn.sigmoid, jnp.tanh, jax.nn.softmax
        mean, square, rsqrt, einsum = jnp.mean, jnp.square, lax.rsqrt, jnp.einsum
        stop_gradient = lax.stop_gradient

        @staticmethod
        def take(table, ids):
            return jnp.take(table, ids, axis=0)

        @staticmethod
        def conv(x, w, stride):
            return lax.conv_general_dilated(
                x, w, (stride, stride), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
            )

        @staticmethod
        def heads(x):
            return x.reshape(*x.shape[:2], HEADS, WIDTH // HEADS)

        @staticmethod
        def merge(x):
            return x.reshape(*x.shape[:2], WIDTH)

        @staticmethod
        def split3(z):
            return jnp.split(z, 3, axis=-1)

        @staticmethod
        def gru(x, kernel, recurrent, bias):
            projected = jnp.swapaxes(x @ kernel + bias[0], 0, 1)

            def step(h, x_t):
                return _gru_cell(JaxNN, x_t, h, recurrent, bias[1]), None

            h, _ = lax.scan(step, jnp.zeros((x.shape[0], GRU_UNITS), x.dtype), projected)
            return h

    return JaxNN


def tf_nn():
    import tensorflow as tf

    class TfNN:
        relu, sigmoid, tanh, softmax = tf.nn.relu, tf.sigmoid, tf.tanh, tf.nn.softmax
        mean, square, rsqrt, einsum = tf.reduce_mean, tf.square, tf.math.rsqrt, tf.einsum
        stop_gradient = tf.stop_gradient

        @staticmethod
        def take(table, ids):
            return tf.gather(table, ids)

        @staticmethod
        def conv(x, w, stride):
            return tf.nn.conv2d(x, w, stride, "SAME")

        @staticmethod
        def heads(x):
            return tf.reshape(x, (-1, SEQ, HEADS, WIDTH // HEADS))

        @staticmethod
        def merge(x):
            return tf.reshape(x, (-1, SEQ, WIDTH))

        @staticmethod
        def split3(z):
            return tf.split(z, 3, axis=-1)

        @staticmethod
        def gru(x, kernel, recurrent, bias):
            projected = x @ kernel + bias[0]
            h = tf.zeros((tf.shape(x)[0], GRU_UNITS))
            for t in tf.range(GRU_SEQ):  # AutoGraph: a tf.while_loop carrying h
                h = _gru_cell(TfNN, projected[:, t], h, recurrent, bias[1])
            return h

    return TfNN


# ----- native torch -------------------------------------------------------------------


def torch_net(model):
    import torch
    from torch import nn

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            if model == "gru":
                self.emb = nn.Embedding(VOCAB, GRU_EMBED)
                self.rnn = nn.GRU(GRU_EMBED, GRU_UNITS, batch_first=True)
                self.head = nn.Linear(GRU_UNITS, 2)
            elif model == "transformer":
                self.emb = nn.Embedding(VOCAB, WIDTH)
                self.blocks = nn.ModuleList(
                    nn.TransformerEncoderLayer(
                        WIDTH, HEADS, FFN, dropout=0.0, batch_first=True, layer_norm_eps=LN_EPS
                    )
                    for _ in range(BLOCKS)
                )
                self.head = nn.Linear(WIDTH, 2)
            else:

                def conv_bn(cin, cout, stride=1):
                    return [
                        nn.Conv2d(cin, cout, 3, stride, padding=1, bias=False),
                        nn.BatchNorm2d(cout, eps=BN_EPS, momentum=1 - BN_MOMENTUM),
                    ]

                self.stem = nn.Sequential(*conv_bn(3, 16), nn.ReLU())
                self.a = nn.Sequential(*conv_bn(16, 16), nn.ReLU(), *conv_bn(16, 16))
                self.b = nn.Sequential(*conv_bn(16, 32, 2), nn.ReLU(), *conv_bn(32, 32))
                self.proj = nn.Conv2d(16, 32, 1, 2, bias=False)
                self.head = nn.Linear(32, 10)

        def forward(self, x):
            if model == "gru":
                _, h = self.rnn(self.emb(x))
                return self.head(h[-1])
            if model == "transformer":
                h = self.emb(x)
                for block in self.blocks:
                    h = block(h)
                return self.head(h.mean(dim=1))
            x = self.stem(x)
            x = torch.relu(self.a(x) + x)
            x = torch.relu(self.b(x) + self.proj(x))
            return self.head(x.mean(dim=(2, 3)))

    return Net()


def now():
    """Wall and CPU seconds, read together."""
    return time.perf_counter(), time.process_time()
