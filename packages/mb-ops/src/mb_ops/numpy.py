"""NumPy-style ops (``keras.ops.numpy``)."""

from mb_ops._ops.numpy_arithmetic import abs as abs
from mb_ops._ops.numpy_arithmetic import absolute as absolute
from mb_ops._ops.numpy_arithmetic import add as add
from mb_ops._ops.numpy_arithmetic import cbrt as cbrt
from mb_ops._ops.numpy_arithmetic import ceil as ceil
from mb_ops._ops.numpy_arithmetic import clip as clip
from mb_ops._ops.numpy_arithmetic import divide as divide
from mb_ops._ops.numpy_arithmetic import divide_no_nan as divide_no_nan
from mb_ops._ops.numpy_arithmetic import fabs as fabs
from mb_ops._ops.numpy_arithmetic import floor as floor
from mb_ops._ops.numpy_arithmetic import floor_divide as floor_divide
from mb_ops._ops.numpy_arithmetic import fmax as fmax
from mb_ops._ops.numpy_arithmetic import fmin as fmin
from mb_ops._ops.numpy_arithmetic import fmod as fmod
from mb_ops._ops.numpy_arithmetic import gcd as gcd
from mb_ops._ops.numpy_arithmetic import heaviside as heaviside
from mb_ops._ops.numpy_arithmetic import lcm as lcm
from mb_ops._ops.numpy_arithmetic import ldexp as ldexp
from mb_ops._ops.numpy_arithmetic import maximum as maximum
from mb_ops._ops.numpy_arithmetic import minimum as minimum
from mb_ops._ops.numpy_arithmetic import mod as mod
from mb_ops._ops.numpy_arithmetic import multiply as multiply
from mb_ops._ops.numpy_arithmetic import nan_to_num as nan_to_num
from mb_ops._ops.numpy_arithmetic import negative as negative
from mb_ops._ops.numpy_arithmetic import nextafter as nextafter
from mb_ops._ops.numpy_arithmetic import power as power
from mb_ops._ops.numpy_arithmetic import reciprocal as reciprocal
from mb_ops._ops.numpy_arithmetic import round as round
from mb_ops._ops.numpy_arithmetic import sign as sign
from mb_ops._ops.numpy_arithmetic import sqrt as sqrt
from mb_ops._ops.numpy_arithmetic import square as square
from mb_ops._ops.numpy_arithmetic import subtract as subtract
from mb_ops._ops.numpy_arithmetic import true_divide as true_divide
from mb_ops._ops.numpy_arithmetic import trunc as trunc
from mb_ops._ops.numpy_complex import angle as angle
from mb_ops._ops.numpy_complex import conj as conj
from mb_ops._ops.numpy_complex import conjugate as conjugate
from mb_ops._ops.numpy_complex import imag as imag
from mb_ops._ops.numpy_complex import real as real
from mb_ops._ops.numpy_creation import arange as arange
from mb_ops._ops.numpy_creation import array as array
from mb_ops._ops.numpy_creation import bartlett as bartlett
from mb_ops._ops.numpy_creation import blackman as blackman
from mb_ops._ops.numpy_creation import empty as empty
from mb_ops._ops.numpy_creation import empty_like as empty_like
from mb_ops._ops.numpy_creation import eye as eye
from mb_ops._ops.numpy_creation import full as full
from mb_ops._ops.numpy_creation import full_like as full_like
from mb_ops._ops.numpy_creation import geomspace as geomspace
from mb_ops._ops.numpy_creation import hamming as hamming
from mb_ops._ops.numpy_creation import hanning as hanning
from mb_ops._ops.numpy_creation import identity as identity
from mb_ops._ops.numpy_creation import kaiser as kaiser
from mb_ops._ops.numpy_creation import linspace as linspace
from mb_ops._ops.numpy_creation import logspace as logspace
from mb_ops._ops.numpy_creation import meshgrid as meshgrid
from mb_ops._ops.numpy_creation import ones as ones
from mb_ops._ops.numpy_creation import ones_like as ones_like
from mb_ops._ops.numpy_creation import tri as tri
from mb_ops._ops.numpy_creation import zeros as zeros
from mb_ops._ops.numpy_creation import zeros_like as zeros_like
from mb_ops._ops.numpy_cumulative import cumprod as cumprod
from mb_ops._ops.numpy_cumulative import cumsum as cumsum
from mb_ops._ops.numpy_cumulative import diff as diff
from mb_ops._ops.numpy_cumulative import nancumprod as nancumprod
from mb_ops._ops.numpy_cumulative import nancumsum as nancumsum
from mb_ops._ops.numpy_indexing import digitize as digitize
from mb_ops._ops.numpy_indexing import get_item as get_item
from mb_ops._ops.numpy_indexing import isin as isin
from mb_ops._ops.numpy_indexing import pad as pad
from mb_ops._ops.numpy_indexing import searchsorted as searchsorted
from mb_ops._ops.numpy_indexing import select as select
from mb_ops._ops.numpy_indexing import take as take
from mb_ops._ops.numpy_indexing import take_along_axis as take_along_axis
from mb_ops._ops.numpy_indexing import unique as unique
from mb_ops._ops.numpy_indexing import vectorize as vectorize
from mb_ops._ops.numpy_indexing import where as where
from mb_ops._ops.numpy_joining import append as append
from mb_ops._ops.numpy_joining import array_split as array_split
from mb_ops._ops.numpy_joining import concatenate as concatenate
from mb_ops._ops.numpy_joining import dsplit as dsplit
from mb_ops._ops.numpy_joining import dstack as dstack
from mb_ops._ops.numpy_joining import hsplit as hsplit
from mb_ops._ops.numpy_joining import hstack as hstack
from mb_ops._ops.numpy_joining import split as split
from mb_ops._ops.numpy_joining import stack as stack
from mb_ops._ops.numpy_joining import vsplit as vsplit
from mb_ops._ops.numpy_joining import vstack as vstack
from mb_ops._ops.numpy_linear import corrcoef as corrcoef
from mb_ops._ops.numpy_linear import correlate as correlate
from mb_ops._ops.numpy_linear import cross as cross
from mb_ops._ops.numpy_linear import diag as diag
from mb_ops._ops.numpy_linear import diagflat as diagflat
from mb_ops._ops.numpy_linear import diagonal as diagonal
from mb_ops._ops.numpy_linear import dot as dot
from mb_ops._ops.numpy_linear import einsum as einsum
from mb_ops._ops.numpy_linear import inner as inner
from mb_ops._ops.numpy_linear import kron as kron
from mb_ops._ops.numpy_linear import matmul as matmul
from mb_ops._ops.numpy_linear import outer as outer
from mb_ops._ops.numpy_linear import slogdet as slogdet
from mb_ops._ops.numpy_linear import tensordot as tensordot
from mb_ops._ops.numpy_linear import trace as trace
from mb_ops._ops.numpy_linear import tril as tril
from mb_ops._ops.numpy_linear import triu as triu
from mb_ops._ops.numpy_linear import vander as vander
from mb_ops._ops.numpy_linear import vdot as vdot
from mb_ops._ops.numpy_logic import allclose as allclose
from mb_ops._ops.numpy_logic import bitwise_and as bitwise_and
from mb_ops._ops.numpy_logic import bitwise_invert as bitwise_invert
from mb_ops._ops.numpy_logic import bitwise_left_shift as bitwise_left_shift
from mb_ops._ops.numpy_logic import bitwise_not as bitwise_not
from mb_ops._ops.numpy_logic import bitwise_or as bitwise_or
from mb_ops._ops.numpy_logic import bitwise_right_shift as bitwise_right_shift
from mb_ops._ops.numpy_logic import bitwise_xor as bitwise_xor
from mb_ops._ops.numpy_logic import equal as equal
from mb_ops._ops.numpy_logic import greater as greater
from mb_ops._ops.numpy_logic import greater_equal as greater_equal
from mb_ops._ops.numpy_logic import isclose as isclose
from mb_ops._ops.numpy_logic import isfinite as isfinite
from mb_ops._ops.numpy_logic import isinf as isinf
from mb_ops._ops.numpy_logic import isnan as isnan
from mb_ops._ops.numpy_logic import isneginf as isneginf
from mb_ops._ops.numpy_logic import isposinf as isposinf
from mb_ops._ops.numpy_logic import isreal as isreal
from mb_ops._ops.numpy_logic import left_shift as left_shift
from mb_ops._ops.numpy_logic import less as less
from mb_ops._ops.numpy_logic import less_equal as less_equal
from mb_ops._ops.numpy_logic import logical_and as logical_and
from mb_ops._ops.numpy_logic import logical_not as logical_not
from mb_ops._ops.numpy_logic import logical_or as logical_or
from mb_ops._ops.numpy_logic import logical_xor as logical_xor
from mb_ops._ops.numpy_logic import not_equal as not_equal
from mb_ops._ops.numpy_logic import right_shift as right_shift
from mb_ops._ops.numpy_logic import signbit as signbit
from mb_ops._ops.numpy_order_statistics import argpartition as argpartition
from mb_ops._ops.numpy_order_statistics import argsort as argsort
from mb_ops._ops.numpy_order_statistics import median as median
from mb_ops._ops.numpy_order_statistics import nanmedian as nanmedian
from mb_ops._ops.numpy_order_statistics import nanpercentile as nanpercentile
from mb_ops._ops.numpy_order_statistics import nanquantile as nanquantile
from mb_ops._ops.numpy_order_statistics import percentile as percentile
from mb_ops._ops.numpy_order_statistics import quantile as quantile
from mb_ops._ops.numpy_order_statistics import sort as sort
from mb_ops._ops.numpy_reductions import all as all
from mb_ops._ops.numpy_reductions import amax as amax
from mb_ops._ops.numpy_reductions import amin as amin
from mb_ops._ops.numpy_reductions import any as any
from mb_ops._ops.numpy_reductions import argmax as argmax
from mb_ops._ops.numpy_reductions import argmin as argmin
from mb_ops._ops.numpy_reductions import average as average
from mb_ops._ops.numpy_reductions import bincount as bincount
from mb_ops._ops.numpy_reductions import count_nonzero as count_nonzero
from mb_ops._ops.numpy_reductions import histogram as histogram
from mb_ops._ops.numpy_reductions import max as max
from mb_ops._ops.numpy_reductions import mean as mean
from mb_ops._ops.numpy_reductions import min as min
from mb_ops._ops.numpy_reductions import nanargmax as nanargmax
from mb_ops._ops.numpy_reductions import nanargmin as nanargmin
from mb_ops._ops.numpy_reductions import nanmax as nanmax
from mb_ops._ops.numpy_reductions import nanmean as nanmean
from mb_ops._ops.numpy_reductions import nanmin as nanmin
from mb_ops._ops.numpy_reductions import nanprod as nanprod
from mb_ops._ops.numpy_reductions import nanstd as nanstd
from mb_ops._ops.numpy_reductions import nansum as nansum
from mb_ops._ops.numpy_reductions import nanvar as nanvar
from mb_ops._ops.numpy_reductions import prod as prod
from mb_ops._ops.numpy_reductions import ptp as ptp
from mb_ops._ops.numpy_reductions import std as std
from mb_ops._ops.numpy_reductions import sum as sum
from mb_ops._ops.numpy_reductions import trapezoid as trapezoid
from mb_ops._ops.numpy_reductions import var as var
from mb_ops._ops.numpy_shape import broadcast_to as broadcast_to
from mb_ops._ops.numpy_shape import copy as copy
from mb_ops._ops.numpy_shape import expand_dims as expand_dims
from mb_ops._ops.numpy_shape import flip as flip
from mb_ops._ops.numpy_shape import fliplr as fliplr
from mb_ops._ops.numpy_shape import flipud as flipud
from mb_ops._ops.numpy_shape import moveaxis as moveaxis
from mb_ops._ops.numpy_shape import ndim as ndim
from mb_ops._ops.numpy_shape import nonzero as nonzero
from mb_ops._ops.numpy_shape import ravel as ravel
from mb_ops._ops.numpy_shape import repeat as repeat
from mb_ops._ops.numpy_shape import reshape as reshape
from mb_ops._ops.numpy_shape import roll as roll
from mb_ops._ops.numpy_shape import rot90 as rot90
from mb_ops._ops.numpy_shape import size as size
from mb_ops._ops.numpy_shape import squeeze as squeeze
from mb_ops._ops.numpy_shape import swapaxes as swapaxes
from mb_ops._ops.numpy_shape import tile as tile
from mb_ops._ops.numpy_shape import transpose as transpose
from mb_ops._ops.numpy_shape import unravel_index as unravel_index
from mb_ops._ops.numpy_shape import view as view
from mb_ops._ops.numpy_transcendental import arccos as arccos
from mb_ops._ops.numpy_transcendental import arccosh as arccosh
from mb_ops._ops.numpy_transcendental import arcsin as arcsin
from mb_ops._ops.numpy_transcendental import arcsinh as arcsinh
from mb_ops._ops.numpy_transcendental import arctan as arctan
from mb_ops._ops.numpy_transcendental import arctan2 as arctan2
from mb_ops._ops.numpy_transcendental import arctanh as arctanh
from mb_ops._ops.numpy_transcendental import cos as cos
from mb_ops._ops.numpy_transcendental import cosh as cosh
from mb_ops._ops.numpy_transcendental import deg2rad as deg2rad
from mb_ops._ops.numpy_transcendental import exp as exp
from mb_ops._ops.numpy_transcendental import exp2 as exp2
from mb_ops._ops.numpy_transcendental import expm1 as expm1
from mb_ops._ops.numpy_transcendental import hypot as hypot
from mb_ops._ops.numpy_transcendental import i0 as i0
from mb_ops._ops.numpy_transcendental import log as log
from mb_ops._ops.numpy_transcendental import log1p as log1p
from mb_ops._ops.numpy_transcendental import log2 as log2
from mb_ops._ops.numpy_transcendental import log10 as log10
from mb_ops._ops.numpy_transcendental import logaddexp as logaddexp
from mb_ops._ops.numpy_transcendental import logaddexp2 as logaddexp2
from mb_ops._ops.numpy_transcendental import rad2deg as rad2deg
from mb_ops._ops.numpy_transcendental import sin as sin
from mb_ops._ops.numpy_transcendental import sinc as sinc
from mb_ops._ops.numpy_transcendental import sinh as sinh
from mb_ops._ops.numpy_transcendental import tan as tan
from mb_ops._ops.numpy_transcendental import tanh as tanh

