"""The Circle loss for metric learning (Sun et al., 2020)."""

from mb_layers import set_keras_mask
from mb_ops import ops
from mb_train._arguments import passed_arguments
from mb_train.losses._serialization import builtin
from mb_train.losses._wrapper import BuiltinLossWrapper


def _positions(labels):
    # 1, 2, ..., n along a vector, built from the tensor so that an unknown
    # batch size works when traced.
    return ops.cumsum(ops.ones_like(labels, dtype="int32"))


def _pair_masks(query_labels, key_labels, remove_diagonal):
    """Boolean ``(n_query, n_key)`` masks of same-label and different-label pairs."""
    query_labels = ops.reshape(query_labels, (-1,))
    key_labels = ops.reshape(key_labels, (-1,))
    positive = ops.equal(ops.expand_dims(query_labels, 1), ops.expand_dims(key_labels, 0))
    negative = ops.logical_not(positive)
    if remove_diagonal:
        rows = ops.expand_dims(_positions(query_labels), 1)
        cols = ops.expand_dims(_positions(key_labels), 0)
        positive = ops.logical_and(positive, ops.not_equal(rows, cols))
    return positive, negative


@builtin
def circle(
    y_true,
    y_pred,
    ref_labels=None,
    ref_embeddings=None,
    remove_diagonal=True,
    gamma=80,
    margin=0.4,
):
    """The Circle loss of each embedding against the reference embeddings.

    Pairs with the same label are pulled together and pairs with different
    labels pushed apart, each pair weighted by how far it is from its optimum.
    The embeddings are expected L2-normalized (cosine distance ``1 - x . y``).
    Entries whose loss is 0 are masked out, so a `Loss` averages over the rest.

    Args:
        y_true: integer labels, shape ``(batch,)``.
        y_pred: embeddings, shape ``(batch, dim)``.
        ref_labels: labels of the reference embeddings (default: `y_true`).
        ref_embeddings: reference embeddings (default: `y_pred`).
        remove_diagonal: leave out the pairs of an embedding with itself.
        gamma: the scale of the similarities.
        margin: the relaxation margin.

    Returns:
        One loss per embedding, shape ``(batch,)``.
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, "int32")
    ref_embeddings = y_pred if ref_embeddings is None else ops.convert_to_tensor(ref_embeddings)
    ref_labels = y_true if ref_labels is None else ops.cast(ref_labels, "int32")

    distances = ops.maximum(1.0 - ops.matmul(y_pred, ops.transpose(ref_embeddings)), 0.0)
    positive, negative = _pair_masks(y_true, ref_labels, remove_diagonal)
    dtype = ops.dtype(distances)
    positive_weights = ops.maximum((margin + distances) * ops.cast(positive, dtype), 0.0)
    negative_weights = ops.maximum((1.0 + margin - distances) * ops.cast(negative, dtype), 0.0)
    positive_terms = -gamma * positive_weights * (margin - distances)
    negative_terms = gamma * negative_weights * (1.0 - margin - distances)
    positive_loss = ops.logsumexp(ops.where(positive, positive_terms, float("-inf")), axis=1)
    negative_loss = ops.logsumexp(ops.where(negative, negative_terms, float("-inf")), axis=1)
    values = ops.softplus(positive_loss + negative_loss)
    set_keras_mask(values, values > 0)
    return values


@builtin
class Circle(BuiltinLossWrapper):
    """The Circle loss (`circle`) over a batch of labelled embeddings.

    Args:
        gamma: the scale of the similarities.
        margin: the relaxation margin.
        remove_diagonal: leave out the pairs of an embedding with itself.
        reduction, name, dtype: see `Loss`.
    """

    def __init__(
        self,
        gamma=80.0,
        margin=0.4,
        remove_diagonal=True,
        reduction="sum_over_batch_size",
        name="circle",
        dtype=None,
    ):
        super().__init__(circle, **passed_arguments(locals()))
