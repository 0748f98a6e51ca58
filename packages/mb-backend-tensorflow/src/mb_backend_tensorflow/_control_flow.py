"""Control flow of the TensorFlow backend, written with ``tf.cond``/``tf.while_loop``.

Everything here also works inside ``tf.function`` (graph mode): loops stay
symbolic instead of unrolling in Python.
"""

import tensorflow as tf

from mb_backend_tensorflow import _compat
from mb_backend_tensorflow._convert import convert_to_tensor
from mb_ops import numpy_shaped


def cond(pred, true_fn, false_fn):
    """``true_fn()`` if ``pred`` else ``false_fn()``; a graph ``tf.cond`` when traced."""
    if isinstance(pred, tf.Variable):
        return tf.cond(pred, true_fn=true_fn, false_fn=false_fn)
    return _compat.smart_cond(pred, true_fn, false_fn)


def switch(index, branches, *operands):
    """``branches[index](*operands)``; ``index`` is clipped to the valid range."""
    index = tf.clip_by_value(convert_to_tensor(index, "int32"), 0, len(branches) - 1)
    fns = [(lambda fn=fn: fn(*operands)) for fn in branches]
    return tf.switch_case(index, fns)


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    """Repeat ``body`` while ``cond`` holds; ``loop_vars`` may be a tuple/list or one value."""
    is_sequence = isinstance(loop_vars, list | tuple)
    loop_vars = tuple(loop_vars) if is_sequence else (loop_vars,)

    def _body(*args):
        out = body(*args)
        return tuple(out) if is_sequence else (out,)

    out = tf.while_loop(cond, _body, loop_vars, maximum_iterations=maximum_iterations)
    return out if is_sequence else out[0]


def fori_loop(lower, upper, body_fun, init_val):
    """``val = body_fun(i, val)`` for ``i`` in ``range(lower, upper)``."""
    return tf.while_loop(
        lambda i, val: i < upper,
        lambda i, val: (i + 1, body_fun(i, val)),
        (lower, init_val),
    )[1]


def vectorized_map(function, elements):
    """``function`` mapped over the first axis of ``elements``, vectorized by TF."""
    return tf.vectorized_map(function, elements)


