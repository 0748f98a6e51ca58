"""Recurrent layers: `RNN` over any cell, `SimpleRNN`, `LSTM`, `GRU`, and the
wrappers `Bidirectional` and `TimeDistributed`.

The time loop is the backend's ``rnn.rnn`` (``lax.scan`` on jax, ``tf.while_loop``
on tensorflow, a Python loop on torch), so a compiled step holds the cell once, not
once per time step. `LSTM` and `GRU` first offer the whole sequence to the backend's
fused ``rnn.lstm``/``rnn.gru`` (torch's native kernels, cuDNN on CUDA), which decline
with ``NotImplementedError`` where the configuration needs the generic loop.
"""

from mb_layers import _registry
from mb_layers._input_spec import InputSpec
from mb_layers._layer import Layer
from mb_layers._ops import ops
from mb_layers.layers._arguments import serialized_arguments
from mb_layers.layers._rnn_cells import GRUCell, LSTMCell, SimpleRNNCell, StackedRNNCells
from mb_ops import backends

_RNN_FLAGS = (
    "return_sequences",
    "return_state",
    "go_backwards",
    "stateful",
    "unroll",
    "zero_output_for_mask",
)


def _has_dropout(cell):
    if hasattr(cell, "cells"):
        return any(_has_dropout(c) for c in cell.cells)
    return bool(getattr(cell, "dropout", 0) or getattr(cell, "recurrent_dropout", 0))


def _reset_dropout_masks(cell):
    for name in ("reset_dropout_mask", "reset_recurrent_dropout_mask"):
        reset = getattr(cell, name, None)
        if reset is not None:
            reset()


def _state_sizes(cell):
    return cell.state_size if isinstance(cell.state_size, list) else [cell.state_size]


