"""Keras's arguments, with the same rules, and clear errors when they are misused."""

import numpy as np
import pytest

import mb_applications as apps
import mb_saving
from mb_layers import Input, layers


def test_weights_must_be_none_imagenet_or_an_existing_file(tmp_path):
    with pytest.raises(ValueError, match=r"`weights` argument.*no such file"):
        apps.VGG16(weights=str(tmp_path / "missing.h5"))
    with pytest.raises(ValueError, match="`weights` argument"):
        apps.VGG16(weights=3)


def test_imagenet_weights_with_the_top_need_1000_classes():
    with pytest.raises(ValueError, match=r"`classes` should be 1000.*Received: classes=10"):
        apps.ResNet50(weights="imagenet", classes=10)


def test_input_shape_rules():
    with pytest.raises(ValueError, match="static `input_shape`"):
        apps.MobileNet(weights=None, input_shape=(None, None, 3))
    with pytest.raises(ValueError, match="at least 75x75"):
        apps.InceptionV3(weights=None, include_top=False, input_shape=(64, 64, 3))
    with pytest.raises(ValueError, match="three integers"):
        apps.Xception(weights=None, include_top=False, input_shape=(71, 71))
    with pytest.raises(ValueError, match="should be \\(224, 224, 3\\)"):
        apps.DenseNet121(weights="imagenet", input_shape=(64, 64, 3))
    with pytest.raises(ValueError, match="must have 3 channels"):
        apps.EfficientNetB0(weights="imagenet", include_top=False, input_shape=(64, 64, 1))
    with pytest.warns(UserWarning, match="usually expects 1 or 3 input channels"):
        model = apps.MobileNetV2(weights=None, include_top=False, input_shape=(32, 32, 4))
    assert model.input_shape == (None, 32, 32, 4)


def test_without_top_the_input_size_is_free_and_pooling_decides_the_output():
    model = apps.MobileNetV2(weights=None, include_top=False, alpha=0.35)
    assert model.input_shape == (None, None, None, 3)
    assert model.output_shape == (None, None, None, 1280)
    pooled = apps.MobileNetV2(weights=None, include_top=False, alpha=0.35, pooling="max")
    assert pooled.output_shape == (None, 1280)
    with pytest.raises(ValueError, match="`pooling` must be None, 'avg' or 'max'"):
        apps.MobileNetV2(weights=None, include_top=False, pooling="mean")


def test_pretrained_heads_accept_only_softmax_or_logits():
    with pytest.raises(ValueError, match="classifier_activation='relu'"):
        apps.MobileNet(weights="imagenet", alpha=0.25, classifier_activation="relu")


def test_the_model_grows_from_a_given_symbolic_tensor():
    x = Input((48, 48, 3), name="pixels")
    scaled = layers.Rescaling(1 / 255)(x)
    model = apps.ResNet50V2(weights=None, include_top=False, input_tensor=scaled, pooling="avg")
    assert model.inputs[0] is x and model.output_shape == (None, 2048)
    assert model.layers[1].name == "rescaling"
    with pytest.raises(ValueError, match="`input_tensor` must be a symbolic tensor"):
        apps.ResNet50V2(weights=None, input_tensor=np.zeros((1, 32, 32, 3)))


def test_model_specific_checks_of_imagenet_weights():
    with pytest.raises(ValueError, match="depth multiplier must be 1"):
        apps.MobileNet(weights="imagenet", depth_multiplier=2)
    with pytest.raises(ValueError, match="alpha can be one of"):
        apps.MobileNet(weights="imagenet", alpha=0.3)
    with pytest.raises(ValueError, match="alpha must be one of"):
        apps.MobileNetV2(weights="imagenet", alpha=0.6)
    with pytest.raises(ValueError, match=r"`1.0` for minimalistic"):
        apps.MobileNetV3Small(weights="imagenet", minimalistic=True, alpha=0.75)
    with pytest.raises(ValueError, match='name "mine" does not match weights variant'):
        apps.ConvNeXtTiny(weights="imagenet", name="mine")
    with pytest.raises(ValueError, match="must be static"):
        apps.NASNetMobile(weights="imagenet", include_top=False, input_shape=(None, None, 3))
    with pytest.raises(ValueError, match="does not match input_shape"):
        apps.MobileNetV2(weights=None, input_tensor=Input((96, 96, 3)), input_shape=(128, 128, 3))


def test_names_follow_keras_conventions():
    assert apps.MobileNet(weights=None, alpha=0.5, input_shape=(128, 128, 3)).name == (
        "mobilenet_0.50_128"
    )
    assert apps.MobileNetV2(weights=None, include_top=False).name == "mobilenetv2_1.00_None"
    assert apps.EfficientNetV2B0(weights=None, include_top=False, name="enc").name == "enc"


def test_weights_of_another_architecture_are_refused_and_nothing_is_loaded(tmp_path):
    small = apps.MobileNet(weights=None, alpha=0.25, include_top=False, input_shape=(32, 32, 3))
    small.save_weights(tmp_path / "mobilenet.weights.h5")
    with pytest.raises(mb_saving.WeightsMismatchError, match="do not match"):
        apps.MobileNet(
            weights=str(tmp_path / "mobilenet.weights.h5"),
            alpha=0.5,
            include_top=False,
            input_shape=(32, 32, 3),
        )
