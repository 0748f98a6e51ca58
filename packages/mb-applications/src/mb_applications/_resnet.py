"""ResNet (v1, post-activation) and ResNetV2 (pre-activation): bottleneck stacks."""

from mb_applications import _builder, _docs
from mb_applications._weights import published
from mb_layers import layers

_EPS = 1.001e-5
# (top, no top) md5 of the published files.
_HASHES = {
    "resnet50": ("2cb95161c43110f7111970584f804107", "4d473c1dd8becc155b73f8504c6f6626"),
    "resnet101": ("f1aeb4b969a6efcfb50fad2f0c20cfc5", "88cf7a10940856eca736dc7b7e228a21"),
    "resnet152": ("100835be76be38e30d865e96f2aaae62", "ee4c566cf9a93f14d82f913c2dc6dd0c"),
    "resnet50v2": ("3ef43a0b657b3be2300d5770ece849e0", "fac2f116257151a9d068a22e544a4917"),
    "resnet101v2": ("6343647c601c52e1368623803854d971", "c0ed64b8031c3730f411d2eb4eea35b5"),
    "resnet152v2": ("a49b44d1979771252814e80f8ec446f9", "ed17cf2e0169df9d443503ef94b23b33"),
}
# Blocks per stage (conv2 .. conv5).
_DEPTHS = {"50": (3, 4, 6, 3), "101": (3, 4, 23, 3), "152": (3, 8, 36, 3)}


def _bn(name):
    return layers.BatchNormalization(axis=_builder.channel_axis(3), epsilon=_EPS, name=name)


def _block_v1(x, filters, stride, project, name):
    if project:
        shortcut = layers.Conv2D(4 * filters, 1, strides=stride, name=f"{name}_0_conv")(x)
        shortcut = _bn(f"{name}_0_bn")(shortcut)
    else:
        shortcut = x
    x = layers.Conv2D(filters, 1, strides=stride, name=f"{name}_1_conv")(x)
    x = layers.Activation("relu", name=f"{name}_1_relu")(_bn(f"{name}_1_bn")(x))
    x = layers.Conv2D(filters, 3, padding="same", name=f"{name}_2_conv")(x)
    x = layers.Activation("relu", name=f"{name}_2_relu")(_bn(f"{name}_2_bn")(x))
    x = _bn(f"{name}_3_bn")(layers.Conv2D(4 * filters, 1, name=f"{name}_3_conv")(x))
    x = layers.Add(name=f"{name}_add")([shortcut, x])
    return layers.Activation("relu", name=f"{name}_out")(x)


def _block_v2(x, filters, stride, project, name):
    pre = layers.Activation("relu", name=f"{name}_preact_relu")(_bn(f"{name}_preact_bn")(x))
    if project:
        shortcut = layers.Conv2D(4 * filters, 1, strides=stride, name=f"{name}_0_conv")(pre)
    else:
        shortcut = layers.MaxPooling2D(1, strides=stride)(x) if stride > 1 else x
    x = layers.Conv2D(filters, 1, use_bias=False, name=f"{name}_1_conv")(pre)
    x = layers.Activation("relu", name=f"{name}_1_relu")(_bn(f"{name}_1_bn")(x))
    x = layers.ZeroPadding2D(((1, 1), (1, 1)), name=f"{name}_2_pad")(x)
    x = layers.Conv2D(filters, 3, strides=stride, use_bias=False, name=f"{name}_2_conv")(x)
    x = layers.Activation("relu", name=f"{name}_2_relu")(_bn(f"{name}_2_bn")(x))
    x = layers.Conv2D(4 * filters, 1, name=f"{name}_3_conv")(x)
    return layers.Add(name=f"{name}_out")([shortcut, x])


def _stack(x, filters, blocks, stride, name, v2):
    for i in range(1, blocks + 1):
        if v2:  # v2 projects in the first block and downsamples in the last
            x = _block_v2(x, filters, stride if i == blocks else 1, i == 1, f"{name}_block{i}")
        else:
            x = _block_v1(x, filters, stride if i == 1 else 1, i == 1, f"{name}_block{i}")
    return x


def resnet(depth, v2, args):
    """ResNet``depth`` (``"50"``, ``"101"``, ``"152"``), v1 or v2, from the public arguments."""
    weights, include_top, pooling = args["weights"], args["include_top"], args["pooling"]
    _builder.check_arguments(weights, include_top, args["classes"], pooling)
    shape = _builder.resolve_shape(args["input_shape"], 224, 32, include_top, weights)
    x, inputs = _builder.image_input(args["input_tensor"], shape)
    x = layers.ZeroPadding2D(((3, 3), (3, 3)), name="conv1_pad")(x)
    x = layers.Conv2D(64, 7, strides=2, use_bias=True, name="conv1_conv")(x)
    if not v2:
        x = layers.Activation("relu", name="conv1_relu")(_bn("conv1_bn")(x))
    x = layers.ZeroPadding2D(((1, 1), (1, 1)), name="pool1_pad")(x)
    x = layers.MaxPooling2D(3, strides=2, name="pool1_pool")(x)
    for stage, (filters, blocks) in enumerate(
        zip((64, 128, 256, 512), _DEPTHS[depth], strict=True)
    ):
        # v1 downsamples entering stages 3-5; v2 leaving stages 2-4.
        stride = (2 if stage < 3 else 1) if v2 else (2 if stage > 0 else 1)
        x = _stack(x, filters, blocks, stride, f"conv{stage + 2}", v2)
    if v2:
        x = layers.Activation("relu", name="post_relu")(_bn("post_bn")(x))
    if include_top:
        x = _builder.dense_top(x, args["classes"], args["classifier_activation"], weights)
    else:
        x = _builder.pool(x, pooling)
    key = f"resnet{depth}" + ("v2" if v2 else "")
    suffix = "" if include_top else "_notop"
    file = published(
        "resnet/",
        f"{key}_weights_tf_dim_ordering_tf_kernels{suffix}.h5",
        _HASHES[key][0 if include_top else 1],
    )
    return _builder.finish(inputs, x, args["name"], weights, file)


def ResNet50(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="resnet50",
):
    return resnet("50", False, locals())


def ResNet101(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="resnet101",
):
    return resnet("101", False, locals())


def ResNet152(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="resnet152",
):
    return resnet("152", False, locals())


def ResNet50V2(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="resnet50v2",
):
    return resnet("50", True, locals())


def ResNet101V2(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="resnet101v2",
):
    return resnet("101", True, locals())


def ResNet152V2(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="resnet152v2",
):
    return resnet("152", True, locals())


_docs.document(
    (ResNet50, ResNet101, ResNet152),
    paper="Deep Residual Learning for Image Recognition (He et al., 2015)",
    default_size=224,
    min_size=32,
    preprocessing="mb.applications.resnet.preprocess_input",
    example="ResNet50",
)
_docs.document(
    (ResNet50V2, ResNet101V2, ResNet152V2),
    paper="Identity Mappings in Deep Residual Networks (He et al., 2016)",
    default_size=224,
    min_size=32,
    preprocessing="mb.applications.resnet_v2.preprocess_input",
    example="ResNet50V2",
)
