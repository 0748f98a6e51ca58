"""Argument sets for the math and linalg backend functions, compared against Keras 3."""

import numpy as np
from _cases import floats, ints, positives

SPD = floats(3, 3, dtype="float32")
SPD = SPD @ SPD.T + 3 * np.eye(3, dtype="float32")
BATCH_SPD = np.stack([SPD, SPD + np.eye(3, dtype="float32")])
SIGNAL = floats(2, 64)

MATH_CASES = [
    ("segment_sum", (floats(6, 2), np.array([0, 0, 1, 2, 2, 2])), {}),
    ("segment_sum", (floats(6), np.array([0, -1, 1, 3, 3, 0])), {"num_segments": 4}),
    ("segment_max", (floats(6, 2), np.array([0, 0, 1, 2, 2, 2])), {}),
    ("top_k", (floats(3, 7), 3), {}),
    ("in_top_k", (np.array([1, 3, 0]), floats(3, 5), 2), {}),
    ("logsumexp", (floats(3, 4),), {"axis": 1}),
    ("logsumexp", (floats(3, 4),), {}),
    ("extract_sequences", (floats(2, 20), 5, 3), {}),
    ("fft", ((floats(2, 8), floats(2, 8)),), {}),
    ("fft2", ((floats(2, 4, 6), floats(2, 4, 6)),), {}),
    ("ifft2", ((floats(2, 4, 6), floats(2, 4, 6)),), {}),
    ("rfft", (floats(3, 10),), {}),
    ("rfft", (floats(3, 10),), {"fft_length": 16}),
    ("irfft", ((floats(3, 6), floats(3, 6)),), {}),
    ("stft", (SIGNAL, 16, 8, 16), {}),
    ("stft", (SIGNAL, 12, 4, 16), {"window": "hamming", "center": False}),
    ("istft", (tuple(floats(2, 9, 9) for _ in range(2)), 16, 8, 16), {}),
    ("istft", (tuple(floats(2, 7, 9) for _ in range(2)), 12, 4, 16), {"length": 20}),
    ("rsqrt", (positives(3, 4),), {}),
    ("erf", (floats(3, 4),), {}),
    ("erfinv", (floats(3, 4, low=-0.9, high=0.9),), {}),
    ("logdet", (SPD,), {}),
]

LINALG_CASES = [
    ("cholesky", (SPD,), {}),
    ("cholesky", (BATCH_SPD,), {"upper": True}),
    ("cholesky_inverse", (np.linalg.cholesky(SPD),), {}),
    ("det", (BATCH_SPD,), {}),
    ("eigh", (SPD,), {}),
    ("inv", (BATCH_SPD,), {}),
    ("lu_factor", (SPD,), {}),
    ("lu_factor", (BATCH_SPD,), {}),
    ("norm", (floats(3, 4),), {}),
    ("norm", (floats(3, 4),), {"ord": 1, "axis": 1}),
    ("norm", (floats(3, 4),), {"ord": "fro", "axis": (0, 1), "keepdims": True}),
    ("norm", (ints(5),), {}),
    ("solve", (BATCH_SPD, floats(2, 3, 2)), {}),
    ("solve_triangular", (np.tril(SPD), floats(3, 2)), {"lower": True}),
    ("solve_triangular", (np.triu(BATCH_SPD), floats(2, 3, 4)), {}),
    ("svd", (floats(4, 3),), {"compute_uv": False}),
    ("lstsq", (floats(5, 3), floats(5, 2)), {}),
    ("matrix_rank", (floats(4, 3),), {}),
    ("pinv", (floats(4, 3),), {}),
]
