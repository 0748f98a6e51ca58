"""Keep glibc's malloc from handing a step's buffers back to the system between steps.

A training or predict step allocates and frees the same large buffers (its
activations, often megabytes each) every time it runs, and torch's CPU allocator and
XLA's CPU client take them from the C library's ``malloc``. glibc serves a block above
its *mmap threshold* with a fresh ``mmap`` and unmaps it when it is freed, and it
returns free memory at the top of its heap to the system once that exceeds its *trim
threshold*; either way the next step writes to new pages, and every page faults.
glibc raises both thresholds by itself after a block of up to 32 MiB has been freed,
so whether a process pays the faults depends on the order of its first allocations.
Measured on the residual convnet of ``bench/train_models.py`` (batches of 64, one
thread): on torch each process ran at one of three speeds (0, ~9k or ~60k page faults
a step; up to 3.4x the CPU time of a step without them), and a hand-written torch loop
shows the same spread; on jax every process faulted ~10k pages a step (0.69 CPU s an
epoch, 0.47 without the faults).

Backends call `keep_step_buffers` when they compile a step for the CPU. It sets the
mmap threshold to 256 MiB and the trim threshold to 512 MiB (glibc's own adjustment
stops at 32 MiB, and a step's buffers can be larger: at 32 MiB one torch process of
four still faulted ~60k pages a step). Six torch processes of six then ran at 0-128
faults a step. Between steps a process keeps memory its step had in use instead of
returning it: the torch convnet's peak RSS went from 1076 MB (every large block mapped
afresh) to 1095-1103 MB. It changes nothing:

- where the C library is not glibc (``mallopt`` then does not exist);
- where the user set ``MALLOC_MMAP_THRESHOLD_``, ``MALLOC_TRIM_THRESHOLD_``,
  ``MALLOC_TOP_PAD_`` or ``GLIBC_TUNABLES`` (their choice wins: to keep glibc's own
  behaviour, set ``MALLOC_MMAP_THRESHOLD_=131072``, its default).

Example:
    >>> from mb_ops import host_memory
    >>> host_memory.keep_step_buffers() in (True, False)  # False off glibc
    True
"""

import ctypes
import os
import sys

# mallopt's parameter numbers, from glibc's <malloc.h>.
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3

MMAP_THRESHOLD = 256 * 2**20
TRIM_THRESHOLD = 2 * MMAP_THRESHOLD  # glibc pairs a threshold with twice it for trimming

USER_SETTINGS = (
    "MALLOC_MMAP_THRESHOLD_",
    "MALLOC_TRIM_THRESHOLD_",
    "MALLOC_TOP_PAD_",
    "GLIBC_TUNABLES",
)

_state = {"decided": False, "applied": False}


def _mallopt():
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc (musl has no mallopt)
        return None


def keep_step_buffers() -> bool:
    """Raise glibc's mmap and trim thresholds once per process; True if they are set.

    Called when a step is compiled for the CPU; later calls return the first
    answer. See the module's docstring for when nothing is changed.
    """
    if _state["decided"]:
        return _state["applied"]
    _state["decided"] = True
    if any(name in os.environ for name in USER_SETTINGS):
        return False
    mallopt = _mallopt()
    if mallopt is None:
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    _state["applied"] = bool(
        mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) and mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD)
    )
    return _state["applied"]
