"""Training primitives: none, the NumPy backend is inference-only."""

_REASON = "the numpy backend is inference-only; use jax, torch or tensorflow to train"

UNSUPPORTED = {
    "value_and_grad": _REASON,
    "jit": _REASON,
    "multi_step": _REASON,
    "fused_update": _REASON,
}


def _refuse(name):
    raise NotImplementedError(f"{name} is not supported on the numpy backend: {_REASON}.")


def value_and_grad(fn, argnums=0, has_aux=False):
    _refuse("value_and_grad")


def jit(fn, jit_compile=None, donate_argnums=(), pure=False, **options):
    _refuse("jit")


def multi_step(step_fn, n, unroll=1, jit_compile=None):
    _refuse("multi_step")


def fused_update(*args, **kwargs):
    _refuse("fused_update")
