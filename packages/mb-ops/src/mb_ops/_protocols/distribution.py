"""The ``distribution`` contract module: what every backend's ``distribution`` provides."""

from typing import Any, Protocol

from mb_ops._protocols._types import Tensor


class Distribution(Protocol):
    """The names every backend's ``distribution`` module provides (or declares unsupported)."""

    def list_devices(self, device_type: Any = None) -> Any:
        """The device names of ``device_type`` (all devices when None)."""
        ...


class DistributionOptional(Protocol):
    """Names a backend's ``distribution`` module may provide; mb uses them when present."""

    def get_device_count(self, device_type: Any = None) -> Any:
        """How many devices of ``device_type`` there are."""
        ...

    def distribute_tensor(self, tensor: Tensor, layout: Any) -> Any:
        """``tensor`` laid out across devices as ``layout`` says."""
        ...

    def distribute_data_input(
        self, per_process_batch: Any, layout: Any, batch_dim_name: Any
    ) -> Any:
        """A per-process batch as one global, sharded batch."""
        ...

    def initialize(self, job_addresses: Any, num_processes: Any, process_id: Any) -> Any:
        """Starts multi-process (multi-host) computation."""
        ...

    def num_processes(self) -> Any:
        """How many processes take part."""
        ...

    def process_id(self) -> Any:
        """This process's index among them."""
        ...

    def distribute_variable(self, value: Tensor, layout: Any) -> Any:
        """A new variable's value placed as its ``layout`` says."""
        ...

    def to_backend_mesh(self, device_mesh: Any) -> Any:
        """The engine's object for an ``mb_ops.distribution.DeviceMesh``."""
        ...

    def to_backend_layout(self, tensor_layout: Any) -> Any:
        """The engine's object for an ``mb_ops.distribution.TensorLayout``."""
        ...

    def whole_values(self, variables: Any) -> Any:
        """The variables' whole values on every process (a collective), or None when
        the backend splits none of them over processes."""
        ...

    def broadcast_int(self, value: Any) -> Any:
        """Process 0's ``value`` on every process (a collective)."""
        ...

    def all_reduce(self, values: Any, reduction: Any = "mean") -> Any:
        """``values`` (tensors) summed or averaged over the processes whose tensors
        are their own (engines whose arrays span processes do not provide it)."""
        ...

    def gather_batch(self, tensor: Tensor, replicated: Any) -> Any:
        """A batch computed on each process's rows, whole, as a NumPy array."""
        ...

    def run_replicas(
        self,
        fn: Any,
        read_only: Any,
        mutable: Any,
        data: Any,
        aggregations: Any,
        gather_outputs: Any,
        device_mesh: Any,
    ) -> Any:
        """The trainer's step ``fn(read_only, mutable, data) -> (new, outputs)`` run
        once per replica of ``device_mesh`` on its part of ``data`` (engines whose
        replicas are threads of one step: tf.distribute), the new state joined by
        each variable's aggregation and the outputs of the first replica (all of
        them, concatenated, when ``gather_outputs``)."""
        ...
