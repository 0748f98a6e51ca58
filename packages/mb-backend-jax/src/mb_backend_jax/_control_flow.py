"""Control flow over ``jax.lax``: traceable under ``jax.jit`` and ``jax.grad``."""

import jax


def cond(pred, true_fn, false_fn):
    """``true_fn()`` if ``pred`` else ``false_fn()``, as one ``lax.cond``."""
    return jax.lax.cond(pred, true_fn, false_fn)


def switch(index, branches, *operands):
    """Call ``branches[index](*operands)``; ``index`` is clamped to the range."""
    return jax.lax.switch(index, branches, *operands)


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    """Repeat ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)``.

    ``loop_vars`` may be a single tensor or a list/tuple; the result has the
    same form. ``maximum_iterations`` bounds the number of iterations.
    """
    is_sequence = isinstance(loop_vars, list | tuple)
    state = tuple(loop_vars) if is_sequence else (loop_vars,)

    def as_tuple(out):
        return tuple(out) if is_sequence else (out,)

    if maximum_iterations is None:
        out = jax.lax.while_loop(lambda s: cond(*s), lambda s: as_tuple(body(*s)), state)
    else:

        def bounded_cond(s):
            return jax.numpy.logical_and(cond(*s[0]), s[1] < maximum_iterations)

        def bounded_body(s):
            return as_tuple(body(*s[0])), s[1] + 1

        out, _ = jax.lax.while_loop(bounded_cond, bounded_body, (state, 0))
    if not is_sequence:
        return out[0]
    return list(out) if isinstance(loop_vars, list) else out


def fori_loop(lower, upper, body_fun, init_val):
    """``val = body_fun(i, val)`` for ``i`` in ``range(lower, upper)``."""
    return jax.lax.fori_loop(lower, upper, body_fun, init_val)


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """``lax.scan``: ``carry, y = f(carry, x)`` over the leading axis of ``xs``."""
    if not isinstance(unroll, bool) and (not isinstance(unroll, int) or unroll < 1):
        raise ValueError(
            f"scan expects `unroll` to be a positive int or a bool. Received: unroll={unroll!r}."
        )
    return jax.lax.scan(f, init, xs=xs, length=length, reverse=reverse, unroll=unroll)


def associative_scan(f, elems, reverse=False, axis=0):
    """Parallel prefix scan of an associative ``f`` along ``axis``."""
    return jax.lax.associative_scan(f, elems, reverse=reverse, axis=axis)


def map(f, xs):
    """``f`` applied to each slice of ``xs`` along its leading axis (``lax.map``)."""
    return jax.lax.map(f, xs)


def vectorized_map(function, elements):
    """``function`` vectorized over the leading axis of ``elements`` (``jax.vmap``)."""
    return jax.vmap(function)(elements)
