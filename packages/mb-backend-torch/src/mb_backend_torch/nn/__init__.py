"""Neural-network ops on torch: activations, conv/pool (both layouts), losses, attention, CTC.

Names and signatures are those of Keras 3's ``keras/src/backend/torch/nn.py``.
"""

from mb_backend_torch.nn._activations import celu as celu
from mb_backend_torch.nn._activations import elu as elu
from mb_backend_torch.nn._activations import gelu as gelu
from mb_backend_torch.nn._activations import glu as glu
from mb_backend_torch.nn._activations import hard_shrink as hard_shrink
from mb_backend_torch.nn._activations import hard_sigmoid as hard_sigmoid
from mb_backend_torch.nn._activations import hard_silu as hard_silu
from mb_backend_torch.nn._activations import hard_tanh as hard_tanh
from mb_backend_torch.nn._activations import leaky_relu as leaky_relu
from mb_backend_torch.nn._activations import log_sigmoid as log_sigmoid
from mb_backend_torch.nn._activations import log_softmax as log_softmax
from mb_backend_torch.nn._activations import relu as relu
from mb_backend_torch.nn._activations import relu6 as relu6
from mb_backend_torch.nn._activations import selu as selu
from mb_backend_torch.nn._activations import sigmoid as sigmoid
from mb_backend_torch.nn._activations import silu as silu
from mb_backend_torch.nn._activations import soft_shrink as soft_shrink
from mb_backend_torch.nn._activations import softmax as softmax
from mb_backend_torch.nn._activations import softplus as softplus
from mb_backend_torch.nn._activations import softsign as softsign
from mb_backend_torch.nn._activations import sparse_plus as sparse_plus
from mb_backend_torch.nn._activations import sparse_sigmoid as sparse_sigmoid
from mb_backend_torch.nn._activations import sparsemax as sparsemax
from mb_backend_torch.nn._activations import squareplus as squareplus
from mb_backend_torch.nn._activations import tanh as tanh
from mb_backend_torch.nn._activations import tanh_shrink as tanh_shrink
from mb_backend_torch.nn._activations import threshold as threshold
from mb_backend_torch.nn._conv import adaptive_average_pool as adaptive_average_pool
from mb_backend_torch.nn._conv import adaptive_max_pool as adaptive_max_pool
from mb_backend_torch.nn._conv import average_pool as average_pool
from mb_backend_torch.nn._conv import conv as conv
from mb_backend_torch.nn._conv import conv_transpose as conv_transpose
from mb_backend_torch.nn._conv import depth_to_space as depth_to_space
from mb_backend_torch.nn._conv import depthwise_conv as depthwise_conv
from mb_backend_torch.nn._conv import fold as fold
from mb_backend_torch.nn._conv import max_pool as max_pool
from mb_backend_torch.nn._conv import separable_conv as separable_conv
from mb_backend_torch.nn._conv import space_to_depth as space_to_depth
from mb_backend_torch.nn._conv import unfold as unfold
from mb_backend_torch.nn._losses import binary_crossentropy as binary_crossentropy
from mb_backend_torch.nn._losses import categorical_crossentropy as categorical_crossentropy
from mb_backend_torch.nn._losses import ctc_decode as ctc_decode
from mb_backend_torch.nn._losses import ctc_loss as ctc_loss
from mb_backend_torch.nn._losses import psnr as psnr
from mb_backend_torch.nn._losses import (
    sparse_categorical_crossentropy as sparse_categorical_crossentropy,
)
from mb_backend_torch.nn._misc import batch_normalization as batch_normalization
from mb_backend_torch.nn._misc import dot_product_attention as dot_product_attention
from mb_backend_torch.nn._misc import layer_normalization as layer_normalization
from mb_backend_torch.nn._misc import moments as moments
from mb_backend_torch.nn._misc import multi_hot as multi_hot
from mb_backend_torch.nn._misc import one_hot as one_hot
from mb_backend_torch.nn._quantization import float8_matmul as float8_matmul
from mb_backend_torch.nn._quantization import int8_matmul as int8_matmul

# Every nn op is supported on torch.
UNSUPPORTED = {}
