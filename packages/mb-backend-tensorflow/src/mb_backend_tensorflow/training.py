"""The ``training`` contract module of the TensorFlow backend.

The primitives a trainer written once against ``mb_ops`` needs, over TensorFlow:

- ``value_and_grad(fn, argnums=0, has_aux=False)``: differentiate a function of
  explicit values (nested lists/tuples/dicts of tensors) with ``tf.GradientTape``.
- ``jit(fn, jit_compile=None)``: a ``tf.function`` (graph mode); XLA when
  ``jit_compile=True``.
- ``multi_step(step_fn, n)``: ``n`` steps in one compiled call, a
  ``tf.while_loop`` inside one ``tf.function`` (``steps_per_execution``).
- ``fused_update(update_fn, params, grads, *slots)``: every tensor's optimizer
  update in one compiled call. TensorFlow has no multi-tensor ("foreach")
  kernels, so this fuses at the graph level: one ``tf.function`` (XLA when
  asked) holding every per-tensor update, instead of one dispatch per tensor.

Example:
    >>> import tensorflow as tf
    >>> from mb_backend_tensorflow import training
    >>> grad_fn = training.value_and_grad(lambda w: tf.reduce_sum(w[0] ** 2))
    >>> value, grads = grad_fn([tf.constant([1.0, 2.0])])
    >>> float(value), grads[0].numpy().tolist()
    (5.0, [2.0, 4.0])
"""

import functools
import re
import warnings

import tensorflow as tf

from mb_backend_tensorflow._convert import convert_to_tensor

UNSUPPORTED = {}

# A tf.function may assign variables: the trainer reads and writes the state inside
# its compiled step instead of passing it in and writing it back after each call.
ASSIGNS_IN_COMPILED = True

# JAX-only options a trainer may pass; TensorFlow has no buffer donation and
# treats Python values as static already, so they are accepted and ignored.
_IGNORED_JIT_OPTIONS = ("donate_argnames", "static_argnums", "static_argnames")
_TF_FUNCTION_OPTIONS = ("reduce_retracing", "input_signature", "autograph")


# What XLA says when an op of the graph has no XLA kernel on this device (e.g.
# ImageProjectiveTransformV3, behind the RandomRotation/Perspective/Zoom layers, on CPU).
_XLA_UNSUPPORTED = "Detected unsupported operations when trying to compile graph"


class _XlaOrGraph:
    """``fn`` as a ``tf.function`` compiled with XLA, or as a plain graph where XLA can't.

    XLA refuses a graph holding an op it has no kernel for when it compiles it, before
    anything runs; the function then warns, naming the ops, and runs as a plain graph
    (Keras turns ``jit_compile=True`` off with a warning for the layers it knows XLA
    cannot compile; this finds them whatever the layer). Other attributes are the
    current ``tf.function``'s (``experimental_get_compiler_ir``, ...).
    """

    def __init__(self, fn, **kwargs):
        self._fn, self._kwargs = fn, kwargs
        self._xla = self._current = tf.function(fn, jit_compile=True, **kwargs)

    def __call__(self, *args, **kwargs):
        run = self._current
        try:
            return run(*args, **kwargs)
        except tf.errors.InvalidArgumentError as error:
            if run is not self._xla or _XLA_UNSUPPORTED not in str(error):
                raise
            names = sorted(set(re.findall(r"No registered '(\w+)' OpKernel", str(error))))
            warnings.warn(
                f"jit_compile=True: XLA cannot compile {', '.join(names) or 'some ops'} on "
                "this device; the step runs as a TensorFlow graph without XLA instead. "
                "Pass jit_compile=False (or 'auto') to compile() to silence this.",
                stacklevel=2,
            )
            self._current = tf.function(self._fn, jit_compile=False, **self._kwargs)
            return self._current(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._current, name)


def _as_watchable(x):
    if isinstance(x, tf.Variable):
        return x
    return convert_to_tensor(x)


