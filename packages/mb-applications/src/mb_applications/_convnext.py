"""ConvNeXt Tiny to XLarge: 7x7 depthwise convolutions, LayerNorm and MLPs per block.

The models normalise their own input (``include_preprocessing``), so they take
pixels in ``[0, 255]``. Keras builds them under ``channels_last`` only; mb also
builds them under ``channels_first`` (the per-pixel MLP runs on a transposed
view, between two ``Permute`` layers that hold no weights).
"""

from mb_applications import _builder, _docs
from mb_applications._weights import published
from mb_layers import Layer, initializers, layers
from mb_layers._registry import register_builtin
from mb_train.models import Sequential

# sha256 of the published files: (top, no top).
_HASHES = {
    "tiny": (
        "8ae6e78ce2933352b1ef4008e6dd2f17bc40771563877d156bc6426c7cf503ff",
        "d547c096cabd03329d7be5562c5e14798aa39ed24b474157cef5e85ab9e49ef1",
    ),
    "small": (
        "ce1277d8f1ee5a0ef0e171469089c18f5233860ceaf9b168049cb9263fd7483c",
        "6fc8009faa2f00c1c1dfce59feea9b0745eb260a7dd11bee65c8e20843da6eab",
    ),
    "base": (
        "52cbb006d3dadd03f6e095a8ca1aca47aecdd75acb4bc74bce1f5c695d0086e6",
        "40a20c5548a5e9202f69735ecc06c990e6b7c9d2de39f0361e27baeb24cb7c45",
    ),
    "large": (
        "070c5ed9ed289581e477741d3b34beffa920db8cf590899d6d2c67fba2a198a6",
        "96f02b6f0753d4f543261bc9d09bed650f24dd6bc02ddde3066135b63d23a1cd",
    ),
    "xlarge": (
        "c1f5ccab661354fc3a79a10fa99af82f0fbf10ec65cb894a3ae0815f17a889ee",
        "de3f8a54174130e0cecdc71583354753d557fcf1f4487331558e2a16ba0cfe05",
    ),
}
# (blocks per stage, channels per stage).
_CONFIGS = {
    "tiny": ((3, 3, 9, 3), (96, 192, 384, 768)),
    "small": ((3, 3, 27, 3), (96, 192, 384, 768)),
    "base": ((3, 3, 27, 3), (128, 256, 512, 1024)),
    "large": ((3, 3, 27, 3), (192, 384, 768, 1536)),
    "xlarge": ((3, 3, 27, 3), (256, 512, 1024, 2048)),
}
_EPS = 1e-6


class LayerScale(Layer):
    """Multiplies each channel by a learned factor, initialised to `init_values`."""

    def __init__(self, init_values, projection_dim, **kwargs):
        super().__init__(**kwargs)
        self.init_values = init_values
        self.projection_dim = projection_dim

    def build(self, _):
        self.gamma = self.add_weight(
            shape=(self.projection_dim,),
            initializer=initializers.Constant(self.init_values),
            trainable=True,
        )

    def call(self, x):
        return x * self.gamma

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {
            **super().get_config(),
            "init_values": self.init_values,
            "projection_dim": self.projection_dim,
        }


# Saved models name it as Keras does, so `.keras` files load both ways (in safe mode too).
register_builtin(LayerScale, module="keras.src.applications.convnext", registered_name="LayerScale")


def _layer_norm(name=None):
    return layers.LayerNormalization(axis=_builder.channel_axis(), epsilon=_EPS, name=name)


def _block(inputs, dim, name):
    x = layers.Conv2D(dim, 7, padding="same", groups=dim, name=f"{name}_depthwise_conv")(inputs)
    first = not _builder.channels_last()
    if first:
        x = layers.Permute((2, 3, 1))(x)
    x = layers.LayerNormalization(epsilon=_EPS, name=f"{name}_layernorm")(x)
    x = layers.Dense(4 * dim, name=f"{name}_pointwise_conv_1")(x)
    x = layers.Activation("gelu", name=f"{name}_gelu")(x)
    x = layers.Dense(dim, name=f"{name}_pointwise_conv_2")(x)
    x = LayerScale(1e-6, dim, name=f"{name}_layer_scale")(x)
    x = layers.Activation("linear", name=f"{name}_identity")(x)
    if first:
        x = layers.Permute((3, 1, 2))(x)
    return inputs + x


