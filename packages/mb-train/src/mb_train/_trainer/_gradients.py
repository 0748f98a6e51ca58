"""`value_and_gradients`: differentiate code written in the stateful style."""

from mb_ops import StatelessScope, get_stateless_scope
from mb_train._trainer import _runner


def value_and_gradients(fn, variables, has_aux=False):
    """The value of ``fn()`` and its gradients with respect to `variables`.

    ``fn`` takes no arguments and reads variables as usual (``layer(x)``,
    ``v.value``); the backend's ``training.value_and_grad`` differentiates it
    with respect to the values of `variables`. Assignments ``fn`` makes to
    other variables (batch-norm statistics, metrics, loss trackers) are kept,
    as if ``fn`` had run normally. Use it in a custom ``train_step``; it works
    the same on every trainable backend, inside and outside compiled steps.

    Args:
        fn: ``fn() -> loss`` (a scalar), or ``fn() -> (loss, aux)`` with `has_aux`.
        variables: the variables to differentiate with respect to.
        has_aux: whether ``fn`` returns ``(loss, aux)``.

    Returns:
        ``(loss, grads)``, or ``(loss, aux, grads)`` with `has_aux`; ``grads``
        is a list in the order of `variables`.

    Example (public as ``mb.models.value_and_gradients``):

    >>> import mb_ops
    >>> from mb_ops import ops
    >>> w = mb_ops.Variable([1.0, 2.0])
    >>> loss, grads = value_and_gradients(lambda: ops.sum(w * w), [w])
    >>> float(loss), ops.convert_to_numpy(grads[0]).tolist()
    (5.0, [2.0, 4.0])
    """
    module = _runner.check_can_train()
    variables = list(variables)
    ids = {id(v) for v in variables}
    outer = get_stateless_scope()
    if outer is not None:
        others = [(v, val) for v, val in outer.updated_variables() if id(v) not in ids]
        start = []
        for v in variables:
            value = outer.get_current_value(v)
            start.append(v.value if value is None else value)
    else:
        others = []
        start = [v.value for v in variables]
    touched = []

    def pure(values):
        mapping = others + list(zip(variables, values, strict=True))
        with StatelessScope(mapping, collect_losses=True, initialize_variables=False) as scope:
            handed = dict(scope.state_mapping)
            out = fn()
        loss, aux = out if has_aux else (out, None)
        # Only what `fn` assigned goes back out: an untouched variable keeps the very
        # tensor the outer scope holds (a donated value stays updatable in place).
        touched[:] = [
            v
            for v, value in scope.updated_variables()
            if id(v) not in ids and value is not handed.get(id(v))
        ]
        return loss, (aux, [scope.get_current_value(v) for v in touched])

    (loss, (aux, new_values)), grads = module.value_and_grad(pure, has_aux=True)(start)
    for variable, value in zip(touched, new_values, strict=True):
        if outer is not None:
            outer.add_update((variable, value))
        else:
            variable.assign(value)
    grads = list(grads)
    return (loss, aux, grads) if has_aux else (loss, grads)
