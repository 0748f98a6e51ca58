"""The gradient and training pieces of the inference-only engines (numpy, openvino).

They compute no gradients and trace nothing: ``custom_gradient`` and ``remat``
run the forward pass only, and the training and export contract functions refuse
with the backend's reason (``refusals_for`` serves any backend's unsupported
contract functions, one reason each).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NoReturn


def refusals(backend: str, reason: str, names: Iterable[str]) -> dict[str, Callable[..., NoReturn]]:
    """One function per name that raises ``NotImplementedError`` naming it, the backend
    and ``reason`` (declare the names in the module's ``UNSUPPORTED`` too).

    >>> jit = refusals("numpy", "it is inference-only", ["jit"])["jit"]
    >>> jit(lambda x: x)
    Traceback (most recent call last):
    NotImplementedError: jit is not supported on the numpy backend: it is inference-only.
    """
    return refusals_for(backend, dict.fromkeys(names, reason))


def refusals_for(backend: str, reasons: Mapping[str, str]) -> dict[str, Callable[..., NoReturn]]:
    """One function per name of ``reasons`` (a module's ``UNSUPPORTED``) that raises
    ``NotImplementedError`` naming it, the backend and its reason.

    >>> to_onnx = refusals_for("jax", {"to_onnx": "no exporter"})["to_onnx"]
    >>> to_onnx(None)
    Traceback (most recent call last):
    NotImplementedError: to_onnx is not supported on the jax backend: no exporter.
    """

    def refusal(name: str, reason: str) -> Callable[..., NoReturn]:
        def refuse(*args: Any, **kwargs: Any) -> NoReturn:
            raise NotImplementedError(
                f"{name} is not supported on the {backend} backend: {reason}."
            )

        refuse.__name__ = refuse.__qualname__ = name
        return refuse

    return {name: refusal(name, reason) for name, reason in reasons.items()}


class custom_gradient:
    """Decorator for a function returning ``(outputs, grad_fn)``.

    An engine that computes no gradients returns the forward outputs and never
    calls ``grad_fn``.
    """

    def __init__(self, fun: Callable[..., Any]) -> None:
        self.fun = fun

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        outputs, _ = self.fun(*args, **kwargs)
        return outputs


def remat(f: Callable[..., Any]) -> Callable[..., Any]:
    """Identity: rematerialization saves memory during backprop, which never runs here."""
    return f
