"""The backend's optimizer primitives, found through the contract, and the generic fallback.

An optimizer's per-tensor math is one function ``rule(param, grad, *slots,
*scalars) -> (new_param, *new_slots)`` written over `mb_ops`. It runs either
through the backend's ``training.fused_update`` (one call for every tensor:
compiled on jax and tensorflow) or, where that is absent, in a plain loop; the
numbers are the same. Some backends also offer in-place multi-tensor kernels
(torch's ``foreach_sgd``/``foreach_adam``); `live_values` says when mutating a
variable's tensor in place is the same as assigning it.
"""

import itertools
import operator

from mb_ops import backends, get_stateless_scope

_MISSING = object()
_VALUE = operator.attrgetter("_value")
_PRIMITIVES = {}


def training_primitive(name):
    """The active backend's ``training.<name>``, or None when absent or declared unsupported.

    The backend is fixed per process, so the answer is cached.
    """
    found = _PRIMITIVES.get(name, _MISSING)
    if found is _MISSING:
        found = _PRIMITIVES[name] = backends.lookup("training", name)
    return found


def none_free(values):
    """Whether no element of `values` is None (by identity, at C speed)."""
    return all(map(operator.is_not, values, itertools.repeat(None)))


def live_values(variables):
    """The tensors to update in place, when writing into them equals assigning.

    That holds outside any StatelessScope (the variables' own tensors), and inside
    one whose values were donated (`DonatingStatelessScope`: the trainer's
    step, whose results become the state) as long as a variable still holds the
    value it was handed. Returns None otherwise (traced, user-given or already
    reassigned values must not be mutated).
    """
    try:
        lives = list(map(_VALUE, variables))
    except AttributeError:  # a None (a variable without this slot)
        return None
    scope = get_stateless_scope()
    if scope is None:
        return lives if none_free(lives) else None
    values = list(map(scope.get_current_value, variables))
    if all(map(operator.is_, values, lives)) and none_free(values):
        return values
    for value, live in zip(values, lives, strict=True):
        if value is None or not (value is live or scope.is_donated(value)):
            return None
    return values


def run_rule(rule, params, grads, slot_columns, scalars, fused=True):
    """Applies `rule` to every tensor; returns ``[new_params, *new_slot_columns]``.

    Args:
        rule: the per-tensor update function.
        params, grads: lists of tensors.
        slot_columns: one list per slot kind (momenta, velocities, ...), each
            as long as `params`.
        scalars: values shared by every tensor (rates, bias corrections).
        fused: use the backend's ``fused_update`` when it has one (and the rule
            does not set ``needs_static_shapes``).
    """
    # A rule that reads static dimensions (not only the rank) runs in the loop: a
    # backend may trace fused_update with relaxed shapes (tf.function's reduce_retracing).
    if getattr(rule, "needs_static_shapes", False):
        fused = False
    fused_update = training_primitive("fused_update") if fused else None
    if fused_update is not None:
        out = fused_update(rule, params, grads, *slot_columns, scalars=tuple(scalars))
        return [list(out)] if not slot_columns else [list(column) for column in out]
    columns = [[] for _ in range(1 + len(slot_columns))]
    for i, (param, grad) in enumerate(zip(params, grads, strict=True)):
        result = rule(param, grad, *(column[i] for column in slot_columns), *scalars)
        result = result if isinstance(result, tuple) else (result,)
        for column, value in zip(columns, result, strict=True):
            column.append(value)
    return columns