class RNN(Layer):
    """Runs a cell over the time axis of ``(batch, steps, features)`` inputs.

    Args:
        cell: a cell (``call(inputs, states)`` with ``state_size``) or a list
            of cells (stacked).
        return_sequences: return every step's output, not only the last.
        return_state: also return the final states.
        go_backwards: process the sequence in reverse.
        stateful: not supported yet (raises).
        unroll: unroll the time loop in the compiled step (the backend's
            ``rnn(unroll=True)``) instead of looping.
        zero_output_for_mask: masked steps output zeros instead of the
            previous output (with `return_sequences`).
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Call arguments:
        inputs: a tensor ``(batch, steps, features)``.
        mask: None or a boolean tensor ``(batch, steps)``: masked steps keep the state.
        training: whether dropout applies.
        initial_state: None or a list of the cell's initial states.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.ones((2, 5, 3), "float32")
    >>> ops.shape(RNN(LSTMCell(4))(x))
    (2, 4)
    >>> outputs, h, c = RNN(LSTMCell(4), return_sequences=True, return_state=True)(x)
    >>> ops.shape(outputs), ops.shape(h), ops.shape(c)
    ((2, 5, 4), (2, 4), (2, 4))
    >>> ops.shape(RNN([SimpleRNNCell(8), SimpleRNNCell(2)])(x))  # stacked cells
    (2, 2)
    """

    def __init__(
        self,
        cell,
        return_sequences=False,
        return_state=False,
        go_backwards=False,
        stateful=False,
        unroll=False,
        zero_output_for_mask=False,
        **kwargs,
    ):
        super().__init__(**kwargs)
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        if stateful:
            raise NotImplementedError("RNN(stateful=True) is not supported by mb yet.")
        self.cell = cell
        self.return_sequences = return_sequences
        self.return_state = return_state
        self.go_backwards = go_backwards
        self.stateful = stateful
        self.unroll = unroll
        self.zero_output_for_mask = zero_output_for_mask
        self.supports_masking = True
        self.input_spec = InputSpec(min_ndim=3)
        # As Keras: the states of a stateful layer (None: mb runs stateless layers only),
        # and the cell's state sizes as a list, read once here.
        self.states = None
        state_size = getattr(cell, "state_size", None)
        if isinstance(state_size, int):
            self.state_size, self.single_state = [state_size], True
        else:
            self.state_size, self.single_state = list(state_size or []), False

    def build(self, sequences_shape, initial_state_shape=None):
        step_shape = (sequences_shape[0], *tuple(sequences_shape)[2:])
        if not self.cell.built:
            self.cell.build(step_shape)
            self.cell.built = True

    @property
    def _output_size(self):
        return getattr(self.cell, "output_size", _state_sizes(self.cell)[0])

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        batch = sequences_shape[0]
        if self.return_sequences:
            output = (batch, sequences_shape[1], self._output_size)
        else:
            output = (batch, self._output_size)
        if self.return_state:
            return [output, *[(batch, size) for size in _state_sizes(self.cell)]]
        return output

    def compute_mask(self, _, mask):
        mask = mask[0] if isinstance(mask, (list, tuple)) else mask
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            return [output_mask] + [None] * len(_state_sizes(self.cell))
        return output_mask

    def get_initial_state(self, batch_size):
        """The zero states of a sequence batch of `batch_size`, as a list."""
        initial = getattr(self.cell, "get_initial_state", None)
        if initial is None:
            return [
                ops.zeros((batch_size, size), dtype=self.cell.compute_dtype)
                for size in self.state_size
            ]
        states = initial(batch_size=batch_size)
        return list(states) if isinstance(states, (list, tuple)) else [states]

    def reset_state(self):
        """Zeroes the states of a stateful layer (a stateless one has none to reset)."""
        if self.states is not None:
            for state in self.states:
                state.assign(ops.zeros_like(state))

    def reset_states(self):
        """An alias of `reset_state` (Keras 2's name)."""
        self.reset_state()

    def call(self, sequences, initial_state=None, mask=None, training=False):
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        if initial_state is None:
            # ops.shape, not .shape: inside tf.function the batch may be unknown.
            states = self.get_initial_state(batch_size=ops.shape(sequences)[0])
        else:
            states = (
                list(initial_state) if isinstance(initial_state, (list, tuple)) else [initial_state]
            )
        _reset_dropout_masks(self.cell)
        if training and _has_dropout(self.cell):
            # Draw the dropout masks before the loop: the loop body must not draw
            # random numbers (lax.scan, tf.while_loop), and every step shares them.
            self.cell(sequences[:, 0], list(states), training=training)
        fused = self._fused_loop(sequences, states, mask, training)
        if fused is not None:
            last, outputs, states = fused
        else:
            last, outputs, states = self.inner_loop(sequences, states, mask, training)
        _reset_dropout_masks(self.cell)  # as Keras: the next batch draws its own
        result = outputs if self.return_sequences else last
        if self.return_state:
            return [result, *states]
        return result

    def _fused_loop(self, sequences, states, mask, training):
        """The backend's kernel for the whole sequence, or None (LSTM and GRU offer one)."""
        return None

    def inner_loop(self, sequences, initial_state, mask, training=False):
        """Runs the cell over the time axis: ``(last_output, outputs, final_states)``."""
        cell = self.cell
        states = initial_state if isinstance(initial_state, (list, tuple)) else [initial_state]

        def step(inputs_t, states_t):
            output, new_states = cell(inputs_t, list(states_t), training=training)
            if not isinstance(new_states, (list, tuple)):
                new_states = [new_states]
            return output, list(new_states)

        return backends.backend_module("rnn").rnn(
            step,
            sequences,
            list(states),
            go_backwards=self.go_backwards,
            mask=None if mask is None else ops.cast(mask, "bool"),
            unroll=self.unroll,
            zero_output_for_mask=self.zero_output_for_mask,
            return_all_outputs=self.return_sequences,
        )

    def get_config(self):
        config = {**super().get_config(), **{flag: getattr(self, flag) for flag in _RNN_FLAGS}}
        config["cell"] = _registry.serialize(self.cell)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        cell = _registry.deserialize(config.pop("cell"), custom_objects=custom_objects)
        return cls(cell, **config)


