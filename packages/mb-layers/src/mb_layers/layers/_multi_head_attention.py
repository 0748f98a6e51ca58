"""Projected attention: `MultiHeadAttention` and `GroupedQueryAttention` (einsum per head)."""

import math

from mb_graph import KerasTensor
from mb_layers._layer import Layer
from mb_layers._ops import ops
from mb_layers.layers._activation_layers import Softmax, _large_negative
from mb_layers.layers._arguments import base_arguments, set_weight_arguments, weight_arguments
from mb_layers.layers._attention import _LETTERS, _combine_masks
from mb_layers.layers._einsum_dense import EinsumDense
from mb_layers.layers._regularization import Dropout
from mb_ops import config


def _projection(free_dims, bound_dims, output_dims):
    """The einsum equation, bias axes and output rank of a projection."""
    inputs = _LETTERS[:free_dims]
    bound = _LETTERS[free_dims : free_dims + bound_dims]
    out = _LETTERS[free_dims + bound_dims : free_dims + bound_dims + output_dims]
    return f"{inputs}{bound},{bound}{out}->{inputs}{out}", out, free_dims + output_dims


def _attention_equations(rank, attention_axes):
    target = _LETTERS[:rank]
    batch_dims = [i for i in range(rank) if i not in attention_axes and i != rank - 1]
    offset = rank
    source = ""
    for i in range(rank):
        if i in batch_dims or i == rank - 1:
            source += target[i]
        else:
            source += _LETTERS[offset]
            offset += 1
    product = "".join(
        [target[i] for i in batch_dims]
        + [target[i] for i in attention_axes]
        + [source[i] for i in attention_axes]
    )
    return f"{source},{target}->{product}", f"{product},{source}->{target}", len(product)


def _partial_shape(rank, known_last):
    return [None] * (rank - len(known_last)) + list(known_last)


class _ProjectedAttention(Layer):
    """What MultiHeadAttention and GroupedQueryAttention share: weights arguments, masks."""

    def __init__(
        self,
        dropout,
        use_bias,
        kernel_initializer,
        bias_initializer,
        kernel_regularizer,
        bias_regularizer,
        activity_regularizer,
        kernel_constraint,
        bias_constraint,
        seed,
        use_gate,
        sliding_window,
        **kwargs,
    ):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if use_gate or sliding_window is not None:
            raise NotImplementedError(
                f"{type(self).__name__}: use_gate and sliding_window are not supported yet. "
                f"Received: use_gate={use_gate!r}, sliding_window={sliding_window!r}."
            )
        self.supports_masking = True
        self.dropout = dropout
        self.use_bias = use_bias
        set_weight_arguments(self, locals(), "kernel", "bias")
        self.seed = seed

    def _dense_kwargs(self):
        return {
            "kernel_initializer": self.kernel_initializer.clone()
            if hasattr(self.kernel_initializer, "clone")
            else self.kernel_initializer,
            "bias_initializer": self.bias_initializer,
            "kernel_regularizer": self.kernel_regularizer,
            "bias_regularizer": self.bias_regularizer,
            "kernel_constraint": self.kernel_constraint,
            "bias_constraint": self.bias_constraint,
            "dtype": self.dtype_policy,
        }

    def _weights_config(self):
        return {
            **weight_arguments(self, "kernel", "bias", activity_regularizer=True),
            "seed": self.seed,
        }

    def _fused_attention(self, query, key, value, mask, training, return_scores):
        """The output of the engine's fused attention kernel (``ops.dot_product_attention``:
        torch's ``scaled_dot_product_attention``, cuDNN on jax) when this call allows it:
        one attention axis, no scores asked for, no dropout at work. None otherwise, and
        the generic einsum path runs. ``query`` comes scaled, so both paths compute the same
        logits; a mask becomes an additive bias, so fully masked rows stay uniform as with
        the masked softmax."""
        if self._flash_attention and return_scores:
            raise ValueError(
                f"{type(self).__name__}: return_attention_scores=True cannot be combined "
                "with flash_attention=True (the fused kernel never forms the scores). "
                "Pass flash_attention=None or False to get the scores."
            )
        if return_scores or len(query.shape) != 4 or (self.dropout > 0 and training):
            return None
        bias = None
        if mask is not None:
            while len(mask.shape) < 4:
                mask = ops.expand_dims(mask, axis=-3)
            blocked = ops.subtract(1.0, ops.cast(mask, query.dtype))
            bias = ops.multiply(blocked, ops.cast(_large_negative(query.dtype), query.dtype))
        return ops.dot_product_attention(
            query, key, value, bias=bias, scale=1.0, flash_attention=self._flash_attention
        )

    def _masked_softmax(self, scores, mask, expansion_axis):
        if mask is not None:
            for _ in range(len(scores.shape) - len(mask.shape)):
                mask = ops.expand_dims(mask, axis=expansion_axis)
        return self._softmax(scores, mask=mask)

    def compute_mask(self, inputs, previous_mask):
        return None

    def compute_output_spec(
        self,
        query,
        value,
        key=None,
        query_mask=None,
        value_mask=None,
        key_mask=None,
        attention_mask=None,
        return_attention_scores=False,
        training=None,
        use_causal_mask=False,
    ):
        if not self.built:
            self.build(query.shape, value.shape, None if key is None else key.shape)
        out = KerasTensor(self._output_shape_for(query.shape), dtype=self.compute_dtype)
        if return_attention_scores:
            return out, KerasTensor(
                self._scores_shape_for(query.shape, value.shape), dtype=self.compute_dtype
            )
        return out


