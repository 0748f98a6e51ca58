"""`Model.summary()`: a table of layers, output shapes and parameter counts.

The table has Keras 3's rows and columns: a Sequential or subclassed model lists
its layers; a functional model lists its operations, input layers included, and
adds a "Connected to" column when the graph is not a plain chain. The totals
give counts and sizes in bytes, with the optimizer's variables once built.
"""

import logging
import re
import shutil

import numpy as np
from rich.console import Console
from rich.markup import escape
from rich.table import Column, Table

from mb_graph import tree
from mb_layers import Functional, Sequential
from mb_train import _progress
from mb_train._trainer._loop import TrainerMixin

# Bits per scalar, as Keras counts them (a bool is one bit).
_DTYPE_BITS = {"bool": 1, "bfloat16": 16, "float8_e4m3fn": 8, "float8_e5m2": 8}
_SIZE_UNITS = ("B", "KB", "MB", "GB", "TB", "PB")


# ----- markup ----------------------------------------------------------------------------


def _number(value):
    # Keras's colours: None (an unknown dimension) apart from other numbers.
    return f"[color(45)]{value}[/]" if value is None else f"[color(34)]{value}[/]"


def _symbol(text):
    return f"[color(33)]{text}[/]"


def _bold(text, color=None):
    return f"[bold][color({color})]{text}[/][/]" if color else f"[bold]{text}[/]"


# ----- counts and sizes ------------------------------------------------------------------


def _count(variables):
    return int(sum(int(np.prod(v.shape)) for v in variables))


def _bits(dtype):
    name = str(dtype)
    if name in _DTYPE_BITS:
        return _DTYPE_BITS[name]
    try:
        return np.dtype(name).itemsize * 8
    except TypeError:  # a dtype NumPy does not know ("int4", ...): read its width
        digits = re.search(r"\d+$", name)
        return int(digits.group()) if digits else 32


def _bytes(variables):
    unique = {id(v): v for v in variables}.values()
    return sum(int(np.prod(v.shape)) * _bits(v.dtype) for v in unique) / 8


def readable_size(size):
    """``220.00 B``, ``1.50 KB``, ... (powers of 1024, as Keras prints them)."""
    for unit in _SIZE_UNITS:
        if size / 1024 < 1:
            return f"{size:.2f} {unit}"
        size /= 1024
    return f"{size:.2f} {_SIZE_UNITS[-1]}"


def _total_line(label, variables_count, size):
    return _bold(f" {label}: ") + _number(f"{variables_count:,}") + f" ({readable_size(size)})"


def totals(model):
    """The lines under the table: total, trainable, non-trainable (and optimizer) params."""
    trainable = model.trainable_weights
    non_trainable = model.non_trainable_weights
    groups = [("Trainable params", trainable), ("Non-trainable params", non_trainable)]
    optimizer = getattr(model, "optimizer", None)
    if getattr(model, "compiled", False) and optimizer is not None and optimizer.built:
        groups.append(("Optimizer params", optimizer.variables))
    lines = [_total_line(label, _count(v), _bytes(v)) for label, v in groups]
    total_count = sum(_count(v) for _, v in groups)
    total_size = sum(_bytes(v) for _, v in groups)
    return [_total_line("Total params", total_count, total_size), *lines]


# ----- one row ---------------------------------------------------------------------------


def _shape_text(shape):
    # Keras writes "(None, 8)" and, for rank one, "(None)".
    return "(" + ", ".join(_number(d) for d in shape) + ")"


def _structure_text(texts):
    flat = tree.flatten(texts)
    if len(flat) == 1:
        return flat[0]
    return str(texts).replace("'", "")


def _output_shape(layer, relevant_nodes):
    nodes = getattr(layer, "_inbound_nodes", None) or []
    if nodes:
        own = [node for node in nodes if id(node) in relevant_nodes]
        node = (own or nodes)[-1]
        return _structure_text([_shape_text(x.shape) for x in node.output_tensors])
    build_shapes = getattr(layer, "_build_shapes_dict", None)
    if not build_shapes:
        return "?"
    try:
        shapes = layer.compute_output_shape(**build_shapes)
    except Exception:  # A layer that cannot infer its shapes still gets a row.
        return "?"
    return _structure_text(tree.map_shape_structure(_shape_text, shapes))


def _params(layer):
    if not hasattr(layer, "built"):
        return _number(0)  # an operation (ops.add, ...) in a functional graph
    if not layer.built:
        return f"{_number(0)} (unbuilt)"
    return _number(f"{layer.count_params():,}")


def _connections(layer, relevant_nodes):
    parts = []
    for node in layer._inbound_nodes:
        if relevant_nodes and id(node) not in relevant_nodes:
            continue
        for x in node.input_tensors:
            history = x._keras_history
            if history is None or history.operation is None:
                continue
            parts.append(
                f"{escape(history.operation.name)}[{_number(history.node_index)}]"
                f"[{_number(history.tensor_index)}]"
            )
    return ", ".join(parts) or "-"


def _trainable(layer):
    if getattr(layer, "weights", None):
        return _bold("Y", color=34) if layer.trainable else _bold("N", color=9)
    return _bold("-")


def _is_nested_model(layer):
    return isinstance(layer, (Functional, Sequential, TrainerMixin)) and bool(layer.layers)


class _Rows:
    """Builds the table rows (recursing into nested models with `expand_nested`)."""

    def __init__(self, connected, relevant_nodes, expand_nested, show_trainable):
        self.connected = connected
        self.relevant_nodes = relevant_nodes
        self.expand_nested = expand_nested
        self.show_trainable = show_trainable

    def __call__(self, layer, level=0):
        prefix = "   " * level + "└ " if level else ""
        name = escape(prefix + layer.name) + f" ({_symbol(escape(type(layer).__name__))})"
        fields = [name, _output_shape(layer, self.relevant_nodes), _params(layer)]
        if self.connected:
            fields.append(_connections(layer, self.relevant_nodes))
        if self.show_trainable:
            fields.append(_trainable(layer))
        rows = [fields]
        if self.expand_nested and _is_nested_model(layer):
            for inner in layer.layers:
                rows.extend(self(inner, level + 1))
        return rows


