"""``mb.applications``: Keras 3's model zoo (``keras.applications``), see mb-applications.

Every model loads the weight files published for Keras (``weights="imagenet"``).
"""

from mb.applications import convnext as convnext
from mb.applications import densenet as densenet
from mb.applications import efficientnet as efficientnet
from mb.applications import efficientnet_v2 as efficientnet_v2
from mb.applications import imagenet_utils as imagenet_utils
from mb.applications import inception_resnet_v2 as inception_resnet_v2
from mb.applications import inception_v3 as inception_v3
from mb.applications import mobilenet as mobilenet
from mb.applications import mobilenet_v2 as mobilenet_v2
from mb.applications import mobilenet_v3 as mobilenet_v3
from mb.applications import nasnet as nasnet
from mb.applications import resnet as resnet
from mb.applications import resnet50 as resnet50
from mb.applications import resnet_v2 as resnet_v2
from mb.applications import vgg16 as vgg16
from mb.applications import vgg19 as vgg19
from mb.applications import xception as xception
from mb_applications import *  # noqa: F403
from mb_applications import __all__ as __all__
