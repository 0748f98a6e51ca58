"""MobileNetV3 Small and Large: inverted residuals with squeeze-excite and hard-swish.

The models rescale their own input (``include_preprocessing``), so they take
pixels in ``[0, 255]``.
"""

import warnings

from mb_applications import _builder, _docs
from mb_applications._builder import make_divisible
from mb_applications._mobilenet import _check_tensor_shape, _spatial
from mb_applications._weights import published
from mb_layers import layers
from mb_ops import is_keras_tensor

_HASHES = {
    "large_224_0.75_float": (
        "765b44a33ad4005b3ac83185abf1d0eb",
        "40af19a13ebea4e2ee0c676887f69a2e",
    ),
    "large_224_1.0_float": ("59e551e166be033d707958cf9e29a6a7", "07fb09a5933dd0c8eaafa16978110389"),
    "large_minimalistic_224_1.0_float": (
        "675e7b876c45c57e9e63e6d90a36599c",
        "ec5221f64a2f6d1ef965a614bdae7973",
    ),
    "small_224_0.75_float": (
        "cb65d4e5be93758266aa0a7f2c6708b7",
        "ebdb5cc8e0b497cd13a7c275d475c819",
    ),
    "small_224_1.0_float": ("8768d4c2e7dee89b9d02b2d03d65d862", "d3e8ec802a04aa4fc771ee12a9a9b836"),
    "small_minimalistic_224_1.0_float": (
        "99cd97fb2fcdad2bf028eb838de69e37",
        "cde8136e733e811080d9fcd8a252f7e4",
    ),
}
# (expansion, filters, kernel ("k": 3 if minimalistic else 5), stride, squeeze-excite,
#  activation ("hs": hard-swish unless minimalistic, "re": ReLU)) per block.
_SMALL = (
    (1, 16, 3, 2, True, "re"),
    (72 / 16, 24, 3, 2, False, "re"),
    (88 / 24, 24, 3, 1, False, "re"),
    (4, 40, "k", 2, True, "hs"),
    (6, 40, "k", 1, True, "hs"),
    (6, 40, "k", 1, True, "hs"),
    (3, 48, "k", 1, True, "hs"),
    (3, 48, "k", 1, True, "hs"),
    (6, 96, "k", 2, True, "hs"),
    (6, 96, "k", 1, True, "hs"),
    (6, 96, "k", 1, True, "hs"),
)
_LARGE = (
    (1, 16, 3, 1, False, "re"),
    (4, 24, 3, 2, False, "re"),
    (3, 24, 3, 1, False, "re"),
    (3, 40, "k", 2, True, "re"),
    (3, 40, "k", 1, True, "re"),
    (3, 40, "k", 1, True, "re"),
    (6, 80, 3, 2, False, "hs"),
    (2.5, 80, 3, 1, False, "hs"),
    (2.3, 80, 3, 1, False, "hs"),
    (2.3, 80, 3, 1, False, "hs"),
    (6, 112, 3, 1, True, "hs"),
    (6, 112, 3, 1, True, "hs"),
    (6, 160, "k", 2, True, "hs"),
    (6, 160, "k", 1, True, "hs"),
    (6, 160, "k", 1, True, "hs"),
)


def _relu(x):
    return layers.ReLU()(x)


def _hard_swish(x):
    return layers.Activation("hard_swish")(x)


def _bn(name):
    return layers.BatchNormalization(
        axis=_builder.channel_axis(), epsilon=1e-3, momentum=0.999, name=name
    )


def _squeeze_excite(inputs, filters, prefix):
    x = layers.GlobalAveragePooling2D(keepdims=True, name=f"{prefix}squeeze_excite_avg_pool")(
        inputs
    )
    x = layers.Conv2D(
        make_divisible(filters * 0.25), 1, padding="same", name=f"{prefix}squeeze_excite_conv"
    )(x)
    x = layers.ReLU(name=f"{prefix}squeeze_excite_relu")(x)
    x = layers.Conv2D(filters, 1, padding="same", name=f"{prefix}squeeze_excite_conv_1")(x)
    x = layers.ReLU(6.0)(x + 3.0) * (1.0 / 6.0)  # hard sigmoid
    return layers.Multiply(name=f"{prefix}squeeze_excite_mul")([inputs, x])


def _block(x, expansion, filters, kernel, stride, se, activation, block_id):
    shortcut = x
    in_channels = x.shape[_builder.channel_axis()]
    prefix = f"expanded_conv_{block_id}_" if block_id else "expanded_conv_"
    expanded = make_divisible(in_channels * expansion)
    if block_id:
        x = layers.Conv2D(expanded, 1, padding="same", use_bias=False, name=f"{prefix}expand")(x)
        x = activation(_bn(f"{prefix}expand_bn")(x))
    if stride == 2:
        x = layers.ZeroPadding2D(_builder.correct_pad(x, kernel), name=f"{prefix}depthwise_pad")(x)
    x = layers.DepthwiseConv2D(
        kernel,
        strides=stride,
        padding="same" if stride == 1 else "valid",
        use_bias=False,
        name=f"{prefix}depthwise",
    )(x)
    x = activation(_bn(f"{prefix}depthwise_bn")(x))
    if se:
        x = _squeeze_excite(x, expanded, prefix)
    x = layers.Conv2D(filters, 1, padding="same", use_bias=False, name=f"{prefix}project")(x)
    x = _bn(f"{prefix}project_bn")(x)
    if stride == 1 and in_channels == filters:
        x = layers.Add(name=f"{prefix}add")([shortcut, x])
    return x


