"""Quantized matrix products: int8 x int8 accumulated in int32 by OpenVINO's MatMul."""

from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino.numpy._linear import matmul


def int8_matmul(x1, x2):
    # The backend's matmul keeps int8 x int8 products in int32, as JAX does.
    return matmul(to_tensor(x1), to_tensor(x2))