def map(f, xs):
    """``f`` applied to each slice of ``xs`` along the first axis (``tf.map_fn``)."""
    xs = tf.nest.map_structure(convert_to_tensor, xs)
    first = tf.nest.map_structure(lambda x: x[0], xs)
    signature = tf.nest.map_structure(tf.TensorSpec.from_tensor, f(first))
    return tf.map_fn(f, xs, fn_output_signature=signature)


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """``jax.lax.scan`` semantics: returns ``(final_carry, stacked_ys)``."""
    if not callable(f):
        raise TypeError(f"scan expects a callable f. Received: f={f!r}.")
    if isinstance(unroll, bool):
        unroll = 1
    elif not isinstance(unroll, int) or unroll < 1:
        raise ValueError(f"scan expects unroll to be a positive int or a bool. Received: {unroll}")
    if xs is None and length is None:
        raise ValueError("scan needs xs to scan over, or a length when xs is None.")
    xs_flat = [] if xs is None else [convert_to_tensor(x) for x in tf.nest.flatten(xs)]
    if length is not None:
        n = int(length)
    else:
        n = xs_flat[0].shape[0]
        if n is None:
            n = tf.shape(xs_flat[0])[0]
    carry_flat = [convert_to_tensor(c) for c in tf.nest.flatten(init)]
    xs_ta = [tf.TensorArray(x.dtype, size=n, element_shape=x.shape[1:]).unstack(x) for x in xs_flat]

    # Trace f once to learn the structure of ys.
    sample_x = None if xs is None else tf.nest.pack_sequence_as(xs, [x[0] for x in xs_flat])
    sample_carry = tf.nest.pack_sequence_as(init, carry_flat)
    ys_spec = [None]

    def step(i, carry_flat, ys_tas):
        x = None if xs is None else tf.nest.pack_sequence_as(xs, [ta.read(i) for ta in xs_ta])
        new_carry, y = f(tf.nest.pack_sequence_as(init, list(carry_flat)), x)
        new_carry_flat = [
            tf.cast(convert_to_tensor(c), old.dtype)
            for c, old in zip(tf.nest.flatten(new_carry), carry_flat, strict=True)
        ]
        y_flat = [] if y is None else [convert_to_tensor(v) for v in tf.nest.flatten(y)]
        ys_tas = [ta.write(i, v) for ta, v in zip(ys_tas, y_flat, strict=True)]
        return new_carry_flat, ys_tas

    # Trace f once (without running it) to learn the structure and dtypes of ys.
    spec = lambda t: tf.TensorSpec(t.shape, t.dtype)  # noqa: E731
    probe = tf.function(lambda c, x: f(c, x)[1], autograph=False).get_concrete_function(
        tf.nest.map_structure(spec, sample_carry),
        None if sample_x is None else tf.nest.map_structure(spec, sample_x),
    )
    y0 = probe.structured_outputs
    ys_spec[0] = y0
    y_meta = [(v.dtype, v.shape) for v in tf.nest.flatten(y0)] if y0 is not None else []

    ys_tas = [tf.TensorArray(dt, size=n, element_shape=shp) for dt, shp in y_meta]
    start = n - 1 if reverse else 0
    delta = -1 if reverse else 1

    def loop_cond(i, carry_flat, ys_tas):
        return i >= 0 if reverse else i < n

    def loop_body(i, carry_flat, ys_tas):
        carry_flat, ys_tas = step(i, carry_flat, ys_tas)
        return i + delta, carry_flat, ys_tas

    _, carry_flat, ys_tas = tf.while_loop(
        loop_cond, loop_body, (start, carry_flat, ys_tas), parallel_iterations=unroll
    )
    carry = tf.nest.pack_sequence_as(init, list(carry_flat))
    if ys_spec[0] is None:
        return carry, None
    ys = tf.nest.pack_sequence_as(ys_spec[0], [ta.stack() for ta in ys_tas])
    return carry, ys


_slice_axis = numpy_shaped.slice_along


def _interleave(a, b, axis):
    """[a0, b0, a1, b1, ...] along ``axis``; ``a`` may be one longer than ``b``."""
    na, nb = a.shape[axis], b.shape[axis]
    head = _slice_axis(a, 0, nb, 1, axis)
    pairs = tf.stack([head, b], axis=axis + 1)
    shape = a.shape.as_list()
    shape[axis] = 2 * nb
    merged = tf.reshape(pairs, [-1 if s is None else s for s in shape])
    if na == nb:
        return merged
    return tf.concat([merged, _slice_axis(a, nb, None, 1, axis)], axis=axis)


def associative_scan(f, elems, reverse=False, axis=0):
    """Inclusive scan with an associative ``f`` (``jax.lax.associative_scan``).

    Works on a static length along ``axis`` with the classic odd/even
    recursion (log-depth); the structure of ``elems`` is kept.
    """
    if not callable(f):
        raise TypeError(f"associative_scan expects a callable f. Received: f={f!r}.")
    flat = [convert_to_tensor(e) for e in tf.nest.flatten(elems)]
    axis = axis % flat[0].shape.rank
    lengths = {e.shape[axis] for e in flat}
    if len(lengths) != 1 or None in lengths:
        raise ValueError(
            "associative_scan needs every input to have the same static length along axis "
            f"{axis}. Received lengths {sorted(lengths, key=str)}."
        )
    if reverse:
        flat = [tf.reverse(e, [axis]) for e in flat]

    def combine(a_flat, b_flat):
        out = f(tf.nest.pack_sequence_as(elems, a_flat), tf.nest.pack_sequence_as(elems, b_flat))
        return [convert_to_tensor(o) for o in tf.nest.flatten(out)]

    out = numpy_shaped.odd_even_scan(flat, axis, combine, tf.concat, _interleave)
    if reverse:
        out = [tf.reverse(e, [axis]) for e in out]
    return tf.nest.pack_sequence_as(elems, out)
