"""Core ops: conversion, control flow, scatter and slices (top level of ``keras.ops``)."""

from mb_ops._ops.core import associative_scan as associative_scan
from mb_ops._ops.core import cast as cast
from mb_ops._ops.core import cond as cond
from mb_ops._ops.core import convert_to_numpy as convert_to_numpy
from mb_ops._ops.core import convert_to_tensor as convert_to_tensor
from mb_ops._ops.core import custom_gradient as custom_gradient
from mb_ops._ops.core import dtype as dtype
from mb_ops._ops.core import fori_loop as fori_loop
from mb_ops._ops.core import is_tensor as is_tensor
from mb_ops._ops.core import map as map
from mb_ops._ops.core import saturate_cast as saturate_cast
from mb_ops._ops.core import scan as scan
from mb_ops._ops.core import scatter as scatter
from mb_ops._ops.core import scatter_update as scatter_update
from mb_ops._ops.core import shape as shape
from mb_ops._ops.core import slice as slice
from mb_ops._ops.core import slice_update as slice_update
from mb_ops._ops.core import stop_gradient as stop_gradient
from mb_ops._ops.core import switch as switch
from mb_ops._ops.core import unstack as unstack
from mb_ops._ops.core import vectorized_map as vectorized_map
from mb_ops._ops.core import while_loop as while_loop

__all__ = [
    "associative_scan",
    "cast",
    "cond",
    "convert_to_numpy",
    "convert_to_tensor",
    "custom_gradient",
    "dtype",
    "fori_loop",
    "is_tensor",
    "map",
    "saturate_cast",
    "scan",
    "scatter",
    "scatter_update",
    "shape",
    "slice",
    "slice_update",
    "stop_gradient",
    "switch",
    "unstack",
    "vectorized_map",
    "while_loop",
]
