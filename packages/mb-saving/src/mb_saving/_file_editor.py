"""``KerasFileEditor``: look into a ``.keras`` or ``.weights.h5`` file, edit its weights,
save them (Keras 3.15's ``keras.saving.KerasFileEditor``).

The file is opened as loading opens it (the zip and HDF5 checks, nothing followed
outside the file, no config object created), every array is read into memory and
the file is closed: edits change only the in-memory tree, and `save` writes a new
``.weights.h5`` through a temporary file and a rename, so neither a bad edit nor a
failed save touches a file on disk.
"""

import io
import os

import numpy as np

from mb_saving import _atomic, _metadata
from mb_saving._api import _weights_bytes
from mb_saving._archive import WEIGHTS, Archive
from mb_saving._h5_store import H5Reader, H5Writer
from mb_saving._limits import WeightsLimit

_NUMERIC_KINDS = frozenset("biufc")


def _read_tree(reader):
    """``(weights, names)``: the file's arrays nested by object path (``layers/dense`` ->
    ``{"layers": {"dense": {"0": kernel, "1": bias}}}``) and each object's saved name."""
    weights, names = {}, {}
    for group in sorted(reader.groups_with_data()):
        path = group[: -len("/vars")] if group != "vars" else ""
        store = reader.get(path)
        node = weights
        for part in path.split("/") if path else []:
            node = node.setdefault(part, {})
        for key in sorted(store.keys(), key=lambda k: (len(k), k)):
            node[key] = store[key]
        name = store.object_name()
        if name is not None:
            names[path] = name
    return weights, names


def _as_weights(weights, argument):
    """`weights` as ``{name: numeric ndarray}``, or a ValueError saying what is wrong."""
    if not isinstance(weights, dict):
        raise ValueError(
            f"Argument `{argument}` should be a dict where keys are weight names (usually "
            f"'0', '1', etc.) and values are NumPy arrays. Received: type(weights)={type(weights)}"
        )
    arrays = {}
    for name, value in weights.items():
        array = np.asarray(value)
        if not isinstance(name, str) or "/" in name or not name:
            raise ValueError(
                f"Weight names are non-empty strings without '/'. Received: {name!r} in "
                f"`{argument}`."
            )
        if array.dtype.kind not in _NUMERIC_KINDS and str(array.dtype) != "bfloat16":
            raise ValueError(
                f"Weight '{name}' should be a numeric array. Received: dtype={array.dtype}."
            )
        arrays[name] = array
    return arrays


def _count(tree, name):
    return sum(
        (key == name) + (_count(value, name) if isinstance(value, dict) else 0)
        for key, value in tree.items()
    )


def _print_tree(tree, names, prefix="  ", path=""):
    items = list(tree.items())
    for i, (key, value) in enumerate(items):
        inner = f"{path}/{key}" if path else key
        connector = "> " if (i == 0 and not path) else ("└─ " if i == len(items) - 1 else "├─ ")
        if isinstance(value, dict):
            label = f" ('{names[inner]}')" if inner in names else ""
            print(f"{prefix}{connector}{key}{label}")
            more = "    " if i == len(items) - 1 else "│   "
            _print_tree(value, names, prefix + more, inner)
        else:
            print(f"{prefix}{connector}{key}: shape={value.shape}, dtype={value.dtype}")


