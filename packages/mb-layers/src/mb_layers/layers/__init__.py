"""The layer families (``keras.layers``), with `serialize` / `deserialize`."""

from mb_layers import _registry
from mb_layers._input_layer import Input as Input
from mb_layers._input_layer import InputLayer as InputLayer
from mb_layers._input_spec import InputSpec as InputSpec
from mb_layers._layer import Layer as Layer
from mb_layers.layers._activation_layers import ELU as ELU
from mb_layers.layers._activation_layers import Activation as Activation
from mb_layers.layers._activation_layers import LeakyReLU as LeakyReLU
from mb_layers.layers._activation_layers import PReLU as PReLU
from mb_layers.layers._activation_layers import ReLU as ReLU
from mb_layers.layers._activation_layers import Softmax as Softmax
from mb_layers.layers._attention import AdditiveAttention as AdditiveAttention
from mb_layers.layers._attention import Attention as Attention
from mb_layers.layers._conv_depthwise import DepthwiseConv1D as DepthwiseConv1D
from mb_layers.layers._conv_depthwise import DepthwiseConv2D as DepthwiseConv2D
from mb_layers.layers._conv_depthwise import SeparableConv1D as SeparableConv1D
from mb_layers.layers._conv_depthwise import SeparableConv2D as SeparableConv2D
from mb_layers.layers._conv_lstm import ConvLSTM1D as ConvLSTM1D
from mb_layers.layers._conv_lstm import ConvLSTM2D as ConvLSTM2D
from mb_layers.layers._conv_lstm import ConvLSTM3D as ConvLSTM3D
from mb_layers.layers._conv_transpose import Conv1DTranspose as Conv1DTranspose
from mb_layers.layers._conv_transpose import Conv2DTranspose as Conv2DTranspose
from mb_layers.layers._conv_transpose import Conv3DTranspose as Conv3DTranspose
from mb_layers.layers._convolutional import Conv1D as Conv1D
from mb_layers.layers._convolutional import Conv2D as Conv2D
from mb_layers.layers._convolutional import Conv3D as Conv3D
from mb_layers.layers._core import Embedding as Embedding
from mb_layers.layers._core import Identity as Identity
from mb_layers.layers._core import Masking as Masking
from mb_layers.layers._dense import Dense as Dense
from mb_layers.layers._einsum_dense import EinsumDense as EinsumDense
from mb_layers.layers._engine_layers import FlaxLayer as FlaxLayer
from mb_layers.layers._engine_layers import JaxLayer as JaxLayer
from mb_layers.layers._engine_layers import TorchModuleWrapper as TorchModuleWrapper
from mb_layers.layers._hashing import HashedCrossing as HashedCrossing
from mb_layers.layers._hashing import Hashing as Hashing
from mb_layers.layers._image_affine import RandomRotation as RandomRotation
from mb_layers.layers._image_affine import RandomShear as RandomShear
from mb_layers.layers._image_affine import RandomTranslation as RandomTranslation
from mb_layers.layers._image_affine import RandomZoom as RandomZoom
from mb_layers.layers._image_clahe import (
    ContrastLimitedAdaptiveHistogramEqualization as ContrastLimitedAdaptiveHistogramEqualization,
)
from mb_layers.layers._image_color import RandomBrightness as RandomBrightness
from mb_layers.layers._image_color import RandomColorDegeneration as RandomColorDegeneration
from mb_layers.layers._image_color import RandomColorJitter as RandomColorJitter
from mb_layers.layers._image_color import RandomContrast as RandomContrast
from mb_layers.layers._image_color import RandomGrayscale as RandomGrayscale
from mb_layers.layers._image_color import RandomHue as RandomHue
from mb_layers.layers._image_color import RandomInvert as RandomInvert
from mb_layers.layers._image_color import RandomPosterization as RandomPosterization
from mb_layers.layers._image_color import RandomSaturation as RandomSaturation
from mb_layers.layers._image_data import MaxNumBoundingBoxes as MaxNumBoundingBoxes
from mb_layers.layers._image_filters import RandomGaussianBlur as RandomGaussianBlur
from mb_layers.layers._image_filters import RandomSharpness as RandomSharpness
from mb_layers.layers._image_geometry import CenterCrop as CenterCrop
from mb_layers.layers._image_geometry import RandomFlip as RandomFlip
from mb_layers.layers._image_geometry import Resizing as Resizing
from mb_layers.layers._image_levels import AutoContrast as AutoContrast
from mb_layers.layers._image_levels import Equalization as Equalization
from mb_layers.layers._image_levels import Solarization as Solarization
from mb_layers.layers._image_mixing import CutMix as CutMix
from mb_layers.layers._image_mixing import MixUp as MixUp
from mb_layers.layers._image_policies import AugMix as AugMix
from mb_layers.layers._image_policies import RandAugment as RandAugment
from mb_layers.layers._image_regions import RandomCrop as RandomCrop
from mb_layers.layers._image_regions import RandomErasing as RandomErasing
from mb_layers.layers._image_warps import RandomElasticTransform as RandomElasticTransform
from mb_layers.layers._image_warps import RandomPerspective as RandomPerspective
from mb_layers.layers._lambda import Lambda as Lambda
from mb_layers.layers._lookup import IntegerLookup as IntegerLookup
from mb_layers.layers._lookup import StringLookup as StringLookup
from mb_layers.layers._merging import Add as Add
from mb_layers.layers._merging import Average as Average
from mb_layers.layers._merging import Concatenate as Concatenate
from mb_layers.layers._merging import Dot as Dot
from mb_layers.layers._merging import Maximum as Maximum
from mb_layers.layers._merging import Minimum as Minimum
from mb_layers.layers._merging import Multiply as Multiply
from mb_layers.layers._merging import Subtract as Subtract
from mb_layers.layers._merging import add as add
from mb_layers.layers._merging import average as average
from mb_layers.layers._merging import concatenate as concatenate
from mb_layers.layers._merging import dot as dot
from mb_layers.layers._merging import maximum as maximum
from mb_layers.layers._merging import minimum as minimum
from mb_layers.layers._merging import multiply as multiply
from mb_layers.layers._merging import subtract as subtract
from mb_layers.layers._multi_head_attention import GroupedQueryAttention as GroupedQueryAttention
from mb_layers.layers._multi_head_attention import MultiHeadAttention as MultiHeadAttention
from mb_layers.layers._normalization import BatchNormalization as BatchNormalization
from mb_layers.layers._normalization import GroupNormalization as GroupNormalization
from mb_layers.layers._normalization import LayerNormalization as LayerNormalization
from mb_layers.layers._normalization import RMSNormalization as RMSNormalization
from mb_layers.layers._normalization import UnitNormalization as UnitNormalization
from mb_layers.layers._pipeline import Pipeline as Pipeline
from mb_layers.layers._pooling import AdaptiveAveragePooling1D as AdaptiveAveragePooling1D
from mb_layers.layers._pooling import AdaptiveAveragePooling2D as AdaptiveAveragePooling2D
from mb_layers.layers._pooling import AdaptiveAveragePooling3D as AdaptiveAveragePooling3D
from mb_layers.layers._pooling import AdaptiveMaxPooling1D as AdaptiveMaxPooling1D
from mb_layers.layers._pooling import AdaptiveMaxPooling2D as AdaptiveMaxPooling2D
from mb_layers.layers._pooling import AdaptiveMaxPooling3D as AdaptiveMaxPooling3D
from mb_layers.layers._pooling import AveragePooling1D as AveragePooling1D
from mb_layers.layers._pooling import AveragePooling2D as AveragePooling2D
from mb_layers.layers._pooling import AveragePooling3D as AveragePooling3D
from mb_layers.layers._pooling import GlobalAveragePooling1D as GlobalAveragePooling1D
from mb_layers.layers._pooling import GlobalAveragePooling2D as GlobalAveragePooling2D
from mb_layers.layers._pooling import GlobalAveragePooling3D as GlobalAveragePooling3D
from mb_layers.layers._pooling import GlobalMaxPooling1D as GlobalMaxPooling1D
from mb_layers.layers._pooling import GlobalMaxPooling2D as GlobalMaxPooling2D
from mb_layers.layers._pooling import GlobalMaxPooling3D as GlobalMaxPooling3D
from mb_layers.layers._pooling import MaxPooling1D as MaxPooling1D
from mb_layers.layers._pooling import MaxPooling2D as MaxPooling2D
from mb_layers.layers._pooling import MaxPooling3D as MaxPooling3D
from mb_layers.layers._preprocessing import CategoryEncoding as CategoryEncoding
from mb_layers.layers._preprocessing import Discretization as Discretization
from mb_layers.layers._preprocessing import Normalization as Normalization
from mb_layers.layers._preprocessing import Rescaling as Rescaling
from mb_layers.layers._recurrent import GRU as GRU
from mb_layers.layers._recurrent import LSTM as LSTM
from mb_layers.layers._recurrent import RNN as RNN
from mb_layers.layers._recurrent import SimpleRNN as SimpleRNN
from mb_layers.layers._regularization import ActivityRegularization as ActivityRegularization
from mb_layers.layers._regularization import AlphaDropout as AlphaDropout
from mb_layers.layers._regularization import Dropout as Dropout
from mb_layers.layers._regularization import GaussianDropout as GaussianDropout
from mb_layers.layers._regularization import GaussianNoise as GaussianNoise
from mb_layers.layers._regularization import SpatialDropout1D as SpatialDropout1D
from mb_layers.layers._regularization import SpatialDropout2D as SpatialDropout2D
from mb_layers.layers._regularization import SpatialDropout3D as SpatialDropout3D
from mb_layers.layers._reshaping import Cropping1D as Cropping1D
from mb_layers.layers._reshaping import Cropping2D as Cropping2D
from mb_layers.layers._reshaping import Cropping3D as Cropping3D
from mb_layers.layers._reshaping import Flatten as Flatten
from mb_layers.layers._reshaping import Permute as Permute
from mb_layers.layers._reshaping import RepeatVector as RepeatVector
from mb_layers.layers._reshaping import Reshape as Reshape
from mb_layers.layers._reshaping import UpSampling1D as UpSampling1D
from mb_layers.layers._reshaping import UpSampling2D as UpSampling2D
from mb_layers.layers._reshaping import UpSampling3D as UpSampling3D
from mb_layers.layers._reshaping import ZeroPadding1D as ZeroPadding1D
from mb_layers.layers._reshaping import ZeroPadding2D as ZeroPadding2D
from mb_layers.layers._reshaping import ZeroPadding3D as ZeroPadding3D
from mb_layers.layers._reversible_embedding import ReversibleEmbedding as ReversibleEmbedding
from mb_layers.layers._rnn_cells import GRUCell as GRUCell
from mb_layers.layers._rnn_cells import LSTMCell as LSTMCell
from mb_layers.layers._rnn_cells import SimpleRNNCell as SimpleRNNCell
from mb_layers.layers._rnn_cells import StackedRNNCells as StackedRNNCells
from mb_layers.layers._rnn_wrappers import Bidirectional as Bidirectional
from mb_layers.layers._rnn_wrappers import TimeDistributed as TimeDistributed
from mb_layers.layers._spectrogram import MelSpectrogram as MelSpectrogram
from mb_layers.layers._spectrogram import STFTSpectrogram as STFTSpectrogram
from mb_layers.layers._text_vectorization import TextVectorization as TextVectorization
from mb_layers.layers._wrappers import SpectralNormalization as SpectralNormalization
from mb_layers.layers._wrappers import Wrapper as Wrapper

