"""`clone_model`: the same architecture with new layers (and fresh weights)."""

from mb_graph import is_keras_tensor, tree
from mb_layers import Input, InputLayer, Layer
from mb_layers._functional import Functional as _FunctionalNetwork
from mb_layers._sequential import Sequential as _SequentialNetwork
from mb_train import _saving_hook
from mb_train._model._functional import Functional
from mb_train._model._sequential import Sequential


def _default_clone(layer):
    return layer.__class__.from_config(layer.get_config())


def clone_model(
    model, input_tensors=None, clone_function=None, call_function=None, recursive=False, **kwargs
):
    """A new model with the architecture of `model` (``keras.models.clone_model``).

    Every layer is replaced by ``clone_function(layer)`` (default: a new layer from
    its config, so the weights are freshly initialized, not copied; pass
    ``lambda layer: layer`` to share a layer). A layer shared inside `model` is
    cloned once and stays shared in the clone. A compiled model's clone is compiled
    the same way (``compile_from_config(model.get_compile_config())``, as Keras), with
    a new optimizer and new metrics; that needs mb-saving loaded (``import mb`` loads
    it), which serializes the configuration; without it the clone is left uncompiled.

    Args:
        model: a functional model, a `Sequential`, or a subclassed model (cloned
            through ``from_config(get_config())``; it takes no other argument).
        input_tensors: KerasTensors (same structure as the model's inputs) to build
            the clone on, instead of new `Input`s.
        clone_function: ``layer -> new layer``.
        call_function: ``(layer, *args, **kwargs) -> outputs``, called instead of
            ``layer(*args, **kwargs)`` while the clone's graph is built (to wrap or
            insert operations).
        recursive: also clone the layers of nested functional and sequential
            models with `clone_function` (otherwise a nested model goes to
            `clone_function` as a whole).

    Returns:
        The new model.

    Example:

    >>> import mb_layers
    >>> inp = mb_layers.Input((3,))
    >>> model = Functional(inp, mb_layers.layers.Dense(2, name="d")(inp))
    >>> clone = clone_model(model)
    >>> clone.get_layer("d") is model.get_layer("d")
    False
    """
    if kwargs:
        raise TypeError(f"clone_model got unexpected keyword arguments: {sorted(kwargs)}.")
    new = _clone_architecture(model, input_tensors, clone_function, call_function, recursive)
    compiled = getattr(model, "compiled", False) and hasattr(new, "compile_from_config")
    if compiled and _saving_hook.has_saving_implementation():
        new.compile_from_config(model.get_compile_config())
    return new


def _clone_architecture(model, input_tensors, clone_function, call_function, recursive):
    custom = clone_function is not None or call_function is not None or recursive
    if clone_function is None:
        clone_function = _default_clone
    if isinstance(model, _SequentialNetwork):
        return _clone_sequential(model, input_tensors, clone_function, call_function, recursive)
    if isinstance(model, _FunctionalNetwork):
        return _clone_functional(model, input_tensors, clone_function, call_function, recursive)
    if custom or input_tensors is not None:
        raise ValueError(
            "clone_model of a subclassed model only supports the default arguments: it "
            "is rebuilt with `model.__class__.from_config(model.get_config())`. Received "
            f"a {type(model).__name__} with input_tensors, clone_function, call_function "
            "or recursive set. Build the model functionally to clone it layer by layer."
        )
    return model.__class__.from_config(model.get_config())


def _layer_cloner(clone_function, recursive, call_function):
    cloned = {}

    def clone(layer):
        key = id(layer)
        if key not in cloned:
            if recursive and isinstance(layer, _SequentialNetwork | _FunctionalNetwork):
                cloned[key] = clone_model(
                    layer,
                    clone_function=clone_function,
                    call_function=call_function,
                    recursive=True,
                )
            else:
                new = clone_function(layer)
                if not isinstance(new, Layer):
                    raise ValueError(
                        "clone_function must return a Layer. For layer "
                        f"'{layer.name}' it returned {new!r} (of type {type(new).__name__})."
                    )
                cloned[key] = new
        return cloned[key]

    return clone


def _new_inputs(model, input_tensors):
    if input_tensors is None:
        return tree.map_structure(
            lambda x: Input(batch_shape=x.shape, dtype=x.dtype, sparse=x.sparse, name=x.name),
            model._inputs_struct,
        )
    flat_given, flat_model = tree.flatten(input_tensors), tree.flatten(model._inputs_struct)
    if len(flat_given) != len(flat_model) or not all(is_keras_tensor(x) for x in flat_given):
        raise ValueError(
            f"clone_model: input_tensors must be {len(flat_model)} KerasTensor(s) (e.g. from "
            f"mb.Input), one per input of '{model.name}'. Received: {input_tensors!r}."
        )
    return tree.pack_sequence_as(model._inputs_struct, flat_given)


def _clone_functional(model, input_tensors, clone_function, call_function, recursive):
    clone = _layer_cloner(clone_function, recursive, call_function)
    inputs = _new_inputs(model, input_tensors)

    def operation_fn(operation):
        return clone(operation) if isinstance(operation, Layer) else operation

    def call_fn(operation, *args, **kwargs):
        if call_function is not None and isinstance(operation, Layer):
            return call_function(operation, *args, **kwargs)
        return operation(*args, **kwargs)

    outputs = model._run_through_graph(inputs, operation_fn=operation_fn, call_fn=call_fn)
    cls = model.__class__ if issubclass(model.__class__, Functional) else Functional
    try:
        new = cls(inputs, outputs, name=model.name, trainable=model.trainable)
    except TypeError:  # a subclass of Functional with its own constructor
        new = Functional(inputs, outputs, name=model.name, trainable=model.trainable)
    return new


def _clone_sequential(model, input_tensors, clone_function, call_function, recursive):
    clone = _layer_cloner(clone_function, recursive, call_function)
    first = model._layers[0] if model._layers else None
    layers = [clone(layer) for layer in model._layers if not isinstance(layer, InputLayer)]
    if input_tensors is None and call_function is None:
        if isinstance(first, InputLayer):
            layers.insert(
                0, InputLayer(batch_shape=first.batch_shape, dtype=first.dtype, name=first.name)
            )
        return Sequential(layers, trainable=model.trainable, name=model.name)
    # With given inputs or a call_function the stack is wired functionally.
    if input_tensors is not None:
        given = tree.flatten(input_tensors)
        if len(given) != 1 or not is_keras_tensor(given[0]):
            raise ValueError(
                "clone_model: a Sequential takes one KerasTensor as input_tensors. "
                f"Received: {input_tensors!r}."
            )
        x = inputs = given[0]
    elif isinstance(first, InputLayer):
        x = inputs = Input(batch_shape=first.batch_shape, dtype=first.dtype, name=first.name)
    else:
        raise ValueError(
            f"clone_model with call_function needs Sequential '{model.name}' to know its "
            "input: give it an Input first, or pass input_tensors."
        )
    for layer in layers:
        x = call_function(layer, x) if call_function is not None else layer(x)
    return Functional(inputs, x, name=model.name, trainable=model.trainable)
