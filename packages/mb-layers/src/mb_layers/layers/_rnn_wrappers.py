"""Wrappers that run a layer over time: `Bidirectional` and `TimeDistributed`."""

from mb_graph import tree
from mb_layers import _registry
from mb_layers._layer import Layer
from mb_layers._masking import get_keras_mask
from mb_layers._ops import ops
from mb_layers.layers._wrappers import WrapsLayer, wrapped_layer


def _reverse_time(x):
    return ops.flip(x, axis=1)


class Bidirectional(Layer):
    """Runs a recurrent layer forwards and backwards and merges the outputs.

    Args:
        layer: the recurrent layer (its config makes the forward copy).
        merge_mode: ``"concat"``, ``"sum"``, ``"mul"``, ``"ave"`` or None
            (return both).
        weights: None or a list of initial weights (forward layer's, then backward's).
        backward_layer: optional explicit backward layer.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> from mb_layers.layers import GRU, LSTM
    >>> x = np.ones((2, 5, 3), "float32")
    >>> ops.shape(Bidirectional(LSTM(4))(x))  # forward and backward concatenated
    (2, 8)
    >>> ops.shape(Bidirectional(GRU(4, return_sequences=True), merge_mode="sum")(x))
    (2, 5, 4)
    """

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None, **kwargs):
        if merge_mode not in ("concat", "sum", "mul", "ave", None):
            raise ValueError(
                "Bidirectional merge_mode must be 'concat', 'sum', 'mul', 'ave' or None. "
                f"Received: merge_mode={merge_mode!r}."
            )
        super().__init__(**kwargs)
        forward_config = _registry.serialize(layer)
        base_name = layer.name.removeprefix("forward_").removeprefix("backward_")
        forward_config["config"]["name"] = "forward_" + base_name
        forward_config.pop("build_config", None)
        self.forward_layer = _registry.deserialize(forward_config)
        if backward_layer is None:
            backward_config = _registry.serialize(layer)
            backward_config.pop("build_config", None)
            backward_config["config"]["name"] = "backward_" + base_name
            backward_config["config"]["go_backwards"] = not layer.go_backwards
            backward_layer = _registry.deserialize(backward_config)
        for flag in ("return_sequences", "return_state"):
            if getattr(backward_layer, flag) != getattr(layer, flag):
                raise ValueError(
                    f"Bidirectional: the forward and backward layers must agree on `{flag}`. "
                    f"Received {flag}={getattr(layer, flag)} for '{layer.name}' and "
                    f"{getattr(backward_layer, flag)} for '{backward_layer.name}'."
                )
        self.backward_layer = backward_layer
        # As in Keras: layers returning sequences output zeros at masked steps, so the
        # merged output there does not depend on which direction carried its state over.
        for direction in (self.forward_layer, self.backward_layer):
            if getattr(direction, "zero_output_for_mask", None) is not None:
                direction.zero_output_for_mask = direction.return_sequences
        self.merge_mode = merge_mode
        self.stateful = layer.stateful
        self.return_sequences = layer.return_sequences
        self.return_state = layer.return_state
        self.supports_masking = True
        if weights is not None:
            raise NotImplementedError(
                "Bidirectional(weights=...) is not supported; use set_weights after building."
            )

    @property
    def states(self):
        """Both directions' states where they are stateful, else None."""
        forward, backward = self.forward_layer.states, self.backward_layer.states
        if forward and backward:
            return tuple(list(forward) + list(backward))
        return None

    def reset_state(self):
        """Zeroes both directions' states (a stateful layer only, as Keras)."""
        if not self.stateful:
            raise AttributeError(
                f"Bidirectional '{self.name}': reset_state() needs a stateful layer; "
                "this one wraps a layer built with stateful=False."
            )
        self.forward_layer.reset_state()
        self.backward_layer.reset_state()

    def reset_states(self):
        """An alias of `reset_state` (Keras 2's name)."""
        self.reset_state()

    def build(self, sequences_shape, initial_state_shape=None):
        self.forward_layer.build(sequences_shape)
        self.backward_layer.build(sequences_shape)

    def _merge(self, y, y_rev):
        if self.merge_mode == "concat":
            return ops.concatenate([y, y_rev], axis=-1)
        if self.merge_mode == "sum":
            return ops.add(y, y_rev)
        if self.merge_mode == "ave":
            return ops.divide(ops.add(y, y_rev), 2)
        if self.merge_mode == "mul":
            return ops.multiply(y, y_rev)
        return [y, y_rev]

    def call(self, sequences, initial_state=None, mask=None, training=None):
        kwargs = {"mask": mask, "training": training}
        if initial_state is not None:
            half = len(initial_state) // 2
            forward = self.forward_layer(sequences, initial_state=initial_state[:half], **kwargs)
            backward = self.backward_layer(sequences, initial_state=initial_state[half:], **kwargs)
        else:
            forward = self.forward_layer(sequences, **kwargs)
            backward = self.backward_layer(sequences, **kwargs)
        if self.return_state:
            forward, *forward_states = forward
            backward, *backward_states = backward
        if self.return_sequences:
            backward = _reverse_time(backward)
        output = self._merge(forward, backward)
        if self.return_state:
            outputs = output if isinstance(output, list) else [output]
            return [*outputs, *forward_states, *backward_states]
        return output

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        shape = self.forward_layer.compute_output_shape(sequences_shape)
        states = []
        if self.return_state:
            shape, states = shape[0], list(shape[1:])
        if self.merge_mode == "concat":
            output = (*shape[:-1], shape[-1] * 2)
            outputs = [output]
        elif self.merge_mode is None:
            outputs = [shape, shape]
        else:
            outputs = [shape]
        if self.return_state:
            return [*outputs, *states, *states]
        return outputs[0] if len(outputs) == 1 else outputs

    def compute_mask(self, _, mask):
        mask = mask[0] if isinstance(mask, (list, tuple)) else mask
        return mask if self.return_sequences and not self.return_state else None

    def get_config(self):
        return {
            **super().get_config(),
            "merge_mode": self.merge_mode,
            "layer": _registry.serialize(self.forward_layer),
            "backward_layer": _registry.serialize(self.backward_layer),
        }

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        layer = _registry.deserialize(config.pop("layer"), custom_objects=custom_objects)
        backward = config.pop("backward_layer", None)
        if backward is not None:
            backward = _registry.deserialize(backward, custom_objects=custom_objects)
        return cls(layer, backward_layer=backward, **config)


