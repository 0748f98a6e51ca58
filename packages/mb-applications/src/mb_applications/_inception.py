"""InceptionV3 and InceptionResNetV2: parallel branches of factorised convolutions.

Most layers here carry automatic names (``conv2d_12``, ``batch_normalization_12``),
as in Keras: they are created in Keras's order, so the names and the order of
the layers (which Keras 2 weight files are matched by) agree.
"""

from mb_applications import _builder, _docs
from mb_applications._weights import published
from mb_layers import Layer, layers
from mb_layers._registry import register_builtin

_FOLDERS = {"inception_v3": "inception_v3/", "inception_resnet_v2": "inception_resnet_v2/"}
_HASHES = {
    "inception_v3": ("9a0d58056eeedaa3f26cb7ebd46da564", "bcbd6486424b2319ff4ef7d526e38f63"),
    "inception_resnet_v2": (
        "e693bd0210a403b3192acc6073ad2e96",
        "d19885ff4a710c122648d3b5c3b684e4",
    ),
}


def _conv_bn(x, filters, kernel, strides=1, padding="same", name=None, resnet=False):
    """Conv (no bias), BatchNormalization without scale, ReLU; Keras's two naming schemes."""
    if resnet:
        conv, bn, act = name, name and f"{name}_bn", name and f"{name}_ac"
    else:
        conv, bn, act = name and f"{name}_conv", name and f"{name}_bn", name
    x = layers.Conv2D(filters, kernel, strides=strides, padding=padding, use_bias=False, name=conv)(
        x
    )
    x = layers.BatchNormalization(axis=_builder.channel_axis(3), scale=False, name=bn)(x)
    return layers.Activation("relu", name=act)(x)


def _chain(x, *specs, resnet=False):
    """Applies `_conv_bn` for each ``(filters, kernel[, strides, padding])`` in turn."""
    for spec in specs:
        filters, kernel, *rest = spec
        x = _conv_bn(x, filters, kernel, *rest, resnet=resnet)
    return x


def _avg_branch(x, filters, resnet=False):
    x = layers.AveragePooling2D(3, strides=1, padding="same")(x)
    return _conv_bn(x, filters, 1, resnet=resnet)


def _concat(branches, name=None):
    return layers.Concatenate(axis=_builder.channel_axis(3), name=name)(branches)


def _stem(x, resnet):
    x = _chain(x, (32, 3, 2, "valid"), (32, 3, 1, "valid"), (64, 3), resnet=resnet)
    x = layers.MaxPooling2D(3, strides=2)(x)
    x = _chain(x, (80, 1, 1, "valid"), (192, 3, 1, "valid"), resnet=resnet)
    return layers.MaxPooling2D(3, strides=2)(x)


def _v3_body(x):
    x = _stem(x, resnet=False)
    for i, pool_filters in enumerate((32, 64, 64)):
        x = _concat(
            [
                _chain(x, (64, 1)),
                _chain(x, (48, 1), (64, 5)),
                _chain(x, (64, 1), (96, 3), (96, 3)),
                _avg_branch(x, pool_filters),
            ],
            f"mixed{i}",
        )
    x = _concat(
        [
            _chain(x, (384, 3, 2, "valid")),
            _chain(x, (64, 1), (96, 3), (96, 3, 2, "valid")),
            layers.MaxPooling2D(3, strides=2)(x),
        ],
        "mixed3",
    )
    for i, c in enumerate((128, 160, 160, 192)):
        x = _concat(
            [
                _chain(x, (192, 1)),
                _chain(x, (c, 1), (c, (1, 7)), (192, (7, 1))),
                _chain(x, (c, 1), (c, (7, 1)), (c, (1, 7)), (c, (7, 1)), (192, (1, 7))),
                _avg_branch(x, 192),
            ],
            f"mixed{4 + i}",
        )
    x = _concat(
        [
            _chain(x, (192, 1), (320, 3, 2, "valid")),
            _chain(x, (192, 1), (192, (1, 7)), (192, (7, 1)), (192, 3, 2, "valid")),
            layers.MaxPooling2D(3, strides=2)(x),
        ],
        "mixed8",
    )
    for i in range(2):
        b1 = _chain(x, (320, 1))
        b3 = _chain(x, (384, 1))
        b3 = _concat([_chain(b3, (384, (1, 3))), _chain(b3, (384, (3, 1)))], f"mixed9_{i}")
        bd = _chain(x, (448, 1), (384, 3))
        bd = _concat([_chain(bd, (384, (1, 3))), _chain(bd, (384, (3, 1)))])
        x = _concat([b1, b3, bd, _avg_branch(x, 192)], f"mixed{9 + i}")
    return x


