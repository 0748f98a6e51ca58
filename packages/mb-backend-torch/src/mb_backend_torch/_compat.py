"""The private torch APIs mb uses, in one place, each with the conditions it needs.

Everything here is an underscored torch name: its name, arguments or the shapes it
accepts may change between torch releases. Nothing outside this module reaches into
``torch._*`` or ``torch.utils._*`` (the tooling leg checks it). Where a plain path
exists, a wrapper checks what it relies on and says "not available" (False / None)
instead of failing, and callers keep the plain path; where none exists (the
``_foreach`` kernels, the dispatch mode the step recorder is built on), the name is
bound at import, so a torch release without it fails at ``import`` rather than
quietly running slower. ``tests/test_compat.py`` checks that each fast path is taken.
"""

import gc
import types

import torch
from torch.utils._python_dispatch import TorchDispatchMode, _disable_current_modes

_FOREACH_KERNELS = (
    "abs",
    "abs_",
    "add",
    "add_",
    "addcdiv",
    "addcdiv_",
    "addcmul",
    "addcmul_",
    "copy_",
    "div",
    "div_",
    "lerp_",
    "maximum",
    "maximum_",
    "minimum",
    "minimum_",
    "mul",
    "mul_",
    "neg",
    "neg_",
    "reciprocal_",
    "sign",
    "sign_",
    "sqrt",
    "sqrt_",
    "sub",
    "sub_",
)

foreach = types.SimpleNamespace(
    **{name: getattr(torch, f"_foreach_{name}") for name in _FOREACH_KERNELS}
)
"""torch's multi-tensor kernels (``torch._foreach_<name>``): one launch updates a whole
list of tensors; the optimizers' multi-tensor path (`foreach_update`)."""


def standard_gamma(concentration, generator):
    """Gamma(``concentration``, 1) draws from ``generator`` (``torch._standard_gamma``:
    ``torch.distributions.Gamma`` takes no generator, so seeded draws need this)."""
    return torch._standard_gamma(concentration, generator=generator)


class DispatchMode(TorchDispatchMode):
    """``torch.utils._python_dispatch.TorchDispatchMode``, for recording aten ops."""

    @classmethod
    def _should_skip_dynamo(cls):
        # Otherwise torch wraps __torch_dispatch__ in torch._disable_dynamo, whose first
        # call imports TorchDynamo (seconds, and it loads triton): a recording never
        # runs under torch.compile, so there is nothing to disable.
        return False


def dispatch_modes_off():
    """A context that pops every active dispatch mode (the step recorder's) while it
    runs (``torch.utils._python_dispatch._disable_current_modes``)."""
    return _disable_current_modes()


def dispatch_mode_active():
    """Whether a ``TorchDispatchMode`` is active (the step recorder, ``FakeTensorMode``):
    one would see a tensor's value read into Python (``torch._C._len_torch_dispatch_stack``)."""
    return torch._C._len_torch_dispatch_stack() > 0


def overload_kernel(op):
    """The C++ callable under an ``OpOverload`` (its private ``_op``), or the overload
    itself: calling it skips ``OpOverload.__call__``'s Python frame (a microsecond per
    op, a few dozen ops per small step)."""
    return getattr(op, "_op", op)


def is_mutable(op):
    """Whether the aten ``op`` writes to one of its inputs (its schema says so)."""
    return op._schema.is_mutable


_int_mm = getattr(torch, "_int_mm", None)
_scaled_mm = getattr(torch, "_scaled_mm", None)


def int_mm_supported(a, b):
    """Whether ``torch._int_mm`` takes int8 ``a`` (M, K) @ int8 ``b`` (K, N) here.

    On CPU any shape works; CUDA's kernel needs M > 16 and K, N multiples of 8.
    """
    if _int_mm is None or a.dtype is not torch.int8 or b.dtype is not torch.int8:
        return False
    if a.device.type == "cpu":
        return True
    if a.device.type != "cuda":
        return False
    m, k = a.shape
    n = b.shape[1]
    return m > 16 and k >= 16 and k % 8 == 0 and n >= 16 and n % 8 == 0


def int_mm(a, b):
    """``a @ b`` of 2-D int8 tensors, accumulated in int32 (``torch._int_mm``)."""
    return _int_mm(a.contiguous(), b.contiguous())


def scaled_mm_supported(a, b):
    """Whether ``torch._scaled_mm`` (an fp8 GEMM) runs ``a`` (M, K) @ ``b`` (K, N) here.

    It needs a CUDA device of compute capability 8.9 or newer and K, N multiples of 16.
    """
    if _scaled_mm is None or a.device.type != "cuda" or not torch.cuda.is_available():
        return False
    if torch.cuda.get_device_capability(a.device) < (8, 9):
        return False
    if a.dtype is torch.float8_e5m2 and b.dtype is torch.float8_e5m2:
        return False
    return a.shape[1] % 16 == 0 and b.shape[1] % 16 == 0


def scaled_mm(a, b, scale_a, scale_b, out_dtype):
    """``(a * scale_a) @ (b * scale_b)`` in ``out_dtype`` through ``torch._scaled_mm``."""
    b_column_major = b.t().contiguous().t()
    return _scaled_mm(
        a.contiguous(),
        b_column_major,
        scale_a=scale_a.reshape(()).to(torch.float32),
        scale_b=scale_b.reshape(()).to(torch.float32),
        out_dtype=out_dtype,
    )


def load_dynamo():
    """Imports ``torch._dynamo`` (torch imports it at the first DTensor, or at
    ``torch.compile``). Call it before ``init_process_group``: its import keeps
    hidden references to every process group that exists at that moment (torch
    2.15), and such a group outlives ``destroy_process_group`` with its gloo threads
    running (see `release_mesh_process_groups`)."""
    import torch._dynamo  # noqa: F401


def release_mesh_process_groups():
    """Makes torch's ``DeviceMesh`` objects let go of their process groups.

    A ``DeviceMesh`` keeps the groups of its axes in a private ``_pg_registry``, and
    meshes outlive ``destroy_process_group`` (DTensor specs and a cost-model cache
    hold them), so gloo's worker threads would run on into the interpreter's
    teardown: one that drops a finished collective's tensor there takes the GIL of a
    dying interpreter and the process aborts ("terminate called without an active
    exception"). With the registries empty, the group's destructor runs now, with the
    GIL released, and joins its threads. Returns how many meshes held groups.
    """
    from torch.distributed.device_mesh import DeviceMesh

    held = 0
    for obj in gc.get_objects():
        if isinstance(obj, DeviceMesh):
            registry = getattr(obj, "_pg_registry", None)
            if registry:
                held += 1
                registry.clear()
    gc.collect()
    return held
