"""DenseNet121/169/201: dense blocks (each layer sees all earlier ones) and transitions."""

from mb_applications import _builder, _docs
from mb_applications._weights import published
from mb_layers import layers

_EPS = 1.001e-5
_BLOCKS = {"121": (6, 12, 24, 16), "169": (6, 12, 32, 32), "201": (6, 12, 48, 32)}
_HASHES = {
    "121": ("9d60b8095a5708f2dcce2bca79d332c7", "30ee3e1110167f948a6b9946edeeb738"),
    "169": ("d699b8f76981ab1b30698df4c175e90b", "b8c4d4c20dd625c148057b9ff1c1176b"),
    "201": ("1ceb130c1ea1b78c3bf6114dbdfd8807", "c13680b51ded0fb44dff2d8f86ac8bb1"),
}
_GROWTH = 32


def _bn_relu(x, name, bn_suffix="_bn", relu_suffix="_relu"):
    axis = _builder.channel_axis(3)
    x = layers.BatchNormalization(axis=axis, epsilon=_EPS, name=f"{name}{bn_suffix}")(x)
    return layers.Activation("relu", name=f"{name}{relu_suffix}")(x)


def _conv_block(x, name):
    y = _bn_relu(x, name, "_0_bn", "_0_relu")
    y = layers.Conv2D(4 * _GROWTH, 1, use_bias=False, name=f"{name}_1_conv")(y)
    y = _bn_relu(y, name, "_1_bn", "_1_relu")
    y = layers.Conv2D(_GROWTH, 3, padding="same", use_bias=False, name=f"{name}_2_conv")(y)
    return layers.Concatenate(axis=_builder.channel_axis(3), name=f"{name}_concat")([x, y])


def _transition(x, name):
    x = _bn_relu(x, name)
    channels = x.shape[_builder.channel_axis(3)]
    x = layers.Conv2D(int(channels * 0.5), 1, use_bias=False, name=f"{name}_conv")(x)
    return layers.AveragePooling2D(2, strides=2, name=f"{name}_pool")(x)


def densenet(depth, args):
    weights, include_top, pooling = args["weights"], args["include_top"], args["pooling"]
    _builder.check_arguments(weights, include_top, args["classes"], pooling)
    shape = _builder.resolve_shape(args["input_shape"], 224, 32, include_top, weights)
    x, inputs = _builder.image_input(args["input_tensor"], shape)
    x = layers.ZeroPadding2D(((3, 3), (3, 3)))(x)
    x = layers.Conv2D(64, 7, strides=2, use_bias=False, name="conv1_conv")(x)
    x = _bn_relu(x, "conv1")
    x = layers.ZeroPadding2D(((1, 1), (1, 1)))(x)
    x = layers.MaxPooling2D(3, strides=2, name="pool1")(x)
    for stage, blocks in enumerate(_BLOCKS[depth], 2):
        for i in range(1, blocks + 1):
            x = _conv_block(x, f"conv{stage}_block{i}")
        if stage < 5:
            x = _transition(x, f"pool{stage}")
    x = _bn_relu(x, "", "bn", "relu")
    if include_top:
        x = _builder.dense_top(x, args["classes"], args["classifier_activation"], weights)
    else:
        x = _builder.pool(x, pooling)
    suffix = "" if include_top else "_notop"
    file = published(
        "densenet/",
        f"densenet{depth}_weights_tf_dim_ordering_tf_kernels{suffix}.h5",
        _HASHES[depth][0 if include_top else 1],
    )
    return _builder.finish(inputs, x, args["name"], weights, file)


def DenseNet121(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="densenet121",
):
    return densenet("121", locals())


def DenseNet169(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="densenet169",
):
    return densenet("169", locals())


def DenseNet201(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="densenet201",
):
    return densenet("201", locals())


_docs.document(
    (DenseNet121, DenseNet169, DenseNet201),
    paper="Densely Connected Convolutional Networks (Huang et al., 2017)",
    default_size=224,
    min_size=32,
    preprocessing="mb.applications.densenet.preprocess_input",
    example="DenseNet121",
    note=" (unlike Keras, mb also builds DenseNet under ``channels_first``)",
)
