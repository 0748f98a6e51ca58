"""The namespace of ``keras.ops``: every top-level op and the four submodules."""

from mb_ops import image as image
from mb_ops import linalg as linalg
from mb_ops import nn as nn
from mb_ops import numpy as numpy
from mb_ops.core import associative_scan as associative_scan
from mb_ops.core import cast as cast
from mb_ops.core import cond as cond
from mb_ops.core import convert_to_numpy as convert_to_numpy
from mb_ops.core import convert_to_tensor as convert_to_tensor
from mb_ops.core import custom_gradient as custom_gradient
from mb_ops.core import dtype as dtype
from mb_ops.core import fori_loop as fori_loop
from mb_ops.core import is_tensor as is_tensor
from mb_ops.core import map as map
from mb_ops.core import saturate_cast as saturate_cast
from mb_ops.core import scan as scan
from mb_ops.core import scatter as scatter
from mb_ops.core import scatter_update as scatter_update
from mb_ops.core import shape as shape
from mb_ops.core import slice as slice
from mb_ops.core import slice_update as slice_update
from mb_ops.core import stop_gradient as stop_gradient
from mb_ops.core import switch as switch
from mb_ops.core import unstack as unstack
from mb_ops.core import vectorized_map as vectorized_map
from mb_ops.core import while_loop as while_loop
from mb_ops.einops import rearrange as rearrange
from mb_ops.linalg import cholesky as cholesky
from mb_ops.linalg import cholesky_inverse as cholesky_inverse
from mb_ops.linalg import det as det
from mb_ops.linalg import eig as eig
from mb_ops.linalg import eigh as eigh
from mb_ops.linalg import inv as inv
from mb_ops.linalg import jvp as jvp
from mb_ops.linalg import lstsq as lstsq
from mb_ops.linalg import lu_factor as lu_factor
from mb_ops.linalg import matrix_rank as matrix_rank
from mb_ops.linalg import norm as norm
from mb_ops.linalg import pinv as pinv
from mb_ops.linalg import qr as qr
from mb_ops.linalg import solve as solve
from mb_ops.linalg import solve_triangular as solve_triangular
from mb_ops.linalg import svd as svd
from mb_ops.math import cdist as cdist
from mb_ops.math import erf as erf
from mb_ops.math import erfc as erfc
from mb_ops.math import erfinv as erfinv
from mb_ops.math import extract_sequences as extract_sequences
from mb_ops.math import fft as fft
from mb_ops.math import fft2 as fft2
from mb_ops.math import ifft2 as ifft2
from mb_ops.math import in_top_k as in_top_k
from mb_ops.math import irfft as irfft
from mb_ops.math import istft as istft
from mb_ops.math import logdet as logdet
from mb_ops.math import logsumexp as logsumexp
from mb_ops.math import rfft as rfft
from mb_ops.math import rsqrt as rsqrt
from mb_ops.math import segment_max as segment_max
from mb_ops.math import segment_min as segment_min
from mb_ops.math import segment_prod as segment_prod
from mb_ops.math import segment_sum as segment_sum
from mb_ops.math import stft as stft
from mb_ops.math import top_k as top_k
from mb_ops.math import view_as_complex as view_as_complex
from mb_ops.math import view_as_real as view_as_real
from mb_ops.nn import adaptive_average_pool as adaptive_average_pool
from mb_ops.nn import adaptive_max_pool as adaptive_max_pool
from mb_ops.nn import average_pool as average_pool
from mb_ops.nn import batch_normalization as batch_normalization
from mb_ops.nn import binary_crossentropy as binary_crossentropy
from mb_ops.nn import categorical_crossentropy as categorical_crossentropy
from mb_ops.nn import celu as celu
from mb_ops.nn import conv as conv
from mb_ops.nn import conv_transpose as conv_transpose
from mb_ops.nn import ctc_decode as ctc_decode
from mb_ops.nn import ctc_loss as ctc_loss
from mb_ops.nn import depth_to_space as depth_to_space
from mb_ops.nn import depthwise_conv as depthwise_conv
from mb_ops.nn import dot_product_attention as dot_product_attention
from mb_ops.nn import elu as elu
from mb_ops.nn import fold as fold
from mb_ops.nn import gelu as gelu
from mb_ops.nn import glu as glu
from mb_ops.nn import hard_shrink as hard_shrink
from mb_ops.nn import hard_sigmoid as hard_sigmoid
from mb_ops.nn import hard_silu as hard_silu
from mb_ops.nn import hard_swish as hard_swish
from mb_ops.nn import hard_tanh as hard_tanh
from mb_ops.nn import layer_normalization as layer_normalization
from mb_ops.nn import leaky_relu as leaky_relu
from mb_ops.nn import log_sigmoid as log_sigmoid
from mb_ops.nn import log_softmax as log_softmax
from mb_ops.nn import max_pool as max_pool
from mb_ops.nn import moments as moments
from mb_ops.nn import multi_hot as multi_hot
from mb_ops.nn import normalize as normalize
from mb_ops.nn import one_hot as one_hot
from mb_ops.nn import polar as polar
from mb_ops.nn import psnr as psnr
from mb_ops.nn import relu as relu
from mb_ops.nn import relu6 as relu6
from mb_ops.nn import rms_normalization as rms_normalization
from mb_ops.nn import selu as selu
from mb_ops.nn import separable_conv as separable_conv
from mb_ops.nn import sigmoid as sigmoid
from mb_ops.nn import silu as silu
from mb_ops.nn import soft_shrink as soft_shrink
from mb_ops.nn import softmax as softmax
from mb_ops.nn import softplus as softplus
from mb_ops.nn import softsign as softsign
from mb_ops.nn import space_to_depth as space_to_depth
from mb_ops.nn import sparse_categorical_crossentropy as sparse_categorical_crossentropy
from mb_ops.nn import sparse_plus as sparse_plus
from mb_ops.nn import sparse_sigmoid as sparse_sigmoid
from mb_ops.nn import sparsemax as sparsemax
from mb_ops.nn import squareplus as squareplus
from mb_ops.nn import swish as swish
from mb_ops.nn import tanh_shrink as tanh_shrink
from mb_ops.nn import threshold as threshold
from mb_ops.nn import unfold as unfold
from mb_ops.numpy import abs as abs
from mb_ops.numpy import absolute as absolute
from mb_ops.numpy import add as add
from mb_ops.numpy import all as all
from mb_ops.numpy import allclose as allclose
from mb_ops.numpy import amax as amax
from mb_ops.numpy import amin as amin
from mb_ops.numpy import angle as angle
from mb_ops.numpy import any as any
from mb_ops.numpy import append as append
from mb_ops.numpy import arange as arange
from mb_ops.numpy import arccos as arccos
from mb_ops.numpy import arccosh as arccosh
from mb_ops.numpy import arcsin as arcsin
from mb_ops.numpy import arcsinh as arcsinh
from mb_ops.numpy import arctan as arctan
from mb_ops.numpy import arctan2 as arctan2
from mb_ops.numpy import arctanh as arctanh
from mb_ops.numpy import argmax as argmax
from mb_ops.numpy import argmin as argmin
from mb_ops.numpy import argpartition as argpartition
from mb_ops.numpy import argsort as argsort
from mb_ops.numpy import array as array
from mb_ops.numpy import array_split as array_split
from mb_ops.numpy import average as average
from mb_ops.numpy import bartlett as bartlett
from mb_ops.numpy import bincount as bincount
from mb_ops.numpy import bitwise_and as bitwise_and
from mb_ops.numpy import bitwise_invert as bitwise_invert
from mb_ops.numpy import bitwise_left_shift as bitwise_left_shift
from mb_ops.numpy import bitwise_not as bitwise_not
from mb_ops.numpy import bitwise_or as bitwise_or
from mb_ops.numpy import bitwise_right_shift as bitwise_right_shift
from mb_ops.numpy import bitwise_xor as bitwise_xor
from mb_ops.numpy import blackman as blackman
from mb_ops.numpy import broadcast_to as broadcast_to
from mb_ops.numpy import cbrt as cbrt
from mb_ops.numpy import ceil as ceil
from mb_ops.numpy import clip as clip
from mb_ops.numpy import concatenate as concatenate
from mb_ops.numpy import conj as conj
from mb_ops.numpy import conjugate as conjugate
from mb_ops.numpy import copy as copy
from mb_ops.numpy import corrcoef as corrcoef
from mb_ops.numpy import correlate as correlate
from mb_ops.numpy import cos as cos
from mb_ops.numpy import cosh as cosh
from mb_ops.numpy import count_nonzero as count_nonzero
from mb_ops.numpy import cross as cross
from mb_ops.numpy import cumprod as cumprod
from mb_ops.numpy import cumsum as cumsum
from mb_ops.numpy import deg2rad as deg2rad
from mb_ops.numpy import diag as diag
from mb_ops.numpy import diagflat as diagflat
from mb_ops.numpy import diagonal as diagonal
from mb_ops.numpy import diff as diff
from mb_ops.numpy import digitize as digitize
from mb_ops.numpy import divide as divide
from mb_ops.numpy import divide_no_nan as divide_no_nan
from mb_ops.numpy import dot as dot
from mb_ops.numpy import dsplit as dsplit
from mb_ops.numpy import dstack as dstack
from mb_ops.numpy import einsum as einsum
from mb_ops.numpy import empty as empty
from mb_ops.numpy import empty_like as empty_like
from mb_ops.numpy import equal as equal
from mb_ops.numpy import exp as exp
from mb_ops.numpy import exp2 as exp2
from mb_ops.numpy import expand_dims as expand_dims
from mb_ops.numpy import expm1 as expm1
from mb_ops.numpy import eye as eye
from mb_ops.numpy import fabs as fabs
from mb_ops.numpy import flip as flip
from mb_ops.numpy import fliplr as fliplr
from mb_ops.numpy import flipud as flipud
from mb_ops.numpy import floor as floor
from mb_ops.numpy import floor_divide as floor_divide
from mb_ops.numpy import fmax as fmax
from mb_ops.numpy import fmin as fmin
from mb_ops.numpy import fmod as fmod
from mb_ops.numpy import full as full
from mb_ops.numpy import full_like as full_like
from mb_ops.numpy import gcd as gcd
from mb_ops.numpy import geomspace as geomspace
from mb_ops.numpy import get_item as get_item
from mb_ops.numpy import greater as greater
from mb_ops.numpy import greater_equal as greater_equal
from mb_ops.numpy import hamming as hamming
from mb_ops.numpy import hanning as hanning
from mb_ops.numpy import heaviside as heaviside
from mb_ops.numpy import histogram as histogram
from mb_ops.numpy import hsplit as hsplit
from mb_ops.numpy import hstack as hstack
from mb_ops.numpy import hypot as hypot
from mb_ops.numpy import i0 as i0
from mb_ops.numpy import identity as identity
from mb_ops.numpy import imag as imag
from mb_ops.numpy import inner as inner
from mb_ops.numpy import isclose as isclose
from mb_ops.numpy import isfinite as isfinite
from mb_ops.numpy import isin as isin
from mb_ops.numpy import isinf as isinf
from mb_ops.numpy import isnan as isnan
from mb_ops.numpy import isneginf as isneginf
from mb_ops.numpy import isposinf as isposinf
from mb_ops.numpy import isreal as isreal
from mb_ops.numpy import kaiser as kaiser
from mb_ops.numpy import kron as kron
from mb_ops.numpy import lcm as lcm
from mb_ops.numpy import ldexp as ldexp
from mb_ops.numpy import left_shift as left_shift
from mb_ops.numpy import less as less
from mb_ops.numpy import less_equal as less_equal
from mb_ops.numpy import linspace as linspace
from mb_ops.numpy import log as log
from mb_ops.numpy import log1p as log1p
from mb_ops.numpy import log2 as log2
from mb_ops.numpy import log10 as log10
from mb_ops.numpy import logaddexp as logaddexp
from mb_ops.numpy import logaddexp2 as logaddexp2
from mb_ops.numpy import logical_and as logical_and
from mb_ops.numpy import logical_not as logical_not
from mb_ops.numpy import logical_or as logical_or
from mb_ops.numpy import logical_xor as logical_xor
from mb_ops.numpy import logspace as logspace
from mb_ops.numpy import matmul as matmul
from mb_ops.numpy import max as max
from mb_ops.numpy import maximum as maximum
from mb_ops.numpy import mean as mean
from mb_ops.numpy import median as median
from mb_ops.numpy import meshgrid as meshgrid
from mb_ops.numpy import min as min
from mb_ops.numpy import minimum as minimum
from mb_ops.numpy import mod as mod
from mb_ops.numpy import moveaxis as moveaxis
from mb_ops.numpy import multiply as multiply
from mb_ops.numpy import nan_to_num as nan_to_num
from mb_ops.numpy import nanargmax as nanargmax
from mb_ops.numpy import nanargmin as nanargmin
from mb_ops.numpy import nancumprod as nancumprod
from mb_ops.numpy import nancumsum as nancumsum
from mb_ops.numpy import nanmax as nanmax
from mb_ops.numpy import nanmean as nanmean
from mb_ops.numpy import nanmedian as nanmedian
from mb_ops.numpy import nanmin as nanmin
from mb_ops.numpy import nanpercentile as nanpercentile
from mb_ops.numpy import nanprod as nanprod
from mb_ops.numpy import nanquantile as nanquantile
from mb_ops.numpy import nanstd as nanstd
from mb_ops.numpy import nansum as nansum
from mb_ops.numpy import nanvar as nanvar
from mb_ops.numpy import ndim as ndim
from mb_ops.numpy import negative as negative
from mb_ops.numpy import nextafter as nextafter
from mb_ops.numpy import nonzero as nonzero
from mb_ops.numpy import not_equal as not_equal
from mb_ops.numpy import ones as ones
from mb_ops.numpy import ones_like as ones_like
from mb_ops.numpy import outer as outer
from mb_ops.numpy import pad as pad
from mb_ops.numpy import percentile as percentile
from mb_ops.numpy import power as power
from mb_ops.numpy import prod as prod
from mb_ops.numpy import ptp as ptp
from mb_ops.numpy import quantile as quantile
from mb_ops.numpy import rad2deg as rad2deg
from mb_ops.numpy import ravel as ravel
from mb_ops.numpy import real as real
from mb_ops.numpy import reciprocal as reciprocal
from mb_ops.numpy import repeat as repeat
from mb_ops.numpy import reshape as reshape
from mb_ops.numpy import right_shift as right_shift
from mb_ops.numpy import roll as roll
from mb_ops.numpy import rot90 as rot90
from mb_ops.numpy import round as round
from mb_ops.numpy import searchsorted as searchsorted
from mb_ops.numpy import select as select
from mb_ops.numpy import sign as sign
from mb_ops.numpy import signbit as signbit
from mb_ops.numpy import sin as sin
from mb_ops.numpy import sinc as sinc
from mb_ops.numpy import sinh as sinh
from mb_ops.numpy import size as size
from mb_ops.numpy import slogdet as slogdet
from mb_ops.numpy import sort as sort
from mb_ops.numpy import split as split
from mb_ops.numpy import sqrt as sqrt
from mb_ops.numpy import square as square
from mb_ops.numpy import squeeze as squeeze
from mb_ops.numpy import stack as stack
from mb_ops.numpy import std as std
from mb_ops.numpy import subtract as subtract
from mb_ops.numpy import sum as sum
from mb_ops.numpy import swapaxes as swapaxes
from mb_ops.numpy import take as take
from mb_ops.numpy import take_along_axis as take_along_axis
from mb_ops.numpy import tan as tan
from mb_ops.numpy import tanh as tanh
from mb_ops.numpy import tensordot as tensordot
from mb_ops.numpy import tile as tile
from mb_ops.numpy import trace as trace
from mb_ops.numpy import transpose as transpose
from mb_ops.numpy import trapezoid as trapezoid
from mb_ops.numpy import tri as tri
from mb_ops.numpy import tril as tril
from mb_ops.numpy import triu as triu
from mb_ops.numpy import true_divide as true_divide
from mb_ops.numpy import trunc as trunc
from mb_ops.numpy import unique as unique
from mb_ops.numpy import unravel_index as unravel_index
from mb_ops.numpy import vander as vander
from mb_ops.numpy import var as var
from mb_ops.numpy import vdot as vdot
from mb_ops.numpy import vectorize as vectorize
from mb_ops.numpy import view as view
from mb_ops.numpy import vsplit as vsplit
from mb_ops.numpy import vstack as vstack
from mb_ops.numpy import where as where
from mb_ops.numpy import zeros as zeros
from mb_ops.numpy import zeros_like as zeros_like

