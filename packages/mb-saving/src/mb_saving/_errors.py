"""The errors mb_saving raises, each a `ValueError` so Keras-style ``except`` clauses work."""


class FileFormatError(ValueError):
    """The file is not a valid ``.keras`` / ``.weights.h5`` file (truncated, malformed,
    members missing or too large). Nothing was loaded."""


class UnsafeFileError(FileFormatError):
    """The weights file points outside itself: HDF5 external storage, external links,
    virtual datasets, soft links out of an object's group, filter plugins. mb never
    reads what they point at, whatever ``safe_mode`` says; nothing was loaded.

    Attributes:
        findings: the `Finding`s (``path``, ``kind``, ``target``) that were refused.
    """

    def __init__(self, message, findings=()):
        super().__init__(message)
        self.findings = list(findings)


class UnsafeConfigError(ValueError):
    """The config refers to code that safe mode does not run (a lambda, a pickled
    object, a module path, a non-modeling API) or to an unknown class."""


class DeserializationError(ValueError):
    """Creating an object from its (allowed) config failed; the message gives the
    entry's place in the config and the original error."""


class WeightsMismatchError(ValueError):
    """The variables in the file do not match the model's (count, shapes or paths).

    Attributes:
        problems: one `Problem` description string per object that did not match.
    """

    def __init__(self, message, problems=()):
        super().__init__(message)
        self.problems = list(problems)


def json_path(parts):
    """``config.layers[2].config.function`` from ``["config", "layers", 2, ...]``."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "<root>"


def describe_variables(entries):
    """``kernel (4, 8) float32, bias (8,) float32`` from ``[(name, shape, dtype), ...]``."""
    if not entries:
        return "no variables"
    parts = []
    for name, shape, dtype in entries:
        label = f"{name} " if name else ""
        parts.append(f"{label}{tuple(shape)} {dtype}")
    return ", ".join(parts)
