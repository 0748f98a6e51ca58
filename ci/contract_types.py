"""Checked by mypy, never run: every backend's contract modules satisfy mb_ops's Protocols.

A module is assignable to a Protocol when it has every member with a compatible
signature (PEP 544), so each assignment below fails the type check when a backend
lacks a contract function or takes arguments the contract does not give it.
``ci/matrix.py`` runs it as the ``typecheck`` leg: ``mypy ci/contract_types.py``.
"""

import mb_backend_jax.core
import mb_backend_jax.distribution
import mb_backend_jax.export
import mb_backend_jax.image
import mb_backend_jax.layer
import mb_backend_jax.linalg
import mb_backend_jax.math
import mb_backend_jax.nn
import mb_backend_jax.numpy
import mb_backend_jax.random
import mb_backend_jax.rnn
import mb_backend_jax.training
import mb_backend_numpy.core
import mb_backend_numpy.distribution
import mb_backend_numpy.export
import mb_backend_numpy.image
import mb_backend_numpy.layer
import mb_backend_numpy.linalg
import mb_backend_numpy.math
import mb_backend_numpy.nn
import mb_backend_numpy.numpy
import mb_backend_numpy.random
import mb_backend_numpy.rnn
import mb_backend_numpy.training
import mb_backend_openvino.core
import mb_backend_openvino.distribution
import mb_backend_openvino.export
import mb_backend_openvino.image
import mb_backend_openvino.layer
import mb_backend_openvino.linalg
import mb_backend_openvino.math
import mb_backend_openvino.nn
import mb_backend_openvino.numpy
import mb_backend_openvino.random
import mb_backend_openvino.rnn
import mb_backend_openvino.training
import mb_backend_tensorflow.core
import mb_backend_tensorflow.distribution
import mb_backend_tensorflow.export
import mb_backend_tensorflow.image
import mb_backend_tensorflow.layer
import mb_backend_tensorflow.linalg
import mb_backend_tensorflow.math
import mb_backend_tensorflow.nn
import mb_backend_tensorflow.numpy
import mb_backend_tensorflow.random
import mb_backend_tensorflow.rnn
import mb_backend_tensorflow.training
import mb_backend_torch.core
import mb_backend_torch.distribution
import mb_backend_torch.export
import mb_backend_torch.image
import mb_backend_torch.layer
import mb_backend_torch.linalg
import mb_backend_torch.math
import mb_backend_torch.nn
import mb_backend_torch.numpy
import mb_backend_torch.random
import mb_backend_torch.rnn
import mb_backend_torch.training
from mb_ops import contract

numpy_core: contract.Core = mb_backend_numpy.core
numpy_numpy: contract.Numpy = mb_backend_numpy.numpy
numpy_nn: contract.NN = mb_backend_numpy.nn
numpy_math: contract.Math = mb_backend_numpy.math
numpy_linalg: contract.Linalg = mb_backend_numpy.linalg
numpy_image: contract.Image = mb_backend_numpy.image
numpy_random: contract.Random = mb_backend_numpy.random
numpy_rnn: contract.RNN = mb_backend_numpy.rnn
numpy_training: contract.Training = mb_backend_numpy.training
numpy_layer: contract.Layer = mb_backend_numpy.layer
numpy_distribution: contract.Distribution = mb_backend_numpy.distribution
numpy_export: contract.Export = mb_backend_numpy.export

jax_core: contract.Core = mb_backend_jax.core
jax_numpy: contract.Numpy = mb_backend_jax.numpy
jax_nn: contract.NN = mb_backend_jax.nn
jax_math: contract.Math = mb_backend_jax.math
jax_linalg: contract.Linalg = mb_backend_jax.linalg
jax_image: contract.Image = mb_backend_jax.image
jax_random: contract.Random = mb_backend_jax.random
jax_rnn: contract.RNN = mb_backend_jax.rnn
jax_training: contract.Training = mb_backend_jax.training
jax_layer: contract.Layer = mb_backend_jax.layer
jax_distribution: contract.Distribution = mb_backend_jax.distribution
jax_export: contract.Export = mb_backend_jax.export

torch_core: contract.Core = mb_backend_torch.core
torch_numpy: contract.Numpy = mb_backend_torch.numpy
torch_nn: contract.NN = mb_backend_torch.nn
torch_math: contract.Math = mb_backend_torch.math
torch_linalg: contract.Linalg = mb_backend_torch.linalg
torch_image: contract.Image = mb_backend_torch.image
torch_random: contract.Random = mb_backend_torch.random
torch_rnn: contract.RNN = mb_backend_torch.rnn
torch_training: contract.Training = mb_backend_torch.training
torch_layer: contract.Layer = mb_backend_torch.layer
torch_distribution: contract.Distribution = mb_backend_torch.distribution
torch_export: contract.Export = mb_backend_torch.export

tensorflow_core: contract.Core = mb_backend_tensorflow.core
tensorflow_numpy: contract.Numpy = mb_backend_tensorflow.numpy
tensorflow_nn: contract.NN = mb_backend_tensorflow.nn
tensorflow_math: contract.Math = mb_backend_tensorflow.math
tensorflow_linalg: contract.Linalg = mb_backend_tensorflow.linalg
tensorflow_image: contract.Image = mb_backend_tensorflow.image
tensorflow_random: contract.Random = mb_backend_tensorflow.random
tensorflow_rnn: contract.RNN = mb_backend_tensorflow.rnn
tensorflow_training: contract.Training = mb_backend_tensorflow.training
tensorflow_layer: contract.Layer = mb_backend_tensorflow.layer
tensorflow_distribution: contract.Distribution = mb_backend_tensorflow.distribution
tensorflow_export: contract.Export = mb_backend_tensorflow.export

openvino_core: contract.Core = mb_backend_openvino.core
openvino_numpy: contract.Numpy = mb_backend_openvino.numpy
openvino_nn: contract.NN = mb_backend_openvino.nn
openvino_math: contract.Math = mb_backend_openvino.math
openvino_linalg: contract.Linalg = mb_backend_openvino.linalg
openvino_image: contract.Image = mb_backend_openvino.image
openvino_random: contract.Random = mb_backend_openvino.random
openvino_rnn: contract.RNN = mb_backend_openvino.rnn
openvino_training: contract.Training = mb_backend_openvino.training
openvino_layer: contract.Layer = mb_backend_openvino.layer
openvino_distribution: contract.Distribution = mb_backend_openvino.distribution
openvino_export: contract.Export = mb_backend_openvino.export