def value_and_grad(fn, argnums=0, has_aux=False):
    """A function returning ``fn``'s value and its gradient w.r.t. ``argnums``.

    Args:
        fn: a function of explicit values returning a scalar (or
            ``(scalar, aux)`` when ``has_aux``).
        argnums: an int or a tuple of ints: the positional argument(s) to
            differentiate; each may be a nested structure of float tensors.
        has_aux: whether ``fn`` returns ``(value, aux)``.

    Returns:
        ``g(*args, **kwargs) -> (value, grads)``, or ``((value, aux), grads)``.
        ``grads`` has the structure of the differentiated argument (a tuple of
        them when ``argnums`` is a tuple). Inputs the value does not depend on
        get zero gradients, as in JAX.
    """
    several = isinstance(argnums, tuple | list)
    nums = tuple(argnums) if several else (argnums,)

    def wrapped(*args, **kwargs):
        args = list(args)
        for i in nums:
            if i >= len(args):
                raise ValueError(
                    f"value_and_grad: argnums includes {i}, but the function was called with "
                    f"{len(args)} positional argument(s)."
                )
            args[i] = tf.nest.map_structure(_as_watchable, args[i])
        sources = [args[i] for i in nums]
        with tf.GradientTape(watch_accessed_variables=False) as tape:
            for leaf in tf.nest.flatten(sources):
                tape.watch(leaf)
            out = fn(*args, **kwargs)
            value, aux = out if has_aux else (out, None)
            value = convert_to_tensor(value)
        if value.shape.rank:
            raise ValueError(
                "value_and_grad needs fn to return a scalar. Received a value of shape "
                f"{value.shape.as_list()}."
            )
        grads = tape.gradient(value, sources, unconnected_gradients=tf.UnconnectedGradients.ZERO)
        grads = tuple(grads) if several else grads[0]
        return ((value, aux) if has_aux else value), grads

    return wrapped


def jit(fn, jit_compile=None, donate_argnums=(), pure=False, **options):
    """``fn`` as a ``tf.function`` (graph mode), compiled with XLA when ``jit_compile``.

    Args:
        fn: the step function. It may read and assign ``tf.Variable``s (mb
            variables included): TensorFlow keeps them stateful in graphs.
        jit_compile: True compiles the graph with XLA; None and False do not.
        donate_argnums: accepted for the contract; TensorFlow cannot donate buffers.
        pure: accepted for the contract; graphs are traced either way.
        **options: ``reduce_retracing`` (default True), ``input_signature``,
            ``autograph`` (default False: mb's steps are plain Python); JAX's
            ``donate_argnames``/``static_argnums``/``static_argnames`` are
            accepted and ignored.

    Returns:
        The compiled function.
    """
    unknown = sorted(set(options) - set(_IGNORED_JIT_OPTIONS) - set(_TF_FUNCTION_OPTIONS))
    if unknown:
        raise TypeError(
            f"jit on the tensorflow backend got unknown options {unknown}. Accepted: "
            f"jit_compile, donate_argnums, pure, "
            f"{', '.join(_TF_FUNCTION_OPTIONS + _IGNORED_JIT_OPTIONS)}."
        )
    kwargs = {k: v for k, v in options.items() if k in _TF_FUNCTION_OPTIONS}
    kwargs.setdefault("reduce_retracing", True)
    kwargs.setdefault("autograph", False)
    if jit_compile:
        return _XlaOrGraph(fn, **kwargs)
    return tf.function(fn, **kwargs)


def _stack(batches, n):
    if isinstance(batches, list | tuple) and len(batches) == n and n > 0:
        first = tf.nest.flatten(batches[0])
        if first and all(len(tf.nest.flatten(b)) == len(first) for b in batches):
            try:
                for b in batches[1:]:
                    tf.nest.assert_same_structure(batches[0], b)
            except (TypeError, ValueError):
                return batches
            return tf.nest.map_structure(
                lambda *xs: tf.stack([convert_to_tensor(x) for x in xs]), *batches
            )
    return tf.nest.map_structure(convert_to_tensor, batches)


