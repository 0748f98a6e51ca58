"""The functions of ``keras.distribution``: devices, `initialize`, the active distribution."""

from __future__ import annotations

import os
from typing import Any

from mb_graph import is_keras_tensor
from mb_ops import _seed
from mb_ops._distribution import _state

# Keras's variables first, then mb's own spelling of the same.
_ENV = {
    "job_addresses": ("KERAS_DISTRIBUTION_JOB_ADDRESSES", "MB_DISTRIBUTION_JOB_ADDRESSES"),
    "num_processes": ("KERAS_DISTRIBUTION_NUM_PROCESSES", "MB_DISTRIBUTION_NUM_PROCESSES"),
    "process_id": ("KERAS_DISTRIBUTION_PROCESS_ID", "MB_DISTRIBUTION_PROCESS_ID"),
}


def list_devices(device_type: str | None = None) -> list[str]:
    """The devices the backend can compute on, as ``"cpu:0"``-style names.

    In a run of several processes the devices of every process are listed.

    Args:
        device_type: ``"cpu"``, ``"gpu"`` or ``"tpu"``; default: the
            accelerators when there are any, else the CPUs (never a mix).

    Example:
        >>> list_devices("cpu")[0]
        'cpu:0'
    """
    return _state.backend_list_devices(device_type)


def get_device_count(device_type: str | None = None) -> int:
    """How many devices `list_devices(device_type)` lists.

    Example:
        >>> get_device_count("cpu") >= 1
        True
    """
    function = _state.optional_function("get_device_count")
    if function is not None:
        return int(function(device_type))
    return len(list_devices(device_type))


def _from_env(name: str, value: Any, convert: Any) -> Any:
    if value is not None:
        return value
    for variable in _ENV[name]:
        if os.environ.get(variable):
            raw = os.environ[variable]
            try:
                return convert(raw)
            except ValueError:
                raise ValueError(
                    f"The environment variable {variable}={raw!r} is not a valid {name}."
                ) from None
    return None


def initialize(
    job_addresses: str | None = None,
    num_processes: int | None = None,
    process_id: int | None = None,
) -> None:
    """Joins this process to a computation spread over several processes or machines.

    Call it in every process, before any other mb call that computes. Missing
    arguments are read from ``KERAS_DISTRIBUTION_JOB_ADDRESSES``,
    ``KERAS_DISTRIBUTION_NUM_PROCESSES`` and ``KERAS_DISTRIBUTION_PROCESS_ID``
    (or the same names with ``MB_``), then from the engine's own launcher
    (``torchrun``'s variables on PyTorch, ``TF_CONFIG`` on TensorFlow, a cloud
    TPU's on JAX). Afterwards every process draws the same random numbers (all
    are seeded from process 0), so models start from the same weights.

    Args:
        job_addresses: comma-separated ``host:port`` of every process, the first
            being the coordinator (JAX and PyTorch need only the first).
        num_processes: how many processes take part.
        process_id: this process's index, 0 (the coordinator) to
            ``num_processes - 1``.

    Example:
        ``mb.distribution.initialize("10.0.0.1:1234", num_processes=2, process_id=0)``
        on the first machine and ``process_id=1`` on the second.
    """
    job_addresses = _from_env("job_addresses", job_addresses, str)
    num_processes = _from_env("num_processes", num_processes, int)
    process_id = _from_env("process_id", process_id, int)
    if num_processes is not None and (not isinstance(num_processes, int) or num_processes < 1):
        raise ValueError(f"num_processes must be a positive int. Received: {num_processes!r}.")
    if process_id is not None and num_processes is not None and not 0 <= process_id < num_processes:
        raise ValueError(
            f"process_id must be in [0, num_processes - 1] = [0, {num_processes - 1}]. "
            f"Received: process_id={process_id!r}."
        )
    if job_addresses is not None and num_processes is not None and "," in job_addresses:
        count = len(job_addresses.split(","))
        if count != num_processes:
            raise ValueError(
                f"job_addresses lists {count} processes ({job_addresses!r}) but "
                f"num_processes={num_processes}. List one address per process, or only the "
                "coordinator's."
            )
    _state.backend_function("initialize")(job_addresses, num_processes, process_id)
    broadcast = _state.optional_function("broadcast_int")
    if broadcast is not None and _state.num_processes() > 1:
        _seed.set_random_seed(int(broadcast(_seed.make_default_seed())))


def distribute_tensor(tensor: Any, layout: Any) -> Any:
    """`tensor` laid out as `layout` says (inside a compiled step: a sharding hint).

    Args:
        tensor: a tensor of the active backend (a symbolic tensor is returned as is).
        layout: a `TensorLayout`, or the engine's own layout object.

    Example:
        >>> from mb_ops.distribution import DeviceMesh, TensorLayout
        >>> mesh = DeviceMesh((1,), ["batch"], devices=["cpu:0"])
        >>> x = distribute_tensor([1.0, 2.0], TensorLayout(("batch",), mesh))
        >>> tuple(x.shape)
        (2,)
    """
    if is_keras_tensor(tensor):
        return tensor
    return _state.backend_function("distribute_tensor")(tensor, layout)


def distribution() -> Any:
    """The active distribution (set by `set_distribution` or ``scope()``), or None.

    Returns:
        A `Distribution`, or None when variables and data stay on one device.

    Example:

    >>> from mb_ops import distribution as dist
    >>> print(dist.distribution())
    None
    >>> data_parallel = dist.DataParallel(devices=["cpu:0"])
    >>> with data_parallel.scope():
    ...     print(dist.distribution() is data_parallel)
    True
    """
    return _state.current()


def set_distribution(value: Any) -> None:
    """Makes `value` (a `DataParallel`, a `ModelParallel`, or None) the active distribution.

    Variables created while it is active are placed by it, and `fit`, `evaluate`
    and `predict` split their data by it.

    Args:
        value: a `Distribution`, or None to go back to one device.

    Example:

    >>> from mb_ops import distribution as dist
    >>> data_parallel = dist.DataParallel(devices=["cpu:0"])
    >>> dist.set_distribution(data_parallel)
    >>> dist.distribution() is data_parallel
    True
    >>> dist.set_distribution(None)
    """
    _state.set_current(value)