def _resolve_shape(input_shape, input_tensor):
    _check_tensor_shape(input_tensor, input_shape)
    if input_shape is None and input_tensor is not None and is_keras_tensor(input_tensor):
        rows, cols = _spatial(input_tensor.shape[1:])
        input_shape = (3, cols, rows) if not _builder.channels_last() else (cols, rows, 3)
    if input_shape is None:
        input_shape = (None, None, 3) if _builder.channels_last() else (3, None, None)
    rows, cols = _spatial(input_shape)
    if (rows and rows < 32) or (cols and cols < 32):
        raise ValueError(f"Input size must be at least 32x32; Received `input_shape={input_shape}`")
    return tuple(input_shape), rows, cols


def mobilenet_v3(model_type, args):
    weights, include_top, pooling = args["weights"], args["include_top"], args["pooling"]
    alpha, minimalistic = args["alpha"], args["minimalistic"]
    _builder.check_arguments(weights, include_top, args["classes"], pooling)
    shape, rows, cols = _resolve_shape(args["input_shape"], args["input_tensor"])
    if weights == "imagenet":
        if alpha not in ((1.0,) if minimalistic else (0.75, 1.0)):
            raise ValueError(
                "If imagenet weights are being loaded, alpha can be one of `0.75`, `1.0` for "
                "non minimalistic or `1.0` for minimalistic only."
            )
        if rows != cols or rows != 224:
            warnings.warn(
                "`input_shape` is undefined or non-square, or `rows` is not 224. Weights for "
                "input shape (224, 224) will be loaded as the default.",
                stacklevel=3,
            )
    x, inputs = _builder.image_input(args["input_tensor"], shape)
    channel = _builder.channel_axis()
    activation, default_kernel = (_relu, 3) if minimalistic else (_hard_swish, 5)
    if args["include_preprocessing"]:
        x = layers.Rescaling(scale=1.0 / 127.5, offset=-1.0)(x)
    x = layers.Conv2D(16, 3, strides=(2, 2), padding="same", use_bias=False, name="conv")(x)
    x = activation(_bn("conv_bn")(x))
    for block_id, spec in enumerate(_SMALL if model_type == "small" else _LARGE):
        expansion, filters, kernel, stride, se, act = spec
        x = _block(
            x,
            expansion,
            make_divisible(filters * alpha),
            default_kernel if kernel == "k" else kernel,
            stride,
            se and not minimalistic,
            _relu if act == "re" else activation,
            block_id,
        )
    last_conv = make_divisible(x.shape[channel] * 6)
    last_point = 1024 if model_type == "small" else 1280
    if alpha > 1.0:
        last_point = make_divisible(last_point * alpha)
    x = layers.Conv2D(last_conv, 1, padding="same", use_bias=False, name="conv_1")(x)
    x = activation(_bn("conv_1_bn")(x))
    if include_top:
        x = layers.GlobalAveragePooling2D(keepdims=True)(x)
        x = layers.Conv2D(last_point, 1, padding="same", use_bias=True, name="conv_2")(x)
        x = activation(x)
        if args["dropout_rate"] > 0:
            x = layers.Dropout(args["dropout_rate"])(x)
        x = layers.Conv2D(args["classes"], 1, padding="same", name="logits")(x)
        x = layers.Flatten()(x)
        _builder.check_activation(args["classifier_activation"], weights)
        x = layers.Activation(activation=args["classifier_activation"], name="predictions")(x)
    else:
        x = _builder.pool(x, pooling)
    key = f"{model_type}{'_minimalistic' if minimalistic else ''}_224_{alpha}_float"
    file = None
    if weights == "imagenet":
        suffix = "" if include_top else "_no_top_v2"
        file = published(
            "mobilenet_v3/",
            f"weights_mobilenet_v3_{key}{suffix}.h5",
            _HASHES[key][0 if include_top else 1],
        )
    return _builder.finish(inputs, x, args["name"], weights, file)


def MobileNetV3Small(
    input_shape=None,
    alpha=1.0,
    minimalistic=False,
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    classes=1000,
    pooling=None,
    dropout_rate=0.2,
    classifier_activation="softmax",
    include_preprocessing=True,
    name="MobileNetV3Small",
):
    return mobilenet_v3("small", locals())


def MobileNetV3Large(
    input_shape=None,
    alpha=1.0,
    minimalistic=False,
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    classes=1000,
    pooling=None,
    dropout_rate=0.2,
    classifier_activation="softmax",
    include_preprocessing=True,
    name="MobileNetV3Large",
):
    return mobilenet_v3("large", locals())


_docs.document(
    (MobileNetV3Small, MobileNetV3Large),
    paper="Searching for MobileNetV3 (Howard et al., 2019)",
    default_size=224,
    min_size=32,
    preprocessing="mb.applications.mobilenet_v3.preprocess_input",
    example="MobileNetV3Small",
    note=" (an identity: the model rescales pixels in [0, 255] itself unless "
    "``include_preprocessing=False``)",
    extra="""
        alpha: the width multiplier (ImageNet weights: 0.75 and 1.0; 1.0 when minimalistic).
        minimalistic: ReLU and 3x3 kernels only, no squeeze-excite.
        dropout_rate: the dropout rate before the classifier.
        include_preprocessing: rescale the input from [0, 255] to [-1, 1] in the model.""",
)
