"""``plot_model`` and ``model_to_dot``: a model's layers and connections as a graphviz
drawing (Keras 3's layout: one HTML-table box per layer, nested models as clusters).

pydot builds the graph (imported only here, when a model is drawn); graphviz's ``dot``
program renders it and comes from the system's package manager, not from pip.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import sys
from typing import Any

from mb_graph import make_node_key, tree
from mb_layers._functional import Functional
from mb_layers._sequential import Sequential

_INSTALL_GRAPHVIZ = (
    "plot_model needs graphviz's `dot` program, which is not installed (or not on PATH). "
    "Install it with your system's package manager: `apt-get install graphviz` "
    "(Debian/Ubuntu), `dnf install graphviz` (Fedora), `brew install graphviz` (macOS), "
    "`conda install graphviz`, or from https://graphviz.org/download/. "
    "model_to_dot works without it."
)
_INSTALL_PYDOT = (
    "{what} needs pydot: pip install pydot (or pip install 'mb-layers[plot]'), and for "
    "plot_model graphviz from your system's package manager (apt-get install graphviz)."
)


def _pydot(what: str) -> Any:
    try:
        import pydot
    except ImportError as exc:
        raise ImportError(_INSTALL_PYDOT.format(what=what)) from exc
    return pydot


def _check_graphviz(pydot: Any) -> bool:
    try:
        pydot.Dot.create(pydot.Dot())
    except (OSError, pydot.PydotException):
        return False
    return True


def _activation_name(layer: Any) -> str:
    activation = layer.activation
    name = getattr(activation, "name", None) or getattr(activation, "__name__", None)
    return name if isinstance(name, str) else str(activation)


def _format_shape(shape: Any) -> str:
    if shape is None:
        return "?"
    text = (
        ", ".join(f"{k}: {v}" for k, v in shape.items()) if isinstance(shape, dict) else f"{shape}"
    )
    return text.replace("}", "").replace("{", "")


def _cell(text: str, bgcolor: str = "white", color: str | None = None) -> str:
    font = f'<font point-size="14"{f" color={chr(34)}{color}{chr(34)}" if color else ""}>'
    return f'<td bgcolor="{bgcolor}">{font}{text}</font></td>'


def _label(layer, show_layer_names, show_layer_activations, show_dtype, show_shapes,
           show_trainable) -> str:  # fmt: skip
    """The HTML table Keras draws for a layer."""
    class_name = type(layer).__name__
    colspan = max(1, int(show_dtype) + int(show_trainable) + (2 if show_shapes else 0))
    title = f"<b>{layer.name}</b> ({class_name})" if show_layer_names else f"<b>{class_name}</b>"
    table = '<<table border="0" cellborder="1" bgcolor="black" cellpadding="10">'
    table += (
        f'<tr><td colspan="{colspan}" bgcolor="black">'
        f'<font point-size="16" color="white">{title}</font></td></tr>'
    )
    if show_layer_activations and getattr(layer, "activation", None) is not None:
        table += (
            f'<tr><td bgcolor="white" colspan="{colspan}"><font point-size="14">'
            f"Activation: <b>{_activation_name(layer)}</b></font></td></tr>"
        )
    cols = []
    if show_shapes:
        input_shape = output_shape = None
        try:
            input_shape = tree.map_structure(lambda x: x.shape, layer.input)
            output_shape = tree.map_structure(lambda x: x.shape, layer.output)
        except (ValueError, AttributeError):
            pass
        if class_name != "InputLayer":
            cols.append(_cell(f"Input shape: <b>{_format_shape(input_shape)}</b>"))
        cols.append(_cell(f"Output shape: <b>{_format_shape(output_shape)}</b>"))
    if show_dtype:
        dtype = None
        with contextlib.suppress(ValueError, AttributeError):
            dtype = tree.map_structure(lambda x: x.dtype, layer.output)
        cols.append(_cell(f"Output dtype: <b>{dtype or '?'}</b>"))
    if show_trainable and hasattr(layer, "trainable") and layer.weights:
        if layer.trainable:
            cols.append(_cell("<b>Trainable</b>", "forestgreen", "white"))
        else:
            cols.append(_cell("<b>Non-trainable</b>", "firebrick", "white"))
    if cols:
        table += f"<tr>{''.join(cols)}</tr>"
    return table + "</table>>"


def _add_node(pydot, dot, layer, options) -> None:
    node = pydot.Node(str(id(layer)), label=_label(layer, **options))
    node.set("fontname", "Helvetica")
    node.set("border", "0")
    node.set("margin", "0")
    dot.add_node(node)


def _add_edge(pydot, dot, source, destination) -> None:
    src, dst = str(id(source)), str(id(destination))
    if not dot.get_edge(src, dst):
        edge = pydot.Edge(src, dst)
        edge.set("penwidth", "2")
        dot.add_edge(edge)


def _check_built(model: Any) -> None:
    if not model.built:
        raise ValueError(
            f"Model '{model.name}' has not been built, so it has no layers to draw yet. "
            "Build it first: give it an Input, call build(input_shape), or call it on data."
        )


def _inner_end(source, output_index):
    """The real layer producing output `output_index` of a (nested) model."""
    while isinstance(source, (Functional, Sequential)):
        graph = source._functional if isinstance(source, Sequential) else source
        history = graph.outputs[output_index]._keras_history
        source, output_index = history.operation, history.tensor_index
    return source


def _inner_start(destination, input_index):
    """The box an edge into a (nested) model points to: its input, or its first layer."""
    while isinstance(destination, (Functional, Sequential)):
        if isinstance(destination, Functional):
            destination = destination.inputs[input_index]._keras_history.operation
        else:
            destination = destination.layers[0]
    return destination


def _connect(pydot, dot, model, layers, expand_nested) -> None:
    for layer in layers:
        for node_index, node in enumerate(layer._inbound_nodes):
            if (
                isinstance(model, Functional)
                and make_node_key(layer, node_index) not in model._nodes
            ):
                continue  # a call of the layer outside this model
            for input_index, tensor in enumerate(node.input_tensors):
                history = tensor._keras_history
                if history is None or history.operation is None:
                    continue
                source = history.operation._inbound_nodes[history.node_index].operation
                if not expand_nested:
                    _add_edge(pydot, dot, source, layer)
                    continue
                source = _inner_end(source, history.tensor_index)
                _add_edge(pydot, dot, source, _inner_start(layer, input_index))


def model_to_dot(
    model,
    show_shapes=False,
    show_dtype=False,
    show_layer_names=True,
    rankdir="TB",
    expand_nested=False,
    dpi=200,
    subgraph=False,
    show_layer_activations=False,
    show_trainable=False,
    splines="ortho",
    **kwargs,
):
    """A ``pydot.Dot`` drawing of a model (``keras.utils.model_to_dot``).

    Args:
        model: a built model (Functional, Sequential, or a subclassed model, drawn
            as one box).
        show_shapes: show each layer's input and output shapes.
        show_dtype: show each layer's output dtype.
        show_layer_names: show layer names (with the class) instead of classes.
        rankdir: ``"TB"`` (top to bottom) or ``"LR"`` (left to right).
        expand_nested: draw nested models' layers inside dashed clusters.
        dpi: the image's dots per inch.
        subgraph: return a ``pydot.Cluster`` (used for nested models).
        show_layer_activations: show the activation of layers that have one.
        show_trainable: mark layers with weights as trainable or not.
        splines: graphviz's edge style (``"ortho"``, ``"spline"``, ...).

    Returns:
        A ``pydot.Dot`` (or ``pydot.Cluster``); ``.to_string()`` is the DOT source.

    Example:

    ```python
    dot = mb.utils.model_to_dot(model, show_shapes=True)
    print(dot.to_string())
    ```
    """
    _check_built(model)
    pydot = _pydot("model_to_dot")
    if kwargs.pop("layer_range", None) is not None:
        raise ValueError("model_to_dot's layer_range argument is no longer supported (Keras 3).")
    if kwargs:
        raise ValueError(f"model_to_dot got unexpected keyword arguments: {sorted(kwargs)}.")
    if subgraph:
        dot = pydot.Cluster(style="dashed", graph_name=model.name)
        dot.set("label", model.name)
        dot.set("labeljust", "l")
    else:
        dot = pydot.Dot()
        dot.set("rankdir", rankdir)
        dot.set("concentrate", True)
        dot.set("dpi", dpi)
        dot.set("splines", splines)
        dot.set_node_defaults(shape="record")
    options = {
        "show_layer_names": show_layer_names,
        "show_layer_activations": show_layer_activations,
        "show_dtype": show_dtype,
        "show_shapes": show_shapes,
        "show_trainable": show_trainable,
    }
    if isinstance(model, Sequential):
        layers = model.layers
    elif isinstance(model, Functional):
        layers = model._operations
    else:  # a subclassed model: one box
        _add_node(pydot, dot, model, options)
        return dot

    for layer in layers:
        if expand_nested and isinstance(layer, (Functional, Sequential)):
            dot.add_subgraph(
                model_to_dot(layer, show_shapes, show_dtype, show_layer_names, rankdir,
                             expand_nested, subgraph=True, **_nested(options))
            )  # fmt: skip
        else:
            _add_node(pydot, dot, layer, options)

    if isinstance(model, Sequential):
        if not expand_nested:
            for before, after in itertools.pairwise(layers):
                _add_edge(pydot, dot, before, after)
            return dot
        # The edge into the first layer comes from outside (the model's own box).
        layers = model.layers[1:]
    _connect(pydot, dot, model, layers, expand_nested)
    return dot


def _nested(options):
    return {
        "show_layer_activations": options["show_layer_activations"],
        "show_trainable": options["show_trainable"],
    }


def plot_model(
    model,
    to_file="model.png",
    show_shapes=False,
    show_dtype=False,
    show_layer_names=False,
    rankdir="TB",
    expand_nested=False,
    dpi=200,
    show_layer_activations=False,
    show_trainable=False,
    splines="ortho",
    **kwargs,
):
    """Draws a model to an image file (``keras.utils.plot_model``).

    The format comes from ``to_file``'s suffix (``.png``, ``.svg``, ``.pdf``, ...;
    png without one). Needs pydot and graphviz's ``dot`` program, which comes from
    the system's package manager (``apt-get install graphviz``, ``brew install
    graphviz``, ``conda install graphviz``); without it the error says so.

    Args:
        model: a built model.
        to_file: the image file to write.
        show_shapes, show_dtype, show_layer_names: as in `model_to_dot`.
        rankdir, expand_nested, dpi: as in `model_to_dot`.
        show_layer_activations, show_trainable, splines: as in `model_to_dot`.

    Returns:
        An ``IPython.display.Image`` of the file when IPython is installed (so a
        notebook shows it), else None.

    Example:

    ```python
    mb.utils.plot_model(model, "model.png", show_shapes=True, expand_nested=True)
    ```
    """
    _check_built(model)
    in_notebook = "IPython.core.magics.namespace" in sys.modules
    try:
        pydot = _pydot("plot_model")
        if not _check_graphviz(pydot):
            raise ImportError(_INSTALL_GRAPHVIZ)
    except ImportError as exc:
        if in_notebook:  # as Keras: a notebook prints the message instead of failing
            print(exc)
            return None
        raise
    if kwargs.pop("layer_range", None) is not None:
        raise ValueError("plot_model's layer_range argument is no longer supported (Keras 3).")
    if kwargs:
        raise ValueError(f"plot_model got unexpected keyword arguments: {sorted(kwargs)}.")
    dot = model_to_dot(
        model,
        show_shapes=show_shapes,
        show_dtype=show_dtype,
        show_layer_names=show_layer_names,
        rankdir=rankdir,
        expand_nested=expand_nested,
        dpi=dpi,
        show_layer_activations=show_layer_activations,
        show_trainable=show_trainable,
        splines=splines,
    )
    to_file = os.fspath(to_file)
    extension = os.path.splitext(to_file)[1][1:] or "png"
    dot.write(to_file, format=extension)
    if extension != "pdf":
        try:
            from IPython import display
        except ImportError:
            return None
        return display.Image(filename=to_file)
    return None
