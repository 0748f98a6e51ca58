"""Linear-algebra ops (``keras.ops.linalg``)."""

from mb_ops._ops.linalg import cholesky as cholesky
from mb_ops._ops.linalg import cholesky_inverse as cholesky_inverse
from mb_ops._ops.linalg import det as det
from mb_ops._ops.linalg import eig as eig
from mb_ops._ops.linalg import eigh as eigh
from mb_ops._ops.linalg import inv as inv
from mb_ops._ops.linalg import jvp as jvp
from mb_ops._ops.linalg import lstsq as lstsq
from mb_ops._ops.linalg import lu_factor as lu_factor
from mb_ops._ops.linalg import matrix_rank as matrix_rank
from mb_ops._ops.linalg import norm as norm
from mb_ops._ops.linalg import pinv as pinv
from mb_ops._ops.linalg import qr as qr
from mb_ops._ops.linalg import solve as solve
from mb_ops._ops.linalg import solve_triangular as solve_triangular
from mb_ops._ops.linalg import svd as svd

__all__ = [
    "cholesky",
    "cholesky_inverse",
    "det",
    "eig",
    "eigh",
    "inv",
    "jvp",
    "lstsq",
    "lu_factor",
    "matrix_rank",
    "norm",
    "pinv",
    "qr",
    "solve",
    "solve_triangular",
    "svd",
]