class KerasFileEditor:
    """Inspects, edits and resaves the weights of a ``.keras`` or ``.weights.h5`` file.

    Useful to adapt a saved file to a changed architecture: delete the weights of a
    removed layer, add those of a new one, rename objects, then save the weights and
    load them into the new model with ``model.load_weights``. The file is read
    safely (as `load_model` reads it) and never changed: `save` writes a new file.

    Args:
        filepath: a ``.keras`` or ``.weights.h5`` file.

    Attributes:
        weights_dict: the arrays, nested by object path, e.g.
            ``editor.weights_dict["layers"]["dense"]["0"]``.
        config, metadata: the ``.keras`` file's config and metadata (None for a
            ``.weights.h5`` file).

    Example:

    >>> import os, tempfile
    >>> import numpy as np
    >>> from mb_layers import Input
    >>> from mb_layers.layers import Dense
    >>> from mb_train.models import Sequential
    >>> model = Sequential([Input((3,)), Dense(2, name="dense"), Dense(1, name="head")])
    >>> folder = tempfile.mkdtemp()
    >>> model.save_weights(os.path.join(folder, "model.weights.h5"))
    >>> editor = KerasFileEditor(os.path.join(folder, "model.weights.h5"))  # doctest: +ELLIPSIS
    Keras model file '...model.weights.h5'
    >>> sorted(editor.weights_dict["layers"])  # objects are keyed as in Keras's files
    ['dense', 'dense_1']
    >>> editor.delete_object("layers/dense_1")
    >>> editor.add_object("layers/dense_1", {"0": np.ones((2, 1)), "1": np.zeros(1)})
    >>> editor.save(os.path.join(folder, "edited.weights.h5"))
    >>> model.load_weights(os.path.join(folder, "edited.weights.h5"))
    >>> model.layers[1].kernel.numpy().tolist()
    [[1.0], [1.0]]
    """

    def __init__(self, filepath):
        path = os.fspath(filepath)
        self.filepath = path
        self.config = None
        self.metadata = None
        self.model = None
        if not isinstance(path, str) or not path.endswith((".keras", ".weights.h5")):
            raise ValueError(
                "Invalid filename: expected a `.keras` or `.weights.h5` extension. "
                f"Received: filepath={path!r}"
            )
        if not os.path.isfile(path):
            raise FileNotFoundError(f"KerasFileEditor: no such file: '{path}'.")
        label = f"'{path}'"
        if path.endswith(".keras"):
            with Archive(path) as archive:
                self.config = archive.config()
                self.metadata = archive.metadata()
                limit = WeightsLimit([_metadata.manifest_of(self.metadata)])
                reader = H5Reader.open(archive.weights_file(limit), f"{label} ({WEIGHTS})")
        else:
            reader = H5Reader.open(path, label)
        try:
            self.weights_dict, self.object_metadata = _read_tree(reader)
        finally:
            reader.close()
        print(f"Keras model file '{path}'")
        if self.metadata:
            version = self.metadata.get("keras_version", "?")
            date = self.metadata.get("date_saved", "?")
            print(f"Saved with Keras {version} - date: {date}")

    # ----- looking -------------------------------------------------------------------------

    def summary(self):
        """Prints the weight structure of the opened file."""
        print("Weights structure")
        _print_tree(self.weights_dict, self.object_metadata)

    def compare(self, reference_model):
        """Lists every difference between the (edited) file and `reference_model`.

        Args:
            reference_model: a model whose weights the file should fit.

        Returns:
            ``{"status": "success" or "error", "error_count": int, "match_count": int}``.
        """
        print("Running comparison")
        reader = H5Reader.open(io.BytesIO(_weights_bytes(reference_model)[0]), "reference")
        try:
            reference, _ = _read_tree(reader)
        finally:
            reader.close()
        checked = set()  # what the first pass reported, not reported again the other way
        errors, matches = _compare(
            self.weights_dict, reference, "saved file", "reference model", checked
        )
        more, _ = _compare(reference, self.weights_dict, "reference model", "saved file", checked)
        errors += more
        print("─────────────────────")
        if errors == 0:
            print("Comparison successful: saved file is compatible with the reference model")
            print(f"    Found {matches} matching weight{'' if matches == 1 else 's'}")
        else:
            print(
                f"Found {errors} error{'' if errors == 1 else 's'}: saved file is not "
                "compatible with the reference model"
            )
        return {
            "status": "success" if errors == 0 else "error",
            "error_count": errors,
            "match_count": matches,
        }

    # ----- editing (in memory) -------------------------------------------------------------

    def _parent_of(self, object_name):
        """``(dict holding the object, its key)`` for a name or a path, or a ValueError."""
        if not isinstance(object_name, str) or not object_name:
            raise ValueError(
                "An object is named by a string: its name (e.g. 'dense_2') or its path (e.g. "
                f"'layers/dense_2'). Received: {object_name!r}"
            )
        if "/" in object_name:
            node = self.weights_dict
            *parents, leaf = object_name.split("/")
            for part in parents:
                if not isinstance(node.get(part), dict):
                    raise ValueError(
                        f"Path '{object_name}' not found in the file: it has no '{part}'. "
                        f"Use `editor.summary()` to list all objects."
                    )
                node = node[part]
            if leaf not in node:
                raise ValueError(
                    f"Path '{object_name}' not found in the file. Under it: {sorted(node)}."
                )
            return node, leaf
        occurrences = _count(self.weights_dict, object_name)
        if occurrences > 1:
            raise ValueError(
                f"Name '{object_name}' occurs {occurrences} times in the file; pass its "
                "complete path instead (see `editor.summary()`)."
            )
        if occurrences == 0:
            named = [path for path, name in self.object_metadata.items() if name == object_name]
            hint = (
                f" '{object_name}' is the saved name of the object at {named}: the file keys "
                "objects by their path."
                if named
                else ""
            )
            raise ValueError(
                f"Source name '{object_name}' does not appear in the file.{hint} Use "
                "`editor.summary()` to list all objects."
            )
        return _find(self.weights_dict, object_name)

    def _object(self, object_name):
        parent, key = self._parent_of(object_name)
        if not isinstance(parent[key], dict):
            raise ValueError(
                f"'{object_name}' is a weight, not an object; name the object that holds it."
            )
        return parent[key]

    def rename_object(self, object_name, new_name):
        """Renames an object (e.g. a layer): `object_name` is its name or path (``"dense_2"``
        or ``"layers/dense_2"``), `new_name` the new leaf name."""
        if not isinstance(new_name, str) or not new_name or "/" in new_name:
            raise ValueError(
                "Argument `new_name` should be a leaf name, not a full path name. "
                f"Received: new_name={new_name!r}"
            )
        parent, key = self._parent_of(object_name)
        if new_name in parent and new_name != key:
            raise ValueError(
                f"Cannot rename '{object_name}' to '{new_name}': an object of that name is "
                "already there. Delete or rename it first."
            )
        parent[new_name] = parent.pop(key)

    def delete_object(self, object_name):
        """Removes an object (e.g. a layer), by name or path, with all its weights."""
        parent, key = self._parent_of(object_name)
        del parent[key]

    def add_object(self, object_path, weights):
        """Adds an object (e.g. a layer) at `object_path` (e.g. ``"layers/dense_2"``) with
        `weights`, a dict of weight names to arrays (``{"0": kernel, "1": bias}``)."""
        arrays = _as_weights(weights, "weights")
        if not isinstance(object_path, str) or not object_path:
            raise ValueError(f"`object_path` should be a path string. Received: {object_path!r}")
        node = self.weights_dict
        *parents, leaf = object_path.split("/")
        for part in parents:
            if not isinstance(node.get(part), dict):
                raise ValueError(
                    f"Path '{'/'.join(parents)}' not found in the file (it has no '{part}'); "
                    "add the parent object first."
                )
            node = node[part]
        node[leaf] = arrays

    def delete_weight(self, object_name, weight_name):
        """Removes the weight `weight_name` (e.g. ``"0"``) from an object (name or path)."""
        target = self._object(object_name)
        if weight_name not in target or isinstance(target[weight_name], dict):
            found = [k for k, v in target.items() if not isinstance(v, dict)]
            raise ValueError(
                f"Weight {weight_name} not found in object {object_name}. Weights found: {found}"
            )
        del target[weight_name]

    def add_weights(self, object_name, weights):
        """Adds weights (a dict of names to arrays) to an existing object (name or path)."""
        arrays = _as_weights(weights, "weights")
        self._object(object_name).update(arrays)

    # ----- saving -------------------------------------------------------------------------

    def save(self, filepath):
        """Writes the (edited) weights to `filepath`, which must end in ``.weights.h5``.

        The file is written to a temporary name and renamed into place, so an error
        leaves any file already at `filepath` (the opened one included) intact.
        """
        path = os.fspath(filepath)
        if not isinstance(path, str) or not path.endswith(".weights.h5"):
            raise ValueError(
                "Invalid `filepath` argument: expected a `.weights.h5` extension. "
                f"Received: filepath={path!r}"
            )
        _atomic.remove_stale_near(path)
        with _atomic.atomic_file(path) as tmp:
            writer = H5Writer(tmp)
            try:
                _write(writer, self.weights_dict, self.object_metadata, "")
            finally:
                writer.close()

    def resave_weights(self, filepath):
        """`save` (Keras's other name for it)."""
        self.save(filepath)


