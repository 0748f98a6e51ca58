"""Quantized matrix products: int8 x int8 in int32 through XLA, scaled float8 products.

TensorFlow's CPU kernels have no fast int8 GEMM; XLA compiles ``matmul(int8, int8,
output_type=int32)`` into one, so the integer product runs compiled.
"""

import tensorflow as tf

from mb_backend_tensorflow._convert import convert_to_tensor
from mb_backend_tensorflow._dtypes import standardize_dtype


@tf.function(jit_compile=True, reduce_retracing=True, autograph=False)
def _int8_gemm(a, b):
    return tf.linalg.matmul(a, b, output_type=tf.int32)


def _product(x1, x2, gemm):
    """``gemm`` on ``x1`` flattened to 2-D, reshaped back to ``(..., N)``."""
    lead = tf.shape(x1)[:-1]
    out = gemm(tf.reshape(x1, [-1, x1.shape[-1]]), x2)
    out = tf.reshape(out, tf.concat([lead, tf.shape(x2)[-1:]], axis=0))
    out.set_shape([*x1.shape[:-1], x2.shape[-1]])
    return out


def int8_matmul(x1, x2):
    return _product(convert_to_tensor(x1), convert_to_tensor(x2), _int8_gemm)


def float8_matmul(x1, x2, x1_scale, x2_scale, output_dtype="float32"):
    x1 = tf.cast(convert_to_tensor(x1), tf.float32)
    x2 = tf.cast(convert_to_tensor(x2), tf.float32)
    product = _product(x1, x2, tf.linalg.matmul)
    scale = tf.cast(x1_scale, tf.float32) * tf.cast(x2_scale, tf.float32)
    return tf.cast(product * scale, standardize_dtype(output_dtype))
