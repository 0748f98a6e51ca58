"""Backend code written once for engines with NumPy-shaped ops (numpy, openvino).

The numpy and openvino backends compute eagerly, op by op, with functions named
and shaped as NumPy's; their loops over those ops were the same code twice. Each
function here takes `xp`, the backend's own NumPy-like namespace (``numpy`` for
the numpy backend, its ``numpy`` contract module for openvino), and nothing else
of the backend, so backends stay independent of each other.

The pure-Python argument rules here (``check_resize_arguments``,
``check_perspective_points``, ``aspect_crop``/``aspect_pad``, ``refusals_for``,
``parse_gufunc_signature``, ...) read only static shapes and strings, so the jax,
tensorflow and torch backends use them too: each check and its message is written
once for all five backends.
"""

from __future__ import annotations

from mb_ops._operators import BITWISE as BITWISE
from mb_ops._operators import add_binary_operators as add_binary_operators
from mb_ops.numpy_shaped._arrays import NumpyDtypes as NumpyDtypes
from mb_ops.numpy_shaped._arrays import as_shape as as_shape
from mb_ops.numpy_shaped._arrays import axis_splits as axis_splits
from mb_ops.numpy_shaped._arrays import check_dense as check_dense
from mb_ops.numpy_shaped._arrays import empty_shape as empty_shape
from mb_ops.numpy_shaped._arrays import from_python as from_python
from mb_ops.numpy_shaped._arrays import pad_keywords as pad_keywords
from mb_ops.numpy_shaped._arrays import parse_gufunc_signature as parse_gufunc_signature
from mb_ops.numpy_shaped._control_flow import associative_scan as associative_scan
from mb_ops.numpy_shaped._control_flow import fori_loop as fori_loop
from mb_ops.numpy_shaped._control_flow import map as map
from mb_ops.numpy_shaped._control_flow import odd_even_scan as odd_even_scan
from mb_ops.numpy_shaped._control_flow import scan as scan
from mb_ops.numpy_shaped._control_flow import slice_along as slice_along
from mb_ops.numpy_shaped._control_flow import vectorized_map as vectorized_map
from mb_ops.numpy_shaped._control_flow import while_loop as while_loop
from mb_ops.numpy_shaped._conv import channels_of as channels_of
from mb_ops.numpy_shaped._conv import check_adaptive_rank as check_adaptive_rank
from mb_ops.numpy_shaped._conv import check_attention_arguments as check_attention_arguments
from mb_ops.numpy_shaped._conv import check_depthwise_kernel as check_depthwise_kernel
from mb_ops.numpy_shaped._conv import check_padding as check_padding
from mb_ops.numpy_shaped._conv import check_transpose_kernel as check_transpose_kernel
from mb_ops.numpy_shaped._conv import conv_groups as conv_groups
from mb_ops.numpy_shaped._conv import data_format as data_format
from mb_ops.numpy_shaped._conv import pair as pair
from mb_ops.numpy_shaped._conv import per_axis as per_axis
from mb_ops.numpy_shaped._conv import transpose_paddings as transpose_paddings
from mb_ops.numpy_shaped._export import map_specs as map_specs
from mb_ops.numpy_shaped._geometry import FILL_MODES as FILL_MODES
from mb_ops.numpy_shaped._geometry import INTERPOLATION_ORDERS as INTERPOLATION_ORDERS
from mb_ops.numpy_shaped._geometry import check_affine_transform as check_affine_transform
from mb_ops.numpy_shaped._geometry import check_fill_mode as check_fill_mode
from mb_ops.numpy_shaped._geometry import check_interpolation as check_interpolation
from mb_ops.numpy_shaped._geometry import check_map_coordinates as check_map_coordinates
from mb_ops.numpy_shaped._geometry import check_perspective_points as check_perspective_points
from mb_ops.numpy_shaped._inference import custom_gradient as custom_gradient
from mb_ops.numpy_shaped._inference import refusals as refusals
from mb_ops.numpy_shaped._inference import refusals_for as refusals_for
from mb_ops.numpy_shaped._inference import remat as remat
from mb_ops.numpy_shaped._loops import eager_loop_functions as eager_loop_functions
from mb_ops.numpy_shaped._math import check_cdist_shapes as check_cdist_shapes
from mb_ops.numpy_shaped._math import check_matmul_ranks as check_matmul_ranks
from mb_ops.numpy_shaped._math import check_stft_arguments as check_stft_arguments
from mb_ops.numpy_shaped._math import complex_parts as complex_parts
from mb_ops.numpy_shaped._math import istft_bounds as istft_bounds
from mb_ops.numpy_shaped._math import stft_window as stft_window
from mb_ops.numpy_shaped._resize import KERNELS as KERNELS
from mb_ops.numpy_shaped._resize import RESIZE_INTERPOLATIONS as RESIZE_INTERPOLATIONS
from mb_ops.numpy_shaped._resize import SCALE_AND_TRANSLATE_METHODS as SCALE_AND_TRANSLATE_METHODS
from mb_ops.numpy_shaped._resize import aspect_crop as aspect_crop
from mb_ops.numpy_shaped._resize import aspect_pad as aspect_pad
from mb_ops.numpy_shaped._resize import check_resize_arguments as check_resize_arguments
from mb_ops.numpy_shaped._resize import (
    check_scale_and_translate_method as check_scale_and_translate_method,
)
from mb_ops.numpy_shaped._resize import interpolation_weights as interpolation_weights
from mb_ops.numpy_shaped._resize import nearest_indices as nearest_indices
from mb_ops.numpy_shaped._resize import resize_function as resize_function
from mb_ops.numpy_shaped._resize import resize_kernels as resize_kernels
from mb_ops.numpy_shaped._resize import resized_axes as resized_axes
from mb_ops.numpy_shaped._resize import resized_shape as resized_shape
from mb_ops.numpy_shaped._rnn import no_fused_kernels as no_fused_kernels
from mb_ops.numpy_shaped._rnn import rnn as rnn
from mb_ops.numpy_shaped._rnn import unfused_rnn_functions as unfused_rnn_functions
from mb_ops.numpy_shaped._spec import spec_by_running as spec_by_running