__all__ = [
    "abs",
    "absolute",
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
    "average",
    "bartlett",
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
    "cbrt",
    "ceil",
    "clip",
    "concatenate",
    "conj",
    "conjugate",
    "copy",
    "corrcoef",
    "correlate",
    "cos",
    "cosh",
    "count_nonzero",
    "cross",
    "cumprod",
    "cumsum",
    "deg2rad",
    "diag",
    "diagflat",
    "diagonal",
    "diff",
    "digitize",
    "divide",
    "divide_no_nan",
    "dot",
    "dsplit",
    "dstack",
    "einsum",
    "empty",
    "empty_like",
    "equal",
    "exp",
    "exp2",
    "expand_dims",
    "expm1",
    "eye",
    "fabs",
    "flip",
    "fliplr",
    "flipud",
    "floor",
    "floor_divide",
    "fmax",
    "fmin",
    "fmod",
    "full",
    "full_like",
    "gcd",
    "geomspace",
    "get_item",
    "greater",
    "greater_equal",
    "hamming",
    "hanning",
    "heaviside",
    "histogram",
    "hsplit",
    "hstack",
    "hypot",
    "i0",
    "identity",
    "imag",
    "inner",
    "isclose",
    "isfinite",
    "isin",
    "isinf",
    "isnan",
    "isneginf",
    "isposinf",
    "isreal",
    "kaiser",
    "kron",
    "lcm",
    "ldexp",
    "left_shift",
    "less",
    "less_equal",
    "linspace",
    "log",
    "log1p",
    "log2",
    "log10",
    "logaddexp",
    "logaddexp2",
    "logical_and",
    "logical_not",
    "logical_or",
    "logical_xor",
    "logspace",
    "matmul",
    "max",
    "maximum",
    "mean",
    "median",
    "meshgrid",
    "min",
    "minimum",
    "mod",
    "moveaxis",
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
    "nonzero",
    "not_equal",
    "ones",
    "ones_like",
    "outer",
    "pad",
    "percentile",
    "power",
    "prod",
    "ptp",
    "quantile",
    "rad2deg",
    "ravel",
    "real",
    "reciprocal",
    "repeat",
    "reshape",
    "right_shift",
    "roll",
    "rot90",
    "round",
    "searchsorted",
    "select",
    "sign",
    "signbit",
    "sin",
    "sinc",
    "sinh",
    "size",
    "slogdet",
    "sort",
    "split",
    "sqrt",
    "square",
    "squeeze",
    "stack",
    "std",
    "subtract",
    "sum",
    "swapaxes",
    "take",
    "take_along_axis",
    "tan",
    "tanh",
    "tensordot",
    "tile",
    "trace",
    "transpose",
    "trapezoid",
    "tri",
    "tril",
    "triu",
    "true_divide",
    "trunc",
    "unique",
    "unravel_index",
    "vander",
    "var",
    "vdot",
    "vectorize",
    "view",
    "vsplit",
    "vstack",
    "where",
    "zeros",
    "zeros_like",
]