class TimeDistributed(WrapsLayer, Layer):
    """Applies `layer` to every step of ``(batch, steps, ...)`` inputs.

    The same layer (the same weights) runs on each slice ``inputs[:, t]``.

    Args:
        layer: the layer applied at each step.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> from mb_layers.layers import Dense
    >>> layer = TimeDistributed(Dense(2))
    >>> ops.shape(layer(np.ones((4, 10, 3), "float32")))
    (4, 10, 2)
    >>> tuple(layer.layer.kernel.shape)  # one kernel for every step
    (3, 2)
    """

    def __init__(self, layer, **kwargs):
        super().__init__(**kwargs)
        self.layer = wrapped_layer(self, layer)
        self.supports_masking = True

    def build(self, input_shape):
        if len(input_shape) < 3:
            raise ValueError(
                "TimeDistributed needs inputs of rank 3 or more (batch, steps, ...). "
                f"Received: input shape {tuple(input_shape)}."
            )
        if not self.layer.built:
            self.layer.build((None, *tuple(input_shape)[2:]))
            self.layer.built = True

    def compute_output_shape(self, input_shape):
        inner = self.layer.compute_output_shape((None, *tuple(input_shape)[2:]))
        return (input_shape[0], input_shape[1], *tuple(inner)[1:])

    def call(self, inputs, training=None, mask=None):
        batch, steps = inputs.shape[0], inputs.shape[1]
        flat = ops.reshape(inputs, (-1, *inputs.shape[2:]))
        kwargs = {}
        if self.layer._call_has_training_arg and training is not None:
            kwargs["training"] = training
        outputs = self.layer(flat, **kwargs)
        return tree.map_structure(lambda y: ops.reshape(y, (batch, steps, *y.shape[1:])), outputs)

    def compute_mask(self, inputs, previous_mask):
        return previous_mask if previous_mask is not None else get_keras_mask(inputs)
