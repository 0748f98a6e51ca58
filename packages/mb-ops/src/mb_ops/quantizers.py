"""The quantizers' math: ``keras.quantizers``' functions and quantizer classes, and kernels.

Everything is written once over ``mb_ops.ops``, so it runs on every backend with the
same numbers; the quantized matrix products (`int8_matmul`, `float8_matmul`) are
backend contract functions that use the engine's native kernels where it has them.
The quantization configs, ``get`` / ``serialize`` / ``deserialize`` and the layers
that use all this are in mb_layers (``mb.quantizers`` joins both).

Example:

>>> import numpy as np
>>> from mb_ops import ops
>>> q, scale = abs_max_quantize(np.array([[0.5, -1.0]], "float32"), axis=-1)
>>> ops.convert_to_numpy(q).tolist()
[[63, -127]]
"""

from mb_ops._ops.nn_quantization import float8_matmul as float8_matmul
from mb_ops._ops.nn_quantization import int8_matmul as int8_matmul
from mb_ops._quantizers._abs_max import AbsMaxQuantizer as AbsMaxQuantizer
from mb_ops._quantizers._abs_max import Quantizer as Quantizer
from mb_ops._quantizers._abs_max import abs_max_quantize as abs_max_quantize
from mb_ops._quantizers._abs_max import (
    abs_max_quantize_grouped_with_zero_point as abs_max_quantize_grouped_with_zero_point,
)
from mb_ops._quantizers._awq import awq_quantize_matrix as awq_quantize_matrix
from mb_ops._quantizers._awq import awq_search_optimal_scales as awq_search_optimal_scales
from mb_ops._quantizers._awq import update_activation_magnitudes as update_activation_magnitudes
from mb_ops._quantizers._fake_quant import (
    fake_quant_with_min_max_vars as fake_quant_with_min_max_vars,
)
from mb_ops._quantizers._float8 import compute_float8_amax_history as compute_float8_amax_history
from mb_ops._quantizers._float8 import compute_float8_scale as compute_float8_scale
from mb_ops._quantizers._float8 import quantize_and_dequantize as quantize_and_dequantize
from mb_ops._quantizers._gptq import damped_inverse_hessian as damped_inverse_hessian
from mb_ops._quantizers._gptq import gptq_parameter_finder as gptq_parameter_finder
from mb_ops._quantizers._gptq import gptq_quantize_matrix as gptq_quantize_matrix
from mb_ops._quantizers._gptq import update_hessian as update_hessian
from mb_ops._quantizers._int4 import pack_int4 as pack_int4
from mb_ops._quantizers._int4 import unpack_int4 as unpack_int4
from mb_ops._quantizers._zero_point import (
    compute_quantization_parameters as compute_quantization_parameters,
)
from mb_ops._quantizers._zero_point import dequantize_with_sz_map as dequantize_with_sz_map
from mb_ops._quantizers._zero_point import (
    dequantize_with_zero_point as dequantize_with_zero_point,
)
from mb_ops._quantizers._zero_point import quantize_with_sz_map as quantize_with_sz_map
from mb_ops._quantizers._zero_point import quantize_with_zero_point as quantize_with_zero_point

__all__ = [
    "AbsMaxQuantizer",
    "Quantizer",
    "abs_max_quantize",
    "abs_max_quantize_grouped_with_zero_point",
    "awq_quantize_matrix",
    "awq_search_optimal_scales",
    "compute_float8_amax_history",
    "compute_float8_scale",
    "compute_quantization_parameters",
    "damped_inverse_hessian",
    "dequantize_with_sz_map",
    "dequantize_with_zero_point",
    "fake_quant_with_min_max_vars",
    "float8_matmul",
    "gptq_parameter_finder",
    "gptq_quantize_matrix",
    "int8_matmul",
    "pack_int4",
    "quantize_and_dequantize",
    "quantize_with_sz_map",
    "quantize_with_zero_point",
    "unpack_int4",
    "update_activation_magnitudes",
    "update_hessian",
]
