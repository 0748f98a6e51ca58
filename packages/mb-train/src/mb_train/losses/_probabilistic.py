"""Losses between distributions and counts: Kullback-Leibler divergence and Poisson."""

from mb_ops import config, ops
from mb_train.losses._serialization import builtin
from mb_train.losses._wrapper import BuiltinLossWrapper

_DEFAULT = "sum_over_batch_size"


@builtin(aliases=("kld", "KLD", "kullback_leibler_divergence"))
def kl_divergence(y_true, y_pred):
    """``sum(y_true * log(y_true / y_pred), axis=-1)``, both clipped to [epsilon, 1].

    >>> from mb_ops import ops
    >>> values = kl_divergence([[0.5, 0.5]], [[0.5, 0.5]])
    >>> ops.convert_to_numpy(values).tolist()
    [0.0]
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=ops.dtype(y_pred))
    eps = config.epsilon()
    y_true = ops.clip(y_true, eps, 1.0)
    y_pred = ops.clip(y_pred, eps, 1.0)
    return ops.sum(y_true * ops.log(y_true / y_pred), axis=-1)


@builtin
def poisson(y_true, y_pred):
    """``mean(y_pred - y_true * log(y_pred + epsilon), axis=-1)``, for count targets."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=ops.dtype(y_pred))
    return ops.mean(y_pred - y_true * ops.log(y_pred + config.epsilon()), axis=-1)


@builtin
class KLDivergence(BuiltinLossWrapper):
    """Kullback-Leibler divergence of `y_pred` from `y_true` (`kl_divergence`).

    >>> round(float(KLDivergence()([[1.0, 0.0]], [[0.5, 0.5]])), 4)
    0.6931
    """

    def __init__(self, reduction=_DEFAULT, name="kl_divergence", dtype=None):
        super().__init__(kl_divergence, name=name, reduction=reduction, dtype=dtype)


@builtin
class Poisson(BuiltinLossWrapper):
    """The Poisson negative log-likelihood, up to a constant (`poisson`)."""

    def __init__(self, reduction=_DEFAULT, name="poisson", dtype=None):
        super().__init__(poisson, name=name, reduction=reduction, dtype=dtype)
