"""Reading the Orbax checkpoints of ``callbacks.OrbaxCheckpoint`` (mb's or Keras 3.15's).

A checkpoint folder holds one sub-folder per step; a step holds the checkpointables
``pytree`` (the model's state tree: ``trainable_variables``, ``non_trainable_variables``,
``optimizer_variables``, ``metrics_variables``, nested by variable path) and, unless only
weights were saved, ``model_config`` (``{"config": <the model's config JSON>}``).
Orbax (and with it JAX) is imported on first use only.
"""

import json
import os
import warnings

import numpy as np

from mb_saving._errors import FileFormatError, WeightsMismatchError

_MARKERS = ("_CHECKPOINT_METADATA", "orbax.checkpoint", "pytree", "checkpoint_metadata")
_NO_ORBAX = (
    "'{path}' is an Orbax checkpoint; reading it needs the 'orbax-checkpoint' package "
    "(which needs JAX): pip install orbax-checkpoint."
)
_GROUPS = (
    "trainable_variables",
    "non_trainable_variables",
    "optimizer_variables",
    "metrics_variables",
)


def _is_step(path):
    return os.path.isdir(path) and any(
        os.path.exists(os.path.join(path, marker)) for marker in _MARKERS
    )


def is_orbax_checkpoint(path):
    """Whether `path` is an Orbax checkpoint folder or one of its step folders."""
    if not os.path.isdir(path):
        return False
    if _is_step(path):
        return True
    return any(name.isdigit() and _is_step(os.path.join(path, name)) for name in os.listdir(path))


def _step_folder(path):
    """`path` itself when it is a step, else its newest complete step."""
    if _is_step(path):
        return path
    steps = [int(n) for n in os.listdir(path) if n.isdigit() and _is_step(os.path.join(path, n))]
    if not steps:
        raise FileFormatError(f"'{path}' holds no complete Orbax checkpoint step.")
    return os.path.join(path, str(max(steps)))


def _orbax_v1(path):
    try:
        import orbax.checkpoint  # an optional integration, imported on first use
    except ImportError as error:
        raise ImportError(_NO_ORBAX.format(path=path)) from error
    return orbax.checkpoint.v1


def read_checkpoint(path, with_config):
    """``(config or None, state tree of NumPy arrays)`` of the newest step under `path`."""
    step = _step_folder(path)
    ocp = _orbax_v1(path)
    names = set(os.listdir(step))
    if "pytree" not in names:
        raise FileFormatError(f"'{step}' has no 'pytree' checkpointable: it holds no weights.")
    request = {"pytree": None}
    if with_config:
        if "model_config" not in names:
            raise FileFormatError(
                f"'{step}' holds no model config (it was saved with save_weights_only=True). "
                "Create the model in code, then call model.load_weights(path)."
            )
        request["model_config"] = None
    with ocp.Context(), warnings.catch_warnings():
        # Arrays come back to the host as NumPy: the sharding a JAX save recorded
        # does not matter here (Orbax warns that it reads it from the file).
        warnings.filterwarnings("ignore", "Sharding info not provided", UserWarning)
        loaded = ocp.load_checkpointables(step, request)
    tree = {
        group: _to_numpy(loaded["pytree"][group]) for group in _GROUPS if group in loaded["pytree"]
    }
    config = None
    if with_config:
        text = loaded["model_config"]["config"]
        config = json.loads(text) if isinstance(text, str) else text
    return config, tree


def _to_numpy(tree):
    if isinstance(tree, dict):
        return {key: _to_numpy(value) for key, value in tree.items()}
    return np.asarray(tree)


def _flatten(tree, prefix=""):
    if not isinstance(tree, dict):
        return {prefix: tree}
    flat = {}
    for key, value in tree.items():
        flat.update(_flatten(value, f"{prefix}/{key}" if prefix else key))
    return flat


def _variables(model, group):
    optimizer = getattr(model, "optimizer", None)
    if group == "optimizer_variables":
        if optimizer is None:
            return []
        if not getattr(optimizer, "built", True):
            optimizer.build(model.trainable_variables)
        return list(optimizer.variables)
    return list(getattr(model, group))


def _relative(path, model_name):
    """`path` without the model's own name: ``sequential_3/d/kernel`` -> ``d/kernel``, and
    an optimizer slot ``adam/sequential_3_d_kernel_momentum`` -> ``adam/d_kernel_momentum``.

    A model's name is not stable (``sequential_3`` in one process is ``sequential`` in
    another, and a model rebuilt from its config has no name in its paths at all, in
    Keras as in mb), so variables are matched on the rest of their path.
    """
    if not model_name:
        return path
    if path.startswith(model_name + "/"):
        return path[len(model_name) + 1 :]
    head, _, leaf = path.rpartition("/")
    if leaf.startswith(model_name + "_"):
        return f"{head}/{leaf[len(model_name) + 1 :]}" if head else leaf[len(model_name) + 1 :]
    return path


def _without_first(path):
    return path.split("/", 1)[1] if "/" in path else path


def _saved_model_name(tree):
    """The name of the model that saved `tree`: the first part common to its weights' paths."""
    firsts = {key.split("/", 1)[0] for key in _flatten(tree.get("trainable_variables", {}))}
    return firsts.pop() if len(firsts) == 1 else None


def _key(path, group, model_name):
    """What a variable is matched on: its path relative to the model (and, for an
    optimizer's variable, to the optimizer, whose name is no more stable)."""
    if group == "optimizer_variables":
        path = _without_first(path)
    return _relative(path, model_name)


def assign_state_tree(model, tree, source):
    """Assigns every variable of `model` in the groups `tree` holds, after checking all:
    a variable the checkpoint lacks, or one of another shape, assigns nothing."""
    plan = []
    saved_name = _saved_model_name(tree)
    for group, values in tree.items():
        if group == "optimizer_variables" and getattr(model, "optimizer", None) is None:
            continue  # an uncompiled model takes the weights only, as Keras's does
        flat = _flatten(values)
        relative = {_key(key, group, saved_name): value for key, value in flat.items()}
        for variable in _variables(model, group):
            value = flat.get(variable.path)
            if value is None:
                value = relative.get(_key(variable.path, group, model.name))
            if value is None and group == "metrics_variables":
                continue  # a metric's running totals start afresh, as in Keras
            if value is None:
                raise WeightsMismatchError(
                    f"{source} does not fit the model: it has no {group} entry "
                    f"'{variable.path}' (shape {tuple(variable.shape)}). It holds: "
                    f"{sorted(flat)[:10]}."
                )
            if tuple(value.shape) != tuple(variable.shape):
                raise WeightsMismatchError(
                    f"{source} does not fit the model: '{variable.path}' has shape "
                    f"{tuple(value.shape)} in the checkpoint, {tuple(variable.shape)} in the model."
                )
            plan.append((variable, value))
    for variable, value in plan:
        variable.assign(value.astype(variable.dtype) if hasattr(value, "astype") else value)
