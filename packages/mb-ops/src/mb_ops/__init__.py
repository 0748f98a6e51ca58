"""mb-ops: configuration, dtypes, Variable and scopes, the backend contract and the op API."""

from mb_graph import KerasTensor as KerasTensor
from mb_graph import Operation as Operation
from mb_graph import any_symbolic_tensors as any_symbolic_tensors
from mb_graph import is_keras_tensor as is_keras_tensor
from mb_ops import _hooks
from mb_ops import backends as backends
from mb_ops import config as config
from mb_ops import core as core
from mb_ops import dtypes as dtypes
from mb_ops import einops as einops
from mb_ops import image as image
from mb_ops import linalg as linalg
from mb_ops import math as math
from mb_ops import nn as nn
from mb_ops import numpy as numpy
from mb_ops import ops as ops
from mb_ops import quantizers as quantizers
from mb_ops import random as random
from mb_ops import tree as tree
from mb_ops._device import device as device
from mb_ops._remat import remat as remat
from mb_ops._scopes import AutocastScope as AutocastScope
from mb_ops._scopes import DonatingStatelessScope as DonatingStatelessScope
from mb_ops._scopes import StatelessScope as StatelessScope
from mb_ops._scopes import SymbolicScope as SymbolicScope
from mb_ops._scopes import current_path as current_path
from mb_ops._scopes import get_autocast_scope as get_autocast_scope
from mb_ops._scopes import get_stateless_scope as get_stateless_scope
from mb_ops._scopes import get_symbolic_scope as get_symbolic_scope
from mb_ops._scopes import in_stateless_scope as in_stateless_scope
from mb_ops._scopes import in_symbolic_scope as in_symbolic_scope
from mb_ops._scopes import initialize_all_variables as initialize_all_variables
from mb_ops._scopes import name_scope as name_scope
from mb_ops._state import clear_session as clear_session
from mb_ops._state import get_uid as get_uid
from mb_ops._traceback import filter_traceback as filter_traceback
from mb_ops._variable import Variable as Variable
from mb_ops._variable import set_initializer_lookup as set_initializer_lookup
from mb_ops._variable import standardize_shape as standardize_shape

_hooks.install()

__all__ = [
    "AutocastScope",
    "DonatingStatelessScope",
    "KerasTensor",
    "Operation",
    "StatelessScope",
    "SymbolicScope",
    "Variable",
    "any_symbolic_tensors",
    "backends",
    "clear_session",
    "config",
    "core",
    "current_path",
    "device",
    "dtypes",
    "einops",
    "filter_traceback",
    "get_autocast_scope",
    "get_stateless_scope",
    "get_symbolic_scope",
    "get_uid",
    "image",
    "in_stateless_scope",
    "in_symbolic_scope",
    "initialize_all_variables",
    "is_keras_tensor",
    "linalg",
    "math",
    "name_scope",
    "nn",
    "numpy",
    "ops",
    "quantizers",
    "random",
    "remat",
    "set_initializer_lookup",
    "standardize_shape",
    "tree",
]
