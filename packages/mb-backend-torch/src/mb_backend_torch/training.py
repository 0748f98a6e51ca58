"""The ``training`` contract module of the torch backend.

The primitives a trainer written once against ``mb_ops`` needs, over torch:

- ``value_and_grad(fn, argnums=0, has_aux=False)``: differentiate a function of
  explicit values (tensors, or lists/tuples/dicts of them) with torch.autograd.
- ``jit(fn, jit_compile=False, mode=None, pure=False, **options)``: eager by
  default; for a ``pure`` function (its Python has no effect but its result),
  a `GraphReplay` that records the step's aten ops once per input signature and
  replays them; ``torch.compile`` when ``jit_compile=True`` or ``mode="compile"``.
- ``multi_step(step_fn, n)``: run ``n`` steps in one call (``steps_per_execution``).
- ``fused_update(update_fn, params, grads, *slots, ...)``: one call that applies a
  per-tensor optimizer update to every tensor, in place when ``donate=True``.
- ``foreach_update(rule, params, grads, *slots, scalars=())``: an elementwise update
  rule (written once in mb-train) over many tensors at once, in place, with torch's
  multi-tensor ``_foreach_*`` kernels.

Example:
    >>> import torch
    >>> from mb_backend_torch import training
    >>> grad_fn = training.value_and_grad(lambda w: (w[0] ** 2).sum())
    >>> value, grads = grad_fn([torch.tensor([1.0, 2.0])])
    >>> float(value), grads[0].tolist()
    (5.0, [2.0, 4.0])
"""

import threading

import torch

from mb_backend_torch import _convert, _device
from mb_backend_torch._training_foreach import foreach_update as foreach_update
from mb_backend_torch._training_foreach import fused_update as fused_update
from mb_backend_torch._training_replay import GraphReplay as GraphReplay
from mb_backend_torch.numpy._common import t
from mb_ops import host_memory, tree

# Every training primitive is supported on torch.
UNSUPPORTED = {}


class _Active(threading.local):
    def __init__(self):
        # ids of the input leaves of the value_and_grad calls running now.
        self.leaves = set()


_active = _Active()


def _leaf(x):
    # (tensor to feed fn, whether it belongs to an enclosing differentiation)
    x = t(x)
    if x.requires_grad and (not x.is_leaf or id(x) in _active.leaves):
        # Computed inside, or an input of, an outer value_and_grad: keep the
        # graph so that the outer call can differentiate through this one.
        return x, True
    if x.dtype.is_floating_point or x.dtype.is_complex:
        # A fresh leaf sharing memory: a variable's nn.Parameter is never
        # differentiated (nor its .grad touched) by a functional gradient.
        return x.detach().requires_grad_(True), False
    return x, False


def value_and_grad(fn, argnums=0, has_aux=False):
    """A function returning ``fn``'s value and its gradient w.r.t. ``argnums``.

    Args:
        fn: a function of explicit values returning a scalar tensor (or
            ``(scalar, aux)`` when ``has_aux``).
        argnums: the positional argument(s) to differentiate; each may be a
            tensor or a list/tuple/dict of tensors.
        has_aux: whether ``fn`` returns ``(value, aux)``.

    Returns:
        ``g(*args, **kwargs) -> (value, grads)``, or ``((value, aux), grads)``
        with aux; ``grads`` mirrors the structure of the differentiated
        argument(s) (a tuple of them when ``argnums`` is a tuple). Integer
        inputs get zero gradients. When an input already requires grad (a
        ``value_and_grad`` inside another), the graph is kept for higher orders.
    """
    multiple = isinstance(argnums, tuple | list)
    positions = tuple(argnums) if multiple else (argnums,)

    def wrapped(*args, **kwargs):
        args = list(args)
        flat_inputs, structures, outer = [], [], False
        for pos in positions:
            if pos >= len(args):
                raise ValueError(
                    f"value_and_grad: argnums={argnums} but the function got only "
                    f"{len(args)} positional argument(s)."
                )
            leaves = tree.flatten(args[pos])
            prepared = [_leaf(v) for v in leaves]
            outer = outer or any(nested for _, nested in prepared)
            tensors = [p for p, _ in prepared]
            structures.append((args[pos], len(flat_inputs), len(tensors)))
            flat_inputs.extend(tensors)
            args[pos] = (
                tree.pack_sequence_as(args[pos], tensors)
                if tree.is_nested(args[pos])
                else tensors[0]
            )
        added = {id(x) for x in flat_inputs if x.requires_grad} - _active.leaves
        _active.leaves |= added
        try:
            with torch.enable_grad():
                out = fn(*args, **kwargs)
                value, aux = out if has_aux else (out, None)
                value = t(value)
                if value.numel() != 1:
                    raise ValueError(
                        "value_and_grad needs fn to return a scalar; it returned shape "
                        f"{tuple(value.shape)}."
                    )
                wanted = [x for x in flat_inputs if x.requires_grad]
                grads = (
                    torch.autograd.grad(value, wanted, allow_unused=True, create_graph=outer)
                    if wanted
                    else ()
                )
        finally:
            _active.leaves -= added
        it = iter(grads)
        flat_grads = []
        for x in flat_inputs:
            g = next(it) if x.requires_grad else None
            flat_grads.append(torch.zeros_like(x) if g is None else g)
        packed = []
        for structure, start, count in structures:
            part = flat_grads[start : start + count]
            packed.append(
                tree.pack_sequence_as(structure, part) if tree.is_nested(structure) else part[0]
            )
        grads_out = tuple(packed) if multiple else packed[0]
        if not outer:
            value = value.detach()
            if aux is not None:
                aux = tree.map_structure(
                    lambda v: v.detach() if isinstance(v, torch.Tensor) else v, aux
                )
        return ((value, aux), grads_out) if has_aux else (value, grads_out)

    return wrapped