class _CellOwner(RNN):
    """A recurrent layer that builds its own cell out of its constructor's arguments
    (SimpleRNN, LSTM, GRU, the ConvLSTMs); its config is the cell's and the loop flags."""

    @staticmethod
    def _split_arguments(arguments):
        """(cell keywords, layer keywords) out of the constructor's ``locals()``.

        Keras's split: the layer takes the loop flags, ``activity_regularizer`` and the
        base-layer keywords; the cell takes every other argument, and the layer's
        ``dtype`` and ``trainable``.
        """
        arguments = {k: v for k, v in arguments.items() if k not in ("self", "__class__")}
        rnn_kwargs = {name: arguments.pop(name) for name in _LOOP_ARGUMENTS if name in arguments}
        rnn_kwargs.update(arguments.pop("kwargs"))
        for key in ("dtype", "trainable"):
            if key in rnn_kwargs:
                arguments[key] = rnn_kwargs[key]
        return arguments, rnn_kwargs

    def _layer_and_cell_config(self):
        """The layer's own config with the loop flags, and the cell's without its name,
        ``trainable`` and ``dtype`` (the layer's config holds those)."""
        config = Layer.get_config(self)
        config.update({flag: getattr(self, flag) for flag in _RNN_FLAGS})
        cell_config = self.cell.get_config()
        for key in ("name", "trainable", "dtype"):
            cell_config.pop(key, None)
        return config, cell_config

    @classmethod
    def from_config(cls, config):
        return Layer.from_config.__func__(cls, config)

    @classmethod
    def _delegate_to_cell(cls, *names):
        """Read-only properties giving the cell's attributes of these names."""
        for name in names:
            setattr(cls, name, _cell_property(name))


def _cell_property(name):
    return property(lambda self: getattr(self.cell, name), doc=f"The cell's `{name}`.")


class _CellRNN(_CellOwner):
    """A recurrent layer that owns its cell (SimpleRNN, LSTM, GRU)."""

    _cell_class = SimpleRNNCell
    _cell_name = "simple_rnn_cell"

    def _init_cell_rnn(self, arguments):
        """Builds the cell and the layer from the constructor's ``locals()``.

        Keras's split: the layer takes the loop flags, ``activity_regularizer`` and the
        base-layer keywords; the cell takes every other argument (and
        ``implementation``, given as a keyword, when the cell has one).
        """
        cell_kwargs, rnn_kwargs = self._split_arguments(arguments)
        units = cell_kwargs.pop("units")
        # SimpleRNN takes use_cudnn as a keyword only, as Keras's does.
        use_cudnn = cell_kwargs.pop("use_cudnn", rnn_kwargs.pop("use_cudnn", "auto"))
        if "implementation" in rnn_kwargs and hasattr(self._cell_class, "_set_implementation"):
            cell_kwargs["implementation"] = rnn_kwargs.pop("implementation")
        if use_cudnn not in ("auto", True, False):
            raise ValueError(
                f"{type(self).__name__}: `use_cudnn` must be 'auto', True or False. "
                f"Received: use_cudnn={use_cudnn!r}."
            )
        cell = self._cell_class(units, name=self._cell_name, **cell_kwargs)
        RNN.__init__(self, cell, **rnn_kwargs)
        self.input_spec = InputSpec(ndim=3)
        self.use_cudnn = use_cudnn

    def _fused_loop(self, sequences, states, mask, training):
        kernel = self._fused_kernel()
        cell = self.cell
        usable = (
            kernel is not None
            and self.use_cudnn in ("auto", True)
            and not (training and cell.recurrent_dropout)
            and cell.dropout_mask_count is None  # one mask per gate: the generic loop
            # The fused kernels compute in the variables' dtype: not under mixed precision.
            and self.compute_dtype == self.variable_dtype
        )
        if usable:
            if training and cell.dropout:
                input_mask = cell.get_dropout_mask(sequences[:, 0])
                sequences = ops.multiply(sequences, ops.expand_dims(input_mask, 1))
            try:
                return kernel(sequences, states, mask)
            except NotImplementedError:
                pass
        if self.use_cudnn is True:
            raise ValueError(
                f"{type(self).__name__}(use_cudnn=True): the {backends.backend_descriptor().name} "
                "backend has no fused kernel for this configuration (activations, mask, "
                "dropout, dtype). Pass use_cudnn='auto' to fall back to the generic loop."
            )
        return None

    # The backend's fused function of the layer (`rnn.lstm`, `rnn.gru`), how many
    # states it takes, and the cell attributes it takes besides the common ones.
    _fused_op = None
    _fused_states = 1
    _fused_cell_options = ()

    def _fused_kernel(self):
        if self._fused_op is None:
            return None
        cell = self.cell
        options = {name: getattr(cell, name) for name in self._fused_cell_options}

        def run(sequences, states, mask):
            return getattr(backends.backend_module("rnn"), self._fused_op)(
                sequences,
                *states[: self._fused_states],
                mask,
                kernel=cell.kernel,
                recurrent_kernel=cell.recurrent_kernel,
                bias=cell.bias,
                activation=cell.activation,
                recurrent_activation=cell.recurrent_activation,
                return_sequences=self.return_sequences,
                go_backwards=self.go_backwards,
                unroll=self.unroll,
                **options,
            )

        return run

    def get_config(self):
        config, cell_config = self._layer_and_cell_config()
        seed = cell_config.pop("seed", None)
        config.update(cell_config)
        config.update(serialized_arguments(self, "activity_regularizer"))
        config["seed"] = seed
        return config


