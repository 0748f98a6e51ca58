"""`apply`: the update pipeline every optimizer shares, as pure tensor code.

Order (Keras 3's): drop missing gradients, overwrite ``overwrite_with_gradient``
variables, unscale by `loss_scale_factor`, accumulate gradients, clip, decay
the weights, run the optimizer's update, update the EMA, apply constraints,
count the step. Nothing branches in Python on a tensor's value: the accumulation
step and the EMA overwrite are selected with ``ops.where``, so the whole update
traces into one compiled step (jax.jit, tf.function) and runs eagerly on torch.
"""

import itertools
import operator
import warnings

from mb_ops import StatelessScope, get_autocast_scope, get_stateless_scope, name_scope, ops
from mb_train._trainer._distributed import aggregate_gradients
from mb_train.optimizers import _clipping, _fused
from mb_train.optimizers._rules import ElementwiseRule, weight_decay_rule


def cast_to(x, dtype):
    """`x` as `dtype` (no op when it already is)."""
    return x if ops.dtype(x) == dtype else ops.cast(x, dtype)


def _ids(variables):
    return {id(v) for v in variables}


_DTYPE = operator.attrgetter("dtype")
_CONSTRAINT = operator.attrgetter("constraint")
_OVERWRITE = operator.attrgetter("overwrite_with_gradient")
_PLANS_KEPT = 8  # variable lists whose step plans an optimizer keeps


def _pick(values, positions):
    return values if positions is None else [values[i] for i in positions]


class _StepPlan:
    """What an update works out from its list of variables alone, kept across steps.

    One per list of variables an optimizer is stepped with (`ApplyMixin._step_plan`:
    the same variables in the same order, under the same autocast dtype and weight
    decay), so a steady step does not redo per-variable Python: the variables' dtypes,
    which gradients need a cast (for the gradients' dtypes last seen), and the groups
    the multi-tensor kernels run (`kernel_groups`).
    """

    __slots__ = ("casts", "dtypes", "grad_dtypes", "kernels", "variables")

    def __init__(self, variables):
        self.variables = tuple(variables)  # holds them: the ids in the key stay theirs
        self.dtypes = [v.dtype for v in variables]
        self.grad_dtypes = None
        self.casts = ()
        self.kernels = _UNPLANNED

    def cast_gradients(self, grads):
        """`grads`, each as its variable's dtype; which need a cast is worked out once
        per combination of the gradients' own dtypes."""
        try:
            raw = tuple(map(_DTYPE, grads))
        except AttributeError:  # Python numbers or lists: no dtype to key on
            raw = None
        if raw is None or raw != self.grad_dtypes:
            casts = [
                i
                for i, (g, dtype) in enumerate(zip(grads, self.dtypes, strict=True))
                if ops.dtype(g) != dtype
            ]
            if raw is not None:
                self.grad_dtypes, self.casts = raw, casts
        else:
            casts = self.casts
        if not casts:
            return grads
        grads = list(grads)
        for i in casts:
            grads[i] = ops.cast(grads[i], self.dtypes[i])
        return grads

    def kernel_groups(self, optimizer):
        """``(decayed, groups)`` for `ApplyMixin._try_kernels`, or None when some
        variable's rule is not an `ElementwiseRule`; worked out on first use.

        ``decayed``: ``(dtype, positions, variables)`` per dtype of the variables that
        weight decay applies to; ``groups``: ``(rule, dtype, static, positions,
        variables, slot_columns)`` per rule. ``positions`` index the gradients (None:
        all of them, in order).
        """
        if self.kernels is _UNPLANNED:
            self.kernels = _group_for_kernels(optimizer, self.variables, self.dtypes)
        return self.kernels


_UNPLANNED = object()


