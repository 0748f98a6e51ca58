"""`DeviceMesh`, `TensorLayout` and `LayoutMap`: where tensors live, engine-free.

The classes describe placement in Keras 3's terms (a named grid of devices, a
per-axis sharding spec, regex rules from variable paths to specs). The active
backend turns them into its engine's objects on first use (`backend_mesh`,
`backend_layout`): a ``jax.sharding.Mesh`` and ``NamedSharding`` on JAX, a torch
``DeviceMesh`` and DTensor placements on PyTorch, a ``tf.distribute`` strategy on
TensorFlow.
"""

from __future__ import annotations

import collections.abc
import math
import re
from typing import Any

import numpy as np

from mb_ops._distribution import _state


class DeviceMesh:
    """A grid of devices with named axes (Keras's ``keras.distribution.DeviceMesh``).

    Args:
        shape: the grid's shape, e.g. ``(8,)`` for data parallelism alone or
            ``(2, 4)`` for data and model parallelism.
        axis_names: one name per axis of `shape`, e.g. ``("batch", "model")``;
            layouts refer to the axes by these names.
        devices: the devices, as ``"cpu:0"``-style names (any shape holding
            ``prod(shape)`` of them); default: every device of `list_devices()`.

    Example:
        >>> mesh = DeviceMesh((1,), ["batch"], devices=["cpu:0"])
        >>> mesh.shape, mesh.axis_names, mesh.devices.tolist()
        ((1,), ['batch'], ['cpu:0'])
    """

    def __init__(self, shape: Any, axis_names: Any, devices: Any = None):
        if not shape or not axis_names:
            raise ValueError(
                "DeviceMesh needs a non-empty `shape` and `axis_names`. Received: "
                f"shape={shape!r}, axis_names={axis_names!r}. Example: "
                "DeviceMesh((8,), ['batch'])."
            )
        shape = tuple(int(s) for s in shape)
        axis_names = [str(a) for a in axis_names]
        if len(shape) != len(axis_names):
            raise ValueError(
                "DeviceMesh needs one axis name per axis of `shape`. Received: "
                f"shape={shape}, axis_names={axis_names}."
            )
        if len(set(axis_names)) != len(axis_names):
            raise ValueError(f"DeviceMesh axis names must differ. Received: {axis_names}.")
        if devices is None:
            devices = _state.backend_list_devices(None)
        devices = np.array(devices, dtype=object)
        if math.prod(shape) != devices.size:
            raise ValueError(
                f"DeviceMesh of shape {shape} needs {math.prod(shape)} devices, but "
                f"{devices.size} were given (devices.shape={devices.shape}). Give as many "
                "devices as the shape holds, or a shape that matches `list_devices()`."
            )
        self._shape = shape
        self._axis_names = axis_names
        self._devices = devices.reshape(shape)

    @property
    def shape(self) -> tuple[int, ...]:
        """The grid's shape."""
        return self._shape

    @property
    def axis_names(self) -> list[str]:
        """The name of each axis."""
        return self._axis_names

    @property
    def devices(self) -> np.ndarray:
        """The devices, an array of `shape`."""
        return self._devices

    @property
    def backend_mesh(self) -> Any:
        """The engine's mesh object for this grid (made once, on first use)."""
        if "_backend_mesh" not in self.__dict__:
            self._backend_mesh = _state.backend_function("to_backend_mesh")(self)
        return self._backend_mesh

    def __repr__(self) -> str:
        return f"<DeviceMesh shape={self.shape}, axis_names={self.axis_names}>"

    __str__ = __repr__


