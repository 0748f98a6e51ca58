"""``mb.distribution``: Keras 3's ``keras.distribution`` (devices, meshes, layouts,
data and model parallelism, multi-process runs); see ``mb_ops.distribution``."""

from mb_ops.distribution import DataParallel as DataParallel
from mb_ops.distribution import DeviceMesh as DeviceMesh
from mb_ops.distribution import LayoutMap as LayoutMap
from mb_ops.distribution import ModelParallel as ModelParallel
from mb_ops.distribution import TensorLayout as TensorLayout
from mb_ops.distribution import distribute_tensor as distribute_tensor
from mb_ops.distribution import distribution as distribution
from mb_ops.distribution import get_device_count as get_device_count
from mb_ops.distribution import initialize as initialize
from mb_ops.distribution import list_devices as list_devices
from mb_ops.distribution import set_distribution as set_distribution

__all__ = [
    "DataParallel",
    "DeviceMesh",
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
