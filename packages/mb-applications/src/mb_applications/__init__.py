"""mb-applications: the Keras model zoo on mb (``mb.applications``).

Every architecture of ``keras.applications``, with Keras's arguments, layer
names and variables, so the weight files published for Keras (and any file
Keras wrote for these models) load unchanged::

    import mb
    model = mb.applications.ResNet50(weights="imagenet")
    x = mb.applications.resnet.preprocess_input(images)
    mb.applications.resnet.decode_predictions(model.predict(x))
"""

from mb_applications import convnext as convnext
from mb_applications import densenet as densenet
from mb_applications import efficientnet as efficientnet
from mb_applications import efficientnet_v2 as efficientnet_v2
from mb_applications import imagenet_utils as imagenet_utils
from mb_applications import inception_resnet_v2 as inception_resnet_v2
from mb_applications import inception_v3 as inception_v3
from mb_applications import mobilenet as mobilenet
from mb_applications import mobilenet_v2 as mobilenet_v2
from mb_applications import mobilenet_v3 as mobilenet_v3
from mb_applications import nasnet as nasnet
from mb_applications import resnet as resnet
from mb_applications import resnet50 as resnet50
from mb_applications import resnet_v2 as resnet_v2
from mb_applications import vgg16 as vgg16
from mb_applications import vgg19 as vgg19
from mb_applications import xception as xception
from mb_applications._convnext import ConvNeXtBase as ConvNeXtBase
from mb_applications._convnext import ConvNeXtLarge as ConvNeXtLarge
from mb_applications._convnext import ConvNeXtSmall as ConvNeXtSmall
from mb_applications._convnext import ConvNeXtTiny as ConvNeXtTiny
from mb_applications._convnext import ConvNeXtXLarge as ConvNeXtXLarge
from mb_applications._densenet import DenseNet121 as DenseNet121
from mb_applications._densenet import DenseNet169 as DenseNet169
from mb_applications._densenet import DenseNet201 as DenseNet201
from mb_applications._efficientnet import EfficientNetB0 as EfficientNetB0
from mb_applications._efficientnet import EfficientNetB1 as EfficientNetB1
from mb_applications._efficientnet import EfficientNetB2 as EfficientNetB2
from mb_applications._efficientnet import EfficientNetB3 as EfficientNetB3
from mb_applications._efficientnet import EfficientNetB4 as EfficientNetB4
from mb_applications._efficientnet import EfficientNetB5 as EfficientNetB5
from mb_applications._efficientnet import EfficientNetB6 as EfficientNetB6
from mb_applications._efficientnet import EfficientNetB7 as EfficientNetB7
from mb_applications._efficientnet_v2 import EfficientNetV2B0 as EfficientNetV2B0
from mb_applications._efficientnet_v2 import EfficientNetV2B1 as EfficientNetV2B1
from mb_applications._efficientnet_v2 import EfficientNetV2B2 as EfficientNetV2B2
from mb_applications._efficientnet_v2 import EfficientNetV2B3 as EfficientNetV2B3
from mb_applications._efficientnet_v2 import EfficientNetV2L as EfficientNetV2L
from mb_applications._efficientnet_v2 import EfficientNetV2M as EfficientNetV2M
from mb_applications._efficientnet_v2 import EfficientNetV2S as EfficientNetV2S
from mb_applications._inception import InceptionResNetV2 as InceptionResNetV2
from mb_applications._inception import InceptionV3 as InceptionV3
from mb_applications._mobilenet import MobileNet as MobileNet
from mb_applications._mobilenet import MobileNetV2 as MobileNetV2
from mb_applications._mobilenet_v3 import MobileNetV3Large as MobileNetV3Large
from mb_applications._mobilenet_v3 import MobileNetV3Small as MobileNetV3Small
from mb_applications._nasnet import NASNetLarge as NASNetLarge
from mb_applications._nasnet import NASNetMobile as NASNetMobile
from mb_applications._resnet import ResNet50 as ResNet50
from mb_applications._resnet import ResNet50V2 as ResNet50V2
from mb_applications._resnet import ResNet101 as ResNet101
from mb_applications._resnet import ResNet101V2 as ResNet101V2
from mb_applications._resnet import ResNet152 as ResNet152
from mb_applications._resnet import ResNet152V2 as ResNet152V2
from mb_applications._vgg import VGG16 as VGG16
from mb_applications._vgg import VGG19 as VGG19
from mb_applications._xception import Xception as Xception

__version__ = "0.1.0"

__all__ = [
    "VGG16",
    "VGG19",
    "ConvNeXtBase",
    "ConvNeXtLarge",
    "ConvNeXtSmall",
    "ConvNeXtTiny",
    "ConvNeXtXLarge",
    "DenseNet121",
    "DenseNet169",
    "DenseNet201",
    "EfficientNetB0",
    "EfficientNetB1",
    "EfficientNetB2",
    "EfficientNetB3",
    "EfficientNetB4",
    "EfficientNetB5",
    "EfficientNetB6",
    "EfficientNetB7",
    "EfficientNetV2B0",
    "EfficientNetV2B1",
    "EfficientNetV2B2",
    "EfficientNetV2B3",
    "EfficientNetV2L",
    "EfficientNetV2M",
    "EfficientNetV2S",
    "InceptionResNetV2",
    "InceptionV3",
    "MobileNet",
    "MobileNetV2",
    "MobileNetV3Large",
    "MobileNetV3Small",
    "NASNetLarge",
    "NASNetMobile",
    "ResNet50",
    "ResNet50V2",
    "ResNet101",
    "ResNet101V2",
    "ResNet152",
    "ResNet152V2",
    "Xception",
    "convnext",
    "densenet",
    "efficientnet",
    "efficientnet_v2",
    "imagenet_utils",
    "inception_resnet_v2",
    "inception_v3",
    "mobilenet",
    "mobilenet_v2",
    "mobilenet_v3",
    "nasnet",
    "resnet",
    "resnet50",
    "resnet_v2",
    "vgg16",
    "vgg19",
    "xception",
]