class TensorLayout:
    """How a tensor is split over a `DeviceMesh` (Keras's ``TensorLayout``).

    Args:
        axes: one entry per tensor axis: a mesh axis name to shard that axis
            over, or None to keep it whole (replicated).
        device_mesh: the mesh; may be set once later (a `LayoutMap` sets it).

    Example:
        >>> mesh = DeviceMesh((1,), ["model"], devices=["cpu:0"])
        >>> TensorLayout((None, "model"), mesh).axes
        (None, 'model')
    """

    def __init__(self, axes: Any, device_mesh: DeviceMesh | None = None):
        if isinstance(axes, str):
            raise TypeError(
                f"TensorLayout axes must be a tuple with one entry per tensor axis, not a "
                f"string. Received: axes={axes!r}. Example: TensorLayout(({axes!r},))."
            )
        self._axes = tuple(axes)
        self._device_mesh = device_mesh
        self._validate_axes()

    @property
    def axes(self) -> tuple[Any, ...]:
        """The mesh axis (or None) each tensor axis is sharded over."""
        return self._axes

    @property
    def device_mesh(self) -> DeviceMesh | None:
        """The mesh, or None until set."""
        return self._device_mesh

    @device_mesh.setter
    def device_mesh(self, device_mesh: DeviceMesh) -> None:
        if self._device_mesh is not None:
            raise ValueError(
                f"This TensorLayout already has a device mesh ({self._device_mesh}); it "
                "cannot be replaced. Make a new TensorLayout for another mesh."
            )
        self._device_mesh = device_mesh
        self._validate_axes()

    @property
    def backend_layout(self) -> Any:
        """The engine's sharding for this layout (made once, on first use)."""
        if "_backend_layout" not in self.__dict__:
            if self._device_mesh is None:
                raise ValueError(
                    f"TensorLayout(axes={self._axes}) has no device mesh, so it cannot be "
                    "placed. Pass device_mesh=..., or add it to a LayoutMap."
                )
            self._backend_layout = _state.backend_function("to_backend_layout")(self)
        return self._backend_layout

    def _validate_axes(self) -> None:
        if self._device_mesh is None:
            return
        valid = set(self._device_mesh.axis_names)
        named = [a for a in self._axes if a is not None]
        unknown = sorted(set(named) - valid, key=str)
        if unknown:
            raise ValueError(
                f"TensorLayout axes {self._axes} name {unknown}, which the mesh does not "
                f"have. The mesh's axes: {sorted(valid)}."
            )
        repeated = sorted({a for a in named if named.count(a) > 1}, key=str)
        if repeated:
            raise ValueError(
                f"TensorLayout axes {self._axes} use the mesh axes {repeated} more than "
                "once; a mesh axis can shard only one tensor axis."
            )

    def __repr__(self) -> str:
        return f"<TensorLayout axes={self.axes}, device_mesh={self.device_mesh}>"

    __str__ = __repr__


class LayoutMap(collections.abc.MutableMapping):
    """Rules from variable paths to layouts; keys are regular expressions.

    A lookup (``layout_map[path]``) returns the layout of the key equal to
    `path`, else of the one key that matches the whole `path` as a regex
    (``re.fullmatch``), else None; a path matching several keys is an error.
    Values may be given as tuples of axis names, made into `TensorLayout`s on
    the map's mesh.

    Args:
        device_mesh: the `DeviceMesh` the layouts refer to.

    Example:
        >>> mesh = DeviceMesh((1,), ["model"], devices=["cpu:0"])
        >>> layout_map = LayoutMap(mesh)
        >>> layout_map[".*dense.*kernel"] = (None, "model")
        >>> layout_map["dense_1/kernel"].axes, layout_map["conv/kernel"]
        ((None, 'model'), None)
    """

    def __init__(self, device_mesh: DeviceMesh):
        self._layout_map: dict[str, TensorLayout] = {}
        self._device_mesh = device_mesh

    def __getitem__(self, key: str) -> TensorLayout | None:
        if key in self._layout_map:
            return self._layout_map[key]
        matches = [pattern for pattern in self._layout_map if re.fullmatch(pattern, key)]
        if len(matches) > 1:
            raise ValueError(
                f"Path {key!r} matches several LayoutMap keys: {matches}. Make each "
                "variable path match at most one key (anchor or narrow the regexes)."
            )
        return self._layout_map[matches[0]] if matches else None

    def __setitem__(self, key: str, layout: Any) -> None:
        if key in self._layout_map:
            raise ValueError(
                f"{key!r} is already in the LayoutMap (as {self._layout_map[key]}). Each "
                "key may be set once; delete it first to replace it."
            )
        if isinstance(layout, tuple | list):
            layout = TensorLayout(axes=layout, device_mesh=None)
        if not isinstance(layout, TensorLayout):
            raise ValueError(
                f"LayoutMap values are TensorLayouts or tuples of axis names. Received "
                f"{layout!r} (of type {type(layout).__name__}) for key {key!r}."
            )
        if layout.device_mesh is None and self._device_mesh is not None:
            layout.device_mesh = self._device_mesh
        self._layout_map[key] = layout

    def __delitem__(self, key: str) -> None:
        del self._layout_map[key]

    def __len__(self) -> int:
        return len(self._layout_map)

    def __iter__(self):
        return iter(self._layout_map)

    def get(self, key: str, default: Any = None) -> TensorLayout | None:
        """The layout for `key` (see `__getitem__`), or `default` when none matches."""
        found = self[key]
        return default if found is None else found

    @property
    def device_mesh(self) -> DeviceMesh:
        """The mesh of the map's layouts."""
        return self._device_mesh