# Keras's alias names (``keras.layers.Convolution2D is Conv2D``).
GroupQueryAttention = GroupedQueryAttention
Convolution1D = Conv1D
Convolution2D = Conv2D
Convolution3D = Conv3D
Convolution1DTranspose = Conv1DTranspose
Convolution2DTranspose = Conv2DTranspose
Convolution3DTranspose = Conv3DTranspose
SeparableConvolution1D = SeparableConv1D
SeparableConvolution2D = SeparableConv2D
AvgPool1D = AveragePooling1D
AvgPool2D = AveragePooling2D
AvgPool3D = AveragePooling3D
MaxPool1D = MaxPooling1D
MaxPool2D = MaxPooling2D
MaxPool3D = MaxPooling3D
GlobalAvgPool1D = GlobalAveragePooling1D
GlobalAvgPool2D = GlobalAveragePooling2D
GlobalAvgPool3D = GlobalAveragePooling3D
GlobalMaxPool1D = GlobalMaxPooling1D
GlobalMaxPool2D = GlobalMaxPooling2D
GlobalMaxPool3D = GlobalMaxPooling3D


def _register_public(namespace):
    # Canonical names first, so that serialization writes the class's own name.
    for name, value in list(namespace.items()):
        if isinstance(value, type) and issubclass(value, Layer) and name == value.__name__:
            _registry.register_builtin(value, names=(name,))
    for name, value in list(namespace.items()):
        if isinstance(value, type) and issubclass(value, Layer) and name != value.__name__:
            _registry.register_builtin(value, names=(name,))


_register_public(dict(globals()))
_registry.register_builtin(Layer, module="keras")  # Keras's canonical name is keras.Layer


def serialize(layer):
    """The serialized dict of a layer (Keras 3's form; ``build_config`` when built).

    Args:
        layer: a layer.

    Returns:
        A JSON-friendly dict: ``module``, ``class_name``, ``config`` (the layer's
        ``get_config()``), ``registered_name`` and, for a built layer, ``build_config``.

    Example:

    >>> from mb_layers import layers
    >>> config = layers.serialize(layers.Dense(3))
    >>> config["class_name"], config["config"]["units"]
    ('Dense', 3)
    """
    return _registry.serialize(layer)


def deserialize(config, custom_objects=None):
    """The layer described by `config` (built when the config records a build).

    Args:
        config: a dict made by ``serialize`` (or by Keras 3).
        custom_objects: a dict from names to the classes and functions of user code.

    Returns:
        A new layer.

    Example:

    >>> from mb_layers import layers
    >>> layer = layers.deserialize(layers.serialize(layers.Dense(3, activation="relu")))
    >>> type(layer).__name__, layer.units
    ('Dense', 3)
    """
    return _registry.deserialize(config, custom_objects=custom_objects)
