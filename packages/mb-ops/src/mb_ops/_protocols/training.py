"""The ``training`` contract module: what the one training loop takes from an engine."""

from typing import Any, Protocol


class Training(Protocol):
    """The names every backend's ``training`` module provides (or declares unsupported).

    Options are keyword arguments with one meaning on every backend; a backend
    accepts every option of the signature and ignores those that mean nothing to
    its engine (torch has no buffer donation, jax compiles every pure function).
    Engine-specific extras go through ``**options`` and are refused with a
    ``TypeError`` by a backend that does not know them.
    """

    def value_and_grad(self, fn: Any, argnums: Any = 0, has_aux: Any = False) -> Any:
        """``fn`` returning ``(value, grads)`` (``((value, aux), grads)`` with ``has_aux``)."""
        ...

    def jit(
        self,
        fn: Any,
        jit_compile: Any = None,
        donate_argnums: Any = (),
        pure: Any = False,
        **options: Any,
    ) -> Any:
        """``fn`` compiled: ``jit_compile`` None is the engine's default, True forces XLA.

        ``donate_argnums`` lets the engine reuse those arguments' buffers; ``pure``
        says ``fn``'s Python has no effect but its result, so an eager engine may
        record and replay it.
        """
        ...

    def multi_step(self, step_fn: Any, n: Any, unroll: Any = 1, jit_compile: Any = None) -> Any:
        """``run(state, batches)``: ``step_fn(state, batch) -> (state, outputs)`` n times."""
        ...


class TrainingOptional(Protocol):
    """Names a backend's ``training`` module may provide; mb uses them when present."""

    @property
    def ASSIGNS_IN_COMPILED(self) -> bool:
        """Whether compiled functions read and assign variables themselves (tf.function)."""
        ...

    @property
    def MULTI_STEP_UNROLL_LIMIT(self) -> int:
        """Up to how many steps per execution the trainer unrolls in one compiled
        function; more run in ``multi_step`` (the trainer's own default: 16)."""
        ...

    @property
    def JIT_PLACES_HOST_ARRAYS(self) -> bool:
        """Whether a function compiled by ``jit`` takes NumPy arrays and places them on
        the device in its own dispatch, cheaper than a ``convert_to_tensor`` first (jax):
        the trainer then hands batches over as NumPy arrays."""
        ...

    def is_out_of_memory(self, error: BaseException) -> bool:
        """Whether ``error`` is the engine running out of device memory."""
        ...

    def compile_ahead(self, jitted: Any, *args: Any) -> Any:
        """A future of ``jitted`` compiled for ``args`` in the background, or None.

        ``jitted`` is a ``jit`` result or a ``multi_step`` run: the trainer compiles
        ``steps_per_execution``'s program ahead when the engine's run has
        ``lower(state, batches)`` (jax's has)."""
        ...

    def fused_update(
        self,
        update_fn: Any,
        params: Any,
        grads: Any,
        *slots: Any,
        scalars: Any = (),
        donate: Any = False,
        jit_compile: Any = None,
    ) -> Any:
        """``update_fn`` applied to every (param, grad, *slots) in one call."""
        ...

    def foreach_update(
        self,
        rule: Any,
        params: Any,
        grads: Any,
        *slots: Any,
        scalars: Any = (),
    ) -> Any:
        """An elementwise rule ``rule(xp, param, grad, *slots, *scalars)`` over many
        tensors at once, in place (engine multi-tensor kernels)."""
        ...

    def concatenate_outputs(self, batches: Any) -> Any:
        """One output of every ``predict`` step (a list of tensors) joined along the first
        axis as one NumPy array, cheaper than converting each batch (torch); None when
        they cannot be joined, and the trainer falls back to NumPy."""
        ...
