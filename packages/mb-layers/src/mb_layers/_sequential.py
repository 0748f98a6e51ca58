"""`Sequential`: a stack of layers, each called on the output of the previous one."""

import inspect

from mb_graph import standardize_shape, tree
from mb_layers import _registry, _tf_data
from mb_layers._functional import Functional
from mb_layers._input_layer import InputLayer
from mb_layers._layer import Layer
from mb_layers._masking import get_keras_mask
from mb_ops import name_scope


class Sequential(Layer):
    """Layers applied one after the other (``keras.Sequential``, without training code).

    With an `Input` (or an `InputLayer`) first, the stack is built at once as
    a functional graph; without one it is built on its first call. mb-train's
    ``Sequential`` model extends this class.

    Args:
        layers: the layers (an `Input` KerasTensor may come first).
        trainable: whether its variables are trained.
        name: the stack's name.

    Example:

    >>> from mb_layers import Input
    >>> from mb_layers.layers import Dense
    >>> net = Sequential([Input((4,)), Dense(8), Dense(2)])
    >>> [w.path for w in net.weights][:2]
    ['sequential/dense/kernel', 'sequential/dense/bias']
    """

    _wrap_build = False
    _untracked_attributes = frozenset({"_functional"})

    def __call__(self, *args, **kwargs):
        # `dataset.map(model)` on a backend other than tensorflow: the whole model runs
        # on the host, batch by batch, as its preprocessing layers would.
        if _tf_data.traced_by_tf(args):
            return _tf_data.call_in_tf_graph(self, super().__call__, args, kwargs)
        return super().__call__(*args, **kwargs)

    def __init__(self, layers=None, trainable=True, name=None):
        super().__init__(trainable=trainable, name=name)
        self._functional = None
        self._layers = []
        if layers:
            for layer in layers:
                self.add(layer, rebuild=False)
            self._maybe_rebuild()

    def add(self, layer, rebuild=True):
        """Appends a layer (or an `Input` tensor, which becomes the input layer)."""
        history = getattr(layer, "_keras_history", None)
        if history is not None and isinstance(history.operation, InputLayer):
            layer = history.operation
        if not isinstance(layer, Layer):
            raise ValueError(
                "Only layers can be added to a Sequential network. Received: "
                f"{layer!r} (of type {type(layer).__name__})."
            )
        if any(existing.name == layer.name for existing in self._layers):
            raise ValueError(
                f"All layers added to Sequential '{self.name}' must have unique names; "
                f"'{layer.name}' is already there. Give the layer another `name`."
            )
        if (
            isinstance(layer, InputLayer)
            and self._layers
            and isinstance(self._layers[0], InputLayer)
        ):
            raise ValueError(
                f"Sequential '{self.name}' already has an input layer; an InputLayer can "
                "only come first."
            )
        self._layers.append(layer)
        if rebuild:
            self._maybe_rebuild()
        else:
            self.built = False
            self._functional = None

    def pop(self, rebuild=True):
        """Removes and returns the last layer."""
        if not self.layers:
            raise ValueError(f"Sequential '{self.name}' has no layers to pop.")
        layer = self._layers.pop()
        self.built = False
        self._functional = None
        if rebuild:
            self._maybe_rebuild()
        return layer

    def _maybe_rebuild(self):
        self.built = False
        self._functional = None
        if self._layers and isinstance(self._layers[0], InputLayer) and len(self._layers) > 1:
            self.build(self._layers[0].batch_shape)
        elif self._layers and self._layers[0]._input_shape_arg is not None:
            self.build((None, *self._layers[0]._input_shape_arg))

    @property
    def layers(self):
        """The layers added (the input layer excluded, as in Keras)."""
        layers = list(self._layers)
        if layers and isinstance(layers[0], InputLayer):
            return layers[1:]
        return layers

    def build(self, input_shape=None):
        """Builds the stack as a functional graph for inputs of `input_shape`."""
        try:
            input_shape = standardize_shape(input_shape)
        except (ValueError, TypeError):
            return  # Nested inputs: the stack is run layer by layer instead.
        if not self._layers:
            raise ValueError(
                f"Sequential '{self.name}' cannot be built because it has no layers. "
                "Call `add(layer)` first."
            )
        if isinstance(self._layers[0], InputLayer):
            expected = self._layers[0].batch_shape
            if len(expected) != len(input_shape) or any(
                e is not None and d is not None and e != d
                for e, d in zip(expected, input_shape, strict=False)
            ):
                raise ValueError(
                    f"Sequential '{self.name}' has the input shape {expected}; it cannot be "
                    f"built for input_shape {input_shape}."
                )
        else:
            input_shape = (None, *input_shape[1:])
            dtype = self._layers[0].compute_dtype
            self._layers = [InputLayer(batch_shape=input_shape, dtype=dtype), *self._layers]
        with name_scope(self.name, caller=self):
            inputs = self._layers[0].output
            x = inputs
            for layer in self._layers[1:]:
                try:
                    x = layer(x)
                except NotImplementedError:
                    return
                except TypeError:
                    params = [
                        p
                        for p in inspect.signature(layer.call).parameters.values()
                        if p.default is p.empty and p.kind is p.POSITIONAL_OR_KEYWORD
                    ]
                    if len(params) != 1:
                        raise ValueError(
                            "Layers in a Sequential network take a single positional "
                            f"argument; layer '{layer.name}' takes {len(params)}. Use a "
                            "functional network instead."
                        ) from None
                    raise
            self._functional = Functional(inputs=inputs, outputs=x)
        self._build_shapes_dict = {"input_shape": self._layers[0].batch_shape}
        self.built = True

    def call(self, inputs, training=None, mask=None, **kwargs):
        if self._functional is not None:
            return self._functional.call(inputs, training=training, mask=mask)
        outputs = inputs
        for layer in self.layers:
            # Other call arguments reach only the layers whose `call` names them.
            layer_kwargs = {
                k: v for k, v in kwargs.items() if k in layer._call_signature.parameters
            }
            if layer._call_has_mask_arg and mask is not None:
                layer_kwargs["mask"] = mask
            if layer._call_has_training_arg and training is not None:
                layer_kwargs["training"] = training
            outputs = layer(inputs, **layer_kwargs)
            inputs = outputs
            mask = tree.map_structure(get_keras_mask, outputs)
        return outputs

    def compute_output_spec(self, inputs, training=None, mask=None, **kwargs):
        if self._functional is not None:
            return self._functional.compute_output_spec(inputs, training=training, mask=mask)
        outputs = inputs
        for layer in self.layers:
            outputs = layer.compute_output_spec(inputs)
            inputs = outputs
        return outputs

    def compute_output_shape(self, input_shape):
        if self._functional is not None:
            return self._functional.compute_output_shape(input_shape)
        output_shape = input_shape
        for layer in self.layers:
            output_shape = layer.compute_output_shape(input_shape)
            input_shape = output_shape
        return output_shape

    def compute_mask(self, inputs, previous_mask):
        return None

    @property
    def input(self):
        if self._functional is None:
            raise AttributeError(f"Sequential '{self.name}' is not built, so it has no input.")
        return self._functional.input

    @property
    def output(self):
        if self._functional is None:
            raise AttributeError(f"Sequential '{self.name}' is not built, so it has no output.")
        return self._functional.output

    @property
    def inputs(self):
        """The flat list of symbolic inputs, once built (as ``Functional.inputs``)."""
        return self._built_functional("inputs").inputs

    @property
    def outputs(self):
        """The flat list of symbolic outputs, once built (as ``Functional.outputs``)."""
        return self._built_functional("outputs").outputs

    @property
    def input_shape(self):
        return self._built_functional("input shape").input_shape

    @property
    def output_shape(self):
        return self._built_functional("output shape").output_shape

    def _built_functional(self, what):
        if self._functional is None:
            raise AttributeError(
                f"Sequential model '{self.name}' has no defined {what} yet: build it "
                "first (start it with an `Input`, call it on data, or call "
                "`build(input_shape)`)."
            )
        return self._functional

    def get_layer(self, name=None, index=None):
        """The layer called `name` (or at position `index` of `layers`)."""
        if index is not None:
            return self.layers[index]
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError(
            f"No layer named '{name}' in Sequential '{self.name}'. Layers: "
            f"{', '.join(layer.name for layer in self.layers)}."
        )

    def get_config(self):
        """``name``, ``trainable``, ``dtype``, ``layers`` (input layer first) and
        ``build_input_shape``, as Keras 3 writes them."""
        config = Layer.get_config(self)
        config.pop("activity_regularizer", None)
        config["layers"] = [_registry.serialize(layer) for layer in self._layers]
        if self._functional is not None:
            config["build_input_shape"] = self._layers[0].batch_shape
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        if isinstance(config, list):
            config = {"layers": config}
        model = cls(name=config.get("name"), trainable=config.get("trainable", True))
        for layer_config in config["layers"]:
            model.add(
                _registry.deserialize(layer_config, custom_objects=custom_objects), rebuild=False
            )
        model._maybe_rebuild()
        build_input_shape = config.get("build_input_shape")
        if model._functional is None and isinstance(build_input_shape, (list, tuple)):
            model.build(tuple(build_input_shape))
        return model


_registry.register_builtin(Sequential, module="keras")
