"""Recurrent cells: `SimpleRNNCell`, `LSTMCell`, `GRUCell`, `StackedRNNCells`.

A cell computes one step: ``output, new_states = cell(inputs, states)``.
"""

from mb_layers import _registry, activations, initializers
from mb_layers._layer import Layer
from mb_layers._ops import ops
from mb_layers._ops import random as random_ops
from mb_layers.layers._arguments import (
    add_weight_of,
    base_arguments,
    serialized_arguments,
    set_weight_arguments,
    weight_arguments,
)
from mb_ops.random import SeedGenerator


def _project(x, masks, kernel, op, axis=-1):
    """``op(x, kernel)`` with `x` dropped out by `masks`: one mask for every gate, or a
    list of one mask per gate (each gate's slice of `kernel`'s last axis), as Keras."""
    if not isinstance(masks, list):
        return op(x if masks is None else ops.multiply(x, masks), kernel)
    parts = ops.split(kernel, len(masks), axis=-1)
    return ops.concatenate(
        [op(ops.multiply(x, m), k) for m, k in zip(masks, parts, strict=True)], axis=axis
    )


class _DropoutCell(Layer):
    """Dropout masks drawn once per sequence (shared by all steps), as Keras's
    `DropoutRNNCell`: one mask, or one per gate where ``dropout_mask_count`` is set."""

    dropout_mask_count = None

    def _init_dropout(self, dropout, recurrent_dropout, seed):
        self.dropout = min(1.0, max(0.0, dropout))
        self.recurrent_dropout = min(1.0, max(0.0, recurrent_dropout))
        self.seed = seed
        self.seed_generator = SeedGenerator(seed)
        self._dropout_mask = None
        self._recurrent_dropout_mask = None

    def _create_dropout_mask(self, step_input, rate):
        ones = ops.ones_like(step_input)
        if self.dropout_mask_count is None:
            return random_ops.dropout(ones, rate, seed=self.seed_generator)
        return [
            random_ops.dropout(ones, rate, seed=self.seed_generator)
            for _ in range(self.dropout_mask_count)
        ]

    def get_dropout_mask(self, step_input):
        """The input dropout mask(s) of this sequence, drawn on first use (None without
        dropout)."""
        if self._dropout_mask is None and self.dropout > 0:
            self._dropout_mask = self._create_dropout_mask(step_input, self.dropout)
        return self._dropout_mask

    def get_recurrent_dropout_mask(self, step_input):
        """The state dropout mask(s) of this sequence, drawn on first use (None without
        recurrent dropout)."""
        if self._recurrent_dropout_mask is None and self.recurrent_dropout > 0:
            self._recurrent_dropout_mask = self._create_dropout_mask(
                step_input, self.recurrent_dropout
            )
        return self._recurrent_dropout_mask

    def reset_dropout_mask(self):
        """Forgets the input mask (the next sequence draws its own)."""
        self._dropout_mask = None

    def reset_recurrent_dropout_mask(self):
        """Forgets the state mask (the next sequence draws its own)."""
        self._recurrent_dropout_mask = None

    def _step_masks(self, inputs, h_tm1, training):
        """The (input, state) masks this step applies: None where there is no dropout."""
        input_mask = state_mask = None
        if training and 0 < self.dropout < 1:
            input_mask = self.get_dropout_mask(inputs)
        if training and 0 < self.recurrent_dropout < 1:
            state_mask = self.get_recurrent_dropout_mask(h_tm1)
        return input_mask, state_mask

    def get_initial_state(self, batch_size=None):
        sizes = self.state_size if isinstance(self.state_size, list) else [self.state_size]
        return [ops.zeros((batch_size, size), dtype=self.compute_dtype) for size in sizes]


