"""Neural-network ops (``keras.ops.nn``)."""

from mb_ops._ops.nn_activations import celu as celu
from mb_ops._ops.nn_activations import elu as elu
from mb_ops._ops.nn_activations import gelu as gelu
from mb_ops._ops.nn_activations import glu as glu
from mb_ops._ops.nn_activations import hard_shrink as hard_shrink
from mb_ops._ops.nn_activations import hard_sigmoid as hard_sigmoid
from mb_ops._ops.nn_activations import hard_silu as hard_silu
from mb_ops._ops.nn_activations import hard_swish as hard_swish
from mb_ops._ops.nn_activations import hard_tanh as hard_tanh
from mb_ops._ops.nn_activations import leaky_relu as leaky_relu
from mb_ops._ops.nn_activations import log_sigmoid as log_sigmoid
from mb_ops._ops.nn_activations import log_softmax as log_softmax
from mb_ops._ops.nn_activations import relu as relu
from mb_ops._ops.nn_activations import relu6 as relu6
from mb_ops._ops.nn_activations import selu as selu
from mb_ops._ops.nn_activations import sigmoid as sigmoid
from mb_ops._ops.nn_activations import silu as silu
from mb_ops._ops.nn_activations import soft_shrink as soft_shrink
from mb_ops._ops.nn_activations import softmax as softmax
from mb_ops._ops.nn_activations import softplus as softplus
from mb_ops._ops.nn_activations import softsign as softsign
from mb_ops._ops.nn_activations import sparse_plus as sparse_plus
from mb_ops._ops.nn_activations import sparse_sigmoid as sparse_sigmoid
from mb_ops._ops.nn_activations import sparsemax as sparsemax
from mb_ops._ops.nn_activations import squareplus as squareplus
from mb_ops._ops.nn_activations import swish as swish
from mb_ops._ops.nn_activations import tanh_shrink as tanh_shrink
from mb_ops._ops.nn_activations import threshold as threshold
from mb_ops._ops.nn_conv import adaptive_average_pool as adaptive_average_pool
from mb_ops._ops.nn_conv import adaptive_max_pool as adaptive_max_pool
from mb_ops._ops.nn_conv import average_pool as average_pool
from mb_ops._ops.nn_conv import conv as conv
from mb_ops._ops.nn_conv import conv_transpose as conv_transpose
from mb_ops._ops.nn_conv import depth_to_space as depth_to_space
from mb_ops._ops.nn_conv import depthwise_conv as depthwise_conv
from mb_ops._ops.nn_conv import fold as fold
from mb_ops._ops.nn_conv import max_pool as max_pool
from mb_ops._ops.nn_conv import separable_conv as separable_conv
from mb_ops._ops.nn_conv import space_to_depth as space_to_depth
from mb_ops._ops.nn_conv import unfold as unfold
from mb_ops._ops.nn_losses import binary_crossentropy as binary_crossentropy
from mb_ops._ops.nn_losses import categorical_crossentropy as categorical_crossentropy
from mb_ops._ops.nn_losses import ctc_decode as ctc_decode
from mb_ops._ops.nn_losses import ctc_loss as ctc_loss
from mb_ops._ops.nn_losses import psnr as psnr
from mb_ops._ops.nn_losses import sparse_categorical_crossentropy as sparse_categorical_crossentropy
from mb_ops._ops.nn_misc import batch_normalization as batch_normalization
from mb_ops._ops.nn_misc import dot_product_attention as dot_product_attention
from mb_ops._ops.nn_misc import layer_normalization as layer_normalization
from mb_ops._ops.nn_misc import moments as moments
from mb_ops._ops.nn_misc import multi_hot as multi_hot
from mb_ops._ops.nn_misc import normalize as normalize
from mb_ops._ops.nn_misc import one_hot as one_hot
from mb_ops._ops.nn_misc import polar as polar
from mb_ops._ops.nn_misc import rms_normalization as rms_normalization

__all__ = [
    "adaptive_average_pool",
    "adaptive_max_pool",
    "average_pool",
    "batch_normalization",
    "binary_crossentropy",
    "categorical_crossentropy",
    "celu",
    "conv",
    "conv_transpose",
    "ctc_decode",
    "ctc_loss",
    "depth_to_space",
    "depthwise_conv",
    "dot_product_attention",
    "elu",
    "fold",
    "gelu",
    "glu",
    "hard_shrink",
    "hard_sigmoid",
    "hard_silu",
    "hard_swish",
    "hard_tanh",
    "layer_normalization",
    "leaky_relu",
    "log_sigmoid",
    "log_softmax",
    "max_pool",
    "moments",
    "multi_hot",
    "normalize",
    "one_hot",
    "polar",
    "psnr",
    "relu",
    "relu6",
    "rms_normalization",
    "selu",
    "separable_conv",
    "sigmoid",
    "silu",
    "soft_shrink",
    "softmax",
    "softplus",
    "softsign",
    "space_to_depth",
    "sparse_categorical_crossentropy",
    "sparse_plus",
    "sparse_sigmoid",
    "sparsemax",
    "squareplus",
    "swish",
    "tanh_shrink",
    "threshold",
    "unfold",
]
