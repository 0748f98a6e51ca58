"""The ``training`` contract module of the JAX backend.

The primitives a trainer written once against ``mb_ops`` needs, over JAX:

- ``value_and_grad(fn, argnums=0, has_aux=False)``: differentiate a function of
  explicit values (any pytree of tensors: lists, tuples, dicts).
- ``jit(fn, ...)``: compile with ``jax.jit`` (buffer donation, static args).
- ``multi_step(step_fn, n)``: run ``n`` steps in one compiled call (``lax.scan``
  over stacked batches), for ``steps_per_execution``.
- ``fused_update(update_fn, params, grads, *slots)``: one compiled call that
  applies a per-tensor optimizer update to every tensor at once.
- ``compile_ahead(jitted, *args)``: trace a ``jit``-compiled function (or a compiled
  ``multi_step``) now and let XLA compile it on a background thread (a
  `concurrent.futures.Future` of the executable), so a caller keeps working while a
  large program compiles.

Example:
    >>> import jax.numpy as jnp
    >>> from mb_backend_jax import training
    >>> grad_fn = training.value_and_grad(lambda w: jnp.sum(w[0] ** 2))
    >>> value, grads = grad_fn([jnp.array([1.0, 2.0])])
    >>> float(value), grads[0].tolist()
    (5.0, [2.0, 4.0])
"""

import concurrent.futures
import functools
import threading

import jax
import jax.numpy as jnp

from mb_ops import host_memory

_JIT_OPTIONS = ("donate_argnames", "static_argnums", "static_argnames")


def value_and_grad(fn, argnums=0, has_aux=False):
    """A function returning ``fn``'s value and its gradient w.r.t. ``argnums``.

    Args:
        fn: a function of explicit values returning a scalar (or
            ``(scalar, aux)`` when ``has_aux``).
        argnums: the positional argument(s) to differentiate; each may be any
            pytree of float tensors.
        has_aux: whether ``fn`` returns ``(value, aux)``.

    Returns:
        ``g(*args) -> (value, grads)``, or ``((value, aux), grads)`` with aux.
        ``grads`` has the structure of the differentiated argument(s).
    """
    return jax.value_and_grad(fn, argnums=argnums, has_aux=has_aux)


def jit(fn, jit_compile=None, donate_argnums=(), pure=False, **options):
    """``fn`` compiled with XLA (``jax.jit``).

    Args:
        fn: the function to compile (pure: state goes in and out explicitly).
        jit_compile: False returns ``fn`` unchanged (eager, for debugging); None
            and True compile.
        donate_argnums: arguments whose buffers XLA may reuse (the training state).
        pure: accepted for the contract; every function jax compiles is pure.
        **options: ``donate_argnames``, ``static_argnums``, ``static_argnames``.

    Returns:
        The compiled function.
    """
    unknown = sorted(set(options) - set(_JIT_OPTIONS))
    if unknown:
        raise TypeError(
            f"jit on the jax backend got unknown options {unknown}. "
            f"Accepted: jit_compile, donate_argnums, pure, {', '.join(_JIT_OPTIONS)}."
        )
    if jit_compile is False:
        return fn
    if jax.default_backend() == "cpu":
        # XLA's CPU buffers come from malloc; steps free and allocate them every call.
        host_memory.keep_step_buffers()
    return jax.jit(fn, donate_argnums=donate_argnums, **options)


_COMPILER = {"executor": None}
_COMPILER_LOCK = threading.Lock()


def compile_ahead(jitted, *args):
    """Starts compiling `jitted` (a ``jit`` result) for arguments like `args`.

    Tracing and lowering run now, on the calling thread (errors in the function
    surface here); XLA's compilation, which releases the GIL, runs on one
    background thread shared by all callers.

    Args:
        jitted: a function returned by `jit` or a compiled `multi_step` (anything
            without ``lower`` is refused).
        *args: example arguments (only their shapes and dtypes matter; nothing is
            donated or read).

    Returns:
        A `concurrent.futures.Future` whose result is the compiled executable
        (called like `jitted` on arguments of the same shapes and dtypes; other
        shapes raise TypeError), or None when `jitted` cannot be compiled ahead.
    """
    lower = getattr(jitted, "lower", None)
    if lower is None:
        return None
    lowered = lower(*args)
    with _COMPILER_LOCK:
        if _COMPILER["executor"] is None:
            _COMPILER["executor"] = concurrent.futures.ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="mb-jax-compile"
            )
        return _COMPILER["executor"].submit(lowered.compile)


def _stackable(batches, n):
    """Whether `batches` is a list of `n` batches of one structure (stacked in the call)."""
    if not (isinstance(batches, list | tuple) and len(batches) == n and n > 0):
        return False
    structure = jax.tree_util.tree_structure(batches[0])
    return bool(jax.tree_util.tree_leaves(batches[0])) and all(
        jax.tree_util.tree_structure(b) == structure for b in batches
    )


def _stack_batches(batches, n):
    if _stackable(batches, n):
        return jax.tree_util.tree_map(lambda *xs: jnp.stack(xs), *batches)
    return batches