__all__ = [
    "abs",
    "absolute",
    "adaptive_average_pool",
    "adaptive_max_pool",
    "add",
    "all",
    "allclose",
    "amax",
    "amin",
    "angle",
    "any",
    "append",
    "arange",
    "arccos",
    "arccosh",
    "arcsin",
    "arcsinh",
    "arctan",
    "arctan2",
    "arctanh",
    "argmax",
    "argmin",
    "argpartition",
    "argsort",
    "array",
    "array_split",
    "associative_scan",
    "average",
    "average_pool",
    "bartlett",
    "batch_normalization",
    "binary_crossentropy",
    "bincount",
    "bitwise_and",
    "bitwise_invert",
    "bitwise_left_shift",
    "bitwise_not",
    "bitwise_or",
    "bitwise_right_shift",
    "bitwise_xor",
    "blackman",
    "broadcast_to",
    "cast",
    "categorical_crossentropy",
    "cbrt",
    "cdist",
    "ceil",
    "celu",
    "cholesky",
    "cholesky_inverse",
    "clip",
    "concatenate",
    "cond",
    "conj",
    "conjugate",
    "conv",
    "conv_transpose",
    "convert_to_numpy",
    "convert_to_tensor",
    "copy",
    "corrcoef",
    "correlate",
    "cos",
    "cosh",
    "count_nonzero",
    "cross",
    "ctc_decode",
    "ctc_loss",
    "cumprod",
    "cumsum",
    "custom_gradient",
    "deg2rad",
    "depth_to_space",
    "depthwise_conv",
    "det",
    "diag",
    "diagflat",
    "diagonal",
    "diff",
    "digitize",
    "divide",
    "divide_no_nan",
    "dot",
    "dot_product_attention",
    "dsplit",
    "dstack",
    "dtype",
    "eig",
    "eigh",
    "einsum",
    "elu",
    "empty",
    "empty_like",
    "equal",
    "erf",
    "erfc",
    "erfinv",
    "exp",
    "exp2",
    "expand_dims",
    "expm1",
    "extract_sequences",
    "eye",
    "fabs",
    "fft",
    "fft2",
    "flip",
    "fliplr",
    "flipud",
    "floor",
    "floor_divide",
    "fmax",
    "fmin",
    "fmod",
    "fold",
    "fori_loop",
    "full",
    "full_like",
    "gcd",
    "gelu",
    "geomspace",
    "get_item",
    "glu",
    "greater",
    "greater_equal",
    "hamming",
    "hanning",
    "hard_shrink",
    "hard_sigmoid",
    "hard_silu",
    "hard_swish",
    "hard_tanh",
    "heaviside",
    "histogram",
    "hsplit",
    "hstack",
    "hypot",
    "i0",
    "identity",
    "ifft2",
    "imag",
    "image",
    "in_top_k",
    "inner",
    "inv",
    "irfft",
    "is_tensor",
    "isclose",
    "isfinite",
    "isin",
    "isinf",
    "isnan",
    "isneginf",
    "isposinf",
    "isreal",
    "istft",
    "jvp",
    "kaiser",
    "kron",
    "layer_normalization",
    "lcm",
    "ldexp",
    "leaky_relu",
    "left_shift",
    "less",
    "less_equal",
    "linalg",
    "linspace",
    "log",
    "log1p",
    "log2",
    "log10",
    "log_sigmoid",
    "log_softmax",
    "logaddexp",
    "logaddexp2",
    "logdet",
    "logical_and",
    "logical_not",
    "logical_or",
    "logical_xor",
    "logspace",
    "logsumexp",
    "lstsq",
    "lu_factor",
    "map",
    "matmul",
    "matrix_rank",
    "max",
    "max_pool",
    "maximum",
    "mean",
    "median",
    "meshgrid",
    "min",
    "minimum",
    "mod",
    "moments",
    "moveaxis",
    "multi_hot",
    "multiply",
    "nan_to_num",
    "nanargmax",
    "nanargmin",
    "nancumprod",
    "nancumsum",
    "nanmax",
    "nanmean",
    "nanmedian",
    "nanmin",
    "nanpercentile",
    "nanprod",
    "nanquantile",
    "nanstd",
    "nansum",
    "nanvar",
    "ndim",
    "negative",
    "nextafter",
    "nn",
    "nonzero",
    "norm",
    "normalize",
    "not_equal",
    "numpy",
    "one_hot",
    "ones",
    "ones_like",
    "outer",
    "pad",
    "percentile",
    "pinv",
    "polar",
    "power",
    "prod",
    "psnr",
    "ptp",
    "qr",
    "quantile",
    "rad2deg",
    "ravel",
    "real",
    "rearrange",
    "reciprocal",
    "relu",
    "relu6",
    "repeat",
    "reshape",
    "rfft",
    "right_shift",
    "rms_normalization",
    "roll",
    "rot90",
    "round",
    "rsqrt",
    "saturate_cast",
    "scan",
    "scatter",
    "scatter_update",
    "searchsorted",
    "segment_max",
    "segment_min",
    "segment_prod",
    "segment_sum",
    "select",
    "selu",
    "separable_conv",
    "shape",
    "sigmoid",
    "sign",
    "signbit",
    "silu",
    "sin",
    "sinc",
    "sinh",
    "size",
    "slice",
    "slice_update",
    "slogdet",
    "soft_shrink",
    "softmax",
    "softplus",
    "softsign",
    "solve",
    "solve_triangular",
    "sort",
    "space_to_depth",
    "sparse_categorical_crossentropy",
    "sparse_plus",
    "sparse_sigmoid",
    "sparsemax",
    "split",
    "sqrt",
    "square",
    "squareplus",
    "squeeze",
    "stack",
    "std",
    "stft",
    "stop_gradient",
    "subtract",
    "sum",
    "svd",
    "swapaxes",
    "swish",
    "switch",
    "take",
    "take_along_axis",
    "tan",
    "tanh",
    "tanh_shrink",
    "tensordot",
    "threshold",
    "tile",
    "top_k",
    "trace",
    "transpose",
    "trapezoid",
    "tri",
    "tril",
    "triu",
    "true_divide",
    "trunc",
    "unfold",
    "unique",
    "unravel_index",
    "unstack",
    "vander",
    "var",
    "vdot",
    "vectorize",
    "vectorized_map",
    "view",
    "view_as_complex",
    "view_as_real",
    "vsplit",
    "vstack",
    "where",
    "while_loop",
    "zeros",
    "zeros_like",
]
