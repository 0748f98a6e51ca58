"""`Pipeline`: preprocessing layers applied in sequence, on tensors or data dicts."""

from mb_graph import tree
from mb_layers import _registry
from mb_layers._layer import Layer
from mb_layers._masking import get_keras_mask


class Pipeline(Layer):
    """Applies `layers` one after the other (like `Sequential`, but a plain layer).

    Unlike `Sequential`, a pipeline is not a model: it has no weights of its own
    to train and passes any structure through, such as the data dicts of the
    image layers (``{"images": ..., "labels": ...}``). `training` and the
    masks of the outputs reach each layer that takes them.

    Args:
        layers: the layers, in order.
        name: the layer's name.

    Example:
        >>> import numpy as np
        >>> from mb_layers.layers import Rescaling
        >>> pipeline = Pipeline([Rescaling(2.0), Rescaling(1.0, offset=1.0)])
        >>> np.asarray(pipeline(np.array([1.0, 2.0], "float32"))).tolist()
        [3.0, 5.0]
    """

    def __init__(self, layers, name=None):
        super().__init__(name=name)
        if not isinstance(layers, (list, tuple)) or not all(isinstance(x, Layer) for x in layers):
            raise ValueError(
                f"Pipeline takes a list of layers. Received: {layers!r}. Build it as "
                "Pipeline([layer_1, layer_2, ...])."
            )
        self._pipeline_layers = list(layers)
        self._convert_input_args = False
        self._allow_non_tensor_positional_args = True
        self.built = True

    @property
    def layers(self):
        """The layers of the pipeline, in order."""
        return self._pipeline_layers

    def call(self, inputs, training=True, mask=None):
        for layer in self._pipeline_layers:
            kwargs = {}
            if layer._call_has_mask_arg:
                kwargs["mask"] = mask
            if layer._call_has_training_arg and training is not None:
                kwargs["training"] = training
            inputs = layer(inputs, **kwargs)
            mask = tree.map_structure(get_keras_mask, inputs)
        return inputs

    def get_config(self):
        return {
            "layers": [_registry.serialize(layer) for layer in self._pipeline_layers],
            "name": self.name,
        }

    @classmethod
    def from_config(cls, config):
        layers = config.get("layers")
        if not isinstance(layers, (list, tuple)):
            raise ValueError(
                "A Pipeline config needs a `layers` list of serialized layers. Received: "
                f"layers={layers!r}."
            )
        layers = [_registry.deserialize(x) for x in layers]  # custom ones: from the scope
        return cls(**{**config, "layers": layers})
