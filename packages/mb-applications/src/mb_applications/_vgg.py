"""VGG16 and VGG19: five stages of 3x3 convolutions, then two 4096-unit layers."""

from mb_applications import _builder, _docs
from mb_applications._weights import published
from mb_layers import layers

# Convolutions per stage.
_STAGES = {"vgg16": (2, 2, 3, 3, 3), "vgg19": (2, 2, 4, 4, 4)}
_HASHES = {
    "vgg16": ("64373286793e3c8b2b4e3219cbf3544b", "6d6bbae143d832006294945121d1f1fc"),
    "vgg19": ("cbe5617147190e668d6c5d5026f83318", "253f8cb515780f3b799900260a226db6"),
}


def vgg(key, args):
    weights, include_top, pooling = args["weights"], args["include_top"], args["pooling"]
    _builder.check_arguments(weights, include_top, args["classes"], pooling)
    shape = _builder.resolve_shape(args["input_shape"], 224, 32, include_top, weights)
    x, inputs = _builder.image_input(args["input_tensor"], shape)
    for stage, (filters, convs) in enumerate(
        zip((64, 128, 256, 512, 512), _STAGES[key], strict=True), 1
    ):
        for i in range(1, convs + 1):
            conv = layers.Conv2D(
                filters, (3, 3), activation="relu", padding="same", name=f"block{stage}_conv{i}"
            )
            x = conv(x)
        x = layers.MaxPooling2D((2, 2), strides=(2, 2), name=f"block{stage}_pool")(x)
    if include_top:
        x = layers.Flatten(name="flatten")(x)
        x = layers.Dense(4096, activation="relu", name="fc1")(x)
        x = layers.Dense(4096, activation="relu", name="fc2")(x)
        _builder.check_activation(args["classifier_activation"], weights)
        x = layers.Dense(
            args["classes"], activation=args["classifier_activation"], name="predictions"
        )(x)
    else:
        x = _builder.pool(x, pooling, names=None)
    suffix = "" if include_top else "_notop"
    file = published(
        f"{key}/",
        f"{key}_weights_tf_dim_ordering_tf_kernels{suffix}.h5",
        _HASHES[key][0 if include_top else 1],
    )
    return _builder.finish(inputs, x, args["name"], weights, file)


def VGG16(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="vgg16",
):
    return vgg("vgg16", locals())


def VGG19(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="vgg19",
):
    return vgg("vgg19", locals())


_docs.document(
    (VGG16, VGG19),
    paper="Very Deep Convolutional Networks for Large-Scale Image Recognition "
    "(Simonyan and Zisserman, 2015)",
    default_size=224,
    min_size=32,
    preprocessing="mb.applications.vgg16.preprocess_input",
    example="VGG16",
)