def _group_for_kernels(optimizer, variables, dtypes):
    groups, decayed = {}, {}
    for position, (variable, dtype) in enumerate(zip(variables, dtypes, strict=True)):
        rule, slots, static = optimizer._plan_of(variable)
        if not isinstance(rule, ElementwiseRule):
            return None
        entry = groups.setdefault((rule, dtype, static), ([], [], []))
        entry[0].append(position)
        entry[1].append(variable)
        entry[2].append(slots)
        if optimizer.weight_decay and optimizer._use_weight_decay(variable):
            found = decayed.setdefault(dtype, ([], []))
            found[0].append(position)
            found[1].append(variable)
    everything = list(range(len(variables)))

    def positions(found):
        return None if found == everything else tuple(found)

    return (
        [(dtype, positions(p), tuple(vs)) for dtype, (p, vs) in decayed.items()],
        [
            (rule, dtype, static, positions(p), tuple(vs), _slot_columns(rows))
            for (rule, dtype, static), (p, vs, rows) in groups.items()
        ],
    )


def _slot_columns(slot_rows):
    count = len(slot_rows[0]) if slot_rows else 0
    return tuple(tuple(row[k] for row in slot_rows) for k in range(count))


def builtin_update_step(method):
    """Marks an ``update_step`` as mb's own rule-based one (an override that only renames
    Keras's arguments keeps it), so the grouped and fused update paths stay in use."""
    method._mb_builtin_update_step = True
    return method


def _builtin(update_step):
    return getattr(update_step, "_mb_builtin_update_step", False)


