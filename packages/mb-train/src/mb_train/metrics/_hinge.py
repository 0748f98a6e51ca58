"""Hinge metrics: running means of the hinge losses."""

from mb_train.losses import categorical_hinge, hinge, squared_hinge
from mb_train.metrics._reduction import BuiltinMeanMetricWrapper as _HingeMetric


class Hinge(_HingeMetric):
    """The mean of `hinge` (``max(1 - y_true * y_pred, 0)``; labels -1/1 or 0/1).

    Example:

    >>> m = Hinge()
    >>> m.update_state([[0.0, 1.0]], [[0.0, 1.0]])
    >>> float(m.result())
    0.5
    """

    def __init__(self, name="hinge", dtype=None):
        super().__init__(hinge, name=name, dtype=dtype)


class SquaredHinge(_HingeMetric):
    """The mean of `squared_hinge` over samples.

    Example:

    >>> m = SquaredHinge()
    >>> m.update_state([[0.0, 1.0]], [[0.0, 1.0]])
    >>> float(m.result())
    0.5
    """

    def __init__(self, name="squared_hinge", dtype=None):
        super().__init__(squared_hinge, name=name, dtype=dtype)


class CategoricalHinge(_HingeMetric):
    """The mean of `categorical_hinge` over samples.

    Example:

    >>> m = CategoricalHinge()
    >>> m.update_state([[0.0, 1.0]], [[0.0, 1.0]])
    >>> float(m.result())
    0.0
    """

    def __init__(self, name="categorical_hinge", dtype=None):
        super().__init__(categorical_hinge, name=name, dtype=dtype)