class _GatedCell(_DropoutCell):
    _gates = 1

    def __init__(
        self,
        units,
        activation="tanh",
        recurrent_activation="sigmoid",
        use_bias=True,
        kernel_initializer="glorot_uniform",
        recurrent_initializer="orthogonal",
        bias_initializer="zeros",
        kernel_regularizer=None,
        recurrent_regularizer=None,
        bias_regularizer=None,
        kernel_constraint=None,
        recurrent_constraint=None,
        bias_constraint=None,
        dropout=0.0,
        recurrent_dropout=0.0,
        seed=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        if not isinstance(units, int) or units <= 0:
            raise ValueError(f"`units` must be a positive int. Received: units={units!r}.")
        self.units = units
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = use_bias
        set_weight_arguments(self, locals(), "kernel", "recurrent", "bias")
        self._init_dropout(dropout, recurrent_dropout, seed)
        self.output_size = units

    def _set_implementation(self, implementation):
        """Keras's `implementation`: 2 (all gates in one product) unless recurrent dropout
        asks for 1 (a dropout mask per gate)."""
        self.implementation = 1 if self.recurrent_dropout != 0.0 else implementation
        if self.implementation == 1:
            self.dropout_mask_count = self._gates

    def _build_kernels(self, input_dim, bias_shape, bias_initializer):
        width = self._gates * self.units
        self.kernel = add_weight_of(self, "kernel", (input_dim, width))
        self.recurrent_kernel = add_weight_of(
            self, "recurrent", (self.units, width), name="recurrent_kernel"
        )
        self.bias = (
            add_weight_of(self, "bias", bias_shape, initializer=bias_initializer)
            if self.use_bias
            else None
        )

    def _cell_config(self):
        return {
            "units": self.units,
            **serialized_arguments(self, "activation", "recurrent_activation"),
            "use_bias": self.use_bias,
            **weight_arguments(self, "kernel", "recurrent", "bias"),
            "dropout": self.dropout,
            "recurrent_dropout": self.recurrent_dropout,
            "seed": self.seed,
        }

    def get_config(self):
        return {**super().get_config(), **self._cell_config()}


class SimpleRNNCell(_GatedCell):
    """``output = activation(x @ kernel + h @ recurrent_kernel + bias)``.

    One step of ``SimpleRNN``; ``RNN(SimpleRNNCell(units))`` is the same layer.

    Args:
        units: the size of the output and the state.
        activation: the activation of the output (and candidate state); default ``"tanh"``.
        use_bias: whether to add a bias.
        kernel_initializer: the initializer of the input kernel.
        recurrent_initializer: the initializer of the recurrent kernel.
        bias_initializer: the initializer of the bias.
        kernel_regularizer, recurrent_regularizer, bias_regularizer: penalties on
            the weights.
        kernel_constraint, recurrent_constraint, bias_constraint: projections applied
            to the weights after updates.
        dropout: the fraction of the inputs dropped in training (one mask per
            sequence).
        recurrent_dropout: the fraction of the recurrent state dropped in training.
        seed: an int for reproducible dropout masks.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Call arguments:
        inputs: a tensor ``(batch, features)``: one step.
        states: the previous states: a list ``[h]``.
        training: whether dropout applies.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> cell = SimpleRNNCell(4)
    >>> output, states = cell(np.ones((2, 3), "float32"), [np.zeros((2, 4), "float32")])
    >>> ops.shape(output), [ops.shape(s) for s in states]
    ((2, 4), [(2, 4)])
    """

    def __init__(
        self,
        units,
        activation="tanh",
        use_bias=True,
        kernel_initializer="glorot_uniform",
        recurrent_initializer="orthogonal",
        bias_initializer="zeros",
        kernel_regularizer=None,
        recurrent_regularizer=None,
        bias_regularizer=None,
        kernel_constraint=None,
        recurrent_constraint=None,
        bias_constraint=None,
        dropout=0.0,
        recurrent_dropout=0.0,
        seed=None,
        **kwargs,
    ):
        super().__init__(
            units,
            activation,
            None,
            use_bias,
            kernel_initializer,
            recurrent_initializer,
            bias_initializer,
            kernel_regularizer,
            recurrent_regularizer,
            bias_regularizer,
            kernel_constraint,
            recurrent_constraint,
            bias_constraint,
            dropout,
            recurrent_dropout,
            seed,
            **kwargs,
        )
        self.state_size = units

    def build(self, input_shape):
        self._build_kernels(input_shape[-1], (self.units,), self.bias_initializer)

    def call(self, sequence, states, training=False):
        prev = states[0] if isinstance(states, (list, tuple)) else states
        input_mask, state_mask = self._step_masks(sequence, prev, training)
        h = _project(sequence, input_mask, self.kernel, ops.matmul)
        if self.bias is not None:
            h = ops.add(h, self.bias)
        recurrent = _project(prev, state_mask, self.recurrent_kernel, ops.matmul)
        output = self.activation(ops.add(h, recurrent))
        return output, ([output] if isinstance(states, (list, tuple)) else output)

    def get_config(self):
        config = super().get_config()
        config.pop("recurrent_activation")
        return config


class LSTMCell(_GatedCell):
    """One step of a long short-term memory (gates i, f, c, o; states [h, c]).

    Args:
        units: the size of the output and of the two states.
        activation: the activation of the output (and candidate state); default ``"tanh"``.
        recurrent_activation: the activation of the gates; default ``"sigmoid"``.
        use_bias: whether to add a bias.
        kernel_initializer: the initializer of the input kernel.
        recurrent_initializer: the initializer of the recurrent kernel.
        bias_initializer: the initializer of the bias.
        unit_forget_bias: add 1 to the forget gate's initial bias.
        kernel_regularizer, recurrent_regularizer, bias_regularizer: penalties on
            the weights.
        kernel_constraint, recurrent_constraint, bias_constraint: projections applied
            to the weights after updates.
        dropout: the fraction of the inputs dropped in training (one mask per
            sequence).
        recurrent_dropout: the fraction of the recurrent state dropped in training.
        seed: an int for reproducible dropout masks.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Call arguments:
        inputs: a tensor ``(batch, features)``: one step.
        states: the previous states: a list ``[h, c]``.
        training: whether dropout applies.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> cell = LSTMCell(4)
    >>> h = c = np.zeros((2, 4), "float32")
    >>> output, states = cell(np.ones((2, 3), "float32"), [h, c])
    >>> ops.shape(output), [ops.shape(s) for s in states]
    ((2, 4), [(2, 4), (2, 4)])
    >>> tuple(cell.kernel.shape)  # the four gates side by side
    (3, 16)
    """

    _gates = 4

    def __init__(
        self,
        units,
        activation="tanh",
        recurrent_activation="sigmoid",
        use_bias=True,
        kernel_initializer="glorot_uniform",
        recurrent_initializer="orthogonal",
        bias_initializer="zeros",
        unit_forget_bias=True,
        kernel_regularizer=None,
        recurrent_regularizer=None,
        bias_regularizer=None,
        kernel_constraint=None,
        recurrent_constraint=None,
        bias_constraint=None,
        dropout=0.0,
        recurrent_dropout=0.0,
        seed=None,
        **kwargs,
    ):
        implementation = kwargs.pop("implementation", 2)
        super().__init__(**base_arguments(_GatedCell.__init__, locals()))
        self._set_implementation(implementation)
        self.unit_forget_bias = unit_forget_bias
        self.state_size = [units, units]

    def build(self, input_shape):
        bias_initializer = self.bias_initializer
        if self.unit_forget_bias:
            base, units = self.bias_initializer, self.units

            def bias_initializer(shape, dtype=None):
                return ops.concatenate(
                    [
                        base((units,), dtype=dtype),
                        initializers.Ones()((units,), dtype=dtype),
                        base((2 * units,), dtype=dtype),
                    ]
                )

        self._build_kernels(input_shape[-1], (4 * self.units,), bias_initializer)

    def call(self, inputs, states, training=False):
        h_tm1, c_tm1 = states[0], states[1]
        input_mask, state_mask = self._step_masks(inputs, h_tm1, training)
        z = ops.add(
            _project(inputs, input_mask, self.kernel, ops.matmul),
            _project(h_tm1, state_mask, self.recurrent_kernel, ops.matmul),
        )
        if self.bias is not None:
            z = ops.add(z, self.bias)
        z0, z1, z2, z3 = ops.split(z, 4, axis=-1)
        i = self.recurrent_activation(z0)
        f = self.recurrent_activation(z1)
        c = ops.add(ops.multiply(f, c_tm1), ops.multiply(i, self.activation(z2)))
        o = self.recurrent_activation(z3)
        h = ops.multiply(o, self.activation(c))
        return h, [h, c]

    def _cell_config(self):
        config = super()._cell_config()
        config["unit_forget_bias"] = self.unit_forget_bias
        return config


class GRUCell(_GatedCell):
    """One step of a gated recurrent unit (gates z, r, h).

    Args:
        units: the size of the output and the state.
        activation: the activation of the output (and candidate state); default ``"tanh"``.
        recurrent_activation: the activation of the gates; default ``"sigmoid"``.
        use_bias: whether to add a bias.
        kernel_initializer: the initializer of the input kernel.
        recurrent_initializer: the initializer of the recurrent kernel.
        bias_initializer: the initializer of the bias.
        kernel_regularizer, recurrent_regularizer, bias_regularizer: penalties on
            the weights.
        kernel_constraint, recurrent_constraint, bias_constraint: projections applied
            to the weights after updates.
        dropout: the fraction of the inputs dropped in training (one mask per
            sequence).
        recurrent_dropout: the fraction of the recurrent state dropped in training.
        seed: an int for reproducible dropout masks.
        reset_after: apply the reset gate after the recurrent matmul (the
            cuDNN-compatible form, Keras's default).
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Call arguments:
        inputs: a tensor ``(batch, features)``: one step.
        states: the previous states: a list ``[h]``.
        training: whether dropout applies.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> cell = GRUCell(4)
    >>> output, states = cell(np.ones((2, 3), "float32"), [np.zeros((2, 4), "float32")])
    >>> ops.shape(output), tuple(cell.kernel.shape)
    ((2, 4), (3, 12))
    """

    _gates = 3

    def __init__(
        self,
        units,
        activation="tanh",
        recurrent_activation="sigmoid",
        use_bias=True,
        kernel_initializer="glorot_uniform",
        recurrent_initializer="orthogonal",
        bias_initializer="zeros",
        kernel_regularizer=None,
        recurrent_regularizer=None,
        bias_regularizer=None,
        kernel_constraint=None,
        recurrent_constraint=None,
        bias_constraint=None,
        dropout=0.0,
        recurrent_dropout=0.0,
        reset_after=True,
        seed=None,
        **kwargs,
    ):
        implementation = kwargs.pop("implementation", 2)
        super().__init__(**base_arguments(_GatedCell.__init__, locals()))
        self._set_implementation(implementation)
        self.reset_after = reset_after
        self.state_size = units

    def build(self, input_shape):
        shape = (2, 3 * self.units) if self.reset_after else (3 * self.units,)
        self._build_kernels(input_shape[-1], shape, self.bias_initializer)

    def call(self, inputs, states, training=False):
        h_tm1 = states[0] if isinstance(states, (list, tuple)) else states
        input_mask, state_mask = self._step_masks(inputs, h_tm1, training)
        units = self.units
        if self.bias is None:
            input_bias = recurrent_bias = None
        elif self.reset_after:
            input_bias, recurrent_bias = self.bias[0], self.bias[1]
        else:
            input_bias, recurrent_bias = self.bias, None
        matrix_x = _project(inputs, input_mask, self.kernel, ops.matmul)
        if input_bias is not None:
            matrix_x = ops.add(matrix_x, input_bias)
        x_z, x_r, x_h = ops.split(matrix_x, 3, axis=-1)
        # The state as each gate sees it: one mask for all, or one per gate (z, r, h).
        if isinstance(state_mask, list):
            h_z, h_r, h_h = (ops.multiply(h_tm1, m) for m in state_mask)
        else:
            h_z = h_r = h_h = h_tm1 if state_mask is None else ops.multiply(h_tm1, state_mask)
        kernel = self.recurrent_kernel
        rec_z = ops.matmul(h_z, kernel[:, :units])
        rec_r = ops.matmul(h_r, kernel[:, units : 2 * units])
        if self.reset_after and recurrent_bias is not None:
            rec_z = ops.add(rec_z, recurrent_bias[:units])
            rec_r = ops.add(rec_r, recurrent_bias[units : 2 * units])
        z = self.recurrent_activation(ops.add(x_z, rec_z))
        r = self.recurrent_activation(ops.add(x_r, rec_r))
        if self.reset_after:
            rec_h = ops.matmul(h_h, kernel[:, 2 * units :])
            if recurrent_bias is not None:
                rec_h = ops.add(rec_h, recurrent_bias[2 * units :])
            rec_h = ops.multiply(r, rec_h)
        else:
            rec_h = ops.matmul(ops.multiply(r, h_h), kernel[:, 2 * units :])
        hh = self.activation(ops.add(x_h, rec_h))
        h = ops.add(ops.multiply(z, h_tm1), ops.multiply(ops.subtract(1.0, z), hh))
        return h, ([h] if isinstance(states, (list, tuple)) else h)

    def _cell_config(self):
        config = super()._cell_config()
        config["reset_after"] = self.reset_after
        return config


class StackedRNNCells(Layer):
    """Several cells run as one: each step feeds the output of one cell to the next.

    ``RNN([cell_a, cell_b])`` wraps its list of cells in this.

    Args:
        cells: a list of cells.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> from mb_layers.layers import RNN
    >>> cells = StackedRNNCells([LSTMCell(8), GRUCell(4)])
    >>> ops.shape(RNN(cells)(np.ones((2, 5, 3), "float32")))
    (2, 4)
    """

    def __init__(self, cells, **kwargs):
        super().__init__(**kwargs)
        for cell in cells:
            if not hasattr(cell, "call") or not hasattr(cell, "state_size"):
                raise ValueError(
                    f"StackedRNNCells takes cells with `call` and `state_size`. Received: {cell!r}"
                )
        self.cells = list(cells)

    @staticmethod
    def _sizes(cell):
        return cell.state_size if isinstance(cell.state_size, list) else [cell.state_size]

    @property
    def state_size(self):
        return [size for cell in self.cells for size in self._sizes(cell)]

    @property
    def output_size(self):
        last = self.cells[-1]
        return getattr(last, "output_size", self._sizes(last)[0])

    def get_initial_state(self, batch_size=None):
        return [s for cell in self.cells for s in cell.get_initial_state(batch_size)]

    def reset_dropout_mask(self):
        for cell in self.cells:
            if hasattr(cell, "reset_dropout_mask"):
                cell.reset_dropout_mask()

    def reset_recurrent_dropout_mask(self):
        for cell in self.cells:
            if hasattr(cell, "reset_recurrent_dropout_mask"):
                cell.reset_recurrent_dropout_mask()

    def build(self, input_shape):
        shape = tuple(input_shape)
        for cell in self.cells:
            if not cell.built:  # a reloaded cell may be built already (build_config)
                cell.build(shape)
                cell.built = True
            shape = (shape[0], getattr(cell, "output_size", self._sizes(cell)[0]))

    def call(self, inputs, states, training=False, **kwargs):
        new_states, start = [], 0
        for cell in self.cells:
            count = len(self._sizes(cell))
            cell_states = list(states[start : start + count])
            start += count
            inputs, cell_new = cell(inputs, cell_states, training=training, **kwargs)
            new_states.extend(cell_new if isinstance(cell_new, (list, tuple)) else [cell_new])
        return inputs, new_states

    def get_config(self):
        return {**super().get_config(), "cells": [_registry.serialize(c) for c in self.cells]}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        cells = [
            _registry.deserialize(c, custom_objects=custom_objects) for c in config.pop("cells")
        ]
        return cls(cells, **config)
