"""What a steady optimizer step keeps from the previous one (`_apply._StepPlan`).

The per-variable work of an update (the variables' dtypes, which gradients need a
cast, the groups torch's multi-tensor kernels run) is done once per list of
variables, not once per step; a different list (a new variable, one made
non-trainable, another order), another weight decay or a changed exclusion gets a
plan of its own, and the numbers are those of the generic per-variable path.
"""

import numpy as np
import pytest

import mb_ops
from mb_ops import StatelessScope, ops
from mb_train import optimizers
from mb_train.optimizers import _apply, _fused


def _generic(optimizer):
    optimizer._allow_fused_update = False
    optimizer._allow_kernels = False
    return optimizer


@pytest.fixture
def planned(monkeypatch):
    """Counts the step plans made and the kernel groupings worked out."""
    counts = {"plans": 0, "groupings": 0}

    class CountingPlan(_apply._StepPlan):
        __slots__ = ()

        def __init__(self, variables):
            counts["plans"] += 1
            super().__init__(variables)

    grouping = _apply._group_for_kernels

    def counting_grouping(*args):
        counts["groupings"] += 1
        return grouping(*args)

    monkeypatch.setattr(_apply, "_StepPlan", CountingPlan)
    monkeypatch.setattr(_apply, "_group_for_kernels", counting_grouping)
    return counts


def _kernels():
    return _fused.training_primitive("foreach_update") is not None


def _grads(rng, variables, dtype="float32"):
    return [ops.convert_to_tensor(rng.normal(size=v.shape).astype(dtype)) for v in variables]


def _values(shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.normal(size=s).astype("float32") for s in shapes]


def test_a_steady_step_plans_its_variables_once(planned):
    variables = [mb_ops.Variable(p) for p in _values(((3, 4), (4,), (2, 2)))]
    optimizer = optimizers.Adam(0.01, weight_decay=0.1)
    rng = np.random.default_rng(1)
    for _ in range(4):
        optimizer.apply(_grads(rng, variables), variables)
    assert planned["plans"] == 1
    assert planned["groupings"] == (1 if _kernels() else 0)


def _run_steps(optimizer, steps):
    """Each step: ``(variables to update, gradient dtype)`` over three variables."""
    variables = [
        mb_ops.Variable(p, name=f"v{i}") for i, p in enumerate(_values(((3, 4), (4,), (5,))))
    ]
    optimizer.build(variables)
    rng = np.random.default_rng(2)
    for chosen, dtype, change in steps:
        if change is not None:
            change(optimizer, variables)
        subset = [variables[i] for i in chosen]
        optimizer.apply(_grads(rng, subset, dtype), subset)
    return [v.numpy() for v in variables] + [v.numpy() for v in optimizer.variables]


def _exclude_first(optimizer, variables):
    optimizer.exclude_from_weight_decay(var_list=[variables[0]])


def _decay_more(optimizer, variables):
    optimizer.weight_decay = 0.3


STEPS = [
    ((0, 1, 2), "float32", None),
    ((0, 1, 2), "float32", None),
    ((0, 2), "float32", None),  # variable 1 made non-trainable
    ((0, 2), "float16", None),  # gradients of another dtype: cast
    ((2, 0, 1), "float32", None),  # another order, variable 1 back
    ((0, 1, 2), "float32", _exclude_first),
    ((0, 1, 2), "float32", _decay_more),
    ((0, 1, 2), "float32", None),
]


@pytest.mark.parametrize(
    "factory",
    [
        lambda: optimizers.SGD(0.1, momentum=0.9, weight_decay=0.1),
        lambda: optimizers.AdamW(0.05, weight_decay=0.1),
        lambda: optimizers.RMSprop(0.05),
        lambda: optimizers.Adamax(0.05, weight_decay=0.1),
    ],
    ids=["sgd", "adamw", "rmsprop", "adamax"],
)
def test_a_changed_set_of_variables_gets_a_plan_of_its_own(planned, factory):
    fast = _run_steps(factory(), STEPS)
    # A plan for (0, 1, 2), (0, 2) (its float16 gradients too) and (2, 0, 1); the
    # exclusion drops the plans, (0, 1, 2) gets a new one, then one more for the new
    # weight decay, which the last step reuses.
    assert planned["plans"] == 5
    assert planned["groupings"] == (5 if _kernels() else 0)
    slow = _run_steps(_generic(factory()), STEPS)
    for f, s in zip(fast, slow, strict=True):
        np.testing.assert_allclose(f, s, rtol=1e-5, atol=3e-6)


