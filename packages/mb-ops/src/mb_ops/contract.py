"""The backend contract: one Protocol per contract module (Keras 3.15.1's names).

``Core``, ``Numpy``, ``NN``, ... declare every function a backend module provides,
with the one signature all backends share and a one-line docstring; the
``...Optional`` Protocols the names a backend may add. ``REQUIRED``/``OPTIONAL``
list the names, ``check_backend_contract`` and ``check_backend_signatures`` check
a backend package, ``lookup`` finds a function of the active backend.
"""

from mb_ops._contract import OPTIONAL as OPTIONAL
from mb_ops._contract import REQUIRED as REQUIRED
from mb_ops._contract import check_backend_contract as check_backend_contract
from mb_ops._contract import check_backend_signatures as check_backend_signatures
from mb_ops._contract import declared_unsupported as declared_unsupported
from mb_ops._contract import lookup as lookup
from mb_ops._contract import protocol_members as protocol_members
from mb_ops._contract import signature_mismatch as signature_mismatch
from mb_ops._contract import unsupported_reason as unsupported_reason
from mb_ops._protocols import PROTOCOLS as PROTOCOLS
from mb_ops._protocols.core import Core as Core
from mb_ops._protocols.core import CoreOptional as CoreOptional
from mb_ops._protocols.distribution import Distribution as Distribution
from mb_ops._protocols.distribution import DistributionOptional as DistributionOptional
from mb_ops._protocols.export import Export as Export
from mb_ops._protocols.image import Image as Image
from mb_ops._protocols.image import ImageOptional as ImageOptional
from mb_ops._protocols.layer import Layer as Layer
from mb_ops._protocols.layer import LayerOptional as LayerOptional
from mb_ops._protocols.linalg import Linalg as Linalg
from mb_ops._protocols.linalg import LinalgOptional as LinalgOptional
from mb_ops._protocols.math import Math as Math
from mb_ops._protocols.math import MathOptional as MathOptional
from mb_ops._protocols.nn import NN as NN
from mb_ops._protocols.nn import NNOptional as NNOptional
from mb_ops._protocols.numpy import Numpy as Numpy
from mb_ops._protocols.random import Random as Random
from mb_ops._protocols.rnn import RNN as RNN
from mb_ops._protocols.rnn import RNNOptional as RNNOptional
from mb_ops._protocols.training import Training as Training
from mb_ops._protocols.training import TrainingOptional as TrainingOptional

__all__ = [
    "NN",
    "OPTIONAL",
    "PROTOCOLS",
    "REQUIRED",
    "RNN",
    "Core",
    "CoreOptional",
    "Distribution",
    "DistributionOptional",
    "Export",
    "Image",
    "ImageOptional",
    "Layer",
    "LayerOptional",
    "Linalg",
    "LinalgOptional",
    "Math",
    "MathOptional",
    "NNOptional",
    "Numpy",
    "RNNOptional",
    "Random",
    "Training",
    "TrainingOptional",
    "check_backend_contract",
    "check_backend_signatures",
    "declared_unsupported",
    "lookup",
    "protocol_members",
    "signature_mismatch",
    "unsupported_reason",
]