def jit(fn, jit_compile=None, donate_argnums=(), pure=False, **options):
    """``fn`` eager, replayed from a recording, or ``torch.compile(fn)``.

    Args:
        fn: the function.
        jit_compile: True compiles with ``torch.compile``; None and False do not.
        donate_argnums: accepted for the contract; torch has no buffer donation.
        pure: ``fn``'s Python has no effect but its result (as ``jax.jit``
            assumes): its aten ops are recorded per input signature and replayed
            after (`GraphReplay`: the first signature on its first call, later ones
            on their second); a step that reads a tensor's value into Python stays
            eager.
        **options: ``mode``: ``"compile"`` also compiles, ``"eager"`` never
            records, None records when `pure`; the rest is passed to
            ``torch.compile`` (``fullgraph``, ``dynamic``, ``backend``, and
            ``compile_mode`` for torch.compile's own ``mode`` such as
            ``"reduce-overhead"``).
    """
    mode = options.pop("mode", None)
    if mode not in (None, "eager", "compile"):
        raise ValueError(f"jit: mode must be None, 'eager' or 'compile'. Received {mode!r}.")
    if _device.get_device() == "cpu":
        # Steps free and allocate the same large buffers every call.
        host_memory.keep_step_buffers()
    if not (jit_compile is True or mode == "compile"):
        if options:
            raise TypeError(
                f"jit got torch.compile options {sorted(options)} without compiling. "
                "Pass jit_compile=True (or mode='compile') to use them."
            )
        return GraphReplay(fn) if pure and mode is None else fn
    if "compile_mode" in options:
        options["mode"] = options.pop("compile_mode")
    return torch.compile(fn, **options)


def _batch_at(batches, i, n):
    if isinstance(batches, list | tuple) and len(batches) == n and not _is_stacked(batches, n):
        return batches[i]
    return tree.map_structure(lambda leaf: leaf[i], batches)


def _is_stacked(batches, n):
    leaves = tree.flatten(batches)
    return (
        len(leaves) > 0
        and all(isinstance(v, torch.Tensor) and v.ndim > 0 and v.shape[0] == n for v in leaves)
        and not isinstance(batches, list)
    )


def multi_step(step_fn, n, unroll=1, jit_compile=None):
    """Run ``n`` training steps per call.

    Args:
        step_fn: ``step_fn(state, batch) -> (state, logs)``.
        n: steps per call (``steps_per_execution``).
        unroll: accepted for parity with jax (torch runs eagerly).
        jit_compile: True compiles ``step_fn`` with ``torch.compile`` (once; every
            step reuses the compiled graph); None and False run it eagerly.

    Returns:
        ``run(state, batches) -> (state, logs)``; ``batches`` is a list of
        ``n`` batches, or one batch whose leaves have a leading axis of ``n``.
        ``logs`` are those of the last step.
    """
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"multi_step needs a positive int n. Received: n={n!r}.")
    step = jit(step_fn, jit_compile=jit_compile)

    def run(state, batches):
        if isinstance(batches, list | tuple) and len(batches) != n and not _is_stacked(batches, n):
            raise ValueError(
                f"multi_step(n={n}) needs {n} batches (a list, or leaves with a leading axis "
                f"of {n}). Received a list of {len(batches)}."
            )
        logs = None
        for i in range(n):
            state, logs = step(state, _batch_at(batches, i, n))
        return state, logs

    return run


def is_out_of_memory(error):
    """Whether `error` is torch's allocator running out of device memory."""
    return isinstance(error, torch.OutOfMemoryError)


def concatenate_outputs(batches):
    """The batches' tensors (one output of every `predict` step) joined along the first
    axis as one NumPy array: one ``torch.cat`` and one conversion instead of one
    conversion per batch (a tiny model's whole step costs about as much). None when
    they are not all tensors or cannot be joined: the caller's NumPy path decides."""
    if not all(isinstance(b, torch.Tensor) for b in batches):
        return None
    if len(batches) == 1:
        return _convert.convert_to_numpy(batches[0])
    try:
        joined = torch.cat(batches)  # (a step's outputs need no grad; the conversion detaches)
    except (RuntimeError, TypeError, ValueError):  # shapes or ranks differ
        return None
    return _convert.convert_to_numpy(joined)
