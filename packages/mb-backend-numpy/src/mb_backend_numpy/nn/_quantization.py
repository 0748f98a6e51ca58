"""Quantized matrix products: int8 x int8 in int32, and scaled float8 products."""

import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy._dtypes import standardize_dtype


def int8_matmul(x1, x2):
    x1, x2 = to_tensor(x1), to_tensor(x2)
    return np.matmul(x1.astype(np.int32), x2.astype(np.int32))


def float8_matmul(x1, x2, x1_scale, x2_scale, output_dtype="float32"):
    x1, x2 = to_tensor(x1), to_tensor(x2)
    product = np.matmul(x1.astype(np.float32), x2.astype(np.float32))
    scale = np.float32(x1_scale) * np.float32(x2_scale)
    return (product * scale).astype(standardize_dtype(output_dtype))