def multi_step(step_fn, n, unroll=1, jit_compile=None):
    """Run ``n`` training steps in one compiled call.

    Args:
        step_fn: ``step_fn(state, batch) -> (state, logs)``, pure.
        n: the number of steps per call (``steps_per_execution``).
        unroll: how many steps ``lax.scan`` unrolls per loop iteration.
        jit_compile: compile the loop with ``jax.jit`` (state buffers donated);
            None (the default) and True compile, False runs it eagerly.

    Returns:
        ``run(state, batches) -> (state, logs)``: ``batches`` is a list of
        ``n`` batches of the same structure, or one batch pytree whose
        leaves have a leading axis of size ``n``. ``logs`` are those of the
        last step. The list is stacked inside the compiled program (no separate
        stacking call per batch leaf). When compiled, ``run.lower(state, batches)``
        lowers it without running it, so `compile_ahead` accepts ``run``.
    """
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"multi_step needs a positive int n. Received: n={n!r}.")

    def body(state, batch):
        state, logs = step_fn(state, batch)
        return state, logs

    def run(state, batches):
        stacked = _stack_batches(batches, n)
        state, logs = jax.lax.scan(body, state, stacked, length=n, unroll=unroll)
        return state, jax.tree_util.tree_map(lambda x: x[-1], logs)

    compiled = run if jit_compile is False else jax.jit(run, donate_argnums=0)

    def check(batches):
        if _stackable(batches, n):
            return
        sizes = {leaf.shape[0] for leaf in jax.tree_util.tree_leaves(batches) if jnp.ndim(leaf)}
        if sizes != {n}:
            raise ValueError(
                f"multi_step(n={n}) needs {n} batches (a list, or leaves with a leading axis "
                f"of {n}). Received leading sizes {sorted(sizes)}."
            )

    def call(state, batches):
        check(batches)
        return compiled(state, batches)

    if jit_compile is not False:

        def lower(state, batches):
            check(batches)
            return compiled.lower(state, batches)

        call.lower = lower
    return call


@functools.lru_cache(maxsize=64)
def _compiled_update(update_fn, num_slots, donate):
    def apply(params, grads, slots, scalars):
        treedef = jax.tree_util.tree_structure(params)
        flat = [jax.tree_util.tree_leaves(params), jax.tree_util.tree_leaves(grads)]
        flat += [jax.tree_util.tree_leaves(s) for s in slots]
        outs = [update_fn(*leaves, *scalars) for leaves in zip(*flat, strict=True)]
        outs = [o if isinstance(o, tuple) else (o,) for o in outs]
        columns = list(zip(*outs, strict=True)) if outs else [()] * (1 + num_slots)
        if len(columns) != 1 + num_slots:
            raise ValueError(
                f"fused_update: update_fn must return (new_param, *new_slots) with "
                f"{num_slots} slot(s); it returned {len(columns)} value(s) per tensor."
            )
        return tuple(jax.tree_util.tree_unflatten(treedef, list(col)) for col in columns)

    return jax.jit(apply, donate_argnums=(0, 2) if donate else ())


def fused_update(update_fn, params, grads, *slots, scalars=(), donate=False, jit_compile=None):
    """Apply ``update_fn`` to every (param, grad, *slots) leaf in one compiled call.

    Args:
        update_fn: ``update_fn(param, grad, *slots, *scalars) -> new_param`` or
            ``(new_param, *new_slots)``, written for one tensor.
        params, grads: pytrees of the same structure (lists of tensors).
        *slots: optimizer slot pytrees with that structure (momenta, ...).
        scalars: values shared by every tensor (learning rate, step count);
            passed as traced arguments, so changing them does not recompile.
        donate: reuse the buffers of ``params`` and ``slots`` for the results.
        jit_compile: accepted for the contract; the update is always compiled.

    Returns:
        ``(new_params, *new_slots)``.
    """
    compiled = _compiled_update(update_fn, len(slots), donate)
    result = compiled(params, grads, tuple(slots), tuple(scalars))
    return result if slots else result[0]


UNSUPPORTED = {}

JIT_PLACES_HOST_ARRAYS = True
"""``jax.jit`` takes NumPy arguments and copies them to the device in its C++ dispatch
(about 1.5 us a batch array more than a device array on a CPU, against 4 us for a
``convert_to_tensor`` first), so the trainer hands batches over as NumPy arrays."""

MULTI_STEP_UNROLL_LIMIT = 1
"""Every ``steps_per_execution`` > 1 runs in `multi_step` (``lax.scan``): on XLA's CPU,
8 unrolled steps of a Dense model ran at ~0.6x the single-step speed, the scan at
~1.2x (a 3-layer MLP, batches of 32, steady epochs of a `fit`)."""


def is_out_of_memory(error):
    """Whether `error` is XLA running out of device memory (RESOURCE_EXHAUSTED)."""
    return type(error).__name__ in ("XlaRuntimeError", "JaxRuntimeError") and (
        "RESOURCE_EXHAUSTED" in str(error)
    )
