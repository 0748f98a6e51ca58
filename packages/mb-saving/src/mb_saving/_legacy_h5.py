"""Weights in the Keras 2 HDF5 layout (``.h5``): what ``keras.applications`` publishes.

The file's root (or its ``model_weights`` group, in a whole-model file) lists its
layers in the attribute ``layer_names``; each layer's group lists its variables in
``weight_names`` (paths of datasets inside the group), trainable ones first. Like
Keras 3, layers are matched in order among the model's layers that have weights
(or by name with ``by_name=True``). The file is mapped and checked by `H5Reader`
first (nothing outside it is followed), every dataset is looked up in that map,
and every variable is checked before any is assigned: the load is all or nothing.
"""

import warnings

import numpy as np

from mb_saving._errors import FileFormatError, WeightsMismatchError, describe_variables
from mb_saving._h5_store import H5Reader, _check_dtype, _lookup_group
from mb_saving._state_walk import own_variables
from mb_saving._weights_io import _compatible

_MAX_LISTED = 20


class _LegacyFile:
    """The layer groups of a Keras 2 weights file, read through the reader's map."""

    def __init__(self, reader, source):
        self.source = source
        self.tree, self.file = reader.trees[0][1], reader.files[0][1]
        self.root = ""
        if "layer_names" not in self._attributes("") and "model_weights" in self.tree.groups:
            self.root = "model_weights"
        names = self.names(self.root, "layer_names")
        if names is None:
            raise FileFormatError(
                f"{source}: no 'layer_names' attribute at the root or in 'model_weights': not a "
                "Keras 2 weights file. mb reads '.weights.h5' (Keras 3), '.keras' and Keras 2 "
                "'.h5' weight files."
            )
        self.layers = []  # (layer name, [(weight name, h5py.Dataset)]) with weights only
        for name in names:
            group = self._join(name)
            if _lookup_group(self.tree, group, source) is None:
                raise FileFormatError(f"{source}: 'layer_names' lists '{name}', but no group.")
            weights = [
                (w, self._dataset(group, w)) for w in self.names(group, "weight_names") or []
            ]
            if weights:
                self.layers.append((name, weights))
        self.top_level = None
        if _lookup_group(self.tree, self._join("top_level_model_weights"), source) is not None:
            group = self._join("top_level_model_weights")
            self.top_level = [
                (w, self._dataset(group, w)) for w in self.names(group, "weight_names")
            ]

    def _join(self, name):
        return f"{self.root}/{name}" if self.root else name

    def _attributes(self, group):
        try:
            return self.file[group].attrs if group else self.file.attrs
        except Exception as error:
            raise FileFormatError(
                f"{self.source}: cannot read the attributes of '{group or '/'}': {error}."
            ) from error

    def names(self, group, key):
        """A list-of-names attribute (Keras splits long ones into ``key0``, ``key1``, ...)."""
        attrs = self._attributes(group)
        chunks = [key] if key in attrs else []
        while not chunks or chunks[0] != key:
            if f"{key}{len(chunks)}" not in attrs:
                break
            chunks.append(f"{key}{len(chunks)}")
        if not chunks:
            return None
        out = []
        for chunk in chunks:
            values = np.atleast_1d(attrs[chunk])
            if values.size == 0:  # Keras writes an empty list as an empty float array
                continue
            if values.dtype.kind not in "SUO" or values.ndim != 1:
                raise FileFormatError(
                    f"{self.source}: attribute '{chunk}' of '{group or '/'}' should list names, "
                    f"but it holds {values.dtype} values of shape {values.shape}."
                )
            for value in values:
                if not isinstance(value, bytes | str):
                    raise FileFormatError(
                        f"{self.source}: attribute '{chunk}' of '{group or '/'}' holds a "
                        f"{type(value).__name__}, not a name."
                    )
                out.append(value.decode("utf-8") if isinstance(value, bytes) else value)
        return out

    def _dataset(self, group, weight_name):
        parent, _, leaf = f"{group}/{weight_name}".rpartition("/")
        members = _lookup_group(self.tree, parent, self.source)
        member = (members or {}).get(leaf)
        if member is None or member.kind != "dataset":
            raise FileFormatError(
                f"{self.source}: '{group}' lists the weight '{weight_name}', but "
                f"'{parent}/{leaf}' is {'missing' if member is None else 'a ' + member.kind}."
            )
        _check_dtype(member.dataset, f"{parent}/{leaf}", self.source)
        return member.dataset


def _legacy_weights(layer):
    return list(layer.trainable_weights) + list(layer.non_trainable_weights)


def _describe(weights):
    return describe_variables([(w, d.shape, d.dtype) for w, d in weights])