# ----- the table -------------------------------------------------------------------------


def _graph_nodes(model):
    if isinstance(model, Functional):
        return model._nodes_by_depth
    return {}


def _is_chain(model):
    """Whether a functional graph is a plain chain (one node per depth, one input each,
    no layer called twice): then the "Connected to" column says nothing new."""
    nodes = []
    for depth_nodes in model._nodes_by_depth.values():
        if len(depth_nodes) > 1 or (depth_nodes and len(depth_nodes[0].input_tensors) > 1):
            return False
        nodes.extend(depth_nodes)
    ids = {id(node) for node in nodes}
    return all(sum(id(n) in ids for n in layer._inbound_nodes) <= 1 for layer in model.layers)


def layer_index_range(layers, layer_range=None):
    """``[first, last + 1]``: the slice of `layers` between two names (or regexes)."""
    if layer_range is None:
        return [0, len(layers)]
    if not isinstance(layer_range, (list, tuple)) or len(layer_range) != 2:
        raise ValueError(
            "layer_range must be a list or tuple of two layer names (or regexes). "
            f"Received: layer_range={layer_range!r}"
        )
    if not all(isinstance(name, str) for name in layer_range):
        raise ValueError(f"layer_range should contain strings only. Received: {layer_range!r}")
    lower = [i for i, layer in enumerate(layers) if re.match(layer_range[0], layer.name)]
    upper = [i for i, layer in enumerate(layers) if re.match(layer_range[1], layer.name)]
    if not lower or not upper:
        raise ValueError(
            f"layer_range {list(layer_range)} matches no layer of the model. Layer names: "
            f"{', '.join(layer.name for layer in layers)}."
        )
    if min(lower) > max(upper):
        return [min(upper), max(lower) + 1]
    return [min(lower), max(upper) + 1]


def _column_widths(positions, line_length, count):
    if len(positions) < count:
        raise ValueError(
            f"positions must give the right edge of each of the {count} columns. "
            f"Received: positions={list(positions)}"
        )
    widths = []
    current = 0
    for position in positions[:count]:
        edge = int(position * line_length + 1e-9)
        width = edge - current
        if width < 4:
            raise ValueError(
                "Insufficient console width to print summary: a column would be "
                f"{width} characters wide (line_length={line_length}, "
                f"positions={list(positions)}). Give a larger line_length."
            )
        widths.append(width)
        current += width
    return widths


def summary_table(
    model,
    line_length=None,
    positions=None,
    expand_nested=False,
    show_trainable=False,
    layer_range=None,
):
    """The summary as a rich Table (the title and totals are printed around it)."""
    if isinstance(model, Functional):
        layers = model._operations
        connected = not _is_chain(model)
    else:  # Sequential, or a subclassed model read as a sequence of layers
        layers = model.layers
        connected = False
    header = ["Layer (type)", "Output Shape", "Param #"]
    justify = ["left", "left", "right"]
    default_length, default_positions = 88, [0.45, 0.80, 1.0]
    if connected:
        header.append("Connected to")
        justify.append("left")
        default_length, default_positions = 108, [0.3, 0.56, 0.74, 1.0]
    line_length = line_length or min(
        default_length + (12 if show_trainable else 0), shutil.get_terminal_size().columns - 4
    )
    positions = list(positions or default_positions)
    if positions[-1] > 1:  # absolute positions (characters), as Keras 2 took them
        positions = [p / line_length for p in positions]
    if show_trainable:
        header.append("Trainable")
        justify.append("center")
        positions = [p * 0.90 for p in positions] + [1.0]
    widths = _column_widths(positions, line_length, len(header))
    columns = [
        Column(name, justify=j, width=w) for name, j, w in zip(header, justify, widths, strict=True)
    ]
    table = Table(*columns, width=line_length, show_lines=True)
    relevant_nodes = {id(n) for nodes in _graph_nodes(model).values() for n in nodes}
    rows = _Rows(connected, relevant_nodes, expand_nested, show_trainable)
    first, last = layer_index_range(layers, layer_range)
    for layer in layers[first:last]:
        for row in rows(layer):
            table.add_row(*row)
    return table


def print_summary(
    model,
    line_length=None,
    positions=None,
    print_fn=None,
    expand_nested=False,
    show_trainable=False,
    layer_range=None,
):
    """Prints the summary (on stdout, to `print_fn` in one call, or to the "mb" logger
    when interactive logging is off)."""
    table = summary_table(
        model,
        line_length=line_length,
        positions=positions,
        expand_nested=expand_nested,
        show_trainable=show_trainable,
        layer_range=layer_range,
    )
    lines = [_bold(f'Model: "{escape(model.name)}"'), table, *totals(model)]
    to_logger = print_fn is None and not _progress.INTERACTIVE_LOGGING[0]
    if print_fn is None and not to_logger:
        console = Console(highlight=False)
        if not console.is_terminal:  # a file or a pipe: no need to fit a screen
            console.width = max(console.width, table.width)
        for line in lines:
            console.print(line)
        return
    console = Console(
        highlight=False, force_terminal=False, color_system=None, width=max(80, table.width)
    )
    with console.capture() as capture:
        for line in lines:
            console.print(line)
    text = capture.get()
    if to_logger:
        logging.getLogger("mb").info(text)
    else:
        print_fn(text)