class MultiHeadAttention(_ProjectedAttention):
    """Multi-head attention (``Attention Is All You Need``).

    Args:
        num_heads: the number of heads.
        key_dim: size of each head for query and key.
        value_dim: size of each head for value (default `key_dim`).
        dropout: dropout rate on the attention weights.
        use_bias: whether the projections have biases.
        output_shape: the output's last dimension(s) (default: the query's).
        attention_axes: the axes attention runs over (default: all but batch,
            heads and features).
        kernel_*/bias_*: for the four projections.
        seed: seed of the dropout.

    Example:

    >>> import numpy as np
    >>> mha = MultiHeadAttention(num_heads=2, key_dim=4)
    >>> x = np.ones((1, 3, 8), "float32")
    >>> tuple(mha(x, x).shape)
    (1, 3, 8)
    """

    def __init__(
        self,
        num_heads,
        key_dim,
        value_dim=None,
        dropout=0.0,
        use_bias=True,
        output_shape=None,
        attention_axes=None,
        sliding_window=None,
        flash_attention=None,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        kernel_constraint=None,
        bias_constraint=None,
        use_gate=False,
        seed=None,
        **kwargs,
    ):
        super().__init__(**base_arguments(_ProjectedAttention.__init__, locals()))
        self.num_heads = num_heads
        self.key_dim = key_dim
        self.value_dim = value_dim if value_dim else key_dim
        if isinstance(output_shape, int):
            output_shape = (output_shape,)
        self._output_shape = None if output_shape is None else tuple(output_shape)
        if isinstance(attention_axes, int):
            attention_axes = (attention_axes,)
        self._attention_axes_given = attention_axes
        self._attention_axes_arg = None if attention_axes is None else tuple(attention_axes)
        self._use_gate = use_gate
        self._sliding_window = sliding_window
        # None: the fused kernel where possible, unless mb.config.disable_flash_attention()
        # ran (Keras's rule; an explicit False here stays False, Keras reads it as None).
        if flash_attention is None:
            flash_attention = config.is_flash_attention_enabled()
        self._flash_attention = flash_attention
        self._softmax = None
        self._dropout_layer = Dropout(rate=dropout, seed=seed)

    @property
    def attention_axes(self):
        """The axes attention runs over: as given until the layer is built, then Keras's
        normalized tuple (all axes but batch, heads and features by default)."""
        return getattr(self, "_attention_axes", self._attention_axes_given)

    def build(self, query_shape, value_shape, key_shape=None):
        key_shape = value_shape if key_shape is None else key_shape
        query_rank = len(query_shape)
        if query_shape[-1] is None or value_shape[-1] is None:
            raise ValueError(
                "MultiHeadAttention needs the last axis of query and value to be known. "
                f"Received: query shape {tuple(query_shape)}, value shape {tuple(value_shape)}."
            )
        equation, bias_axes, rank = _projection(query_rank - 1, 1, 2)
        self._query_dense = EinsumDense(
            equation,
            output_shape=_partial_shape(rank - 1, [self.num_heads, self.key_dim]),
            bias_axes=bias_axes if self.use_bias else None,
            name="query",
            **self._dense_kwargs(),
        )
        self._query_dense.build(query_shape)
        equation, bias_axes, rank = _projection(len(key_shape) - 1, 1, 2)
        self._key_dense = EinsumDense(
            equation,
            output_shape=_partial_shape(rank - 1, [self.num_heads, self.key_dim]),
            bias_axes=bias_axes if self.use_bias else None,
            name="key",
            **self._dense_kwargs(),
        )
        self._key_dense.build(key_shape)
        equation, bias_axes, rank = _projection(len(value_shape) - 1, 1, 2)
        self._value_dense = EinsumDense(
            equation,
            output_shape=_partial_shape(rank - 1, [self.num_heads, self.value_dim]),
            bias_axes=bias_axes if self.use_bias else None,
            name="value",
            **self._dense_kwargs(),
        )
        self._value_dense.build(value_shape)
        projected_rank = query_rank + 1
        self._attention_axes = (
            tuple(range(1, projected_rank - 2))
            if self._attention_axes_arg is None
            else self._attention_axes_arg
        )
        self._dot_product_equation, self._combine_equation, scores_rank = _attention_equations(
            projected_rank, self._attention_axes
        )
        norm_axes = tuple(range(scores_rank - len(self._attention_axes), scores_rank))
        self._softmax = Softmax(axis=norm_axes, dtype=self.dtype_policy)
        output_last = self._output_shape or (query_shape[-1],)
        equation, bias_axes, rank = _projection(query_rank - 1, 2, len(output_last))
        self._output_dense = EinsumDense(
            equation,
            output_shape=_partial_shape(rank - 1, output_last),
            bias_axes=bias_axes if self.use_bias else None,
            name="attention_output",
            **self._dense_kwargs(),
        )
        self._output_dense.build((*tuple(query_shape)[:-1], self.num_heads, self.value_dim))

    @property
    def query_dense(self):
        return self._query_dense

    @property
    def key_dense(self):
        return self._key_dense

    @property
    def value_dense(self):
        return self._value_dense

    @property
    def output_dense(self):
        return self._output_dense

    def call(
        self,
        query,
        value,
        key=None,
        query_mask=None,
        value_mask=None,
        key_mask=None,
        attention_mask=None,
        return_attention_scores=False,
        training=None,
        use_causal_mask=False,
    ):
        key = value if key is None else key
        attention_mask = _combine_masks(
            query, value, query_mask, value_mask, key_mask, attention_mask, use_causal_mask
        )
        query = self._query_dense(query)
        key = self._key_dense(key)
        value = self._value_dense(value)
        query = ops.multiply(query, ops.cast(1.0 / math.sqrt(self.key_dim), query.dtype))
        if self._attention_axes == (1,):
            fused = self._fused_attention(
                query, key, value, attention_mask, training, return_attention_scores
            )
            if fused is not None:
                return self._output_dense(fused)
        scores = ops.einsum(self._dot_product_equation, key, query)
        scores = self._masked_softmax(scores, attention_mask, -len(self._attention_axes) * 2 - 1)
        dropped = self._dropout_layer(scores, training=training)
        output = ops.einsum(self._combine_equation, dropped, value)
        output = self._output_dense(output)
        if return_attention_scores:
            return output, scores
        return output

    def _output_shape_for(self, query_shape):
        if self._output_shape:
            return (*tuple(query_shape)[:-1], *self._output_shape)
        return tuple(query_shape)

    def _scores_shape_for(self, query_shape, value_shape):
        return (
            query_shape[0],
            self.num_heads,
            *tuple(query_shape)[1:-1],
            *tuple(value_shape)[1:-1],
        )

    def compute_output_shape(self, query_shape, value_shape, key_shape=None):
        return self._output_shape_for(query_shape)

    def get_config(self):
        return {
            **super().get_config(),
            "num_heads": self.num_heads,
            "key_dim": self.key_dim,
            "value_dim": self.value_dim,
            "dropout": self.dropout,
            "use_bias": self.use_bias,
            "use_gate": False,
            "output_shape": self._output_shape,
            "attention_axes": self._attention_axes_arg,
            "sliding_window": None,
            **self._weights_config(),
        }