def _match(label, variables, weights, plan, skip_mismatch):
    """Checks one layer's variables against its datasets; queues the assignments."""
    if len(variables) != len(weights):
        plan["problems"].append(
            f"{label}: the model expects {len(variables)} variable(s): "
            f"{describe_variables([(v.path, v.shape, v.dtype) for v in variables])}; the file "
            f"holds {len(weights)}: {_describe(weights)}."
        )
        return
    for variable, (name, dataset) in zip(variables, weights, strict=True):
        shape, dtype = tuple(dataset.shape), str(dataset.dtype)
        if shape != tuple(variable.shape) or not _compatible(dtype, variable.dtype):
            problem = (
                f"{label}: variable '{variable.path}' is {tuple(variable.shape)} "
                f"{variable.dtype} in the model, but '{name}' in the file is {shape} {dtype}."
            )
            plan["skipped" if skip_mismatch else "problems"].append(problem)
            continue
        plan["assign"].append((variable, dataset, name))


def load_legacy_weights(model, path, source, by_name=False, skip_mismatch=False):
    """Assigns the weights of a Keras 2 ``.h5`` file to `model` (all of them, or none).

    Args:
        model: the built model.
        path: the file.
        source: the file, for messages.
        by_name: match layers by name instead of by order.
        skip_mismatch: skip (with a warning) variables whose shape differs, and with
            `by_name` layers whose variable count differs.

    Raises:
        UnsafeFileError: the file points outside itself.
        FileFormatError: the file is damaged or not a Keras 2 weights file.
        WeightsMismatchError: the layers or variables do not match the model.
    """
    reader = H5Reader.open(path, source)
    try:
        legacy = _LegacyFile(reader, source)
        plan = {"assign": [], "problems": [], "skipped": []}
        layers = [layer for layer in model.layers if _legacy_weights(layer)]
        if by_name:
            by = {}
            for layer in layers:
                by.setdefault(layer.name, []).append(layer)
            for name, weights in legacy.layers:
                for layer in by.get(name, []):
                    variables = _legacy_weights(layer)
                    if skip_mismatch and len(variables) != len(weights):
                        plan["skipped"].append(f"layer '{name}': variable count differs")
                        continue
                    _match(f"layer '{name}'", variables, weights, plan, skip_mismatch)
        elif len(layers) != len(legacy.layers):
            plan["problems"].append(
                f"the model has {len(layers)} layer(s) with weights, the file "
                f"{len(legacy.layers)}. Layer count mismatch when loading weights from "
                f"file: the model's: {', '.join(layer.name for layer in layers[:_MAX_LISTED])}"
                f"{' ...' if len(layers) > _MAX_LISTED else ''}; the file's: "
                f"{', '.join(n for n, _ in legacy.layers[:_MAX_LISTED])}"
                f"{' ...' if len(legacy.layers) > _MAX_LISTED else ''}."
            )
        else:
            for k, (layer, (name, weights)) in enumerate(zip(layers, legacy.layers, strict=True)):
                label = f"layer #{k} ('{layer.name}' in the model, '{name}' in the file)"
                _match(label, _legacy_weights(layer), weights, plan, skip_mismatch)
        if legacy.top_level is not None:
            _match(
                "the model's own variables",
                own_variables(model),
                legacy.top_level,
                plan,
                skip_mismatch,
            )
        _report(plan, source)
        values = [(v, _read(dataset, name, source)) for v, dataset, name in plan["assign"]]
    finally:
        reader.close()
    for variable, value in values:
        variable.assign(value.astype(np.dtype(variable.dtype), copy=False))
    for layer in model.layers:
        finalize = getattr(layer, "finalize_state", None)
        if callable(finalize) and _legacy_weights(layer):
            finalize()


def _read(dataset, name, source):
    try:
        return np.asarray(dataset[()])
    except Exception as error:
        raise FileFormatError(
            f"{source}: cannot read the weight '{name}' (shape {tuple(dataset.shape)}): "
            f"{type(error).__name__}: {error}. The file is damaged."
        ) from error


def _report(plan, source):
    if plan["skipped"]:
        warnings.warn(
            f"Skipped mismatching weights in {source}:\n- " + "\n- ".join(plan["skipped"]),
            stacklevel=5,
        )
    problems = plan["problems"]
    if not problems:
        return
    listed = problems[:_MAX_LISTED]
    more = len(problems) - len(listed)
    raise WeightsMismatchError(
        f"The weights in {source} (Keras 2 layout) do not match the model; nothing was "
        "loaded:\n- "
        + "\n- ".join(listed)
        + (f"\n... and {more} more." if more else "")
        + "\nWas the file written for another architecture or another `include_top`?",
        problems,
    )
