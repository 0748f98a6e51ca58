"""The trainer under an active `mb_ops.distribution`, written once for every backend.

Engines whose arrays are global (JAX: one array split over every device of every
process) need nothing here: the compiled step reduces across devices itself. On
engines whose tensors belong to one process (PyTorch, one process per device as
DDP runs), the backend's ``all_reduce`` joins what each process computed on its
part of the batch:

- the gradients, averaged in `Optimizer.apply` (one all-reduce per step);
- the metrics' states, summed before their results are logged, so every process
  logs the metrics of the whole batch and epoch;
- the predictions, gathered into the whole batch on every process.

Only process 0 writes files and prints (`is_chief`); where a backend splits
variables over the processes (torch ``ModelParallel``), every process first joins
in gathering them (`whole_state`).
"""

import contextlib

from mb_ops import StatelessScope
from mb_ops._distribution import _state


def is_chief():
    """Whether this process writes checkpoints and logs (process 0, or the only one)."""
    return _state.is_chief()


def active():
    """The active distribution, or None."""
    return _state.current()


def _all_reduce():
    """The backend's ``all_reduce`` when a distribution is active over several
    replicas whose tensors are their own (processes as DDP runs them, or the replicas
    of a ``tf.distribute`` step); without a distribution each process trains alone."""
    distribution = _state.current()
    if distribution is None:
        return None
    function = _state.optional_function("all_reduce")
    if function is None:
        return None
    if _state.num_processes() < 2 and distribution.num_model_replicas < 2:
        return None
    if distribution.num_model_replicas < 2 and distribution.data_shards()[0] < 2:
        # Every process computes on the whole batch (a mesh whose batch axis has one
        # device): their gradients and metrics are the same already.
        return None
    return function


@contextlib.contextmanager
def whole_state(model):
    """A scope in which reads of the model's and its optimizer's variables give their
    whole values, for process 0 to write them.

    Where the backend splits variables over processes (``whole_values``), gathering
    them is a collective: every process enters this scope, then only process 0
    writes. Elsewhere the scope changes nothing. It gives whether it gathered.
    """
    gather = _state.optional_function("whole_values")
    variables = []
    if gather is not None:
        seen = set()
        optimizer = getattr(model, "optimizer", None)
        extra = list(getattr(optimizer, "variables", None) or ())
        for variable in list(model.variables) + extra:
            if id(variable) not in seen:
                seen.add(id(variable))
                variables.append(variable)
    values = gather(variables) if variables else None
    if values is None:
        yield False
        return
    with StatelessScope(list(zip(variables, values, strict=True))):
        yield True


def state_reader(variables):
    """A function reading the variables' whole values in one go, where the backend
    splits variables over processes (``whole_values``: one gather for all of them,
    not one per variable), else None (read each variable's ``value``)."""
    if _state.current() is None:
        return None
    gather = _state.optional_function("whole_values")
    if gather is None:
        return None
    variables = list(variables)

    def read():
        values = gather(variables)
        return [v.value for v in variables] if values is None else values

    return read


def replicated_step(fn, variables, gather_outputs):
    """`fn(read_only, mutable, data) -> (new, outputs)` run once per replica of the
    active distribution by the backend (``run_replicas``: tf.distribute), or None
    where the backend has no such step (one device, or engines whose arrays span the
    devices already).

    Args:
        fn: the runner's pure step.
        variables: the mutable variables (their ``aggregation`` says how the
            replicas' new values are joined).
        gather_outputs: the outputs are per-row predictions, concatenated.
    """
    distribution = _state.current()
    if distribution is None:
        return None
    run = _state.optional_function("run_replicas")
    if run is None:
        return None
    aggregations = [getattr(v, "aggregation", "none") for v in variables]
    mesh = distribution.device_mesh

    def step(read_only, mutable, data):
        return run(fn, read_only, mutable, data, aggregations, gather_outputs, mesh)

    return step


def aggregate_gradients(grads):
    """The gradients averaged over the processes (unchanged in one process, or where
    the engine's arrays span processes already)."""
    all_reduce = _all_reduce()
    if all_reduce is None:
        return grads
    present = [i for i, g in enumerate(grads) if g is not None]
    reduced = all_reduce([grads[i] for i in present], "mean")
    out = list(grads)
    for i, value in zip(present, reduced, strict=True):
        out[i] = value
    return out


_REDUCTIONS = {"mean": "mean", "only_first_replica": "mean"}


def global_logs(model, logs):
    """`logs` with the metrics' results over every process's data.

    The metrics' state variables are reduced as their ``aggregation`` says (sums by
    default: totals, counts, confusion matrices) and the results read from the
    reduced state; the live state stays this process's own.
    """
    all_reduce = _all_reduce()
    if all_reduce is None or not isinstance(logs, dict):
        return logs
    variables = model.metrics_variables
    if not variables:
        return logs
    groups = {}
    for variable in variables:
        groups.setdefault(_REDUCTIONS.get(variable.aggregation, "sum"), []).append(variable)
    mapping = []
    for reduction, group in sorted(groups.items()):
        values = all_reduce([v.value for v in group], reduction)
        mapping += list(zip(group, values, strict=True))
    with StatelessScope(mapping):
        results = model.get_metrics_result()
    return {key: results.get(key, value) for key, value in logs.items()}


def gather_outputs(outputs, iterator, position):
    """The predictions on this process's rows of batch `position` of the iterator's
    last chunk, as NumPy arrays of the whole batch; None when no distribution."""
    sharding = iterator.sharding
    if sharding is None:
        return None
    kinds = iterator.chunk_kinds
    kind = kinds[position] if position < len(kinds) else "split"
    return sharding.gather(outputs, kind)


def state_layouts(variables):
    """The layout of each variable when a distribution is active and places tensors,
    else None (nothing to constrain)."""
    if _state.current() is None or _state.optional_function("distribute_tensor") is None:
        return None
    layouts = [getattr(v, "_layout", None) for v in variables]
    return layouts if any(layout is not None for layout in layouts) else None


def constrain_state(layouts, values):
    """Inside a compiled step, each new value laid out as its variable is, so the
    step returns the state already placed (XLA may otherwise pick another sharding
    for a value and each step would move it back)."""
    place = _state.backend_function("distribute_tensor")
    return [
        value if layout is None or value is None else place(value, layout)
        for layout, value in zip(layouts, values, strict=True)
    ]
