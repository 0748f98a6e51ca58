"""Recurrent loops on NumPy: the generic ``rnn`` step loop; no fused LSTM/GRU kernels.

``lstm`` and ``gru`` raise ``NotImplementedError``, which tells mb's LSTM and GRU
layers to fall back to their cell-by-cell path over ``rnn`` (as Keras does). The
four functions are written once for the NumPy-shaped backends
(`mb_ops.numpy_shaped.unfused_rnn_functions`); ``cudnn_ok`` is always False.
"""

import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_ops import numpy_shaped

# No entry: lstm/gru raising NotImplementedError is the documented fallback signal.
UNSUPPORTED = {}

rnn, lstm, gru, cudnn_ok = numpy_shaped.unfused_rnn_functions(np, to_tensor, "numpy")
