"""The ``core`` contract module: what every backend's ``core`` provides."""

from typing import Any, Protocol

from mb_ops._protocols._types import Tensor


class Core(Protocol):
    """The names every backend's ``core`` module provides (or declares unsupported)."""

    @property
    def IS_THREAD_SAFE(self) -> bool:
        """Whether ops may be called from several threads at once."""
        ...

    @property
    def SUPPORTS_SPARSE_TENSORS(self) -> bool:
        """Whether the backend has sparse tensors (``sparse=True`` options)."""
        ...

    @property
    def SUPPORTS_RAGGED_TENSORS(self) -> bool:
        """Whether the backend has ragged tensors."""
        ...

    @property
    def Variable(self) -> type[Any]:
        """The backend's ``mb_ops.Variable`` subclass."""
        ...

    def associative_scan(self, f: Any, elems: Any, reverse: Any = False, axis: Any = 0) -> Any:
        """Parallel prefix scan with an associative binary function."""
        ...

    def cast(self, x: Tensor, dtype: Any) -> Any:
        """Cast a tensor to ``dtype``."""
        ...

    def compute_output_spec(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """The ``KerasTensor`` outputs ``fn`` would return for these (symbolic) arguments."""
        ...

    def cond(self, pred: Any, true_fn: Any, false_fn: Any) -> Any:
        """``true_fn()`` if ``pred`` else ``false_fn()``."""
        ...

    def convert_to_numpy(self, x: Tensor) -> Any:
        """``x`` as a NumPy array."""
        ...

    def convert_to_tensor(
        self, x: Tensor, dtype: Any = None, sparse: Any = None, ragged: Any = None
    ) -> Any:
        """Convert a NumPy array, list or scalar to a tensor of the active backend."""
        ...

    def custom_gradient(self, fun: Any) -> Any:
        """Decorator: ``fun`` returns ``(outputs, grad_fn)``; ``grad_fn`` gives its gradients."""
        ...

    def device_scope(self, device_name: Any) -> Any:
        """Context manager: new tensors are placed on ``device_name``."""
        ...

    def fori_loop(self, lower: Any, upper: Any, body_fun: Any, init_val: Any) -> Any:
        """``for i in range(lower, upper): val = body_fun(i, val)``."""
        ...

    def is_tensor(self, x: Tensor) -> Any:
        """Whether ``x`` is a tensor of this backend."""
        ...

    def map(self, f: Any, xs: Tensor) -> Any:
        """Apply ``f`` to each slice of ``xs`` along the leading axis; stack the results."""
        ...

    def random_seed_dtype(self) -> Any:
        """The dtype of the seeds ``mb_ops.random.draw_seed`` returns."""
        ...

    def remat(self, f: Any) -> Any:
        """``f`` recomputing its activations in the backward pass instead of keeping them."""
        ...

    def scan(
        self,
        f: Any,
        init: Any,
        xs: Tensor = None,
        length: Any = None,
        reverse: Any = False,
        unroll: Any = 1,
    ) -> Any:
        """Scan ``f`` over the leading axis of ``xs`` carrying state."""
        ...

    def scatter(self, indices: Tensor, values: Tensor, shape: Any) -> Any:
        """A zero tensor of ``shape`` with ``values`` added at ``indices``."""
        ...

    def scatter_update(
        self, inputs: Tensor, indices: Tensor, updates: Any, reduction: Any = None
    ) -> Any:
        """``inputs`` with ``updates`` written (or reduced) at ``indices``."""
        ...

    def shape(self, x: Tensor) -> Any:
        """The shape of ``x`` as a tuple (None for unknown dimensions)."""
        ...

    def slice(self, inputs: Tensor, start_indices: Any, shape: Any) -> Any:
        """The block of ``shape`` starting at ``start_indices``."""
        ...

    def slice_update(self, inputs: Tensor, start_indices: Any, updates: Any) -> Any:
        """``inputs`` with the block at ``start_indices`` replaced by ``updates``."""
        ...

    def stop_gradient(self, variable: Any) -> Any:
        """The value with no gradient flowing back through it."""
        ...

    def switch(self, index: Any, branches: Any, *operands: Any) -> Any:
        """``branches[index](*operands)``."""
        ...

    def unstack(self, x: Tensor, num: Any = None, axis: Any = 0) -> Any:
        """Unpack a tensor along an axis into a list of tensors."""
        ...

    def vectorized_map(self, function: Any, elements: Any) -> Any:
        """Map ``function`` over the leading axis of ``elements`` (vectorized)."""
        ...

    def while_loop(
        self, cond: Any, body: Any, loop_vars: Any, maximum_iterations: Any = None
    ) -> Any:
        """Run ``body`` while ``cond`` holds; returns the final loop variables."""
        ...


class CoreOptional(Protocol):
    """Names a backend's ``core`` module may provide; mb uses them when present."""

    @property
    def SUPPORTS_COMPLEX_DTYPES(self) -> bool:
        """Whether the backend has complex dtypes."""
        ...

    def name_scope(self, name: Any, **kwargs: Any) -> Any:
        """Context manager naming the ops created inside (a no-op where unsupported)."""
        ...

    def refused_symbolic(self, error: BaseException) -> bool:
        """Whether ``error`` is the engine refusing a KerasTensor handed to it in its own
        words, before ``KerasTensor`` could raise ``mb_graph.EngineConversionError``
        (JAX no longer calls ``__jax_array__`` while abstracting its arguments)."""
        ...

    def placement(self, only_for_accelerators: bool = False) -> Any:
        """The calling thread's device scope, for another thread (mb_data's prefetch;
        engines keep device scopes per thread): a zero-argument callable returning a
        context manager that places new tensors there. None where it cannot be told,
        and, with `only_for_accelerators`, where that device is a CPU (a background
        thread costs more there than the copy it hides)."""
        ...
