"""Element-wise transcendental functions: exponentials, logarithms, trigonometric and
hyperbolic functions and their inverses, angle conversion, ``sinc`` and ``i0``."""

import jax.numpy as jnp

from mb_backend_jax.core import cast, convert_to_tensor
from mb_backend_jax.numpy._common import binary, int64_to_floatx, int_to_floatx, to_float, unary
from mb_ops import config, dtypes

hypot = binary(jnp.hypot, "hypot")
arctan2 = binary(jnp.arctan2, "arctan2", float_result=True)
logaddexp = binary(jnp.logaddexp, "logaddexp", float_result=True)
logaddexp2 = binary(jnp.logaddexp2, "logaddexp2", float_result=True)
deg2rad = unary(jnp.deg2rad, "deg2rad", int_to_floatx)
rad2deg = unary(jnp.rad2deg, "rad2deg", int_to_floatx)

# Float-valued functions: ints and bools go to floatx, floats keep their width.
sin = unary(jnp.sin, "sin", to_float)
cos = unary(jnp.cos, "cos", to_float)
tan = unary(jnp.tan, "tan", to_float)
arcsin = unary(jnp.arcsin, "arcsin", to_float)
arccos = unary(jnp.arccos, "arccos", to_float)
arctan = unary(jnp.arctan, "arctan", to_float)
sinh = unary(jnp.sinh, "sinh", to_float)
cosh = unary(jnp.cosh, "cosh", to_float)
tanh = unary(jnp.tanh, "tanh", to_float)
arcsinh = unary(jnp.arcsinh, "arcsinh", to_float)
arccosh = unary(jnp.arccosh, "arccosh", to_float)
arctanh = unary(jnp.arctanh, "arctanh", to_float)
sinc = unary(jnp.sinc, "sinc", to_float)
exp = unary(jnp.exp, "exp", int_to_floatx)
exp2 = unary(jnp.exp2, "exp2", int_to_floatx)
expm1 = unary(jnp.expm1, "expm1", int_to_floatx)
log = unary(jnp.log, "log", int64_to_floatx)
log10 = unary(jnp.log10, "log10", int64_to_floatx)
log1p = unary(jnp.log1p, "log1p", int64_to_floatx)
log2 = unary(jnp.log2, "log2", int64_to_floatx)


def i0(x):
    """The modified Bessel function of the first kind, order 0."""
    x = convert_to_tensor(x)
    dtype = dtypes.standardize_dtype(x.dtype)
    if dtype in ("int64", "float64"):
        dtype = "float64"
    elif dtype not in ("bfloat16", "float16"):
        dtype = config.floatx()
    return jnp.i0(cast(x, dtype))
