"""Writing a model's variables into a weights store, and reading them back all-or-nothing.

Loading runs in two phases: first every object's group is found and checked
(count, shapes, dtypes) against the model, collecting every problem; only when
nothing is wrong are the values assigned. So a failed load leaves the model as
it was, and the error lists every mismatch at once, each with the object's
path in the file, the variables the model expects (names and shapes) and what
the file holds (with variable names when the file carries mb's manifest).
"""

import warnings

import numpy as np

from mb_layers._layer_state import LayerStateMixin
from mb_ops import dtypes
from mb_saving import _state_walk
from mb_saving._errors import WeightsMismatchError, describe_variables
from mb_saving._h5_store import group_path

_MAX_LISTED = 20


def save_state(model, writer, skip=()):
    """Writes every object's own variables; returns the manifest of what was written."""
    for path, obj in _state_walk.walk(model, skip):
        group = writer.make(path, getattr(obj, "name", None))
        if hasattr(obj, "save_own_variables"):
            obj.save_own_variables(group)
        else:
            for i, variable in enumerate(obj.variables):
                group[str(i)] = np.asarray(variable.numpy())
    return _state_walk.manifest(model, skip)


def _stock_loader(obj):
    method = getattr(type(obj), "load_own_variables", None)
    if method is None or method is LayerStateMixin.load_own_variables:
        return True
    # A layer whose own loader is the stock one in some states (Dense unless quantized
    # or with LoRA) says when, so its variables are checked and loaded the stock way.
    stock_when = getattr(method, "stock_when", None)
    return stock_when is not None and bool(stock_when(obj))


def _file_side(store, manifest_entry):
    names = [v.get("path") for v in (manifest_entry or {}).get("variables", [])]
    entries = []
    for i, key in enumerate(sorted(store.keys(), key=_key_order)):
        shape, dtype = store.spec(key)
        name = names[i] if i < len(names) and len(names) == len(store) else None
        entries.append((f"'{key}'" + (f" = {name}" if name else ""), shape, dtype))
    return entries


def _key_order(key):
    return (0, int(key)) if key.isdigit() else (1, key)


def _compatible(stored_dtype, variable_dtype):
    stored = "bfloat16" if stored_dtype == "bfloat16" else dtypes.standardize_dtype(stored_dtype)
    kinds = (dtypes.is_float_dtype, dtypes.is_int_dtype)
    return (
        stored == variable_dtype
        or any(k(stored) and k(variable_dtype) for k in kinds)
        or (stored == "bool" and variable_dtype == "bool")
    )


class _Plan:
    def __init__(self):
        self.assignments = []  # (variable, store, key)
        self.custom = []  # (object, store): layers with their own load_own_variables
        self.problems = []
        self.optimizer_problems = []


def _check_object(path, obj, store, manifest_entry, plan):
    expected = _state_walk.own_variables(obj)
    target = plan.optimizer_problems if _state_walk.is_optimizer(obj) else plan.problems
    label = f"'{path or '/'}' ({_state_walk.describe(obj)})"
    if not _stock_loader(obj) and not _state_walk.is_optimizer(obj):
        plan.custom.append((obj, store))
        return
    want = [(v.path, v.shape, v.dtype) for v in expected]
    keys = [str(i) for i in range(len(expected))]
    if len(store) != len(expected) or any(k not in store for k in keys):
        hint = ""
        if not expected and len(store) and isinstance(obj, LayerStateMixin) and not obj.built:
            hint = (
                " The layer was never built, so it has no variables yet: build the model "
                "(call it on data, or `build(input_shape)`) before loading, or create the "
                "layer's sub-layers' weights in its build()."
            )
        target.append(
            f"{label}: the model expects {len(expected)} variable(s): {describe_variables(want)}; "
            f"the file holds {len(store)} in '{group_path(path)}': "
            f"{describe_variables(_file_side(store, manifest_entry))}.{hint}"
        )
        return
    checked = []
    for variable, key in zip(expected, keys, strict=True):
        shape, dtype = store.spec(key)
        if tuple(shape) != tuple(variable.shape) or not _compatible(dtype, variable.dtype):
            target.append(
                f"{label}: variable '{variable.path}' is {tuple(variable.shape)} "
                f"{variable.dtype} in the model, but '{group_path(path)}/{key}' in the file is "
                f"{tuple(shape)} {dtype}. The model expects: {describe_variables(want)}; the "
                f"file holds: {describe_variables(_file_side(store, manifest_entry))}."
            )
            return
        checked.append((variable, store, key))
    plan.assignments.extend(checked)


def load_state(model, reader, manifest=None, skip=(), skip_mismatch=False, source="the file"):
    """Assigns the variables stored in `reader` to `model` (all of them, or none).

    Args:
        model: the built model.
        reader: an `H5Reader`.
        manifest: the manifest from the file's metadata, if any (for messages).
        skip: objects not to load (e.g. the optimizer when not compiling).
        skip_mismatch: warn about mismatching objects and load the others.
        source: the file, for messages.

    Raises:
        WeightsMismatchError: when objects do not match (unless `skip_mismatch`).
    """
    by_path = {e.get("path"): e for e in manifest or [] if isinstance(e, dict)}
    plan = _Plan()
    walked = _state_walk.walk(model, skip)
    for path, obj in walked:
        _check_object(path, obj, reader.get(path), by_path.get(path), plan)
    skipped_paths = {group_path(p) for p, o in _state_walk.walk(model) if any(o is s for s in skip)}
    leftovers = sorted(reader.groups_with_data() - reader.seen - skipped_paths)
    for name in leftovers:
        if name.startswith("optimizer/") and not any(
            _state_walk.is_optimizer(o) for _, o in walked
        ):
            continue
        store = reader.get(name[: -len("/vars")] if name != "vars" else "")
        plan.problems.append(
            f"'{name}' in the file holds {len(store)} variable(s) "
            f"({describe_variables(_file_side(store, None))}) that no object of the model "
            "owns: the file was written for a different architecture."
        )
    _report(plan, source, skip_mismatch)
    values = [(variable, store[key]) for variable, store, key in plan.assignments]
    for variable, value in values:
        variable.assign(np.asarray(value).astype(np.dtype(variable.dtype), copy=False))
    for obj, store in plan.custom:
        obj.load_own_variables(store)


def _report(plan, source, skip_mismatch):
    if plan.optimizer_problems:
        warnings.warn(
            f"The optimizer state in {source} does not match the model's optimizer, so it "
            "was not loaded (training restarts the optimizer from scratch):\n- "
            + "\n- ".join(plan.optimizer_problems),
            stacklevel=4,
        )
    if not plan.problems:
        return
    listed = plan.problems[:_MAX_LISTED]
    more = len(plan.problems) - len(listed)
    message = (
        f"{len(plan.problems)} object(s) of the model do not match the weights in {source}"
        + (" (they were skipped):" if skip_mismatch else "; nothing was loaded:")
        + "\n- "
        + "\n- ".join(listed)
        + (f"\n... and {more} more." if more else "")
    )
    if skip_mismatch:
        warnings.warn(message, stacklevel=4)
        return
    raise WeightsMismatchError(message, plan.problems)