def convnext(variant, args):
    depths, dims = _CONFIGS[variant]
    weights, include_top, pooling = args["weights"], args["include_top"], args["pooling"]
    name = args["name"]
    _builder.check_arguments(weights, include_top, args["classes"], pooling)
    shape = _builder.resolve_shape(args["input_shape"], 224, 32, include_top, weights)
    if weights == "imagenet" and f"convnext_{variant}" not in name:
        raise ValueError(
            f'Model name "{name}" does not match weights variant "convnext_{variant}". When '
            "using imagenet weights, model name must contain the weights variant (e.g., "
            f'"convnext_{variant}"): the weight file is named after the model.'
        )
    x, inputs = _builder.image_input(args["input_tensor"], shape)
    axis = _builder.channel_axis()
    channels = shape[-1] if _builder.channels_last() else shape[0]
    if args["include_preprocessing"] and channels == 3:
        x = layers.Normalization(
            axis=axis,
            mean=[0.485 * 255, 0.456 * 255, 0.406 * 255],
            variance=[(0.229 * 255) ** 2, (0.224 * 255) ** 2, (0.225 * 255) ** 2],
            name=f"{name}_prestem_normalization",
        )(x)
    downsampling = [
        Sequential(
            [
                layers.Conv2D(dims[0], 4, strides=4, name=f"{name}_stem_conv"),
                _layer_norm(f"{name}_stem_layernorm"),
            ],
            name=f"{name}_stem",
        )
    ]
    for i in range(3):
        downsampling.append(
            Sequential(
                [
                    _layer_norm(f"{name}_downsampling_layernorm_{i}"),
                    layers.Conv2D(dims[i + 1], 2, strides=2, name=f"{name}_downsampling_conv_{i}"),
                ],
                name=f"{name}_downsampling_block_{i}",
            )
        )
    for stage, (blocks, dim) in enumerate(zip(depths, dims, strict=True)):
        x = downsampling[stage](x)
        for j in range(blocks):
            x = _block(x, dim, f"{name}_stage_{stage}_block_{j}")
    if include_top:
        _builder.check_activation(args["classifier_activation"], weights)
        x = layers.GlobalAveragePooling2D(name=f"{name}_head_gap")(x)
        x = layers.LayerNormalization(epsilon=_EPS, name=f"{name}_head_layernorm")(x)
        x = layers.Dense(
            args["classes"], activation=args["classifier_activation"], name=f"{name}_head_dense"
        )(x)
    else:
        x = _builder.pool(x, pooling, names=None)
        x = (_layer_norm() if pooling is None else layers.LayerNormalization(epsilon=_EPS))(x)
    file = published(
        "convnext/",
        f"{name}{'' if include_top else '_notop'}.h5",
        _HASHES[variant][0 if include_top else 1],
    )
    return _builder.finish(inputs, x, name, weights, file)


def ConvNeXtTiny(
    include_top=True,
    include_preprocessing=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="convnext_tiny",
):
    return convnext("tiny", locals())


def ConvNeXtSmall(
    include_top=True,
    include_preprocessing=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="convnext_small",
):
    return convnext("small", locals())


def ConvNeXtBase(
    include_top=True,
    include_preprocessing=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="convnext_base",
):
    return convnext("base", locals())


def ConvNeXtLarge(
    include_top=True,
    include_preprocessing=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="convnext_large",
):
    return convnext("large", locals())


def ConvNeXtXLarge(
    include_top=True,
    include_preprocessing=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="convnext_xlarge",
):
    return convnext("xlarge", locals())


_docs.document(
    (ConvNeXtTiny, ConvNeXtSmall, ConvNeXtBase, ConvNeXtLarge, ConvNeXtXLarge),
    paper="A ConvNet for the 2020s (Liu et al., 2022)",
    default_size=224,
    min_size=32,
    preprocessing="mb.applications.convnext.preprocess_input",
    example="ConvNeXtTiny",
    note=" (an identity: the model normalises pixels in [0, 255] itself unless "
    "``include_preprocessing=False``)",
    extra="""
        include_preprocessing: normalise the input with ImageNet's statistics in the model.""",
)
