"""Audio front ends: `STFTSpectrogram` (a trainable STFT convolution) and `MelSpectrogram`."""

import math
import warnings

import numpy as np

from mb_layers import initializers
from mb_layers._input_spec import InputSpec
from mb_layers._layer import Layer
from mb_layers._ops import ops
from mb_layers.layers._preprocessing import _Preprocessing
from mb_layers.layers._reshaping import _data_format
from mb_ops import config, dtypes

_STFT_MODES = ("log", "magnitude", "psd", "real", "imag", "angle", "stft")


class STFTSpectrogram(Layer):
    """The spectrogram of signals ``(batch, time, channels)`` by a convolution with STFT kernels.

    The kernels are weights initialized to the windowed Fourier basis
    (`initializers.STFT`), so the transform can be fine-tuned. One frame of
    `frame_length` samples every `frame_step`, zero-padded to `fft_length`.

    Args:
        mode: ``"log"`` (log magnitude), ``"magnitude"``, ``"psd"`` (power
            spectral density), ``"real"``, ``"imag"``, ``"angle"``, or
            ``"stft"`` (real and imaginary parts concatenated).
        frame_length: samples per frame.
        frame_step: samples between frames (default ``frame_length // 2``).
        fft_length: FFT size (default: the next power of two).
        window: a window name (``"hann"``, ``"hamming"``, ...), an array, or None.
        periodic: use the periodic form of the window.
        scaling: ``"density"``, ``"spectrum"`` or None.
        padding: ``"valid"`` or ``"same"``.
        expand_dims: keep the channels on their own axis
            (``(batch, time, freq, channels)``) instead of flattening them with
            the frequencies (``(batch, time, channels * freq)``).
        data_format: ``"channels_last"`` or ``"channels_first"``.

    Example:
        >>> import numpy as np
        >>> signal = np.sin(np.arange(64, dtype="float32"))[None, :, None]
        >>> tuple(STFTSpectrogram(mode="magnitude", frame_length=16)(signal).shape)
        (1, 7, 9)
    """

    def __init__(
        self,
        mode="log",
        frame_length=256,
        frame_step=None,
        fft_length=None,
        window="hann",
        periodic=False,
        scaling="density",
        padding="valid",
        expand_dims=False,
        data_format=None,
        **kwargs,
    ):
        if frame_step is not None and not 1 <= frame_step <= frame_length:
            raise ValueError(
                "STFTSpectrogram `frame_step` must be a positive integer not greater than "
                f"`frame_length`. Received: frame_step={frame_step}, "
                f"frame_length={frame_length}."
            )
        if fft_length is not None and fft_length < frame_length:
            raise ValueError(
                "STFTSpectrogram `fft_length` must be at least `frame_length`. Received: "
                f"fft_length={fft_length}, frame_length={frame_length}."
            )
        if fft_length is not None and fft_length & (fft_length - 1):
            warnings.warn(
                f"STFTSpectrogram `fft_length` is best a power of two. Received: {fft_length}.",
                stacklevel=2,
            )
        if mode not in _STFT_MODES:
            raise ValueError(
                f"STFTSpectrogram `mode` must be one of {', '.join(_STFT_MODES)}. "
                f"Received: mode={mode!r}."
            )
        if padding not in ("valid", "same"):
            raise ValueError(
                f"STFTSpectrogram `padding` must be 'valid' or 'same'. Received: {padding!r}."
            )
        # Checks the window name and scaling early, with the initializer's messages.
        initializers.STFT("real", window, scaling, periodic)
        super().__init__(**kwargs)
        self.mode = mode
        self.frame_length = frame_length
        self.frame_step = frame_step
        self._frame_step = frame_step or frame_length // 2
        self.fft_length = fft_length
        self._fft_length = fft_length or 2 ** math.ceil(math.log2(frame_length))
        self.window = window
        self.periodic = periodic
        self.scaling = scaling
        self.padding = padding
        self.expand_dims = expand_dims
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=3)

    def build(self, input_shape):
        shape = (self.frame_length, 1, self._fft_length // 2 + 1)
        for side in ("real", "imag"):
            if self.mode != {"real": "imag", "imag": "real"}[side]:
                kernel = self.add_weight(
                    name=f"{side}_kernel",
                    shape=shape,
                    initializer=initializers.STFT(side, self.window, self.scaling, self.periodic),
                )
                setattr(self, f"{side}_kernel", kernel)

    def _transform(self, inputs, kernel):
        """``(batch, channels, freq, frames)``: each channel convolved on its own."""
        first = self.data_format == "channels_first"
        channels = inputs.shape[1 if first else 2]
        time = inputs.shape[2 if first else 1]
        if not first:
            inputs = ops.transpose(inputs, (0, 2, 1))
        signals = ops.reshape(inputs, (-1, 1, time) if first else (-1, time, 1))
        out = ops.conv(
            signals,
            ops.cast(kernel, inputs.dtype),
            strides=self._frame_step,
            padding=self.padding,
            data_format=self.data_format,
        )
        if not first:
            out = ops.transpose(out, (0, 2, 1))
        return ops.reshape(out, (-1, channels, out.shape[1], out.shape[2]))

    def _layout(self, outputs):
        _, channels, freq, frames = outputs.shape
        if self.expand_dims:
            order = (0, 3, 2, 1) if self.data_format == "channels_last" else (0, 1, 3, 2)
            return ops.transpose(outputs, order)
        flat = ops.reshape(outputs, (-1, channels * freq, frames))
        return ops.transpose(flat, (0, 2, 1)) if self.data_format == "channels_last" else flat

    def call(self, inputs):
        if dtypes.standardize_dtype(inputs.dtype) not in ("float16", "float32", "float64"):
            raise TypeError(
                "STFTSpectrogram takes float16, float32 or float64 signals. "
                f"Received: dtype={inputs.dtype}. Cast the signal first."
            )
        real = None if self.mode == "imag" else self._transform(inputs, self.real_kernel)
        imag = None if self.mode == "real" else self._transform(inputs, self.imag_kernel)
        if self.mode in ("real", "imag"):
            return self._layout(real if self.mode == "real" else imag)
        if self.mode == "angle":
            return self._layout(ops.arctan2(imag, real))
        if self.mode == "stft":
            return self._layout(ops.concatenate([real, imag], axis=2))
        power = ops.add(ops.square(real), ops.square(imag))
        if self.mode == "psd":
            # One-sided density: every bin but DC and Nyquist counts twice.
            inner = ops.pad(power[:, :, 1:-1, :], ((0, 0), (0, 0), (1, 1), (0, 0)))
            return self._layout(ops.add(power, inner))
        magnitude = self._layout(ops.sqrt(ops.maximum(power, config.epsilon())))
        if self.mode == "magnitude":
            return magnitude
        return ops.log(ops.maximum(magnitude, config.epsilon()))

    def compute_output_shape(self, input_shape):
        first = self.data_format == "channels_first"
        batch, channels, time = (
            input_shape if first else (input_shape[0], input_shape[2], input_shape[1])
        )
        freq = (self._fft_length // 2 + 1) * (2 if self.mode == "stft" else 1)
        if time is None:
            frames = None
        elif self.padding == "same":
            frames = -(-time // self._frame_step)
        else:
            frames = (time - self.frame_length) // self._frame_step + 1
        if self.expand_dims:
            return (batch, frames, freq, channels) if not first else (batch, channels, frames, freq)
        flat = None if channels is None else channels * freq
        return (batch, flat, frames) if first else (batch, frames, flat)

    def get_config(self):
        return {
            **super().get_config(),
            "mode": self.mode,
            "frame_length": self.frame_length,
            "frame_step": self.frame_step,
            "fft_length": self.fft_length,
            "window": self.window,
            "periodic": self.periodic,
            "scaling": self.scaling,
            "padding": self.padding,
            "data_format": self.data_format,
            "expand_dims": self.expand_dims,
        }


_MEL_BREAK_HZ = 700.0
_MEL_HIGH_Q = 1127.0


def _hertz_to_mel(hertz):
    return _MEL_HIGH_Q * np.log(1.0 + hertz / _MEL_BREAK_HZ)


def mel_weight_matrix(num_mel_bins, num_spectrogram_bins, sampling_rate, low_hz, high_hz):
    """``(num_spectrogram_bins, num_mel_bins)`` triangular HTK mel filters with peaks of 1
    (the DC bin gets no weight), in float32 as Keras 3 computes them."""
    f32 = np.float32
    nyquist = f32(sampling_rate) / f32(2.0)
    bins_mel = _hertz_to_mel(np.linspace(f32(0.0), nyquist, num_spectrogram_bins, dtype=f32)[1:])
    edges = np.linspace(
        _hertz_to_mel(f32(low_hz)), _hertz_to_mel(f32(high_hz)), num_mel_bins + 2, dtype=f32
    )
    lower, center, upper = edges[:-2], edges[1:-1], edges[2:]
    bins_mel = bins_mel[:, None]
    rising = (bins_mel - lower) / (center - lower)
    falling = (upper - bins_mel) / (upper - center)
    weights = np.maximum(f32(0.0), np.minimum(rising, falling)).astype(f32)
    return np.pad(weights, ((1, 0), (0, 0)))


class MelSpectrogram(_Preprocessing):
    """The mel spectrogram of audio: ``(batch, time)`` in, ``(batch, num_mel_bins, frames)`` out.

    A centered short-time Fourier transform (``ops.stft``), magnitudes raised to
    `mag_exp`, mel filters between `min_freq` and `max_freq`, then (with
    `power_to_db`) decibels relative to `ref_power`, floored at `top_db` below
    the batch's maximum, as Keras 3 computes it.

    Args:
        fft_length: FFT size.
        sequence_stride: samples between frames.
        sequence_length: samples per frame (default `fft_length`).
        window: ``"hann"``, ``"hamming"`` or None.
        sampling_rate: samples per second.
        num_mel_bins: mel bands.
        min_freq, max_freq: the band limits in Hz (`max_freq` defaults to half
            the sampling rate).
        power_to_db: convert to decibels.
        top_db: the dynamic range kept in decibels.
        mag_exp: the exponent of the magnitudes (2: power).
        min_power: the floor of the power before the logarithm.
        ref_power: the reference power of 0 dB.

    Example:
        >>> import numpy as np
        >>> audio = np.sin(np.arange(4000, dtype="float32") * 0.3)[None]
        >>> tuple(MelSpectrogram(fft_length=256, sequence_stride=128, num_mel_bins=20)(audio).shape)
        (1, 20, 32)
    """

    def __init__(
        self,
        fft_length=2048,
        sequence_stride=512,
        sequence_length=None,
        window="hann",
        sampling_rate=16000,
        num_mel_bins=128,
        min_freq=20.0,
        max_freq=None,
        power_to_db=True,
        top_db=80.0,
        mag_exp=2.0,
        min_power=1e-10,
        ref_power=1.0,
        **kwargs,
    ):
        self.sequence_length = sequence_length or fft_length
        if fft_length < self.sequence_length:
            raise ValueError(
                "MelSpectrogram `fft_length` must be at least `sequence_length`. Received: "
                f"sequence_length={self.sequence_length}, fft_length={fft_length}."
            )
        super().__init__(**kwargs)
        self.fft_length = fft_length
        self.sequence_stride = sequence_stride
        self.window = window
        self.sampling_rate = sampling_rate
        self.num_mel_bins = num_mel_bins
        self.min_freq = min_freq
        self.max_freq = max_freq or int(sampling_rate / 2)
        self.power_to_db = power_to_db
        self.top_db = top_db
        self.mag_exp = mag_exp
        self.min_power = min_power
        self.ref_power = ref_power

    def call(self, inputs):
        dtype = self.compute_dtype if self.compute_dtype in ("float32", "float64") else "float32"
        signal = ops.convert_to_tensor(inputs, dtype=dtype)
        real, imag = ops.stft(
            signal,
            sequence_length=self.sequence_length,
            sequence_stride=self.sequence_stride,
            fft_length=self.fft_length,
            window=self.window,
            center=True,
        )
        magnitude = ops.sqrt(ops.add(ops.square(real), ops.square(imag)))
        spectrum = ops.power(magnitude, self.mag_exp)
        filters = mel_weight_matrix(
            self.num_mel_bins, real.shape[-1], self.sampling_rate, self.min_freq, self.max_freq
        )
        mel = ops.tensordot(spectrum, ops.convert_to_tensor(filters, dtype=dtype), axes=1)
        if self.power_to_db:
            mel = self._decibels(mel)
        return ops.cast(ops.swapaxes(mel, -1, -2), self.compute_dtype)

    def _decibels(self, power):
        db = ops.multiply(10.0, ops.log10(ops.maximum(power, self.min_power)))
        db = ops.subtract(db, 10.0 * math.log10(max(abs(self.ref_power), self.min_power)))
        return ops.maximum(db, ops.subtract(ops.max(db), self.top_db))

    def linear_to_mel_weight_matrix(
        self,
        num_mel_bins=20,
        num_spectrogram_bins=129,
        sampling_rate=8000,
        lower_edge_hertz=125.0,
        upper_edge_hertz=3800.0,
        dtype="float32",
    ):
        """The ``(num_spectrogram_bins, num_mel_bins)`` matrix of triangular mel filters."""
        matrix = mel_weight_matrix(
            num_mel_bins, num_spectrogram_bins, sampling_rate, lower_edge_hertz, upper_edge_hertz
        )
        return ops.convert_to_tensor(matrix, dtype=dtype)

    def compute_output_shape(self, input_shape):
        time = input_shape[-1]
        frames = None if time is None else 1 + time // self.sequence_stride
        return (*tuple(input_shape)[:-1], self.num_mel_bins, frames)

    def get_config(self):
        return {
            **super().get_config(),
            "fft_length": self.fft_length,
            "sequence_stride": self.sequence_stride,
            "sequence_length": self.sequence_length,
            "window": self.window,
            "sampling_rate": self.sampling_rate,
            "num_mel_bins": self.num_mel_bins,
            "min_freq": self.min_freq,
            "max_freq": self.max_freq,
            "power_to_db": self.power_to_db,
            "top_db": self.top_db,
            "mag_exp": self.mag_exp,
            "min_power": self.min_power,
            "ref_power": self.ref_power,
        }
