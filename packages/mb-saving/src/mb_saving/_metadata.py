"""What mb adds to a file besides Keras's two keys: backend, versions and a manifest.

``metadata.json`` keeps Keras's ``keras_version`` and ``date_saved`` and adds
an ``"mb"`` object; Keras's loader never reads it, so files stay loadable by
Keras. In a ``.weights.h5`` file the same object is the root attribute
``mb_metadata`` (a JSON string). The manifest lists, for every path of the
weights file, the object there and its variables (names, paths, shapes,
dtypes): with it a load error can say which variable the file holds where.
"""

import datetime
import importlib.metadata
import json
import platform

from mb_ops import backends, config

# The Keras 3 saving format that mb writes (keras-file-format.md was read off it).
KERAS_FORMAT_VERSION = "3.15.1"
FORMAT = 1
ROOT_ATTRIBUTE = "mb_metadata"
_PACKAGES = ("mb-framework", "mb-saving", "mb-train", "mb-layers", "mb-ops", "mb-graph")


def _version(distribution):
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def engine_info():
    """``{"backend": name, "engine": {distribution: version}}`` of the active backend."""
    descriptor = backends.backend_descriptor()
    names = descriptor.engine_distributions or (
        (descriptor.engine_distribution,) if descriptor.engine_distribution else ()
    )
    versions = {name: _version(name) for name in names}
    return {
        "backend": config.backend(),
        "engine": {k: v for k, v in versions.items() if v is not None},
    }


def mb_block(manifest):
    """The ``"mb"`` metadata object for a file written now."""
    info = engine_info()
    return {
        "format": FORMAT,
        "backend": info["backend"],
        "engine": info["engine"],
        "versions": {p: v for p in _PACKAGES if (v := _version(p)) is not None},
        "python": platform.python_version(),
        "manifest": manifest,
    }


def archive_metadata(manifest):
    """``metadata.json`` of a ``.keras`` file."""
    return {
        "keras_version": KERAS_FORMAT_VERSION,
        "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S"),
        "mb": mb_block(manifest),
    }


def weights_attribute(manifest):
    """The root attribute value of a ``.weights.h5`` file."""
    return json.dumps(
        {"date_saved": archive_metadata(manifest)["date_saved"], **mb_block(manifest)}
    )


def manifest_of(metadata):
    """The manifest list in a metadata dict, or None when absent or malformed."""
    block = metadata.get("mb") if isinstance(metadata, dict) else None
    manifest = block.get("manifest") if isinstance(block, dict) else None
    if isinstance(manifest, list) and all(isinstance(e, dict) for e in manifest):
        return manifest
    return None


def parse_weights_attribute(value):
    """The ``mb`` block stored as a root attribute, or {} when absent or unreadable."""
    if value is None:
        return {}
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    try:
        parsed = json.loads(str(value))
    except (ValueError, RecursionError):
        return {}
    return parsed if isinstance(parsed, dict) else {}
