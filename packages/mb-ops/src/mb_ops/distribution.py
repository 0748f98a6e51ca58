"""``mb.distribution``: Keras 3's ``keras.distribution``, on every training backend.

A `DeviceMesh` names a grid of devices; a `TensorLayout` says how a tensor is
split over it; a `LayoutMap` maps variable paths (regexes) to layouts.
`DataParallel` replicates the model and splits each batch; `ModelParallel` also
splits the variables a `LayoutMap` names. Make one active with
`set_distribution` (or ``with distribution.scope():``) before building the
model; `fit`, `evaluate` and `predict` then run distributed with no other
change. Each backend does it with its engine's own runtime: XLA's SPMD
partitioner on JAX, ``torch.distributed`` on PyTorch, ``tf.distribute`` on
TensorFlow. `initialize` joins several processes or machines into one run.

Example:
    >>> from mb_ops import distribution
    >>> data_parallel = distribution.DataParallel(devices=distribution.list_devices("cpu")[:1])
    >>> with data_parallel.scope():
    ...     distribution.distribution() is data_parallel
    True
"""

from mb_ops._distribution._api import distribute_tensor as distribute_tensor
from mb_ops._distribution._api import distribution as distribution
from mb_ops._distribution._api import get_device_count as get_device_count
from mb_ops._distribution._api import initialize as initialize
from mb_ops._distribution._api import list_devices as list_devices
from mb_ops._distribution._api import set_distribution as set_distribution
from mb_ops._distribution._layouts import DeviceMesh as DeviceMesh
from mb_ops._distribution._layouts import LayoutMap as LayoutMap
from mb_ops._distribution._layouts import TensorLayout as TensorLayout
from mb_ops._distribution._strategies import DataParallel as DataParallel
from mb_ops._distribution._strategies import Distribution as Distribution
from mb_ops._distribution._strategies import ModelParallel as ModelParallel

__all__ = [
    "DataParallel",
    "DeviceMesh",
    "Distribution",
    "LayoutMap",
    "ModelParallel",
    "TensorLayout",
    "distribute_tensor",
    "distribution",
    "get_device_count",
    "initialize",
    "list_devices",
    "set_distribution",
]
