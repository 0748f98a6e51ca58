"""Argument rules and host-side pieces of the math ops (cdist, FFTs, STFT), written once."""

from __future__ import annotations

from typing import Any

import numpy as np


def check_cdist_shapes(x_shape: Any, y_shape: Any) -> None:
    """``cdist`` takes two tensors of rank 2 or more with the same last axis."""
    if len(x_shape) < 2 or len(y_shape) < 2:
        raise ValueError(
            f"cdist expects inputs of rank 2 or more. Received: x.shape={x_shape}, "
            f"y.shape={y_shape}."
        )
    if x_shape[-1] != y_shape[-1]:
        raise ValueError(
            f"cdist expects inputs with the same last axis. Received: x.shape={x_shape}, "
            f"y.shape={y_shape}."
        )


def check_matmul_ranks(x1_shape: Any, x2_shape: Any) -> None:
    """``matmul`` takes no scalars (rank 0): ``multiply`` does.

    >>> check_matmul_ranks((2, 3), ())
    Traceback (most recent call last):
    ValueError: matmul expects inputs of rank 1 or more. Received: x1.shape=(2, 3), x2.shape=(). Use multiply for scalars.
    """  # noqa: E501
    if len(x1_shape) == 0 or len(x2_shape) == 0:
        raise ValueError(
            "matmul expects inputs of rank 1 or more. "
            f"Received: x1.shape={x1_shape}, x2.shape={x2_shape}. Use multiply for scalars."
        )


def complex_parts(x: Any, to_tensor: Any, is_float: Any) -> tuple[Any, Any]:
    """A complex input given as Keras gives it, a ``(real, imag)`` pair of float
    tensors of one shape, as two backend tensors (``is_float(dtype)`` decides floats)."""
    if not isinstance(x, list | tuple) or len(x) != 2:
        raise ValueError(
            "Expected a tuple (real, imag) of two tensors for a complex input. "
            f"Received: {type(x).__name__}."
        )
    real, imag = to_tensor(x[0]), to_tensor(x[1])
    if tuple(real.shape) != tuple(imag.shape):
        raise ValueError(
            "The real and imaginary parts must have the same shape. "
            f"Received: real.shape={real.shape}, imag.shape={imag.shape}."
        )
    if not is_float(real.dtype) or not is_float(imag.dtype):
        raise ValueError(
            "The real and imaginary parts must be float tensors. "
            f"Received: {real.dtype} and {imag.dtype}."
        )
    return real, imag


def check_stft_arguments(dtype: str, sequence_length: int, fft_length: int) -> None:
    """``stft`` takes a float32/float64 signal and ``fft_length >= sequence_length``."""
    if dtype not in ("float32", "float64"):
        raise TypeError(f"stft expects a float32 or float64 input. Received: {dtype}.")
    if fft_length < sequence_length:
        raise ValueError(
            "fft_length must be at least sequence_length. Received: "
            f"sequence_length={sequence_length}, fft_length={fft_length}."
        )


def stft_window(
    window: Any, sequence_length: int, fft_length: int, named: Any, given: Any
) -> np.ndarray:
    """The window of ``stft``/``istft`` as a NumPy array of ``fft_length`` taps
    (centred, zero-padded): ones for None, ``named(name, sequence_length)`` for
    'hann'/'hamming', ``given(window)`` (as a NumPy array) for a tensor.

    >>> stft_window(None, 2, 4, None, None).tolist()
    [1.0, 1.0, 1.0, 1.0]
    >>> stft_window([1.0, 2.0], 2, 4, None, np.asarray).tolist()
    [0.0, 1.0, 2.0, 0.0]
    """
    left = (fft_length - sequence_length) // 2
    right = fft_length - sequence_length - left
    if window is None:
        return np.ones(fft_length)
    if isinstance(window, str):
        if window not in ("hann", "hamming"):
            raise ValueError(f"window must be 'hann', 'hamming' or a tensor. Received: {window!r}.")
        win = named(window, sequence_length)
    else:
        win = given(window)
    if win.shape != (sequence_length,):
        raise ValueError(
            f"The window must have shape ({sequence_length},), the sequence_length. "
            f"Received: {win.shape}."
        )
    return np.pad(win, (left, right))


def istft_bounds(total: int, fft_length: int, length: Any, center: bool) -> tuple[int, int]:
    """Where ``istft``'s signal lies in the overlap-added frames of ``total`` samples.

    >>> istft_bounds(10, 4, None, True), istft_bounds(10, 4, 5, False)
    ((2, 8), (0, 5))
    """
    start = fft_length // 2 if center else 0
    if length is not None:
        return start, start + int(length)
    return start, total - fft_length // 2 if center else total