class CustomScaleLayer(Layer):
    """``inputs[0] + inputs[1] * scale``: the scaled residual of InceptionResNetV2."""

    def __init__(self, scale, **kwargs):
        super().__init__(**kwargs)
        self.scale = scale

    def call(self, inputs):
        return inputs[0] + inputs[1] * self.scale

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[0])

    def get_config(self):
        return {**super().get_config(), "scale": self.scale}


# Saved models name it as Keras does, so `.keras` files load both ways (in safe mode too).
register_builtin(
    CustomScaleLayer,
    module="keras.src.applications.inception_resnet_v2",
    registered_name="CustomScaleLayer",
)


# Branches of the three residual block types: chains of (filters, kernel).
_RESIDUAL = {
    "block35": (((32, 1),), ((32, 1), (32, 3)), ((32, 1), (48, 3), (64, 3))),
    "block17": (((192, 1),), ((128, 1), (160, (1, 7)), (192, (7, 1)))),
    "block8": (((192, 1),), ((192, 1), (224, (1, 3)), (256, (3, 1)))),
}


def _residual(x, kind, index, scale, activation="relu"):
    name = f"{kind}_{index}"
    mixed = _concat([_chain(x, *chain, resnet=True) for chain in _RESIDUAL[kind]], f"{name}_mixed")
    channels = x.shape[_builder.channel_axis(3)]
    up = layers.Conv2D(channels, 1, use_bias=True, name=f"{name}_conv")(mixed)
    x = CustomScaleLayer(scale)([x, up])
    return layers.Activation(activation, name=f"{name}_ac")(x) if activation else x


def _resnet_body(x):
    x = _stem(x, resnet=True)
    x = _concat(
        [
            _chain(x, (96, 1), resnet=True),
            _chain(x, (48, 1), (64, 5), resnet=True),
            _chain(x, (64, 1), (96, 3), (96, 3), resnet=True),
            _avg_branch(x, 64, resnet=True),
        ],
        "mixed_5b",
    )
    for i in range(1, 11):
        x = _residual(x, "block35", i, 0.17)
    x = _concat(
        [
            _chain(x, (384, 3, 2, "valid"), resnet=True),
            _chain(x, (256, 1), (256, 3), (384, 3, 2, "valid"), resnet=True),
            layers.MaxPooling2D(3, strides=2, padding="valid")(x),
        ],
        "mixed_6a",
    )
    for i in range(1, 21):
        x = _residual(x, "block17", i, 0.1)
    x = _concat(
        [
            _chain(x, (256, 1), (384, 3, 2, "valid"), resnet=True),
            _chain(x, (256, 1), (288, 3, 2, "valid"), resnet=True),
            _chain(x, (256, 1), (288, 3), (320, 3, 2, "valid"), resnet=True),
            layers.MaxPooling2D(3, strides=2, padding="valid")(x),
        ],
        "mixed_7a",
    )
    for i in range(1, 10):
        x = _residual(x, "block8", i, 0.2)
    x = _residual(x, "block8", 10, 1.0, activation=None)
    return _conv_bn(x, 1536, 1, name="conv_7b", resnet=True)


def inception(key, args):
    weights, include_top, pooling = args["weights"], args["include_top"], args["pooling"]
    _builder.check_arguments(weights, include_top, args["classes"], pooling)
    shape = _builder.resolve_shape(args["input_shape"], 299, 75, include_top, weights)
    x, inputs = _builder.image_input(args["input_tensor"], shape)
    x = _v3_body(x) if key == "inception_v3" else _resnet_body(x)
    if include_top:
        x = _builder.dense_top(x, args["classes"], args["classifier_activation"], weights)
    else:
        x = _builder.pool(x, pooling, names=None)
    suffix = "" if include_top else "_notop"
    file = published(
        _FOLDERS[key],
        f"{key}_weights_tf_dim_ordering_tf_kernels{suffix}.h5",
        _HASHES[key][0 if include_top else 1],
    )
    return _builder.finish(inputs, x, args["name"], weights, file)


def InceptionV3(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="inception_v3",
):
    return inception("inception_v3", locals())


def InceptionResNetV2(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="inception_resnet_v2",
):
    return inception("inception_resnet_v2", locals())


_docs.document(
    (InceptionV3,),
    paper="Rethinking the Inception Architecture for Computer Vision (Szegedy et al., 2016)",
    default_size=299,
    min_size=75,
    preprocessing="mb.applications.inception_v3.preprocess_input",
    example="InceptionV3",
)
_docs.document(
    (InceptionResNetV2,),
    paper="Inception-v4, Inception-ResNet and the Impact of Residual Connections on "
    "Learning (Szegedy et al., 2017)",
    default_size=299,
    min_size=75,
    preprocessing="mb.applications.inception_resnet_v2.preprocess_input",
    example="InceptionResNetV2",
)
