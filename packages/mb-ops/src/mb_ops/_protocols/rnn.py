"""The ``rnn`` contract module: what every backend's ``rnn`` provides."""

from typing import Any, Protocol

from mb_ops._protocols._types import Tensor


class RNN(Protocol):
    """The names every backend's ``rnn`` module provides (or declares unsupported)."""

    def rnn(
        self,
        step_function: Any,
        inputs: Tensor,
        initial_states: Any,
        go_backwards: Any = False,
        mask: Tensor = None,
        constants: Any = None,
        unroll: Any = False,
        input_length: Any = None,
        time_major: Any = False,
        zero_output_for_mask: Any = False,
        return_all_outputs: Any = True,
    ) -> Any:
        """Runs ``step_function`` over the time axis of ``inputs`` (Keras's generic RNN loop)."""
        ...

    def lstm(
        self,
        inputs: Tensor,
        initial_state_h: Any,
        initial_state_c: Any,
        mask: Tensor,
        kernel: Tensor,
        recurrent_kernel: Any,
        bias: Tensor,
        activation: Any,
        recurrent_activation: Any,
        return_sequences: Any = False,
        go_backwards: Any = False,
        unroll: Any = False,
    ) -> Any:
        """A fused LSTM; raises NotImplementedError when it cannot run these arguments."""
        ...

    def gru(
        self,
        inputs: Tensor,
        initial_state: Any,
        mask: Tensor,
        kernel: Tensor,
        recurrent_kernel: Any,
        bias: Tensor,
        activation: Any,
        recurrent_activation: Any,
        return_sequences: Any = False,
        go_backwards: Any = False,
        unroll: Any = False,
        reset_after: Any = True,
    ) -> Any:
        """A fused GRU; raises NotImplementedError when it cannot run these arguments."""
        ...

    def cudnn_ok(
        self, activation: Any, recurrent_activation: Any, unroll: Any, use_bias: Any = True
    ) -> Any:
        """Whether a cuDNN kernel can run a recurrent layer with these settings."""
        ...


class RNNOptional(Protocol):
    """Names a backend's ``rnn`` module may provide; mb uses them when present."""

    def bidirectional_lstm(self, *args: Any, **kwargs: Any) -> Any:
        """A fused bidirectional LSTM (Keras's hook; no backend has one yet)."""
        ...

    def bidirectional_gru(self, *args: Any, **kwargs: Any) -> Any:
        """A fused bidirectional GRU (Keras's hook; no backend has one yet)."""
        ...
