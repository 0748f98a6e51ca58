"""A map of an HDF5 weights file, made without reading anything outside the file.

HDF5 can make a file read other files: *external storage* (a dataset whose
bytes live in another file), *external links* (a name that opens an object
in another file), *virtual datasets* (values assembled from other files'
datasets), soft links (a name that is only a path, resolved on use) and
filters that load a plugin library. A weights file needs none of these, and
following any of them would let a crafted file copy the bytes of any local
file (``/etc/passwd``) into a model, or block forever on a FIFO.

`H5Tree` walks the file with h5py's low-level API before anything else
touches it: every link is classified with ``H5Lget_info`` (never traversed),
only hard links are opened, and every dataset's creation property list is
checked (external files, virtual layout, filters). What is not plainly inside
the file becomes a `Finding`; the reader refuses a file with findings, and
``mb inspect`` lists them. The tree also serves every later lookup, so the
loader never resolves a path through HDF5's own link traversal.
"""

from typing import NamedTuple

import h5py
from h5py import h5d, h5l, h5o, h5z

# Filters HDF5 and h5py build in: anything else is looked up as a plugin library.
_BUILT_IN_FILTERS = {
    h5z.FILTER_DEFLATE: "deflate",
    h5z.FILTER_SHUFFLE: "shuffle",
    h5z.FILTER_FLETCHER32: "fletcher32",
    h5z.FILTER_SZIP: "szip",
    h5z.FILTER_NBIT: "nbit",
    h5z.FILTER_SCALEOFFSET: "scaleoffset",
    h5z.FILTER_LZF: "lzf",
}
_MAX_LISTED = 10


class Finding(NamedTuple):
    """One thing in an HDF5 file that reaches outside it (or outside its object's group).

    Attributes:
        path: the HDF5 path of the dataset or link, e.g. ``layers/dense/vars/0``.
        kind: ``external storage``, ``external link``, ``virtual dataset``,
            ``soft link``, ``user-defined link``, ``filter plugin`` or ``group alias``.
        target: what it points at (files, paths), as text.
    """

    path: str
    kind: str
    target: str

    def describe(self):
        """One line, e.g. ``'layers/dense/vars/0' stores its values in '/etc/passwd' ...``."""
        return _TEMPLATES[self.kind].format(path=self.path, target=self.target)


_TEMPLATES = {
    "external storage": "'{path}' stores its values in {target} (HDF5 external storage)",
    "external link": "'{path}' is an external link to {target}",
    "virtual dataset": "'{path}' is a virtual dataset reading {target}",
    "soft link": "'{path}' is a soft link to {target}",
    "user-defined link": "'{path}' is a user-defined link ({target})",
    "filter plugin": "'{path}' needs {target}, a plugin library HDF5 would load",
    "group alias": "'{path}' is a second name for {target}",
}


class Member(NamedTuple):
    """A name in a group that the walk accepted: ``kind`` is ``group``, ``dataset``
    or ``datatype``; ``dataset`` is the open `h5py.Dataset` for datasets."""

    kind: str
    dataset: object = None


def _text(raw):
    return raw.decode("utf-8", "backslashreplace") if isinstance(raw, bytes) else str(raw)


def _join(group, name):
    return f"{group}/{name}" if group else name


def _dataset_findings(path, dcpl):
    findings = []
    count = dcpl.get_external_count()
    if count:
        parts = []
        for i in range(min(count, _MAX_LISTED)):
            name, offset, size = dcpl.get_external(i)
            parts.append(f"'{_text(name)}' (bytes {offset}..{offset + size})")
        more = f" and {count - _MAX_LISTED} more" if count > _MAX_LISTED else ""
        findings.append(Finding(path, "external storage", ", ".join(parts) + more))
    if dcpl.get_layout() == h5d.VIRTUAL:
        count = dcpl.get_virtual_count()
        parts = [
            f"'{_text(dcpl.get_virtual_dsetname(i))}' in file "
            f"'{_text(dcpl.get_virtual_filename(i))}'"
            for i in range(min(count, _MAX_LISTED))
        ]
        more = f" and {count - _MAX_LISTED} more" if count > _MAX_LISTED else ""
        findings.append(Finding(path, "virtual dataset", (", ".join(parts) or "no source") + more))
    for i in range(dcpl.get_nfilters()):
        code, _, _, name = dcpl.get_filter(i)
        if code not in _BUILT_IN_FILTERS:
            findings.append(Finding(path, "filter plugin", f"the filter {code} ({_text(name)!r})"))
    return findings


