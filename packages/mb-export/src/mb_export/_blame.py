"""Naming the layer whose ``call`` broke an export's trace.

An engine's tracer (``tf.function``, ``jax2tf``, ``torch.export``) fails deep in
its own code with its own words. The Python frames of the traceback still show
which mb layers were running their ``call``: `tracing` re-raises the error
naming the innermost of them, with the engine's reason, chained to the original.
Traceback filtering (which hides mb's frames, a functional model's ``call`` among
them) is off while the trace runs, so the whole chain of calls is there to read.
"""

from __future__ import annotations

import contextlib

from mb_layers import Layer
from mb_ops import config

_ADVICE = (
    "An export traces each layer's call with symbolic tensors, so the call must compute "
    "with mb.ops on its inputs: no conversion to NumPy, no Python branching on tensor "
    "values, no engine call the exporter cannot trace. Rewrite that call (or give the "
    "layer an exportable replacement), or export from a backend whose tracer accepts it."
)


def _calls_in(traceback):
    """The mb layers whose ``call`` frame is in `traceback`, outermost first."""
    layers = []
    while traceback is not None:
        frame = traceback.tb_frame
        owner = frame.f_locals.get("self")
        in_call = frame.f_code.co_name == "call" and isinstance(owner, Layer)
        if in_call and (not layers or layers[-1] is not owner):
            layers.append(owner)
        traceback = traceback.tb_next
    return layers


def failing_layers(error):
    """The layers running when `error` was raised (outermost first), from the error or
    the errors it was raised from; empty when no layer's ``call`` is involved."""
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        layers = _calls_in(error.__traceback__)
        if layers:
            return layers
        if error.__cause__ is None and error.__suppress_context__:
            return []
        error = error.__cause__ or error.__context__
    return []


def _reason(error):
    lines = [line.strip() for line in str(error).strip().splitlines() if line.strip()]
    text = lines[0].rstrip(".") if lines else "(no message)"
    return f"{type(error).__name__}: {text}"


def _same_kind(error, message):
    """A new exception of `error`'s nearest built-in class (RuntimeError if none takes
    a message), so ``except TypeError`` around an export keeps working."""
    for cls in type(error).__mro__:
        if cls is KeyError:  # its str() would quote the whole message
            continue
        if cls.__module__ == "builtins" and issubclass(cls, Exception):
            try:
                return cls(message)
            except TypeError:
                break
    return RuntimeError(message)


def describe(error, what):
    """The message naming the failing layer, or None when no layer is involved."""
    layers = failing_layers(error)
    if not layers:
        return None
    layer = layers[-1]
    chain = " > ".join(f"'{item.name}'" for item in layers)
    return (
        f"{what} failed in layer '{layer.name}' ({type(layer).__name__}; called as "
        f"{chain}): {_reason(error)}. {_ADVICE}"
    )


@contextlib.contextmanager
def tracing(what):
    """Runs an engine's trace; an error raised inside a layer's call names that layer.

    Args:
        what: the step, for the message (``"Exporting 'model' to onnx on the torch
            backend"``).
    """
    filtering = config.is_traceback_filtering_enabled()
    config.disable_traceback_filtering()
    try:
        yield
    except Exception as error:
        message = describe(error, what)
        if message is None:
            raise
        raise _same_kind(error, message) from error
    finally:
        if filtering:
            config.enable_traceback_filtering()
