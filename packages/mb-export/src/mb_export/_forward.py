"""The forward pass handed to a backend: flat inputs in, flat (or nested) outputs out."""

from __future__ import annotations

import inspect

from mb_graph import tree
from mb_ops import StatelessScope


def _takes_training(fn):
    try:
        parameters = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return "training" in parameters or any(p.kind is p.VAR_KEYWORD for p in parameters.values())


def _single_input(fn):
    """Whether `fn` (a model, or a model's call) takes its inputs as one argument."""
    call = getattr(fn, "call", fn)
    try:
        parameters = [
            p
            for p in inspect.signature(call).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name != "training"
        ]
    except (TypeError, ValueError):
        return False
    return len(parameters) == 1


def call_with_arguments(fn, arguments, training_arg):
    """Calls `fn` on the positional `arguments` (several go as a list to a one-input model)."""
    kwargs = {"training": False} if training_arg else {}
    if len(arguments) > 1 and _single_input(fn):
        return fn(list(arguments), **kwargs)
    return fn(*arguments, **kwargs)


class Forward:
    """``fn`` over a signature, in the form a backend's export module calls.

    ``self(values, *flat_inputs)`` packs the flat inputs into the signature's
    arguments (with ``flat_inputs=False`` it takes them as they are) and runs `fn`
    (with ``training=False`` where it takes it). With
    `values` None the variables are read in place (tensorflow and torch trace
    them); otherwise `values` replace `variables` through a ``StatelessScope``
    (jax's pure functions). The outputs are flattened when ``flat``.
    """

    def __init__(self, fn, arguments, variables, flat, flat_inputs=True):
        self.fn = fn
        self.arguments = arguments
        self.variables = list(variables)
        self.flat = flat
        self.flat_inputs = flat_inputs
        self.training_arg = _takes_training(getattr(fn, "call", fn)) or _takes_training(fn)
        self.output_structure = None

    def _run(self, inputs):
        if self.flat_inputs:
            arguments = tree.pack_sequence_as(self.arguments, list(inputs))
        else:
            arguments = list(inputs)
        outputs = call_with_arguments(self.fn, arguments, self.training_arg)
        self.output_structure = tree.map_structure(lambda _: 0, outputs)
        return tree.flatten(outputs) if self.flat else outputs

    def __call__(self, values, *flat_inputs):
        if values is None:
            return self._run(flat_inputs)
        mapping = list(zip(self.variables, values, strict=True))
        with StatelessScope(state_mapping=mapping):
            return self._run(flat_inputs)


def _layer_output_names(model):
    """The names of the layers that produce a functional model's outputs, or None."""
    try:
        outputs = tree.flatten(model.outputs)
    except (AttributeError, TypeError, ValueError):
        return None
    names = []
    for output in outputs:
        history = getattr(output, "_keras_history", None)
        if history is None:
            return None
        name = history.operation.name
        names.append(f"{name}_{history.tensor_index}" if history.tensor_index else name)
    return names


def output_names(model, count):
    """The model's output names (its ``output_names``, else the names of the layers
    producing its outputs) when there are `count` distinct ones, else ``output_<i>``."""
    names = getattr(model, "output_names", None)
    try:
        names = list(names) if names is not None else None
    except TypeError:
        names = None
    if not names:
        names = _layer_output_names(model)
    if names and len(names) == count and len(set(names)) == count:
        return [str(n) for n in names]
    return [f"output_{i}" for i in range(count)]