class H5Tree:
    """Every group and dataset reachable through hard links, and the findings.

    Args:
        file: an open `h5py.File`.
        label: the file, for messages.

    Attributes:
        groups: HDF5 group path (``""`` for the root) -> {name: `Member`}; names
            with a finding are left out, so nothing reached through them is read.
        findings: the `Finding`s, in walk order.
    """

    def __init__(self, file, label):
        self.label = label
        self.groups = {}
        self.findings = []
        self._soft = []  # (group path, name, target) of soft links, resolved after the walk
        root = h5o.open(file.id, b"/")
        self._seen = {h5o.get_info(root).addr: ""}
        pending = [("", root)]
        while pending:
            path, group = pending.pop()
            self.groups[path] = self._walk_group(path, group, pending)
        self._resolve_soft_links()

    def _walk_group(self, path, group, pending):
        names = []
        group.links.iterate(names.append)  # ``append`` returns None: iterate over all
        members = {}
        for raw in names:
            name = _text(raw)
            full = _join(path, name)
            info = group.links.get_info(raw)
            if info.type == h5l.TYPE_SOFT:
                self._soft.append((path, name, _text(group.links.get_val(raw))))
            elif info.type == h5l.TYPE_EXTERNAL:
                filename, target = group.links.get_val(raw)
                self.findings.append(
                    Finding(full, "external link", f"'{_text(target)}' in file '{_text(filename)}'")
                )
            elif info.type != h5l.TYPE_HARD:
                self.findings.append(Finding(full, "user-defined link", f"link type {info.type}"))
            else:
                member = self._walk_object(full, h5o.open(group, raw), pending)
                if member is not None:
                    members[name] = member
        return members

    def _walk_object(self, full, obj, pending):
        kind = h5o.get_info(obj).type
        if kind == h5o.TYPE_GROUP:
            address = h5o.get_info(obj).addr
            if address in self._seen:  # a second name for a group (or a cycle)
                target = f"the group '{self._seen[address] or '/'}' (a hard-link alias or cycle)"
                self.findings.append(Finding(full, "group alias", target))
                return None
            self._seen[address] = full
            pending.append((full, obj))
            return Member("group")
        if kind == h5o.TYPE_DATASET:
            findings = _dataset_findings(full, obj.get_create_plist())
            if findings:
                self.findings.extend(findings)
                return None
            return Member("dataset", h5py.Dataset(obj))
        return Member("datatype")

    def _resolve_soft_links(self):
        """A soft link is kept only when it names a dataset of the same ``vars`` group
        (an alias inside one object's variables); any other is a finding."""
        for path, name, target in self._soft:
            full = _join(path, name)
            parts = target.split("/")
            if target.startswith("/"):
                parent, leaf = "/".join(parts[1:-1]), parts[-1]
            else:
                parent, leaf = (path, target) if len(parts) == 1 else (None, None)
            member = self.groups.get(path, {}).get(leaf) if parent == path else None
            inside = (
                path.split("/")[-1] == "vars"
                and leaf not in ("", ".", "..")
                and member is not None
                and member.kind == "dataset"
            )
            if inside:
                self.groups[path][name] = member
                continue
            where = f"outside the object's own group '{path or '/'}'"
            if member is not None:
                where = f"a {member.kind} in '{path or '/'}', not a dataset of a 'vars' group"
            self.findings.append(Finding(full, "soft link", f"'{target}' ({where})"))

    def message(self):
        """The error text for a file with findings (loading refuses it)."""
        listed = [f.describe() for f in self.findings[:_MAX_LISTED]]
        more = len(self.findings) - len(listed)
        return (
            f"{self.label}: refused, nothing was loaded: the HDF5 file points outside itself "
            "(or outside an object's own group), and mb never reads what such entries point "
            "at:\n- "
            + "\n- ".join(listed)
            + (f"\n... and {more} more." if more else "")
            + "\nA weights file mb or Keras writes holds every value itself. If you made this "
            "file, copy the data into ordinary datasets (e.g. h5py's `f.copy` of each array)."
        )
