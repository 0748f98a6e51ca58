"""``keras.quantizers``: the quantizers' math (from mb_ops) and the quantization configs.

Example:

>>> config = Int4QuantizationConfig(block_size=64)
>>> config.mode, serialize(config)["class_name"]
('int4', 'Int4QuantizationConfig')
"""

from mb_layers._quantization_config import AWQConfig as AWQConfig
from mb_layers._quantization_config import Float8QuantizationConfig as Float8QuantizationConfig
from mb_layers._quantization_config import GPTQConfig as GPTQConfig
from mb_layers._quantization_config import Int4QuantizationConfig as Int4QuantizationConfig
from mb_layers._quantization_config import Int8QuantizationConfig as Int8QuantizationConfig
from mb_layers._quantization_config import QuantizationConfig as QuantizationConfig
from mb_layers._quantization_config import deserialize as deserialize
from mb_layers._quantization_config import get as get
from mb_layers._quantization_config import serialize as serialize
from mb_ops.quantizers import AbsMaxQuantizer as AbsMaxQuantizer
from mb_ops.quantizers import Quantizer as Quantizer
from mb_ops.quantizers import abs_max_quantize as abs_max_quantize
from mb_ops.quantizers import (
    abs_max_quantize_grouped_with_zero_point as abs_max_quantize_grouped_with_zero_point,
)
from mb_ops.quantizers import compute_float8_amax_history as compute_float8_amax_history
from mb_ops.quantizers import compute_float8_scale as compute_float8_scale
from mb_ops.quantizers import fake_quant_with_min_max_vars as fake_quant_with_min_max_vars
from mb_ops.quantizers import pack_int4 as pack_int4
from mb_ops.quantizers import quantize_and_dequantize as quantize_and_dequantize
from mb_ops.quantizers import unpack_int4 as unpack_int4

__all__ = [
    "AWQConfig",
    "AbsMaxQuantizer",
    "Float8QuantizationConfig",
    "GPTQConfig",
    "Int4QuantizationConfig",
    "Int8QuantizationConfig",
    "QuantizationConfig",
    "Quantizer",
    "abs_max_quantize",
    "abs_max_quantize_grouped_with_zero_point",
    "compute_float8_amax_history",
    "compute_float8_scale",
    "deserialize",
    "fake_quant_with_min_max_vars",
    "get",
    "pack_int4",
    "quantize_and_dequantize",
    "serialize",
    "unpack_int4",
]