_LOOP_ARGUMENTS = (
    "return_sequences",
    "return_state",
    "go_backwards",
    "stateful",
    "unroll",
    "activity_regularizer",
)


_CellRNN._delegate_to_cell(
    "units",
    "activation",
    "recurrent_activation",
    "use_bias",
    "kernel_initializer",
    "recurrent_initializer",
    "bias_initializer",
    "kernel_regularizer",
    "recurrent_regularizer",
    "bias_regularizer",
    "kernel_constraint",
    "recurrent_constraint",
    "bias_constraint",
    "dropout",
    "recurrent_dropout",
    "unit_forget_bias",
    "reset_after",
)


class SimpleRNN(_CellRNN):
    """A fully connected RNN whose output is fed back as its state.

    Each step computes ``h = activation(x @ kernel + h @ recurrent_kernel + bias)``.

    Args:
        units: the size of the output and the state.
        activation: the activation of the output (and candidate state); default ``"tanh"``.
        use_bias: whether to add a bias.
        kernel_initializer: the initializer of the input kernel.
        recurrent_initializer: the initializer of the recurrent kernel.
        bias_initializer: the initializer of the bias.
        kernel_regularizer, recurrent_regularizer, bias_regularizer: penalties on
            the weights.
        activity_regularizer: a penalty on the output.
        kernel_constraint, recurrent_constraint, bias_constraint: projections applied
            to the weights after updates.
        dropout: the fraction of the inputs dropped in training (one mask per
            sequence).
        recurrent_dropout: the fraction of the recurrent state dropped in training.
        seed: an int for reproducible dropout masks.
        return_sequences: return every step's output, not only the last.
        return_state: also return the final states.
        go_backwards: process the sequence in reverse.
        stateful: not supported yet (raises ``NotImplementedError``).
        unroll: unroll the time loop instead of looping.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.ones((2, 5, 3), "float32")
    >>> ops.shape(SimpleRNN(4)(x))
    (2, 4)
    >>> ops.shape(SimpleRNN(4, return_sequences=True)(x))
    (2, 5, 4)
    """

    _cell_class = SimpleRNNCell
    _cell_name = "simple_rnn_cell"

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
        activity_regularizer=None,
        kernel_constraint=None,
        recurrent_constraint=None,
        bias_constraint=None,
        dropout=0.0,
        recurrent_dropout=0.0,
        return_sequences=False,
        return_state=False,
        go_backwards=False,
        stateful=False,
        unroll=False,
        seed=None,
        **kwargs,
    ):
        self._init_cell_rnn(locals())


