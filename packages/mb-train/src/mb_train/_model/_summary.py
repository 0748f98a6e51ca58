"""`Model.summary()`: a table of layers, output shapes and parameter counts."""

import numpy as np
from rich.console import Console
from rich.table import Table

from mb_graph import tree


def _count(variables):
    return int(sum(int(np.prod(v.shape)) for v in variables))


def _output_shape(layer):
    try:
        output = layer.output
    except (AttributeError, ValueError):
        return "?"  # A layer only called eagerly (subclassed model) keeps no symbolic output.
    shapes = [tuple(t.shape) for t in tree.flatten(output)]
    return str(shapes[0]) if len(shapes) == 1 else str(shapes)


def _rows(model):
    layers = model.layers
    rows = []
    for layer in layers:
        if type(layer).__name__ == "InputLayer":
            continue
        params = _count(layer.weights) if layer.built else 0
        rows.append((f"{layer.name} ({type(layer).__name__})", _output_shape(layer), f"{params:,}"))
    return rows


def summary_table(model, line_length=None):
    """The summary as a rich Table plus the totals lines."""
    table = Table(title=f'Model: "{model.name}"', title_justify="left", width=line_length)
    table.add_column("Layer (type)", no_wrap=True)
    table.add_column("Output Shape")
    table.add_column("Param #", justify="right")
    for row in _rows(model):
        table.add_row(*row)
    built = model.built
    trainable = _count(model.trainable_weights) if built else 0
    non_trainable = _count(model.non_trainable_weights) if built else 0
    optimizer = getattr(model, "optimizer", None)
    opt_count = 0
    if optimizer is not None and getattr(optimizer, "built", False):
        opt_count = _count(optimizer.variables)
    totals = [
        f" Total params: {trainable + non_trainable + opt_count:,}",
        f" Trainable params: {trainable:,}",
        f" Non-trainable params: {non_trainable:,}",
    ]
    if opt_count:
        totals.append(f" Optimizer params: {opt_count:,}")
    return table, totals


def print_summary(model, line_length=None, print_fn=None):
    table, totals = summary_table(model, line_length=line_length)
    console = Console(width=line_length or 100, record=print_fn is not None)
    if print_fn is None:
        console.print(table)
        for line in totals:
            console.print(line, highlight=False)
        return
    with console.capture() as capture:
        console.print(table)
    print_fn(capture.get())
    for line in totals:
        print_fn(line)