def _find(tree, name):
    for key, value in tree.items():
        if key == name:
            return tree, key
        if isinstance(value, dict) and _count(value, name):
            return _find(value, name)
    raise AssertionError("unreachable: the name was counted once")


def _write(writer, tree, names, path):
    leaves = {k: v for k, v in tree.items() if not isinstance(v, dict)}
    if leaves:
        store = writer.make(path, names.get(path, path.rsplit("/", 1)[-1] or None))
        for key, value in leaves.items():
            store[key] = value
    for key, value in tree.items():
        if isinstance(value, dict):
            _write(writer, value, names, f"{path}/{key}" if path else key)


def _compare(target, reference, target_name, reference_name, checked, path=""):
    """``(errors, matches)`` of `target` against `reference`, printing each error."""
    errors = matches = 0
    for key, expected in reference.items():
        inner = f"{path}/{key}"
        if inner in checked:
            continue
        if key not in target:
            errors += 1
            checked.add(inner)
            kind = "Object" if isinstance(expected, dict) else "Weight"
            print(f"...{kind} {inner} present in {reference_name}, missing from {target_name}")
            if isinstance(expected, dict):
                print(f"    In {reference_name}, {inner} contains: {list(expected)}")
        elif isinstance(expected, dict):
            got = target[key]
            if not isinstance(got, dict):
                errors += 1
                checked.add(inner)
                print(f"...{inner} is an object in {reference_name}, a weight in {target_name}")
                continue
            more_errors, more_matches = _compare(
                got, expected, target_name, reference_name, checked, inner
            )
            errors += more_errors
            matches += more_matches
        elif isinstance(target[key], dict) or target[key].shape != expected.shape:
            errors += 1
            checked.add(inner)
            got = "an object" if isinstance(target[key], dict) else f"shape={target[key].shape}"
            print(
                f"...Weight shape mismatch for {inner}\n    In {reference_name}: "
                f"shape={expected.shape}\n    In {target_name}: {got}"
            )
        else:
            matches += 1
    return errors, matches
