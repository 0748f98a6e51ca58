"""Complex parts, element-wise: real and imaginary parts, conjugate, angle."""

import jax.numpy as jnp

from mb_backend_jax.numpy._common import to_float, unary

conjugate = unary(jnp.conjugate, "conjugate")
conj = unary(jnp.conjugate, "conj")
real = unary(jnp.real, "real")
imag = unary(jnp.imag, "imag")
angle = unary(jnp.angle, "angle", to_float)
