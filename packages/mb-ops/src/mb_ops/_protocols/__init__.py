"""The backend contract as code: one ``Protocol`` per contract module.

``PROTOCOLS[module]`` is ``(Required, Optional)``: the names every backend's
``module`` provides (or declares unsupported), and the names it may provide.
Each member carries the one signature every backend uses for that name and a
one-line docstring. A backend module satisfies ``Required`` structurally, so a
type checker can check it (``ci/typecheck_backends.py``), and
``mb_ops.contract.check_backend_signatures`` compares every function with
``inspect.signature``.
"""

from mb_ops._protocols.core import Core, CoreOptional
from mb_ops._protocols.distribution import Distribution, DistributionOptional
from mb_ops._protocols.export import Export
from mb_ops._protocols.image import Image, ImageOptional
from mb_ops._protocols.layer import Layer, LayerOptional
from mb_ops._protocols.linalg import Linalg, LinalgOptional
from mb_ops._protocols.math import Math, MathOptional
from mb_ops._protocols.nn import NN, NNOptional
from mb_ops._protocols.numpy import Numpy
from mb_ops._protocols.random import Random
from mb_ops._protocols.rnn import RNN, RNNOptional
from mb_ops._protocols.training import Training, TrainingOptional

PROTOCOLS: dict[str, tuple[type, type | None]] = {
    "core": (Core, CoreOptional),
    "numpy": (Numpy, None),
    "nn": (NN, NNOptional),
    "math": (Math, MathOptional),
    "linalg": (Linalg, LinalgOptional),
    "image": (Image, ImageOptional),
    "random": (Random, None),
    "rnn": (RNN, RNNOptional),
    "training": (Training, TrainingOptional),
    "layer": (Layer, LayerOptional),
    "distribution": (Distribution, DistributionOptional),
    "export": (Export, None),
}
"""Per contract module: (the Protocol of required names, the Protocol of optional ones)."""
