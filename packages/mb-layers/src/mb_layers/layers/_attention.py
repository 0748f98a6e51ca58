"""Attention layers: dot-product (`Attention`), `AdditiveAttention`,
`MultiHeadAttention` and `GroupedQueryAttention`."""

import string

from mb_graph import KerasTensor
from mb_layers._layer import Layer
from mb_layers._ops import ops
from mb_layers._ops import random as random_ops
from mb_ops.random import SeedGenerator

_LETTERS = string.ascii_lowercase


def _causal_mask(query, value):
    q_len = ops.shape(query)[1]
    v_len = q_len if value is None else ops.shape(value)[1]
    ones = ops.ones((1, q_len, v_len), dtype="int32")
    return ops.greater_equal(ops.cumsum(ones, axis=-2), ops.cumsum(ones, axis=-1))


def _combine_masks(query, value, query_mask, value_mask, key_mask, attention_mask, causal):
    """The [B, T, S] boolean mask from per-sequence masks, causality and an explicit mask."""
    auto = None
    if query_mask is not None:
        auto = ops.expand_dims(ops.cast(query_mask, "bool"), -1)
    for mask in (value_mask, key_mask):
        if mask is not None:
            mask = ops.expand_dims(ops.cast(mask, "bool"), -2)
            auto = mask if auto is None else ops.logical_and(auto, mask)
    if causal:
        mask = _causal_mask(query, value)
        auto = mask if auto is None else ops.logical_and(auto, mask)
    if attention_mask is not None:
        attention_mask = ops.cast(attention_mask, "bool")
    if auto is not None:
        attention_mask = auto if attention_mask is None else ops.logical_and(attention_mask, auto)
    return attention_mask


# The call arguments of the dense attention layers, in their docstrings' ``{call arguments}``.
_CALL_ARGUMENTS = """    Call arguments:
        inputs: ``[query, value]`` or ``[query, value, key]``: tensors
            ``(batch, Tq, dim)``, ``(batch, Tv, dim)`` and ``(batch, Tv, dim)`` (``key``
            defaults to ``value``).
        mask: None or ``[query_mask, value_mask]``: boolean tensors ``(batch, Tq)`` and
            ``(batch, Tv)``; masked values are not attended to.
        return_attention_scores: whether to also return the ``(batch, Tq, Tv)`` weights.
        training: whether dropout applies.
        use_causal_mask: whether query position ``i`` attends only to positions ``<= i``.
"""


def _with_call_arguments(doc):
    return doc.replace("    {call arguments}\n", _CALL_ARGUMENTS)


