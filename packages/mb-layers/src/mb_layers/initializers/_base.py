"""The `Initializer` base class and the initializers that need no randomness."""

import math

import numpy as np

from mb_layers._ops import ops
from mb_ops import dtypes


class Initializer:
    """Base of initializers: ``initializer(shape, dtype=None)`` returns a tensor.

    Subclasses implement ``__call__(self, shape, dtype=None)`` and, when they
    take arguments, ``get_config()``.

    Example:

    >>> class Twos(Initializer):
    ...     def __call__(self, shape, dtype=None):
    ...         return ops.full(shape, 2.0, dtype=dtype)
    """

    def __call__(self, shape, dtype=None):
        raise NotImplementedError(
            f"Initializer {type(self).__name__} must implement __call__(shape, dtype=None)."
        )

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def clone(self):
        return type(self).from_config(self.get_config())

    def __repr__(self):
        return f"<{type(self).__name__} {self.get_config()}>"


def _dtype(dtype):
    return dtypes.standardize_dtype(dtype)


class Constant(Initializer):
    """Fills with a constant `value` (a scalar, or an array broadcast to the shape)."""

    def __init__(self, value=0.0):
        self.value = value

    def __call__(self, shape, dtype=None):
        dtype = _dtype(dtype)
        value = ops.convert_to_tensor(self.value, dtype=dtype)
        return ops.broadcast_to(value, shape)

    def get_config(self):
        value = self.value
        if hasattr(value, "tolist"):
            value = value.tolist()
        return {"value": value}


class Zeros(Initializer):
    """Fills with zeros."""

    def __call__(self, shape, dtype=None):
        return ops.zeros(shape, dtype=_dtype(dtype))


class Ones(Initializer):
    """Fills with ones."""

    def __call__(self, shape, dtype=None):
        return ops.ones(shape, dtype=_dtype(dtype))


class Identity(Initializer):
    """The identity matrix times `gain` (2D shapes only)."""

    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None):
        if len(shape) != 2:
            raise ValueError(
                "Identity can only initialize 2D matrices. Received: "
                f"shape={tuple(shape)} of rank {len(shape)}."
            )
        dtype = _dtype(dtype)
        return ops.multiply(self.gain, ops.eye(*shape, dtype=dtype))

    def get_config(self):
        return {"gain": self.gain}


_WINDOWS = {
    "hann": np.hanning,
    "hanning": np.hanning,
    "hamming": np.hamming,
    "blackman": np.blackman,
    "bartlett": np.bartlett,
}


def _window(name, length, periodic):
    if name not in _WINDOWS:
        raise ValueError(
            f"STFT window {name!r} is not supported. Expected one of "
            f"{', '.join(sorted(_WINDOWS))}, an array of the frame length, or None."
        )
    fn = _WINDOWS[name]
    return fn(length + 1)[:-1] if periodic else fn(length)


class STFT(Initializer):
    """Kernels of a convolution that computes a short-time Fourier transform.

    Args:
        side: ``"real"`` or ``"imag"``: which part of the transform.
        window: a window name (``"hann"``, ``"hamming"``, ``"blackman"``,
            ``"bartlett"``), an array of the frame length, or None.
        scaling: ``"density"`` (L2), ``"spectrum"`` (L1) or None.
        periodic: use the periodic form of the window.
    """

    def __init__(self, side="real", window="hann", scaling="density", periodic=False):
        if side not in ("real", "imag"):
            raise ValueError(f"STFT side must be 'real' or 'imag'. Received: side={side!r}.")
        if scaling not in (None, "density", "spectrum"):
            raise ValueError(
                "STFT scaling must be None, 'density' or 'spectrum'. "
                f"Received: scaling={scaling!r}."
            )
        if isinstance(window, str):
            _window(window, 1, periodic)
        self.side = side
        self.window = window
        self.scaling = scaling
        self.periodic = periodic

    def __call__(self, shape, dtype=None):
        dtype = _dtype(dtype)
        frame_length, _, fft_bins = shape
        fft_length = (fft_bins - 1) * 2
        time = np.arange(frame_length, dtype="float64").reshape(frame_length, 1, 1)
        freq = np.arange(fft_bins, dtype="float64").reshape(1, 1, fft_bins) / fft_length
        angles = -2.0 * time * freq * math.pi
        kernel = np.cos(angles) if self.side == "real" else np.sin(angles)
        if self.window is not None:
            win = self.window
            if isinstance(win, str):
                win = _window(win, frame_length, self.periodic)
            win = np.asarray(win, dtype="float64")
            if win.shape != (frame_length,):
                raise ValueError(
                    f"The STFT window must have shape ({frame_length},) (the frame length). "
                    f"Received: window shape={win.shape}."
                )
            scale = 1.0
            if self.scaling == "density":
                scale = np.sqrt(np.sum(np.square(win)))
            elif self.scaling == "spectrum":
                scale = np.sum(np.abs(win))
            kernel = kernel * win.reshape(frame_length, 1, 1) / scale
        return ops.convert_to_tensor(kernel, dtype=dtype)

    def get_config(self):
        window = self.window.tolist() if hasattr(self.window, "tolist") else self.window
        return {
            "side": self.side,
            "window": window,
            "periodic": self.periodic,
            "scaling": self.scaling,
        }
