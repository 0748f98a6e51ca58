"""Update rules written once, over a namespace of elementwise functions.

Most optimizers' per-tensor math uses only elementwise arithmetic. Such a rule is
written as ``fn(xp, param, grad, *slots, *scalars) -> (new_param, *new_slots)``
against the functions in `ELEMENTWISE`, and wrapped with `elementwise_rule`:

- called as ``rule(param, grad, *slots, *scalars)`` it runs over `mb_ops` on one
  tensor (in a plain loop, or traced by the backend's ``training.fused_update``);
- a backend with multi-tensor kernels (``training.foreach_update``: torch's
  ``_foreach_*``) runs ``rule.fn`` with its own namespace, whose functions take lists
  of tensors, and updates every tensor of a group at once, in place.

So a new optimizer whose rule is elementwise runs on torch's multi-tensor kernels
without a line of torch code. The namespace holds nothing but `ELEMENTWISE`, on
every backend, so a rule that reaches for anything else fails everywhere at once
(write it as a plain function instead: it then runs per tensor).
"""

import functools
import types

from mb_ops import ops

ELEMENTWISE = (
    "abs",
    "add",
    "divide",
    "maximum",
    "minimum",
    "multiply",
    "negative",
    "sign",
    "sqrt",
    "square",
    "subtract",
)
"""The functions an elementwise rule may call on its namespace (``xp.add(a, b)``, ...);
each takes tensors or Python/0-d scalars, as the `mb_ops` function of that name."""

_OPS = types.SimpleNamespace(**{name: getattr(ops, name) for name in ELEMENTWISE})


class ElementwiseRule:
    """A per-tensor update rule that also runs over lists of tensors.

    Attributes:
        fn: ``fn(xp, param, grad, *slots, *scalars)``, written over ``xp``.
    """

    def __init__(self, fn):
        self.fn = fn
        functools.update_wrapper(self, fn)

    def __call__(self, param, grad, *rest):
        return self.fn(_OPS, param, grad, *rest)

    def __repr__(self):
        return f"<elementwise rule {self.fn.__qualname__}>"


def elementwise_rule(fn):
    """Decorator: ``fn(xp, param, grad, *slots, *scalars)`` as an `ElementwiseRule`."""
    return ElementwiseRule(fn)


@elementwise_rule
def weight_decay_rule(xp, param, grad, weight_decay, learning_rate):
    """Keras's decoupled weight decay, ``param - param * weight_decay * learning_rate``
    (``grad`` is unused: the rule has the optimizers' shape)."""
    return xp.subtract(param, xp.multiply(xp.multiply(param, weight_decay), learning_rate))
