"""Out of device memory: an error that names the batch size and how to fix it."""

from __future__ import annotations

import contextlib

from mb_data import unpack_x_y_sample_weight
from mb_graph import tree
from mb_ops import backends


def _batch_size(batches):
    x, _, _ = unpack_x_y_sample_weight(batches[0])
    for leaf in tree.flatten(x):
        shape = getattr(leaf, "shape", None)
        if shape:
            return int(shape[0])
    return None


@contextlib.contextmanager
def naming_the_batch(batches, method):
    """Re-raises the engine's out-of-memory error as a `MemoryError` naming the batch.

    Any other error passes through unchanged.
    """
    try:
        yield
    except Exception as error:
        named = out_of_memory_error(error, batches, method)
        if named is None:
            raise
        raise named from error


def out_of_memory_error(error, batches, method):
    """The `MemoryError` naming the batch that `error`, the engine's out-of-memory
    error, should be re-raised as; None for any other error (raise it unchanged)."""
    check = backends.lookup("training", "is_out_of_memory")
    if check is None or not check(error):
        return None
    size = _batch_size(batches)
    steps = len(batches)
    per_call = f", {steps} steps per call (steps_per_execution)" if steps > 1 else ""
    smaller = f" (e.g. batch_size={max(1, size // 2)})" if size else ""
    return MemoryError(
        f"{method}() ran out of device memory on a batch of {size} samples{per_call}. "
        f"Pass a smaller `batch_size`{smaller}"
        + (", a smaller `steps_per_execution`" if steps > 1 else "")
        + ", or use a smaller model or a lower-precision dtype policy "
        "(mb.config.set_dtype_policy('mixed_bfloat16')). "
        f"The engine said: {str(error).strip().splitlines()[0][:300]}"
    )
