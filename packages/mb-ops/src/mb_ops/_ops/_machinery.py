"""How an op is made: an ``Operation`` subclass and a fast function in front.

``@op(spec)`` on a stub function (its signature and docstring are the op's)
creates:

- an ``Operation`` subclass named after the op (``add`` -> ``Add``) whose
  ``call`` runs the active backend's function and whose
  ``compute_output_spec`` binds the arguments to the stub's signature and
  calls ``spec(op_name, *arguments)`` (static: no engine runs);
- the public function: when any argument is a KerasTensor it records a node
  through the Operation; otherwise it calls the backend function directly.
  The backend function is looked up once, on first use.
"""

from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass
from typing import Any

from mb_graph import Operation, any_symbolic_tensors
from mb_ops import _backends, _contract


def _not_implemented(name: str, reason: str) -> Any:
    backend = _backends.backend()

    def raise_unsupported(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{name} is not supported on the {backend} backend: {reason}")

    return raise_unsupported


def resolve_backend_function(module_name: str, name: str, fallback: Any = None) -> Any:
    """The active backend's ``<module>.<name>``, or a function raising NotImplementedError.

    ``fallback`` (a composite written over other ops) is used when the backend
    neither provides the function nor declares it unsupported.
    """
    fn = _contract.lookup(module_name, name)
    if fn is not None:
        return fn
    declared = _contract.declared_unsupported(_backends.backend_module(module_name)).get(name)
    if declared is None and fallback is not None:
        return fallback
    return _not_implemented(name, _contract.unsupported_reason(module_name, name) or "")


class BackendFunction:
    """Calls the active backend's function, resolved on the first call only."""

    __slots__ = ("fallback", "fn", "module_name", "name")

    def __init__(self, module_name: str, name: str, fallback: Any = None) -> None:
        self.module_name = module_name
        self.name = name
        self.fallback = fallback
        self.fn = self._resolve_and_call

    def _resolve_and_call(self, *args: Any, **kwargs: Any) -> Any:
        self.fn = resolve_backend_function(self.module_name, self.name, self.fallback)
        return self.fn(*args, **kwargs)


@dataclass(frozen=True)
class OpInfo:
    """What the registry knows about one op."""

    name: str
    module: str
    function: Any
    operation_class: type
    backend_name: str | None
    signature: inspect.Signature
    backend_module: str | None = None
    group: str = ""
    """The ``mb_ops._ops`` file the op is written in (``numpy_shape``); every backend
    defines the op's function in the same-named file (``numpy/_shape.py``)."""


# (public module, op name) -> OpInfo
REGISTRY: dict[tuple[str, str], OpInfo] = {}


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def op(
    spec: Any,
    module: str = "numpy",
    *,
    backend_module: str | None = None,
    backend_name: str | None = None,
    impl: Any = None,
    fallback: Any = None,
) -> Any:
    """Turn a stub into an op (see the module docstring).

    Args:
        spec: ``spec(op_name, *bound_arguments) -> KerasTensor(s)``.
        module: the public module the op belongs to (``numpy``, ``nn``, …).
        backend_module: the backend contract module holding it (default: module).
        backend_name: the backend function's name (default: the op's name).
        impl: a Python function used instead of a backend function (composite
            ops written once over other ops).
        fallback: a composite used only when the backend lacks the function.
    """

    def decorate(stub: Any) -> Any:
        name = stub.__name__
        signature = inspect.signature(stub)
        if impl is not None:
            eager: Any = impl
            target = None
        else:
            target = backend_name or name
            backend_fn = BackendFunction(backend_module or module, target, fallback)

            def eager(*args: Any, **kwargs: Any) -> Any:
                return backend_fn.fn(*args, **kwargs)

        def compute_output_spec(self: Any, *args: Any, **kwargs: Any) -> Any:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            return spec(name, *bound.arguments.values())

        def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            return eager(*args, **kwargs)

        cls = type(
            _camel(name),
            (Operation,),
            {
                "call": call,
                "compute_output_spec": compute_output_spec,
                "__doc__": f"The ``{name}`` op (see ``mb_ops.{module}.{name}``).",
                "__module__": stub.__module__,
            },
        )

        if impl is not None:

            def function(*args: Any, **kwargs: Any) -> Any:
                if any_symbolic_tensors(args, kwargs):
                    return cls().symbolic_call(*args, **kwargs)
                return impl(*args, **kwargs)
        else:

            def function(*args: Any, **kwargs: Any) -> Any:
                if any_symbolic_tensors(args, kwargs):
                    return cls().symbolic_call(*args, **kwargs)
                return backend_fn.fn(*args, **kwargs)

        functools.update_wrapper(function, stub)
        function.__module__ = f"mb_ops.{module}"
        function.operation_class = cls  # type: ignore[attr-defined]
        REGISTRY[(module, name)] = OpInfo(
            name,
            module,
            function,
            cls,
            target,
            signature,
            backend_module=None if impl is not None else (backend_module or module),
            group=stub.__module__.rsplit(".", 1)[-1],
        )
        return function

    return decorate
