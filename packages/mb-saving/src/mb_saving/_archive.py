"""The ``.keras`` container: a zip of ``metadata.json``, ``config.json``, ``model.weights.h5``.

Writing stores the members uncompressed, in Keras's order. Reading checks the
container before trusting any byte of it: a real zip, no duplicated or
unsafe member names, only the members the format has (``assets/...``
allowed), sizes within limits. A compressed member is a zip bomb when it
would expand past an absolute limit (`_limits`: for the weights, tied to the
sizes the model declares); it is refused from its header when it declares
more, and decompression streams and stops at the limit when it lies. JSON
must parse to objects. Every failure is a `FileFormatError` that names the
file and the member.
"""

import io
import json
import os
import zipfile

from mb_saving import _limits
from mb_saving._errors import FileFormatError

CONFIG = "config.json"
METADATA = "metadata.json"
WEIGHTS = "model.weights.h5"
_KNOWN = (METADATA, CONFIG, WEIGHTS)
_LIMITS = {CONFIG: 256 * 2**20, METADATA: 64 * 2**20}
MAX_WEIGHTS_BYTES = 2**40
_CHUNK = 2**20


def write_archive(target, metadata, config, weights, assets=None):
    """Writes the zip (`target`: a path or a binary file object); `assets` maps
    ``assets/...`` member names to bytes."""
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr(METADATA, json.dumps(metadata))
        archive.writestr(CONFIG, json.dumps(config))
        archive.writestr(WEIGHTS, weights)
        for name, data in (assets or {}).items():
            archive.writestr(name, data)


def parse_json(data, label, member):
    """``json.loads`` of bytes with errors that say which file and member is damaged."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        value = json.loads(text)
    except UnicodeDecodeError as error:
        raise FileFormatError(f"{label}: '{member}' is not UTF-8 text: {error}.") from error
    except json.JSONDecodeError as error:
        raise FileFormatError(f"{label}: '{member}' is not valid JSON: {error}.") from error
    except RecursionError as error:
        raise FileFormatError(f"{label}: '{member}' nests too deeply to be a config.") from error
    if not isinstance(value, dict):
        raise FileFormatError(
            f"{label}: '{member}' must hold a JSON object; it holds a {type(value).__name__}."
        )
    return value


class Archive:
    """An opened, checked ``.keras`` file. Use as a context manager."""

    def __init__(self, path):
        self.path = os.fspath(path)
        self.label = f"'{self.path}'"
        try:
            self.zip = zipfile.ZipFile(self.path, "r")
        except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError) as error:
            raise FileFormatError(
                f"{self.label} is not a valid .keras file: it is not a complete zip archive "
                f"({error}). The file may be truncated; save the model again."
            ) from error
        try:
            self.members = self._check_members()
        except BaseException:
            self.zip.close()
            raise

    def _check_members(self):
        try:
            infos = self.zip.infolist()
        except Exception as error:
            raise FileFormatError(f"{self.label}: cannot list the zip members: {error}.") from error
        members = {}
        for info in infos:
            name = info.filename
            if name in members:
                raise FileFormatError(f"{self.label}: the member '{name}' appears twice.")
            if name.startswith(("/", "\\")) or ".." in name.split("/") or "\\" in name:
                raise FileFormatError(f"{self.label}: unsafe member name {name!r}.")
            if name not in _KNOWN and not name.startswith("assets/"):
                raise FileFormatError(
                    f"{self.label}: unexpected member {name!r}. A .keras file holds only "
                    f"{', '.join(_KNOWN)} and assets/...; this is not a file mb or Keras wrote."
                )
            if info.flag_bits & 0x1:
                raise FileFormatError(f"{self.label}: the member '{name}' is encrypted.")
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise FileFormatError(
                    f"{self.label}: the member '{name}' uses compression method "
                    f"{info.compress_type}; only stored and deflated members are read."
                )
            limit = _LIMITS.get(name, MAX_WEIGHTS_BYTES)
            if info.file_size > limit:
                raise FileFormatError(
                    f"{self.label}: the member '{name}' declares {info.file_size} bytes, more "
                    f"than the {limit} bytes allowed for it."
                )
            if info.compress_type == zipfile.ZIP_STORED and info.compress_size != info.file_size:
                raise FileFormatError(
                    f"{self.label}: the uncompressed member '{name}' declares {info.file_size} "
                    f"bytes but stores {info.compress_size}; the file is damaged."
                )
            members[name] = info
        for required in (CONFIG, WEIGHTS):
            if required not in members:
                raise FileFormatError(
                    f"{self.label}: the member '{required}' is missing (members: "
                    f"{sorted(members) or 'none'}). A .keras file holds {', '.join(_KNOWN)}."
                )
        return members

    def read(self, name, limit=None):
        """The bytes of member `name`; a compressed one may expand to at most `limit`
        bytes (default: the ceiling, `_limits.get_max_expanded_bytes`)."""
        info = self.members[name]
        if info.compress_type != zipfile.ZIP_STORED:
            limit = _limits.get_max_expanded_bytes() if limit is None else limit
            if info.file_size > limit:
                raise FileFormatError(self._bomb(name, info, limit, None))
        buffer = io.BytesIO()
        try:
            with self.zip.open(info) as member:
                # In chunks, never past what the header declares (at most `limit`): a
                # member whose data expands further is damaged, and is not expanded.
                while chunk := member.read(min(_CHUNK, info.file_size + 1 - buffer.tell())):
                    buffer.write(chunk)
                    if buffer.tell() > info.file_size:
                        break
        except (zipfile.BadZipFile, EOFError, OSError, ValueError, NotImplementedError) as error:
            raise FileFormatError(
                f"{self.label}: the member '{name}' cannot be read ({error}); the file is damaged "
                "or truncated."
            ) from error
        if buffer.tell() != info.file_size:
            raise FileFormatError(
                f"{self.label}: the member '{name}' holds {buffer.tell()} bytes but declares "
                f"{info.file_size}; the file is damaged."
            )
        return buffer.getvalue()

    def _bomb(self, name, info, limit, reason):
        return (
            f"{self.label}: the compressed member '{name}' would expand from "
            f"{info.compress_size} to {info.file_size} bytes, more than the {limit} bytes "
            f"{reason or 'allowed for it'}: a zip bomb? Refused before expanding it. (mb and "
            "Keras store members uncompressed; a genuine file re-zipped by hand loads once "
            "saved again with model.save.)"
        )

    def config(self):
        return parse_json(self.read(CONFIG), self.label, CONFIG)

    def metadata(self):
        if METADATA not in self.members:
            return {}
        return parse_json(self.read(METADATA), self.label, METADATA)

    def weights_file(self, limit=None):
        """The weights as a seekable binary file object; `limit` is a
        `_limits.WeightsLimit` (default: nothing declared)."""
        limit = limit or _limits.WeightsLimit([])
        info = self.members[WEIGHTS]
        if info.compress_type != zipfile.ZIP_STORED and info.file_size > limit.bytes:
            raise FileFormatError(self._bomb(WEIGHTS, info, limit.bytes, limit.reason()))
        return io.BytesIO(self.read(WEIGHTS, limit.bytes))

    def close(self):
        self.zip.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