class GroupedQueryAttention(_ProjectedAttention):
    """Attention where groups of query heads share key/value heads (GQA).

    Args:
        head_dim: size of each head.
        num_query_heads: number of query heads.
        num_key_value_heads: number of key/value heads (divides the above).
        dropout: dropout rate on the attention weights (training only).
        use_bias: whether the projections have biases.
        sliding_window: None or an int ``w``: each query attends to the ``w`` positions
            before it only.
        flash_attention: whether to use a fused kernel; None: where available.
        kernel_initializer, bias_initializer: initializers of the projections.
        kernel_regularizer, bias_regularizer: penalties on them.
        activity_regularizer: a penalty on the output.
        kernel_constraint, bias_constraint: projections applied to them after updates.
        use_gate: whether a learned sigmoid gate multiplies the attention output.
        seed: seed of the dropout.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    Call arguments:
        query: a tensor ``(batch, Tq, dim)``.
        value: a tensor ``(batch, Tv, dim)``.
        key: None or a tensor ``(batch, Tv, dim)`` (defaults to ``value``).
        attention_mask: None or a boolean tensor ``(batch, Tq, Tv)``.
        return_attention_scores: whether to also return the weights
            ``(batch, num_query_heads, Tq, Tv)``.
        training: whether dropout applies.
        use_causal_mask: whether query position ``i`` attends only to positions ``<= i``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> layer = GroupedQueryAttention(head_dim=8, num_query_heads=4, num_key_value_heads=2)
    >>> query, value = np.ones((2, 3, 16), "float32"), np.ones((2, 5, 16), "float32")
    >>> out, scores = layer(query, value, return_attention_scores=True)
    >>> ops.shape(out), ops.shape(scores)
    ((2, 3, 16), (2, 4, 3, 5))
    """

    _keras_export_name = "GroupQueryAttention"

    def __init__(
        self,
        head_dim,
        num_query_heads,
        num_key_value_heads,
        dropout=0.0,
        use_bias=True,
        sliding_window=None,
        flash_attention=None,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        kernel_constraint=None,
        bias_constraint=None,
        use_gate=False,
        seed=None,
        **kwargs,
    ):
        super().__init__(**base_arguments(_ProjectedAttention.__init__, locals()))
        if num_query_heads % num_key_value_heads:
            raise ValueError(
                f"GroupedQueryAttention: num_query_heads ({num_query_heads}) must be a "
                f"multiple of num_key_value_heads ({num_key_value_heads})."
            )
        self.head_dim = head_dim
        self.num_query_heads = num_query_heads
        self.num_key_value_heads = num_key_value_heads
        self.num_repeats = num_query_heads // num_key_value_heads
        self.use_gate = use_gate
        self.sliding_window = sliding_window
        # None: the fused kernel where possible, unless mb.config.disable_flash_attention()
        # ran (Keras's rule; an explicit False here stays False, Keras reads it as None).
        if flash_attention is None:
            flash_attention = config.is_flash_attention_enabled()
        self._flash_attention = flash_attention
        self._dropout_layer = Dropout(rate=dropout, seed=seed)

    def build(self, query_shape, value_shape, key_shape=None):
        key_shape = value_shape if key_shape is None else key_shape
        self.feature_dim = query_shape[-1]
        bias = self.use_bias
        self._query_dense = EinsumDense(
            "bqm,muh->bquh",
            output_shape=(None, self.num_query_heads, self.head_dim),
            bias_axes="uh" if bias else None,
            name="query",
            **self._dense_kwargs(),
        )
        self._query_dense.build(query_shape)
        self._key_dense = EinsumDense(
            "bkm,mvh->bkvh",
            output_shape=(None, self.num_key_value_heads, self.head_dim),
            bias_axes="vh" if bias else None,
            name="key",
            **self._dense_kwargs(),
        )
        self._key_dense.build(key_shape)
        self._value_dense = EinsumDense(
            "bkm,mvh->bkvh",
            output_shape=(None, self.num_key_value_heads, self.head_dim),
            bias_axes="vh" if bias else None,
            name="value",
            **self._dense_kwargs(),
        )
        self._value_dense.build(value_shape)
        self._softmax = Softmax(axis=-1, dtype=self.dtype_policy)
        self._output_dense = EinsumDense(
            "bquh,uhm->bqm",
            output_shape=(None, self.feature_dim),
            bias_axes="m" if bias else None,
            name="attention_output",
            **self._dense_kwargs(),
        )
        self._output_dense.build((*tuple(query_shape)[:-1], self.num_query_heads, self.head_dim))

    def call(
        self,
        query,
        value,
        key=None,
        query_mask=None,
        value_mask=None,
        key_mask=None,
        attention_mask=None,
        return_attention_scores=False,
        training=None,
        use_causal_mask=False,
    ):
        key = value if key is None else key
        attention_mask = _combine_masks(
            query, value, query_mask, value_mask, key_mask, attention_mask, use_causal_mask
        )
        query = self._query_dense(query)
        key = ops.repeat(self._key_dense(key), self.num_repeats, axis=2)
        value = ops.repeat(self._value_dense(value), self.num_repeats, axis=2)
        query = ops.multiply(query, ops.cast(1.0 / math.sqrt(self.head_dim), query.dtype))
        fused = self._fused_attention(
            query, key, value, attention_mask, training, return_attention_scores
        )
        if fused is not None:
            return self._output_dense(fused)
        scores = ops.einsum("bquh,bkuh->buqk", query, key)
        scores = self._masked_softmax(scores, attention_mask, -3)
        dropped = self._dropout_layer(scores, training=training)
        output = self._output_dense(ops.einsum("buqk,bkuh->bquh", dropped, value))
        if return_attention_scores:
            return output, scores
        return output

    def _output_shape_for(self, query_shape):
        return tuple(query_shape)

    def _scores_shape_for(self, query_shape, value_shape):
        return (query_shape[0], self.num_query_heads, query_shape[1], value_shape[1])

    def compute_output_shape(self, query_shape, value_shape, key_shape=None):
        return tuple(query_shape)

    def get_config(self):
        return {
            **super().get_config(),
            "head_dim": self.head_dim,
            "num_query_heads": self.num_query_heads,
            "num_key_value_heads": self.num_key_value_heads,
            "use_bias": self.use_bias,
            "use_gate": False,
            "sliding_window": None,
            "dropout": self.dropout,
            **self._weights_config(),
        }