def multi_step(step_fn, n, unroll=1, jit_compile=None):
    """Run ``n`` training steps in one compiled call.

    Args:
        step_fn: ``step_fn(state, batch) -> (state, logs)``. ``state`` may be
            explicit tensors, or empty when the step updates variables in place.
        n: the number of steps per call (``steps_per_execution``).
        unroll: ``True`` (or an int >= n) unrolls the steps in the graph instead
            of looping with ``tf.while_loop``.
        jit_compile: True compiles the whole call with XLA; None and False do not.

    Returns:
        ``run(state, batches) -> (state, logs)``: ``batches`` is a list of ``n``
        batches of the same structure, or one batch whose leaves have a leading
        axis of size ``n``. ``logs`` are those of the last step.
    """
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(f"multi_step needs a positive int n. Received: n={n!r}.")
    unrolled = unroll is True or (not isinstance(unroll, bool) and unroll >= n)

    def take(stacked, i):
        return tf.nest.map_structure(lambda x: x[i], stacked)

    def run(state, stacked):
        state, logs = step_fn(state, take(stacked, 0))
        if unrolled:
            for i in range(1, n):
                state, logs = step_fn(state, take(stacked, i))
            return state, logs

        def body(i, state, logs):
            state, logs = step_fn(state, take(stacked, i))
            return i + 1, state, logs

        _, state, logs = tf.while_loop(lambda i, *_: i < n, body, (tf.constant(1), state, logs))
        return state, logs

    options = {"reduce_retracing": True, "autograph": False}
    compiled = _XlaOrGraph(run, **options) if jit_compile else tf.function(run, **options)

    def call(state, batches):
        stacked = _stack(batches, n)
        sizes = {int(x.shape[0]) for x in tf.nest.flatten(stacked) if x.shape.rank}
        if sizes != {n}:
            raise ValueError(
                f"multi_step(n={n}) needs {n} batches (a list, or leaves with a leading axis "
                f"of {n}). Received leading sizes {sorted(sizes)}."
            )
        return compiled(state, stacked)

    return call


@functools.lru_cache(maxsize=64)
def _compiled_update(update_fn, num_slots, jit_compile):
    # One tf.function per (update rule, slot count): a new one per call would retrace
    # every eager step (and TensorFlow warns about the retracing).
    def apply(params, grads, slots, scalars):
        flat = [tf.nest.flatten(params), tf.nest.flatten(grads)]
        flat += [tf.nest.flatten(s) for s in slots]
        outs = [update_fn(*leaves, *scalars) for leaves in zip(*flat, strict=True)]
        outs = [o if isinstance(o, tuple) else (o,) for o in outs]
        columns = list(zip(*outs, strict=True)) if outs else [()] * (1 + num_slots)
        if len(columns) != 1 + num_slots:
            raise ValueError(
                f"fused_update: update_fn must return (new_param, *new_slots) with {num_slots} "
                f"slot(s); it returned {len(columns)} value(s) per tensor."
            )
        return tuple(tf.nest.pack_sequence_as(params, list(col)) for col in columns)

    compiled = tf.function(apply, jit_compile=jit_compile, reduce_retracing=True, autograph=False)
    return apply, compiled


def fused_update(update_fn, params, grads, *slots, scalars=(), donate=False, jit_compile=None):
    """Apply ``update_fn`` to every (param, grad, *slots) tensor in one compiled call.

    Args:
        update_fn: ``update_fn(param, grad, *slots, *scalars) -> new_param`` or
            ``(new_param, *new_slots)``, written for one tensor.
        params, grads: structures of the same shape (lists of tensors).
        *slots: optimizer slot structures (momenta, ...).
        scalars: values shared by every tensor (learning rate, step count),
            passed as tensors so changing them does not retrace.
        donate: accepted for parity with JAX; TensorFlow cannot donate buffers.
        jit_compile: True fuses the updates into XLA kernels; None and False do not.

    Returns:
        ``new_params``, or ``(new_params, *new_slots)`` when slots are given.
    """
    del donate
    apply, compiled = _compiled_update(update_fn, len(slots), bool(jit_compile))
    if tf.inside_function() and not jit_compile:
        # Inside the trainer's tf.function the update's ops join the step's graph
        # (a nested function call would cost a function-call op per step).
        compiled = apply
    params = tf.nest.map_structure(convert_to_tensor, params)
    grads = tf.nest.map_structure(convert_to_tensor, grads)
    slots = tuple(tf.nest.map_structure(convert_to_tensor, s) for s in slots)
    scalars = tuple(convert_to_tensor(s) for s in scalars)
    result = compiled(params, grads, slots, scalars)
    return result if slots else result[0]


def is_out_of_memory(error):
    """Whether `error` is TensorFlow running out of device memory."""
    return isinstance(error, tf.errors.ResourceExhaustedError)
