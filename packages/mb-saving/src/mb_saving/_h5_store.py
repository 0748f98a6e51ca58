"""The HDF5 weights file: one group ``<path>/vars`` per object, datasets ``"0"``, ``"1"``, ...

The layout is Keras 3's (keras-file-format.md section 2.6): the group carries
the object's name as attribute ``name``; bfloat16 arrays are stored as 2-byte
opaque values with the dataset attribute ``dtype="bfloat16"``. Reading checks
every group and dataset it touches, and turns h5py's errors into
`FileFormatError` naming the path, so a damaged file never surfaces as an
unexplained crash.
"""

import contextlib

import h5py
import numpy as np

from mb_ops import dtypes
from mb_saving._errors import FileFormatError

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
    """Reads groups from one or more HDF5 files (several for sharded weights)."""

    def __init__(self, files, source):
        self.files = list(files)  # (label, h5py.File)
        self.source = source
        self.seen = set()

    @classmethod
    def open(cls, target, source):
        return cls([(source, open_h5(target, source))], source)

    def get(self, path):
        name = group_path(path)
        self.seen.add(name)
        datasets = {}
        for label, file in self.files:
            group = _lookup_group(file, name, label)
            if group is None:
                continue
            for key in _safe_keys(group, name, label):
                member = _safe_get(group, key, name, label)
                if not isinstance(member, h5py.Dataset):
                    raise FileFormatError(
                        f"{label}: '{name}/{key}' should be a dataset of numbers, but it is "
                        f"a {type(member).__name__}. The file is not a weights file mb or "
                        "Keras wrote."
                    )
                _check_dtype(member, f"{name}/{key}", label)
                datasets[key] = member
        return GroupReader(path, datasets, self.source)

    def groups_with_data(self):
        """Every ``.../vars`` group holding datasets, as HDF5 paths."""
        found = set()
        for label, file in self.files:

            def visit(name, obj, found=found):
                if isinstance(obj, h5py.Group) and name.split("/")[-1] == "vars" and len(obj):
                    found.add(name)

            try:
                file.visititems(visit)
            except Exception as error:
                raise FileFormatError(f"{label}: cannot list the groups: {error}.") from error
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


def _lookup_group(file, name, label):
    try:
        if name not in file:
            return None
        group = file[name]
    except Exception as error:
        raise FileFormatError(f"{label}: cannot open group '{name}': {error}.") from error
    if not isinstance(group, h5py.Group):
        raise FileFormatError(f"{label}: '{name}' should be a group, but it is a dataset.")
    return group


def _safe_keys(group, name, label):
    try:
        return list(group.keys())
    except Exception as error:
        raise FileFormatError(f"{label}: cannot list group '{name}': {error}.") from error


def _safe_get(group, key, name, label):
    try:
        return group[key]
    except Exception as error:
        raise FileFormatError(f"{label}: cannot open '{name}/{key}': {error}.") from error
