"""Recurrent loops on OpenVINO: the generic ``rnn`` step loop over eager ops.

``lstm`` and ``gru`` raise ``NotImplementedError``, which tells mb's LSTM and GRU
layers to fall back to their cell-by-cell path over ``rnn`` (as Keras does for
backends without a fused kernel). Each step's ops are cached compiled models, so
a loop compiles once and then only runs. The four functions are written once for
the NumPy-shaped backends (`mb_ops.numpy_shaped.unfused_rnn_functions`);
``cudnn_ok`` is always False.
"""

from mb_backend_openvino import numpy as ovnp
from mb_backend_openvino._convert import to_tensor
from mb_ops import numpy_shaped

# No entry: lstm/gru raising NotImplementedError is the documented fallback signal.
UNSUPPORTED = {}

rnn, lstm, gru, cudnn_ok = numpy_shaped.unfused_rnn_functions(ovnp, to_tensor, "openvino")
