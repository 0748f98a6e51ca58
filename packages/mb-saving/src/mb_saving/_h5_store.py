"""The HDF5 weights file: one group ``<path>/vars`` per object, datasets ``"0"``, ``"1"``, ...

The layout is Keras 3's (keras-file-format.md section 2.6): the group carries
the object's name as attribute ``name``; bfloat16 arrays are stored as 2-byte
opaque values with the dataset attribute ``dtype="bfloat16"``. Reading first
maps the file with `H5Tree` (refusing anything that reaches outside it), then
looks every group up in that map, checks every dataset it touches, and turns
h5py's errors into `FileFormatError` naming the path, so a damaged file never
surfaces as an unexplained crash.
"""

import contextlib

import h5py
import numpy as np

from mb_ops import dtypes
from mb_saving._errors import FileFormatError, UnsafeFileError
from mb_saving._h5_tree import H5Tree

_BFLOAT16 = np.dtype("bfloat16")
_NUMERIC_KINDS = frozenset("biufcV")


def group_path(path):
    """The HDF5 path of an object's variables group (``""`` -> ``"vars"``)."""
    return f"{path}/vars" if path else "vars"


class GroupWriter:
    """What an object's ``save_own_variables(store)`` writes into (``store["0"] = array``)."""

    def __init__(self, group):
        self._group = group
        self.written = []

    def __setitem__(self, key, value):
        array = np.asarray(value)
        if array.dtype == _BFLOAT16:
            dataset = self._group.create_dataset(key, data=array.view(np.dtype("V2")))
            dataset.attrs["dtype"] = "bfloat16"
        else:
            self._group[key] = array
        self.written.append((str(key), tuple(array.shape), str(array.dtype)))

    def __len__(self):
        return len(self.written)


class H5Writer:
    """Writes groups into an open ``h5py.File`` (a path or a file object)."""

    def __init__(self, target):
        self.file = h5py.File(target, "w")

    def make(self, path, name):
        group = self.file.require_group(path) if path else self.file
        vars_group = group.create_group("vars")
        if isinstance(name, str):
            vars_group.attrs["name"] = name
        return GroupWriter(vars_group)

    def set_root_attribute(self, key, value):
        self.file.attrs[key] = value

    def close(self):
        self.file.close()


class GroupReader:
    """The datasets of one ``vars`` group (empty when the file has no such group)."""

    def __init__(self, path, datasets, source):
        self.path = path
        self.source = source
        self._datasets = datasets  # key -> h5py.Dataset

    def keys(self):
        return list(self._datasets)

    def __len__(self):
        return len(self._datasets)

    def __contains__(self, key):
        return key in self._datasets

    def object_name(self):
        """The ``name`` attribute of the group (the object's name), or None."""
        for dataset in self._datasets.values():
            try:
                name = dataset.parent.attrs.get("name", None)
            except Exception:
                return None
            return name.decode() if isinstance(name, bytes) else name
        return None

    def spec(self, key):
        """``(shape, dtype name)`` of a dataset, read from its header only."""
        dataset = self._datasets[key]
        return tuple(dataset.shape), _dtype_name(dataset)

    def __getitem__(self, key):
        dataset = self._datasets[key]
        try:
            value = dataset[()]
        except Exception as error:
            raise FileFormatError(
                f"{self.source}: cannot read dataset '{group_path(self.path)}/{key}' "
                f"(shape {tuple(dataset.shape)}): {type(error).__name__}: {error}. The file "
                "is damaged."
            ) from error
        value = np.asarray(value)
        if _dtype_name(dataset) == "bfloat16":
            value = value.view(_BFLOAT16)
        return value


def _check_dtype(dataset, name, label):
    try:
        dtype = dataset.dtype
        if dataset.attrs.get("dtype", None) == "bfloat16":
            return
        standard = dtypes.standardize_dtype(dtype)
    except Exception as error:
        raise FileFormatError(
            f"{label}: dataset '{name}' has a type mb cannot read ({error}); the file is "
            "damaged or not a weights file."
        ) from error
    if dtype.kind not in _NUMERIC_KINDS or dtype.hasobject or standard == "string":
        raise FileFormatError(f"{label}: dataset '{name}' has the non-numeric type {dtype}.")


def _dtype_name(dataset):
    if dataset.attrs.get("dtype", None) == "bfloat16" and dataset.dtype.itemsize == 2:
        return "bfloat16"
    return str(dataset.dtype)


class H5Reader:
    """Reads groups from one or more HDF5 files (several for sharded weights).

    Each file is first mapped by `H5Tree` (hard links only, nothing outside the
    file is opened). With ``strict`` (loading), a file with findings (external
    storage or links, virtual datasets, soft links out of an object's group, ...)
    is refused with `UnsafeFileError`; without it (``mb inspect``), the findings
    are kept in `findings` and what they point at is left out.
    """

    def __init__(self, files, source, strict=True):
        self.files = list(files)  # (label, h5py.File)
        self.source = source
        self.seen = set()
        self.trees = []
        self.findings = []
        try:
            for label, file in self.files:
                tree = _map(file, label)
                if strict and tree.findings:
                    raise UnsafeFileError(tree.message(), tree.findings)
                self.trees.append((label, tree))
                self.findings.extend(tree.findings)
        except BaseException:
            self.close()
            raise

    @classmethod
    def open(cls, target, source, strict=True):
        return cls([(source, open_h5(target, source))], source, strict)

    def get(self, path):
        name = group_path(path)
        self.seen.add(name)
        datasets = {}
        for label, tree in self.trees:
            members = _lookup_group(tree, name, label)
            for key, member in (members or {}).items():
                if member.kind != "dataset":
                    raise FileFormatError(
                        f"{label}: '{name}/{key}' should be a dataset of numbers, but it is "
                        f"a {member.kind}. The file is not a weights file mb or Keras wrote."
                    )
                _check_dtype(member.dataset, f"{name}/{key}", label)
                datasets[key] = member.dataset
        return GroupReader(path, datasets, self.source)

    def groups_with_data(self):
        """Every ``.../vars`` group holding datasets, as HDF5 paths."""
        found = set()
        for _, tree in self.trees:
            for name, members in tree.groups.items():
                if name.split("/")[-1] == "vars" and members:
                    found.add(name)
        return found

    def root_attribute(self, key):
        for _, file in self.files:
            try:
                if key in file.attrs:
                    return file.attrs[key]
            except Exception:
                return None
        return None

    def close(self):
        for _, file in self.files:
            with contextlib.suppress(Exception):
                file.close()


def open_h5(target, label):
    try:
        return h5py.File(target, "r")
    except Exception as error:
        raise FileFormatError(
            f"{label}: not a readable HDF5 weights file ({type(error).__name__}: {error}). "
            "The file may be truncated or damaged."
        ) from error


def _map(file, label):
    try:
        return H5Tree(file, label)
    except Exception as error:
        raise FileFormatError(
            f"{label}: cannot list the HDF5 groups and links ({type(error).__name__}: {error}). "
            "The file is damaged."
        ) from error


def _lookup_group(tree, name, label):
    """The members of group `name`, walking the tree's map (never HDF5's link traversal)."""
    parent, _, leaf = name.rpartition("/")
    if parent and _lookup_group(tree, parent, label) is None:
        return None
    member = tree.groups.get(parent, {}).get(leaf)
    if member is None:
        return None
    if member.kind != "group":
        raise FileFormatError(f"{label}: '{name}' should be a group, but it is a {member.kind}.")
    return tree.groups[name]