class LSTM(_CellRNN):
    """Long short-term memory layer (Hochreiter & Schmidhuber, 1997).

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
        activity_regularizer: a penalty on the output.
        kernel_constraint, recurrent_constraint, bias_constraint: projections applied
            to the weights after updates.
        dropout: the fraction of the inputs dropped in training (one mask per
            sequence).
        recurrent_dropout: the fraction of the recurrent state dropped in training.
        seed: an int for reproducible dropout masks.
        return_sequences: return every step's output, not only the last.
        return_state: also return the final states.
        go_backwards: process the sequence in reverse.
        stateful: not supported yet (raises ``NotImplementedError``).
        unroll: unroll the time loop instead of looping.
        use_cudnn: ``"auto"``, True or False: whether a fused kernel may be used
            where the backend has one.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.ones((2, 5, 3), "float32")
    >>> ops.shape(LSTM(4)(x))
    (2, 4)
    >>> outputs, h, c = LSTM(4, return_sequences=True, return_state=True)(x)
    >>> ops.shape(outputs), ops.shape(h), ops.shape(c)
    ((2, 5, 4), (2, 4), (2, 4))
    """

    _cell_class = LSTMCell
    _cell_name = "lstm_cell"
    _fused_op, _fused_states = "lstm", 2

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
        activity_regularizer=None,
        kernel_constraint=None,
        recurrent_constraint=None,
        bias_constraint=None,
        dropout=0.0,
        recurrent_dropout=0.0,
        seed=None,
        return_sequences=False,
        return_state=False,
        go_backwards=False,
        stateful=False,
        unroll=False,
        use_cudnn="auto",
        **kwargs,
    ):
        self._init_cell_rnn(locals())


class GRU(_CellRNN):
    """Gated recurrent unit layer (Cho et al., 2014).

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
        activity_regularizer: a penalty on the output.
        kernel_constraint, recurrent_constraint, bias_constraint: projections applied
            to the weights after updates.
        dropout: the fraction of the inputs dropped in training (one mask per
            sequence).
        recurrent_dropout: the fraction of the recurrent state dropped in training.
        seed: an int for reproducible dropout masks.
        reset_after: apply the reset gate after the recurrent matmul (the
            cuDNN-compatible form, Keras's default).
        return_sequences: return every step's output, not only the last.
        return_state: also return the final states.
        go_backwards: process the sequence in reverse.
        stateful: not supported yet (raises ``NotImplementedError``).
        unroll: unroll the time loop instead of looping.
        use_cudnn: ``"auto"``, True or False: whether a fused kernel may be used
            where the backend has one.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.ones((2, 5, 3), "float32")
    >>> ops.shape(GRU(4)(x))
    (2, 4)
    >>> outputs, h = GRU(4, return_sequences=True, return_state=True)(x)
    >>> ops.shape(outputs), ops.shape(h)
    ((2, 5, 4), (2, 4))
    """

    _cell_class = GRUCell
    _cell_name = "gru_cell"
    _fused_op, _fused_cell_options = "gru", ("reset_after",)

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
        activity_regularizer=None,
        kernel_constraint=None,
        recurrent_constraint=None,
        bias_constraint=None,
        dropout=0.0,
        recurrent_dropout=0.0,
        seed=None,
        return_sequences=False,
        return_state=False,
        go_backwards=False,
        stateful=False,
        unroll=False,
        reset_after=True,
        use_cudnn="auto",
        **kwargs,
    ):
        self._init_cell_rnn(locals())
