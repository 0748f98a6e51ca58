"""`ReversibleEmbedding`: an embedding that also maps vectors back to vocabulary logits."""

from mb_graph import KerasTensor
from mb_layers._masking import set_keras_mask
from mb_layers._ops import ops
from mb_layers.layers._core import Embedding


class ReversibleEmbedding(Embedding):
    """`Embedding` whose ``call(x, reverse=True)`` projects back onto the vocabulary.

    Forward, it is an `Embedding`; reversed, ``x @ embeddings.T`` (``tie_weights``,
    the default) or ``x @ reverse_embeddings`` gives one logit per token, as the
    output layer of a language model does.

    Args:
        input_dim, output_dim: vocabulary size and vector size.
        tie_weights: reuse the embedding matrix for the reverse projection;
            otherwise learn a separate ``(output_dim, input_dim)`` matrix.
        reverse_dtype: dtype of the reverse projection (e.g. ``"float32"`` under
            a mixed policy), or None for the compute dtype.
        logit_soft_cap: when given, logits become ``tanh(logits / cap) * cap``.
        **kwargs: the other `Embedding` arguments.

    Example:

    >>> import numpy as np
    >>> layer = ReversibleEmbedding(10, 4)
    >>> vectors = layer(np.array([[1, 2]]))
    >>> tuple(layer(vectors, reverse=True).shape)
    (1, 2, 10)
    """

    def __init__(
        self,
        input_dim,
        output_dim,
        tie_weights=True,
        embeddings_initializer="uniform",
        embeddings_regularizer=None,
        embeddings_constraint=None,
        mask_zero=False,
        reverse_dtype=None,
        logit_soft_cap=None,
        **kwargs,
    ):
        super().__init__(
            input_dim,
            output_dim,
            embeddings_initializer=embeddings_initializer,
            embeddings_regularizer=embeddings_regularizer,
            embeddings_constraint=embeddings_constraint,
            mask_zero=mask_zero,
            **kwargs,
        )
        self.tie_weights = tie_weights
        self.reverse_dtype = reverse_dtype
        self.logit_soft_cap = logit_soft_cap

    def build(self, input_shape=None):
        super().build(input_shape)
        if not self.tie_weights and not hasattr(self, "reverse_embeddings"):
            self.reverse_embeddings = self.add_weight(
                name="reverse_embeddings",
                shape=(self.output_dim, self.input_dim),
                initializer=self.embeddings_initializer,
                trainable=True,
            )

    def call(self, inputs, reverse=False):
        if not reverse:
            outputs = super().call(inputs)
            mask = super().compute_mask(inputs)
            if mask is not None:
                set_keras_mask(outputs, mask)
            return outputs
        kernel = ops.transpose(self.embeddings) if self.tie_weights else self.reverse_embeddings
        if self.reverse_dtype is not None:
            inputs = ops.cast(inputs, self.reverse_dtype)
            kernel = ops.cast(kernel, self.reverse_dtype)
        logits = ops.matmul(inputs, kernel)
        if self.logit_soft_cap is not None:
            logits = ops.multiply(
                ops.tanh(ops.divide(logits, self.logit_soft_cap)), self.logit_soft_cap
            )
        return logits

    def compute_mask(self, inputs, mask=None):
        # The forward call attaches its mask itself; reversed logits carry none.
        return None

    def compute_output_shape(self, input_shape, reverse=False):
        shape = list(input_shape)
        if reverse:
            shape[-1] = self.input_dim
        else:
            shape.append(self.output_dim)
        return tuple(shape)

    def compute_output_spec(self, inputs, reverse=False):
        dtype = self.reverse_dtype if reverse and self.reverse_dtype else self.compute_dtype
        return KerasTensor(self.compute_output_shape(inputs.shape, reverse), dtype=dtype)

    def get_config(self):
        return {
            **super().get_config(),
            "tie_weights": self.tie_weights,
            "reverse_dtype": self.reverse_dtype,
            "logit_soft_cap": self.logit_soft_cap,
        }
