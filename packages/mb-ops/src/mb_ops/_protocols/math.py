"""The ``math`` contract module: what every backend's ``math`` provides."""

from typing import Any, Protocol

from mb_ops._protocols._types import Tensor


class Math(Protocol):
    """The names every backend's ``math`` module provides (or declares unsupported)."""

    def cdist(self, x: Tensor, y: Tensor) -> Any:
        """Pairwise Euclidean distances between the rows of two sets."""
        ...

    def erf(self, x: Tensor) -> Any:
        """Error function."""
        ...

    def erfc(self, x: Tensor) -> Any:
        """Complementary error function."""
        ...

    def erfinv(self, x: Tensor) -> Any:
        """Inverse error function."""
        ...

    def extract_sequences(self, x: Tensor, sequence_length: Any, sequence_stride: Any) -> Any:
        """Frames of ``sequence_length`` along the last axis, every ``sequence_stride``."""
        ...

    def fft(self, x: Tensor) -> Any:
        """1D FFT of a (real, imag) pair."""
        ...

    def fft2(self, x: Tensor) -> Any:
        """2D FFT over the last two axes of a (real, imag) pair."""
        ...

    def ifft2(self, x: Tensor) -> Any:
        """Inverse 2D FFT of a (real, imag) pair."""
        ...

    def in_top_k(self, targets: Any, predictions: Any, k: Any) -> Any:
        """Whether each target is among the top ``k`` predictions."""
        ...

    def irfft(self, x: Tensor, fft_length: Any = None) -> Any:
        """Inverse of ``rfft``."""
        ...

    def istft(
        self,
        x: Tensor,
        sequence_length: Any,
        sequence_stride: Any,
        fft_length: Any,
        length: Any = None,
        window: Any = "hann",
        center: Any = True,
    ) -> Any:
        """Inverse short-time Fourier transform."""
        ...

    def logdet(self, x: Tensor) -> Any:
        """Log-determinant of Hermitian positive-definite matrices."""
        ...

    def logsumexp(self, x: Tensor, axis: Any = None, keepdims: Any = False) -> Any:
        """``log(sum(exp(x)))`` along axes, computed stably."""
        ...

    def rfft(self, x: Tensor, fft_length: Any = None) -> Any:
        """Real-input FFT along the last axis: (real, imag)."""
        ...

    def rsqrt(self, x: Tensor) -> Any:
        """``1 / sqrt(x)``."""
        ...

    def segment_max(
        self, data: Any, segment_ids: Any, num_segments: Any = None, sorted: Any = False
    ) -> Any:
        """Maximum of ``data`` per segment."""
        ...

    def segment_min(
        self, data: Any, segment_ids: Any, num_segments: Any = None, sorted: Any = False
    ) -> Any:
        """Minimum of ``data`` per segment."""
        ...

    def segment_prod(
        self, data: Any, segment_ids: Any, num_segments: Any = None, sorted: Any = False
    ) -> Any:
        """Product of ``data`` per segment."""
        ...

    def segment_sum(
        self, data: Any, segment_ids: Any, num_segments: Any = None, sorted: Any = False
    ) -> Any:
        """Sum of ``data`` per segment."""
        ...

    def stft(
        self,
        x: Tensor,
        sequence_length: Any,
        sequence_stride: Any,
        fft_length: Any,
        window: Any = "hann",
        center: Any = True,
    ) -> Any:
        """Short-time Fourier transform: (real, imag)."""
        ...

    def top_k(self, x: Tensor, k: Any, sorted: Any = True) -> Any:
        """The ``k`` largest values along the last axis and their indices."""
        ...


class MathOptional(Protocol):
    """Names a backend's ``math`` module may provide; mb uses them when present."""

    def gammainc(self, x: Tensor, y: Tensor) -> Any:
        """Regularized lower incomplete gamma function."""
        ...
