"""Xception: depthwise-separable convolutions with residual connections."""

from mb_applications import _builder, _docs
from mb_applications._weights import published
from mb_layers import layers

_HASHES = ("0a58e3b7378bc2990ea3b43d5981f1f6", "b0042744bf5b25fce3cb969f33bebb97")


def _bn(name=None):
    return layers.BatchNormalization(axis=_builder.channel_axis(), name=name)


def _sep(x, filters, name, relu_name=None, relu_after=False):
    """[ReLU] SeparableConv 3x3 + BatchNormalization (ReLU before, or after the block 14 way)."""
    if relu_name and not relu_after:
        x = layers.Activation("relu", name=relu_name)(x)
    x = layers.SeparableConv2D(filters, (3, 3), padding="same", use_bias=False, name=name)(x)
    x = _bn(f"{name}_bn")(x)
    if relu_name and relu_after:
        x = layers.Activation("relu", name=relu_name)(x)
    return x


def _down_block(x, filters, block):
    """Two separable convolutions and a stride-2 max pool, plus a 1x1 stride-2 shortcut."""
    residual = layers.Conv2D(filters[1], (1, 1), strides=(2, 2), padding="same", use_bias=False)(x)
    residual = _bn()(residual)
    if block == 2:  # block 2 follows the stem's ReLU, and names its first ReLU ``sepconv2``
        x = _sep(x, filters[0], "block2_sepconv1")
        x = _sep(x, filters[1], "block2_sepconv2", "block2_sepconv2_act")
    else:
        x = _sep(x, filters[0], f"block{block}_sepconv1", f"block{block}_sepconv1_act")
        x = _sep(x, filters[1], f"block{block}_sepconv2", f"block{block}_sepconv2_act")
    x = layers.MaxPooling2D((3, 3), strides=(2, 2), padding="same", name=f"block{block}_pool")(x)
    return layers.add([x, residual])


def xception(args):
    weights, include_top, pooling = args["weights"], args["include_top"], args["pooling"]
    _builder.check_arguments(weights, include_top, args["classes"], pooling)
    shape = _builder.resolve_shape(args["input_shape"], 299, 71, include_top, weights)
    x, inputs = _builder.image_input(args["input_tensor"], shape)
    for i, filters in enumerate((32, 64), 1):
        strides = (2, 2) if i == 1 else (1, 1)
        x = layers.Conv2D(filters, (3, 3), strides=strides, use_bias=False, name=f"block1_conv{i}")(
            x
        )
        x = _bn(f"block1_conv{i}_bn")(x)
        x = layers.Activation("relu", name=f"block1_conv{i}_act")(x)
    for block, filters in ((2, 128), (3, 256), (4, 728)):
        x = _down_block(x, (filters, filters), block)
    for block in range(5, 13):
        residual = x
        for i in (1, 2, 3):
            name = f"block{block}_sepconv{i}"
            x = _sep(x, 728, name, f"{name}_act")
        x = layers.add([x, residual])
    x = _down_block(x, (728, 1024), 13)
    x = _sep(x, 1536, "block14_sepconv1", "block14_sepconv1_act", relu_after=True)
    x = _sep(x, 2048, "block14_sepconv2", "block14_sepconv2_act", relu_after=True)
    if include_top:
        x = _builder.dense_top(x, args["classes"], args["classifier_activation"], weights)
    else:
        x = _builder.pool(x, pooling, names=None)
    suffix = "" if include_top else "_notop"
    file = published(
        "xception/",
        f"xception_weights_tf_dim_ordering_tf_kernels{suffix}.h5",
        _HASHES[0 if include_top else 1],
    )
    return _builder.finish(inputs, x, args["name"], weights, file)


def Xception(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="xception",
):
    return xception(locals())


_docs.document(
    (Xception,),
    paper="Xception: Deep Learning with Depthwise Separable Convolutions (Chollet, 2017)",
    default_size=299,
    min_size=71,
    preprocessing="mb.applications.xception.preprocess_input",
    example="Xception",
)