class _BaseDenseAttention(Layer):
    def __init__(self, dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.dropout = dropout
        self.seed = seed
        self.seed_generator = SeedGenerator(seed) if dropout > 0 else None
        self.supports_masking = True

    def _validate(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) not in (2, 3):
            raise ValueError(
                f"{type(self).__name__} takes a list [query, value] or [query, value, key]. "
                f"Received: {inputs!r}"
            )

    def call(
        self,
        inputs,
        mask=None,
        training=False,
        return_attention_scores=False,
        use_causal_mask=False,
    ):
        self._validate(inputs)
        query, value = inputs[0], inputs[1]
        key = inputs[2] if len(inputs) > 2 else value
        query_mask = mask[0] if mask else None
        value_mask = mask[1] if mask else None
        scores = self._calculate_scores(query, key)
        scores_mask = None
        if use_causal_mask:
            scores_mask = _causal_mask(query, value)
        if value_mask is not None:
            value_mask = ops.expand_dims(ops.cast(value_mask, "bool"), -2)
            scores_mask = (
                value_mask if scores_mask is None else ops.logical_and(scores_mask, value_mask)
            )
        if scores_mask is not None:
            big = 65504.0 if str(scores.dtype).endswith("float16") else 1.0e9
            scores = ops.subtract(
                scores, ops.multiply(big, ops.cast(ops.logical_not(scores_mask), scores.dtype))
            )
        weights = ops.softmax(scores, axis=-1)
        if training and self.dropout > 0:
            weights = random_ops.dropout(weights, self.dropout, seed=self.seed_generator)
        result = ops.matmul(weights, value)
        if query_mask is not None:
            result = ops.multiply(result, ops.cast(ops.expand_dims(query_mask, -1), result.dtype))
        if return_attention_scores:
            return result, weights
        return result

    def compute_mask(self, inputs, mask=None):
        if mask is None or mask[0] is None:
            return None
        return mask[0]

    def compute_output_shape(self, input_shape):
        query_shape, value_shape = input_shape[0], input_shape[1]
        return (*tuple(query_shape)[:-1], value_shape[-1])

    def compute_output_spec(
        self,
        inputs,
        mask=None,
        return_attention_scores=False,
        training=None,
        use_causal_mask=False,
    ):
        self._validate(inputs)
        output_shape = self.compute_output_shape([x.shape for x in inputs])
        out = KerasTensor(output_shape, dtype=self.compute_dtype)
        if return_attention_scores:
            scores_shape = (*inputs[0].shape[:-1], inputs[1].shape[1])
            return out, KerasTensor(scores_shape, dtype=self.compute_dtype)
        return out

    def get_config(self):
        return {**super().get_config(), "dropout": self.dropout, "seed": self.seed}


class Attention(_BaseDenseAttention):
    __doc__ = _with_call_arguments(
        """Dot-product (Luong-style) attention over ``[query, value(, key)]``.

    The output is ``softmax(query @ key^T) @ value`` (scores scaled by a learned scalar
    with ``use_scale``).

    Args:
        use_scale: learn a scalar that scales the scores.
        score_mode: ``"dot"`` or ``"concat"`` (``sum(tanh(query + key))``).
        dropout: dropout rate on the attention weights (training only).
        seed: seed of that dropout.
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...).

    {call arguments}

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> query = np.array([[[1.0, 0.0]]], "float32")
    >>> value = np.array([[[1.0, 0.0], [0.0, 1.0]]], "float32")
    >>> out, scores = Attention()([query, value], return_attention_scores=True)
    >>> ops.convert_to_numpy(scores).astype("float64").round(4).tolist()
    [[[0.7311, 0.2689]]]
    >>> ops.convert_to_numpy(out).astype("float64").round(4).tolist()
    [[[0.7311, 0.2689]]]
    """
    )

    def __init__(self, use_scale=False, score_mode="dot", dropout=0.0, seed=None, **kwargs):
        super().__init__(dropout=dropout, seed=seed, **kwargs)
        if score_mode not in ("dot", "concat"):
            raise ValueError(
                f"Attention score_mode must be 'dot' or 'concat'. Received: {score_mode!r}."
            )
        self.use_scale = use_scale
        self.score_mode = score_mode

    def build(self, input_shape):
        self._validate(input_shape)
        self.scale = (
            self.add_weight(name="scale", shape=(), initializer="ones")
            if (self.use_scale)
            else None
        )
        self.concat_score_weight = (
            self.add_weight(name="concat_score_weight", shape=(), initializer="ones")
            if self.score_mode == "concat"
            else None
        )

    def _calculate_scores(self, query, key):
        if self.score_mode == "dot":
            scores = ops.matmul(query, ops.transpose(key, (0, 2, 1)))
            if self.scale is not None:
                scores = ops.multiply(scores, self.scale)
            return scores
        q = ops.expand_dims(query, -2)
        k = ops.expand_dims(key, -3)
        summed = ops.add(q, k)
        if self.scale is not None:
            summed = ops.multiply(self.scale, summed)
        return ops.multiply(self.concat_score_weight, ops.sum(ops.tanh(summed), axis=-1))

    def get_config(self):
        base = super().get_config()
        dropout, seed = base.pop("dropout"), base.pop("seed")
        return {
            **base,
            "use_scale": self.use_scale,
            "score_mode": self.score_mode,
            "dropout": dropout,
            "seed": seed,
        }


class AdditiveAttention(_BaseDenseAttention):
    __doc__ = _with_call_arguments(
        """Additive (Bahdanau-style) attention over ``[query, value(, key)]``.

    The scores are ``sum(scale * tanh(query + key))`` over the features.

    Args:
        use_scale: learn one scale per feature.
        dropout: dropout rate on the attention weights (training only).
        **kwargs: the base ``Layer``'s arguments (``name``, ``dtype``, ...), and ``seed``,
            the seed of that dropout.

    {call arguments}

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> query = np.ones((2, 3, 4), "float32")
    >>> value = np.ones((2, 5, 4), "float32")
    >>> out, scores = AdditiveAttention()([query, value], return_attention_scores=True)
    >>> ops.shape(out), ops.shape(scores)
    ((2, 3, 4), (2, 3, 5))
    """
    )

    def __init__(self, use_scale=True, dropout=0.0, **kwargs):
        super().__init__(dropout=dropout, **kwargs)
        self.use_scale = use_scale
        # As Keras, whose AdditiveAttention is an Attention subclass left at its default
        # score mode (the scores are computed additively all the same).
        self.score_mode = "dot"

    def build(self, input_shape):
        self._validate(input_shape)
        dim = input_shape[0][-1]
        self.scale = (
            self.add_weight(name="scale", shape=(dim,), initializer="glorot_uniform")
            if self.use_scale
            else None
        )

    def _calculate_scores(self, query, key):
        summed = ops.tanh(ops.add(ops.expand_dims(query, -2), ops.expand_dims(key, -3)))
        if self.scale is not None:
            summed = ops.multiply(self.scale, summed)
        return ops.sum(summed, axis=-1)

    def get_config(self):
        base = super().get_config()
        dropout, seed = base.pop("dropout"), base.pop("seed")
        return {**base, "use_scale": self.use_scale, "dropout": dropout, "seed": seed}
