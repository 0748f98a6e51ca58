"""`Distribution` and its two kinds: `DataParallel` and `ModelParallel`."""

from __future__ import annotations

import contextlib
import warnings
from typing import Any

import numpy as np

from mb_ops._distribution import _state
from mb_ops._distribution._layouts import DeviceMesh, LayoutMap, TensorLayout

DEFAULT_BATCH_DIM_NAME = "batch"


class Distribution:
    """How variables and data are placed over a `DeviceMesh` (Keras's base class).

    Args:
        device_mesh: the `DeviceMesh`.
        batch_dim_name: the mesh axis the batch is split over.
        auto_shard_dataset: in a run of several processes, let mb give each
            process its part of every batch; False when the input is already
            split per process (e.g. a torch ``DataLoader`` with a
            ``DistributedSampler``).

    Use a subclass: `DataParallel` or `ModelParallel`.

    Example:

    >>> from mb_ops import distribution as dist
    >>> data_parallel = dist.DataParallel(devices=["cpu:0"])
    >>> isinstance(data_parallel, dist.Distribution), data_parallel.batch_dim_name
    (True, 'batch')
    >>> data_parallel.num_processes
    1
    """

    def __init__(
        self, device_mesh: DeviceMesh, batch_dim_name: Any = None, auto_shard_dataset=True
    ):
        self._device_mesh = device_mesh
        self._batch_dim_name = batch_dim_name
        self._auto_shard_dataset = bool(auto_shard_dataset)
        self._num_processes = _state.num_processes()
        self._process_id = _state.process_id()
        self._is_multi_process = self._num_processes > 1

    @property
    def num_processes(self) -> int:
        """How many processes take part in the computation."""
        return self._num_processes

    @property
    def num_model_replicas(self) -> int:
        """How many copies of the model see different data (the batch axis's size)."""
        raise NotImplementedError(f"{type(self).__name__} must define num_model_replicas.")

    @property
    def data_shard_id(self) -> int:
        """Which part of each batch this process reads."""
        replicas = self.num_model_replicas
        if replicas >= self.num_processes:
            return self._process_id
        return self._process_id // (self.num_processes // replicas)

    def get_data_layout(self, data_shape: Any) -> TensorLayout:
        """The layout of an input batch of shape `data_shape`."""
        raise NotImplementedError(f"{type(self).__name__} must define get_data_layout.")

    def get_variable_layout(self, variable: Any) -> TensorLayout:
        """The layout of `variable` (its own ``layout`` when it was given one)."""
        raise NotImplementedError(f"{type(self).__name__} must define get_variable_layout.")

    def get_tensor_layout(self, path: str) -> TensorLayout | None:
        """The layout of the intermediate tensor at `path`, or None to leave it."""
        raise NotImplementedError(f"{type(self).__name__} must define get_tensor_layout.")

    @contextlib.contextmanager
    def scope(self):
        """A context in which this distribution is the active one."""
        previous = _state.current()
        _state.set_current(self)
        try:
            yield
        finally:
            _state.set_current(previous)

    @property
    def device_mesh(self) -> DeviceMesh:
        return self._device_mesh

    @property
    def batch_dim_name(self) -> Any:
        return self._batch_dim_name

    @property
    def auto_shard_dataset(self) -> bool:
        return self._auto_shard_dataset

    @auto_shard_dataset.setter
    def auto_shard_dataset(self, auto_shard_dataset: bool) -> None:
        self._auto_shard_dataset = bool(auto_shard_dataset)

    def data_shards(self) -> tuple[int, int]:
        """``(number of distinct parts of each batch, the part this process reads)``.

        ``(1, 0)`` in one process, or when `auto_shard_dataset` is False (each
        process's input is already its own).
        """
        if not self._is_multi_process or not self._auto_shard_dataset:
            return 1, 0
        return min(self.num_processes, self.num_model_replicas), self.data_shard_id

    def distribute_dataset(self, dataset: Any) -> Any:
        """This process's part of a ``tf.data.Dataset`` of global batches.

        `fit`, `evaluate` and `predict` split every kind of input themselves; call
        this only to feed your own loop. Returns `dataset` unchanged in one
        process or when `auto_shard_dataset` is False.
        """
        if not self._is_multi_process or not self._auto_shard_dataset:
            return dataset
        if not (hasattr(dataset, "rebatch") and hasattr(dataset, "element_spec")):
            raise ValueError(
                f"distribute_dataset splits tf.data.Datasets only; received a "
                f"{type(dataset).__name__}. Pass the input to fit() directly: mb splits "
                "arrays, PyDatasets, generators, torch DataLoaders and grain datasets "
                "over the processes itself."
            )
        return self.distribute_tf_dataset(dataset)

    def distribute_tf_dataset(self, dataset: Any) -> Any:
        """`distribute_dataset` for a batched ``tf.data.Dataset``."""
        sizes = {
            spec.shape[0]
            for spec in _flatten_specs(dataset.element_spec)
            if getattr(spec, "shape", None) is not None and spec.shape.rank
        }
        if len(sizes) != 1 or None in sizes:
            raise ValueError(
                "distribute_dataset needs a dataset batched to a fixed size; this one's "
                f"batch size is unknown ({sorted(map(str, sizes))}). Batch it with "
                "dataset.batch(global_batch_size, drop_remainder=True)."
            )
        global_batch = int(sizes.pop())
        shards, index = self.data_shards()
        if shards == 1:
            return dataset
        if global_batch % shards:
            raise ValueError(
                f"The global batch size {global_batch} does not split evenly over {shards} "
                "data shards. Use a batch size divisible by the number of shards."
            )
        return dataset.rebatch(global_batch // shards).shard(num_shards=shards, index=index)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} device_mesh={self.device_mesh}>"

    __str__ = __repr__


class DataParallel(Distribution):
    """Every device holds the whole model and trains on its part of each batch.

    Give a 1-D `device_mesh`, or `devices` (a mesh of them is made), or neither
    (every device of `list_devices()`). `fit`'s ``batch_size`` is the global
    batch size: each of the ``N`` replicas computes ``batch_size / N`` samples
    and the gradients are averaged, so training matches one device.

    Args:
        device_mesh: a `DeviceMesh`; with several axes the first splits the batch.
        devices: device names to make a 1-D mesh from.
        auto_shard_dataset: see `Distribution`.

    Example:
        >>> distribution = DataParallel(devices=["cpu:0"])
        >>> distribution.device_mesh.axis_names, distribution.num_model_replicas
        (['batch'], 1)
    """

    def __init__(
        self, device_mesh: DeviceMesh | None = None, devices: Any = None, auto_shard_dataset=True
    ):
        if device_mesh is not None:
            if not isinstance(device_mesh, DeviceMesh):
                raise ValueError(
                    "DataParallel expects `device_mesh` to be a DeviceMesh. Received: "
                    f"{device_mesh!r} (of type {type(device_mesh).__name__})."
                )
            if device_mesh.devices.ndim != 1:
                warnings.warn(
                    f"DataParallel expects a 1-D mesh; received one of shape "
                    f"{device_mesh.shape}. Its first axis splits the batch.",
                    stacklevel=2,
                )
            super().__init__(device_mesh, device_mesh.axis_names[0], auto_shard_dataset)
            return
        if devices is None or len(devices) == 0:
            devices = _state.backend_list_devices(None)
        devices = np.array(devices, dtype=object)
        mesh = DeviceMesh(devices.shape, [DEFAULT_BATCH_DIM_NAME], devices=devices)
        super().__init__(mesh, DEFAULT_BATCH_DIM_NAME, auto_shard_dataset)

    @property
    def num_model_replicas(self) -> int:
        return int(self.device_mesh.devices.size)

    def get_data_layout(self, data_shape: Any) -> TensorLayout:
        axes = [None] * len(data_shape)
        axes[0] = self.batch_dim_name
        return TensorLayout(axes, self.device_mesh)

    def get_variable_layout(self, variable: Any) -> TensorLayout:
        layout = getattr(variable, "_layout", None)
        if layout is not None:
            return layout
        return TensorLayout([None] * len(variable.shape), self.device_mesh)

    def get_tensor_layout(self, path: str) -> None:
        return None


class ModelParallel(Distribution):
    """Variables split over the devices as a `LayoutMap` says; data split on the batch.

    Variables whose path matches no key of the map are replicated. The batch is
    split over the mesh axis `batch_dim_name` (default: the mesh's first axis).
    On JAX XLA splits the variables and the computation; on PyTorch (one process
    per device of the mesh) each process stores its DTensor shard of a split
    variable, FSDP2-style, and a step gathers the whole values; TensorFlow refuses
    layouts that split a variable.

    Args:
        layout_map: the `LayoutMap` (its mesh is the distribution's).
        batch_dim_name: the mesh axis that splits the batch.
        auto_shard_dataset: see `Distribution`.

    Example:
        >>> mesh = DeviceMesh((1, 1), ["batch", "model"], devices=["cpu:0"])
        >>> layout_map = LayoutMap(mesh)
        >>> layout_map[".*kernel"] = (None, "model")
        >>> ModelParallel(layout_map=layout_map).batch_dim_name
        'batch'
    """

    def __init__(
        self,
        *,
        layout_map: LayoutMap | None = None,
        batch_dim_name: Any = None,
        auto_shard_dataset=True,
        **kwargs: Any,
    ):
        kwargs.pop("device_mesh", None)  # Keras 2's argument, taken from the map now
        if kwargs:
            raise TypeError(f"ModelParallel got unexpected arguments: {sorted(kwargs)}.")
        if layout_map is None:
            raise ValueError(
                "ModelParallel needs a `layout_map`: LayoutMap(device_mesh) with a "
                "layout per variable-path regex, e.g. layout_map['.*kernel'] = (None, 'model')."
            )
        if not isinstance(layout_map, LayoutMap):
            raise ValueError(
                "ModelParallel expects `layout_map` to be a LayoutMap. Received: "
                f"{layout_map!r} (of type {type(layout_map).__name__})."
            )
        mesh = layout_map.device_mesh
        batch_dim_name = batch_dim_name or mesh.axis_names[0]
        if batch_dim_name not in mesh.axis_names:
            raise ValueError(
                f"batch_dim_name={batch_dim_name!r} is not an axis of the mesh {mesh.axis_names}."
            )
        super().__init__(mesh, batch_dim_name, auto_shard_dataset)
        self._layout_map = layout_map
        replicas = self.num_model_replicas
        if (
            self._is_multi_process
            and self.num_processes > replicas
            and self.num_processes % replicas
        ):
            raise ValueError(
                f"With more processes ({self.num_processes}) than model replicas "
                f"({replicas}), the processes must divide evenly among the replicas. "
                "Change the mesh's batch axis or the number of processes."
            )

    @property
    def num_model_replicas(self) -> int:
        index = self.device_mesh.axis_names.index(self.batch_dim_name)
        return int(self.device_mesh.shape[index])

    def get_data_layout(self, data_shape: Any) -> TensorLayout:
        axes = [None] * len(data_shape)
        axes[0] = self.batch_dim_name
        return TensorLayout(axes, self.device_mesh)

    def get_variable_layout(self, variable: Any) -> TensorLayout:
        layout = getattr(variable, "_layout", None)
        if layout is not None:
            return layout
        layout = self._layout_map[variable.path]
        if layout is not None:
            if len(layout.axes) != len(variable.shape):
                raise ValueError(
                    f"The LayoutMap gives variable {variable.path!r} of shape "
                    f"{tuple(variable.shape)} the layout {layout.axes}, which has "
                    f"{len(layout.axes)} axes; it needs {len(variable.shape)}."
                )
            return layout
        return TensorLayout([None] * len(variable.shape), self.device_mesh)

    def get_tensor_layout(self, path: str) -> TensorLayout | None:
        return self._layout_map[path]


def _flatten_specs(spec: Any) -> list[Any]:
    if isinstance(spec, dict):
        return [leaf for key in sorted(spec) for leaf in _flatten_specs(spec[key])]
    if isinstance(spec, list | tuple):
        return [leaf for item in spec for leaf in _flatten_specs(item)]
    return [spec]
