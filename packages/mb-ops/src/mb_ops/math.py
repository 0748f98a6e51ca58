"""Math ops (top level of ``keras.ops``)."""

from mb_ops._ops.math import cdist as cdist
from mb_ops._ops.math import erf as erf
from mb_ops._ops.math import erfc as erfc
from mb_ops._ops.math import erfinv as erfinv
from mb_ops._ops.math import extract_sequences as extract_sequences
from mb_ops._ops.math import fft as fft
from mb_ops._ops.math import fft2 as fft2
from mb_ops._ops.math import ifft2 as ifft2
from mb_ops._ops.math import in_top_k as in_top_k
from mb_ops._ops.math import irfft as irfft
from mb_ops._ops.math import istft as istft
from mb_ops._ops.math import logdet as logdet
from mb_ops._ops.math import logsumexp as logsumexp
from mb_ops._ops.math import rfft as rfft
from mb_ops._ops.math import rsqrt as rsqrt
from mb_ops._ops.math import segment_max as segment_max
from mb_ops._ops.math import segment_min as segment_min
from mb_ops._ops.math import segment_prod as segment_prod
from mb_ops._ops.math import segment_sum as segment_sum
from mb_ops._ops.math import stft as stft
from mb_ops._ops.math import top_k as top_k
from mb_ops._ops.math import view_as_complex as view_as_complex
from mb_ops._ops.math import view_as_real as view_as_real

__all__ = [
    "cdist",
    "erf",
    "erfc",
    "erfinv",
    "extract_sequences",
    "fft",
    "fft2",
    "ifft2",
    "in_top_k",
    "irfft",
    "istft",
    "logdet",
    "logsumexp",
    "rfft",
    "rsqrt",
    "segment_max",
    "segment_min",
    "segment_prod",
    "segment_sum",
    "stft",
    "top_k",
    "view_as_complex",
    "view_as_real",
]