def test_an_eager_step_on_the_kernels_takes_no_snapshot(monkeypatch):
    snapshots = []
    snapshot = StatelessScope._snapshot.__func__

    def counting(cls, variables):
        snapshots.append(len(variables))
        return snapshot(cls, variables)

    monkeypatch.setattr(StatelessScope, "_snapshot", classmethod(counting))
    variables = [mb_ops.Variable(p) for p in _values(((3, 4), (4,)))]
    rng = np.random.default_rng(3)
    optimizers.SGD(0.1, momentum=0.9).apply(_grads(rng, variables), variables)
    # The kernels update the state in place; elsewhere the step runs on a snapshot.
    assert len(snapshots) == (0 if _kernels() else 1)
    # Accumulation reads values from before the update: always on a snapshot.
    optimizers.SGD(0.1, gradient_accumulation_steps=2).apply(_grads(rng, variables), variables)
    assert len(snapshots) == (1 if _kernels() else 2)


def test_the_kernel_step_without_a_snapshot_keeps_the_update_order():
    # Weight decay, the update, the constraint, the moving average, the counter: the
    # numbers of the generic path, which runs on a snapshot.
    def run(optimizer):
        variables = [mb_ops.Variable(p) for p in _values(((3, 4), (4,)), seed=4)]
        variables[0].constraint = lambda x: ops.clip(x, -0.5, 0.5)
        rng = np.random.default_rng(5)
        for _ in range(3):
            optimizer.apply(_grads(rng, variables), variables)
        return [v.numpy() for v in variables] + [v.numpy() for v in optimizer.variables]

    def make():
        return optimizers.Adam(0.05, weight_decay=0.1, use_ema=True, ema_overwrite_frequency=2)

    for f, s in zip(run(make()), run(_generic(make())), strict=True):
        np.testing.assert_allclose(f, s, rtol=1e-5, atol=3e-6)


@pytest.mark.parametrize("accumulate", [None, 2], ids=["plain", "accumulated"])
def test_a_step_looks_its_plan_up_once(monkeypatch, accumulate):
    # `apply` finds the list's plan and hands it to the update (no second key).
    lookups = []
    step_plan = _apply.ApplyMixin._step_plan

    def counting(self, variables):
        lookups.append(len(variables))
        return step_plan(self, variables)

    monkeypatch.setattr(_apply.ApplyMixin, "_step_plan", counting)
    variables = [mb_ops.Variable(p) for p in _values(((3, 4), (4,)))]
    optimizer = optimizers.Adam(0.05, weight_decay=0.1, gradient_accumulation_steps=accumulate)
    rng = np.random.default_rng(6)
    for _ in range(3):
        optimizer.apply(_grads(rng, variables), variables)
    assert lookups == [2, 2, 2]


def test_an_unknown_variable_is_still_refused_once_the_list_has_a_plan():
    variables = [mb_ops.Variable(p) for p in _values(((3, 4), (4,)))]
    optimizer = optimizers.SGD(0.1)
    rng = np.random.default_rng(7)
    optimizer.apply(_grads(rng, variables), variables)
    stranger = mb_ops.Variable(_values(((4,),))[0])
    with pytest.raises(ValueError, match="Unknown variable"):
        optimizer.apply(_grads(rng, [stranger]), [stranger])
    with pytest.raises(ValueError, match="Unknown variable"):
        optimizer.apply(_grads(rng, [variables[0], stranger]), [variables[0], stranger])
