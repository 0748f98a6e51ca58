"""Dtype policies (``keras.dtype_policies`` and ``keras.mixed_precision``)."""

from mb_layers._dtype_policy import AWQDTypePolicy as AWQDTypePolicy
from mb_layers._dtype_policy import DTypePolicy as DTypePolicy
from mb_layers._dtype_policy import DTypePolicyMap as DTypePolicyMap
from mb_layers._dtype_policy import FloatDTypePolicy as FloatDTypePolicy
from mb_layers._dtype_policy import GPTQDTypePolicy as GPTQDTypePolicy
from mb_layers._dtype_policy import Int4DTypePolicy as Int4DTypePolicy
from mb_layers._dtype_policy import QuantizedDTypePolicy as QuantizedDTypePolicy
from mb_layers._dtype_policy import QuantizedFloat8DTypePolicy as QuantizedFloat8DTypePolicy
from mb_layers._dtype_policy import deserialize as deserialize
from mb_layers._dtype_policy import dtype_policy as dtype_policy
from mb_layers._dtype_policy import get as get
from mb_layers._dtype_policy import serialize as serialize
from mb_layers._dtype_policy import set_dtype_policy as set_dtype_policy

Policy = DTypePolicy
global_policy = dtype_policy
set_global_policy = set_dtype_policy

__all__ = [
    "AWQDTypePolicy",
    "DTypePolicy",
    "DTypePolicyMap",
    "FloatDTypePolicy",
    "GPTQDTypePolicy",
    "Int4DTypePolicy",
    "Policy",
    "QuantizedDTypePolicy",
    "QuantizedFloat8DTypePolicy",
    "deserialize",
    "dtype_policy",
    "get",
    "global_policy",
    "serialize",
    "set_dtype_policy",
    "set_global_policy",
]