class ApplyMixin:
    """`apply`, `apply_gradients`, `update_step` and the steps between them."""

    def apply_gradients(self, grads_and_vars):
        """``apply`` on ``[(gradient, variable), ...]``; returns the iteration counter."""
        pairs = list(grads_and_vars)
        if pairs:
            grads, variables = zip(*pairs, strict=True)
            self.apply(list(grads), list(variables))
        return self._iterations

    def apply(self, grads, trainable_variables=None):
        """Updates `trainable_variables` (default: those the optimizer was built with)
        with `grads`, one gradient per variable; builds the optimizer on first use."""
        grads = list(grads)
        if not grads:
            return
        variables = self._variables_for(grads, trainable_variables)
        # Worked out once per step, here: the update below runs with it.
        plan = self._step_plan(variables)
        if get_stateless_scope() is not None or self._updates_in_place(plan):
            # In place on the kernels, a snapshot of the state would change nothing.
            self._apply_planned(grads, variables, plan)
            return
        # Outside a StatelessScope (eager use), run on a snapshot of the state and
        # write the results back, so that values read before an update (for the
        # accumulation or loss-scale selections) are never changed underneath.
        given = _ids(variables)
        state = list(variables) + [v for v in self.variables if id(v) not in given]
        with StatelessScope._snapshot(state) as scope:
            self._apply_planned(grads, variables, plan)
        for variable in state:
            new = scope.get_current_value(variable)
            if new is not variable._value:
                variable.assign(new)

    def _apply_planned(self, grads, variables, plan):
        if type(self)._apply is ApplyMixin._apply:
            self._apply(grads, variables, plan)
        else:  # a wrapper's own `_apply(grads, variables)`
            self._apply(grads, variables)

    def _apply(self, grads, variables, plan=None):
        """The update; `plan` is the `_StepPlan` of `variables` (None: looked up)."""
        given = variables
        grads, variables = self._filter_empty_gradients(grads, variables)
        # Each process's gradients of its part of the batch, averaged over the
        # processes where the engine's tensors are per-process (torch, as DDP).
        grads = aggregate_gradients(grads)
        grads, variables = self._overwrite_variables_directly_with_gradients(grads, variables)
        if variables is not given:  # some were left out: the plan is another list's
            plan = None
        if grads:
            if self.loss_scale_factor is not None:
                grads = [ops.divide(g, self.loss_scale_factor) for g in grads]
            self._backend_apply_gradients(grads, variables, plan)
            constraints = map(_CONSTRAINT, variables)
            if any(map(operator.is_not, constraints, itertools.repeat(None))):
                for variable in variables:
                    if variable.constraint is not None:
                        variable.assign(variable.constraint(variable.value))
        self._iterations.assign(ops.add(self._iterations.value, 1))

    def _variables_for(self, grads, trainable_variables):
        if trainable_variables is None:
            if not self.built:
                raise ValueError(
                    "When passing `grads` without `variables`, the optimizer must already be "
                    "built on a list of variables. Call `optimizer.build(trainable_variables)` "
                    "first, or pass the variables: `optimizer.apply(grads, variables)`."
                )
            if len(grads) != len(self._trainable_variables):
                raise ValueError(
                    f"apply() received {len(grads)} gradients, but the optimizer tracks "
                    f"{len(self._trainable_variables)} trainable variables. Pass one gradient "
                    "per variable, in the order the optimizer was built with."
                )
            return list(self._trainable_variables)
        variables = list(trainable_variables)
        if len(variables) != len(grads):
            raise ValueError(
                f"apply() received {len(grads)} gradients for {len(variables)} variables. Pass "
                "one gradient per variable."
            )
        if not self.built:
            with name_scope(self.name, caller=self):
                self.build(variables)
        # Checked by `_step_plan` when it makes the list's plan (a known list has one).
        return variables

    def _filter_empty_gradients(self, grads, variables):
        if _fused.none_free(grads):
            return grads, variables
        kept = [(g, v) for g, v in zip(grads, variables, strict=True) if g is not None]
        if not kept:
            raise ValueError(
                "No gradients provided for any variable: every gradient is None. Check that "
                "the loss depends on the variables being trained."
            )
        missing = [v.path for g, v in zip(grads, variables, strict=True) if g is None]
        warnings.warn(
            f"Gradients do not exist for variables {missing} when minimizing the loss. If "
            "using `model.compile()`, did you forget to provide a `loss` argument?",
            stacklevel=3,
        )
        return [g for g, _ in kept], [v for _, v in kept]

    def _is_accumulation_update(self):
        step = ops.add(self._iterations.value, 1)
        return ops.equal(ops.mod(step, self.gradient_accumulation_steps), 0)

    def _overwrite_variables_directly_with_gradients(self, grads, variables):
        if not any(map(_OVERWRITE, variables)):
            return grads, variables
        kept_grads, kept_vars = [], []
        for grad, variable in zip(grads, variables, strict=True):
            if not variable.overwrite_with_gradient:
                kept_grads.append(grad)
                kept_vars.append(variable)
            elif self.gradient_accumulation_steps:
                # Accumulated as a running maximum (float8 scales), as Keras does.
                update = self._is_accumulation_update()
                acc = self._accumulated_gradients[self._get_variable_index(variable)]
                merged = ops.maximum(grad, acc.value)
                variable.assign(ops.where(update, merged, variable.value))
                acc.assign(ops.where(update, ops.zeros_like(merged), merged))
            else:
                variable.assign(grad)
        return kept_grads, kept_vars

    def _clip_gradients(self, grads):
        return _clipping.clip_gradients(self, grads)

    # ----- the update ---------------------------------------------------------------

    def _backend_apply_gradients(self, grads, variables, plan=None):
        if self.gradient_accumulation_steps:
            self._accumulate_and_update(grads, variables, plan)
        else:
            self._clip_decay_update(grads, variables, plan)
        if self.use_ema:
            self._update_model_variables_moving_average(self._trainable_variables)
            if self.ema_overwrite_frequency:
                self._overwrite_with_average_every_n_steps()

    def _clip_decay_update(self, grads, variables, plan=None):
        grads = self._clip_gradients(grads)
        if plan is None:
            plan = self._step_plan(variables)
        grads = plan.cast_gradients(grads)
        learning_rate = self._learning_rate_value()
        self._advance_state()
        if self._try_kernels(grads, variables, learning_rate, plan):
            return
        self._apply_weight_decay(variables)
        self._backend_update_step(grads, variables, learning_rate)

    def _accumulate_and_update(self, grads, variables, plan=None):
        steps = self.gradient_accumulation_steps
        update = self._is_accumulation_update()
        accs = [self._accumulated_gradients[self._get_variable_index(v)] for v in variables]
        summed = [ops.add(cast_to(g, a.dtype), a.value) for g, a in zip(grads, accs, strict=True)]
        # Run the update on every step and keep its result only on update steps.
        skip = {id(self._iterations), *(id(a) for a in self._accumulated_gradients)}
        watched = list(variables) + [v for v in self._variables if id(v) not in skip]
        before = [v.value for v in watched]
        with self._no_in_place():
            self._clip_decay_update([ops.divide(s, steps) for s in summed], variables, plan)
        for variable, old in zip(watched, before, strict=True):
            variable.assign(ops.where(update, variable.value, old))
        for acc, total in zip(accs, summed, strict=True):
            acc.assign(ops.where(update, ops.zeros_like(total), total))

    def _advance_state(self):
        """Updates the optimizer's state shared by all variables (Nadam's running
        product), once a step, before the per-variable rules; nothing by default. An
        optimizer that needs it overrides this rather than `_backend_update_step`, so
        its rules keep the multi-tensor kernels."""

    def _uses_builtin_math(self):
        cls = type(self)
        return (
            _builtin(cls.update_step)
            and cls._backend_update_step is ApplyMixin._backend_update_step
            and cls._apply_weight_decay is ApplyMixin._apply_weight_decay
        )

    def _step_plan(self, variables):
        """The `_StepPlan` of this list of variables (made on first use, once the
        variables are checked to be the optimizer's: a list with a plan is known)."""
        scope = get_autocast_scope()
        key = (
            tuple(map(id, variables)),
            None if scope is None else scope.dtype,
            self.weight_decay,
        )
        plans = self._step_plans
        plan = plans.get(key)
        if plan is None:
            self._check_variables_are_known(variables)
            if len(plans) >= _PLANS_KEPT:
                plans.clear()
            plan = plans[key] = _StepPlan(variables)
        return plan

    def _kernels_usable(self):
        """Whether the update may run on the backend's in-place multi-tensor kernels,
        as far as the optimizer (not its variables) decides."""
        return (
            _fused.training_primitive("foreach_update") is not None
            and self._allow_kernels
            and not self._in_place_blocked
            and self._uses_builtin_math()
        )

    def _updates_in_place(self, plan):
        """Whether an eager `apply` of the variables of `plan` runs on the in-place
        kernels, reading nothing it has written (no accumulation, no wrapper's selection)."""
        return (
            not self.gradient_accumulation_steps
            and type(self)._apply is ApplyMixin._apply
            and self._kernels_usable()
            and plan.kernel_groups(self) is not None
        )

    def _try_kernels(self, grads, variables, learning_rate, plan=None):
        """Runs the whole update through the backend's multi-tensor kernels
        (``training.foreach_update``), in place, when every variable's rule is an
        `ElementwiseRule` and every value may be written in place. All or nothing:
        returns False (having changed nothing) otherwise."""
        if (
            not self._kernels_usable()
            # Only on the state as handed to the step: a later update in the same
            # scope (several unrolled steps, traced by torch.compile) reassigns.
            or _fused.live_values([self._iterations]) is None
        ):
            return False
        plan = plan if plan is not None else self._step_plan(variables)
        found = plan.kernel_groups(self)
        if found is None:
            return False
        decayed, groups = found
        live_values = _fused.live_values
        calls = []
        for dtype, positions, group in decayed:
            params = live_values(group)
            if params is None:
                return False
            scalars = (self.weight_decay, cast_to(learning_rate, dtype))
            calls.append((weight_decay_rule, params, _pick(grads, positions), (), scalars))
        for rule, dtype, static, positions, group, slot_columns in groups:
            params = live_values(group)
            columns = [live_values(column) for column in slot_columns]
            if params is None or not _fused.none_free(columns):
                return False
            scalars = tuple(self._rule_scalars(rule, learning_rate, dtype)) + static
            calls.append((rule, params, _pick(grads, positions), columns, scalars))
        foreach_update = _fused.training_primitive("foreach_update")
        for rule, params, group_grads, columns, scalars in calls:
            foreach_update(rule.fn, params, group_grads, *columns, scalars=scalars)
        return True

    def _apply_weight_decay(self, variables):
        if self.weight_decay is None:
            return
        rate = self._learning_rate_value()
        for variable in variables:
            if self._use_weight_decay(variable):
                value = variable.value
                lr = cast_to(rate, variable.dtype)
                decayed = ops.multiply(ops.multiply(value, self.weight_decay), lr)
                variable.assign(ops.subtract(value, decayed))

    def _backend_update_step(self, grads, variables, learning_rate):
        if not _builtin(type(self).update_step):
            # A Keras-style optimizer: its own per-variable `update_step`.
            for grad, variable in zip(grads, variables, strict=True):
                self.update_step(grad, variable, learning_rate)
            return
        groups = {}
        for grad, variable in zip(grads, variables, strict=True):
            rule, slots, static = self._plan_of(variable)
            entry = groups.setdefault((rule, variable.dtype, static), ([], [], []))
            entry[0].append(variable)
            entry[1].append(grad)
            entry[2].append(slots)
        for (rule, dtype, static), (group, group_grads, slot_rows) in groups.items():
            scalars = tuple(self._rule_scalars(rule, learning_rate, dtype)) + static
            self._run_rule(rule, group, group_grads, slot_rows, scalars)

    def _plan_of(self, variable):
        index = self._get_variable_index(variable)
        plan = self._plans.get(index)
        if plan is None:
            rule, slots, static = self._plan(index, variable)
            plan = self._plans[index] = (rule, tuple(slots), tuple(static))
        return plan

    def _run_rule(self, rule, variables, grads, slot_rows, scalars):
        params = [v.value for v in variables]
        count = len(slot_rows[0]) if slot_rows else 0
        columns = [[row[k].value for row in slot_rows] for k in range(count)]
        out = _fused.run_rule(rule, params, grads, columns, scalars, fused=self._allow_fused_update)
        for variable, new in zip(variables, out[0], strict=True):
            variable.assign(new)
        for k, column in enumerate(out[1:]):
            for row, new in zip(slot_rows, column, strict=True):
                row[k].assign(new)

    @builtin_update_step
    def update_step(self, gradient, variable, learning_rate):
        """Updates one variable (and its slots) from its gradient: the optimizer's math."""
        rule, slots, static = self._plan_of(variable)
        scalars = tuple(self._rule_scalars(rule, learning_rate, variable.dtype)) + static
        self._run_rule(rule, [variable], [gradient], [slots], scalars)

    def _plan(self, index, variable):
        raise NotImplementedError(
            f"Optimizer {type(self).__name__} must implement "
            "`update_step(self, gradient, variable, learning_rate)` (Keras style, with "
            "self.assign), or `_plan(index, variable)` returning (rule, slots, scalars)."
        )

    def _rule_scalars(self, rule, learning_rate, dtype):
        return (cast_to(learning_rate, dtype),)

    # ----- moving average -----------------------------------------------------------

    def _update_model_variables_moving_average(self, trainable_variables):
        not_first = ops.not_equal(self._iterations_value(), 0)
        momenta = {}
        for variable, average in zip(
            trainable_variables, self._model_variables_moving_average, strict=True
        ):
            if average is None:
                continue
            dtype = variable.dtype
            momentum = momenta.get(dtype)
            if momentum is None:
                momentum = ops.multiply(ops.cast(not_first, dtype), self.ema_momentum)
                momenta[dtype] = momentum
            average.assign(
                ops.add(
                    ops.multiply(momentum, average.value),
                    ops.multiply(ops.subtract(1, momentum), variable.value),
                )
            )

    def _overwrite_with_average_every_n_steps(self):
        step = ops.add(self._iterations_value(), 1)
        overwrite = ops.equal(ops.mod(step, self.ema_overwrite_frequency), 0)
        for variable, average in zip(
            self._trainable_variables, self._model_variables_moving_average, strict=True
        ):
            if average is not None:
                variable.assign(ops.where(overwrite, average.value, variable.value))

    def _overwrite_model_variables_with_average_value(self, trainable_variables):
        averages = self._model_variables_moving_average
        trainable_variables = list(trainable_variables)
        if len(trainable_variables) != len(averages):
            raise ValueError(
                f"The number of model variables ({len(trainable_variables)}) to overwrite "
                f"does not match the number of moving averages ({len(averages)}) the "
                "optimizer keeps. Check that the optimizer was built on this model."
            )
        for variable, average in zip(trainable_variables, averages, strict=True):
            if average is not None:
                variable.assign(average.value)
