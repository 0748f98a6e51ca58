"""Checking a whole config against the allow-list before anything is created from it.

Every dict with ``class_name`` and ``config`` names an object. Each must be
one of: a built-in of mb written under a Keras module (see `_builtins`), an
object the caller registered or passed in ``custom_objects``, or one of the
data encodings (tensors, NumPy arrays, bytes, slices). Python bytecode
(``__lambda__``) passes only with ``safe_mode=False``; so does a class found by
importing its module. Anything else is refused with the JSON path of the
entry, so the error says exactly which part of the file is the problem.
"""

import importlib
import types

import mb_layers
from mb_graph import INPUT_TENSOR_CLASS_NAME, Operation
from mb_layers import constraints, initializers, regularizers
from mb_ops import dtypes
from mb_saving import _builtins, _object_registry
from mb_saving._errors import UnsafeConfigError, json_path

DATA_ENCODINGS = frozenset(
    {
        "__keras_tensor__",
        "__tensor__",
        "__numpy__",
        "__bytes__",
        "__slice__",
        "__ellipsis__",
        INPUT_TENSOR_CLASS_NAME,
    }
)
# Keras classes that carry code or reach outside the file; mb implements none of them.
_KNOWN_UNSAFE = {
    "TorchModuleWrapper": "it holds a pickled torch module (unpickling runs code)",
    "TFSMLayer": "it loads an external TensorFlow SavedModel (a program)",
    "JaxLayer": "it wraps arbitrary JAX functions",
    "FlaxLayer": "it wraps arbitrary Flax modules",
}
_MAX_DEPTH = 200
_OWN_PACKAGES = frozenset(
    {"mb", "mb_graph", "mb_ops", "mb_layers", "mb_data", "mb_train", "mb_saving", "mb_export"}
)


def _is_object(value):
    return isinstance(value, dict) and "class_name" in value and "config" in value


class Resolution:
    """How one object entry resolves: ``source`` is "custom", "builtin", "import" or "data"."""

    def __init__(self, source, target=None, family=None):
        self.source = source
        self.target = target
        self.family = family


def _context(stack):
    """``"layer 'dense_1' (Dense)"`` for the innermost named object around an entry."""
    for entry in reversed(stack):
        config = entry.get("config")
        name = entry.get("name") or (config.get("name") if isinstance(config, dict) else None)
        if isinstance(name, str):
            return f" (inside '{name}', a {entry.get('class_name')})"
    return ""


class AllowList:
    """Resolves and checks object entries; `custom_objects` are the caller's extra names."""

    def __init__(self, custom_objects=None, safe_mode=True):
        self.custom_objects = dict(custom_objects or {})
        self.safe_mode = safe_mode

    def custom(self, *names):
        scoped = _object_registry.scoped_objects()
        for name in names:
            if not isinstance(name, str):
                continue
            for table in (self.custom_objects, scoped):
                if name in table:
                    return table[name]
            found = _object_registry.get_registered_object(name)
            if found is not None:
                return found
        return None

    def resolve(self, entry, where=""):
        """The `Resolution` of one object entry, or raises `UnsafeConfigError`."""
        class_name = entry.get("class_name")
        module = entry.get("module")
        registered = entry.get("registered_name")
        if not isinstance(class_name, str):
            raise UnsafeConfigError(f"{where}: 'class_name' must be a string, got {class_name!r}.")
        for key, value in (("module", module), ("registered_name", registered)):
            if value is not None and not isinstance(value, str):
                raise UnsafeConfigError(f"{where}: '{key}' must be a string, got {value!r}.")
        if class_name in DATA_ENCODINGS:
            return Resolution("data")
        if class_name == "__lambda__":
            if self.safe_mode:
                raise UnsafeConfigError(
                    f"{where}: this entry is a Python lambda (bytecode) that would run when "
                    "loaded. Refused because safe_mode=True. Load with safe_mode=False only if "
                    "you trust the file, or replace the lambda by a named function registered "
                    "with @register_keras_serializable()."
                )
            return Resolution("data")
        if class_name.startswith("__"):
            raise UnsafeConfigError(
                f"{where}: the encoding '{class_name}' is not supported by mb (known encodings: "
                f"{', '.join(sorted(DATA_ENCODINGS | {'__lambda__'}))})."
            )
        if class_name == "function":
            return self._resolve_function(entry, module, registered, where)
        if self.safe_mode and class_name in _KNOWN_UNSAFE:
            # Refused before anything is made, even where mb has the class (its own
            # from_config fails closed too); safe_mode=False loads mb's.
            raise UnsafeConfigError(
                f"{where}: '{class_name}' is refused because safe_mode=True: "
                f"{_KNOWN_UNSAFE[class_name]}. Load with safe_mode=False only if you trust "
                "the file."
            )
        found = self.custom(registered, class_name)
        if found is not None:
            return Resolution("custom", found)
        if module is None or _builtins.is_known_module(module):
            hit = _builtins.find_builtin(class_name, _builtins.families_for_module(module))
            if hit is not None:
                return Resolution("builtin", hit[1], hit[0])
        return self._refuse_or_import(class_name, module, registered, where)

    def _resolve_function(self, entry, module, registered, where):
        name = entry.get("config")
        if not isinstance(name, str):
            raise UnsafeConfigError(
                f"{where}: a 'function' entry needs its name as a string in 'config'; got {name!r}."
            )
        found = self.custom(registered, name)
        if found is not None:
            return Resolution("custom", found)
        own = isinstance(module, str) and module.split(".", 1)[0] in _OWN_PACKAGES
        if module in (None, "builtins") or own or _builtins.is_keras_module(module):
            # mb writes its own module for a few built-in functions (mb_layers.activations).
            families = (
                _builtins.FUNCTION_FAMILIES
                if module in (None, "builtins") or own
                else _builtins.families_for_module(module)
            )
            hit = _builtins.find_builtin(name, families)
            if hit is not None and not isinstance(hit[1], type):
                return Resolution("builtin", hit[1], hit[0])
        return self._refuse_or_import(name, module, registered, where, kind="function")

    def _refuse_or_import(self, name, module, registered, where, kind="class"):
        if name in _KNOWN_UNSAFE:
            raise UnsafeConfigError(
                f"{where}: '{name}' is refused: {_KNOWN_UNSAFE[name]}. mb does not load it."
            )
        label = f"{module}.{name}" if module else name
        if not self.safe_mode and module and not _builtins.is_keras_module(module):
            return Resolution("import", _import(module, name, where))
        how = (
            f"Decorate it with @mb.saving.register_keras_serializable() (it would be "
            f"registered as {registered!r}) and import it before loading, or pass "
            f"custom_objects={{{name!r}: ...}}."
        )
        if _builtins.is_keras_module(module):
            reason = (
                f"is not one of mb's built-in modeling objects (Keras's non-modeling APIs "
                f"and classes mb does not implement are refused). If it is your own {kind}: "
            )
        else:
            reason = f"is not registered, and safe mode imports no module. If it is your {kind}: "
        raise UnsafeConfigError(f"{where}: the {kind} '{label}' {reason}{how}")

    def check(self, config, path=("config",)):
        """Walks `config` and raises `UnsafeConfigError` at the first refused entry."""
        self._walk(config, list(path), [], 0, None)

    def problems(self, config, path=("config",)):
        """Every refused entry of `config`, as error messages (nothing is raised)."""
        found = []
        self._walk(config, list(path), [], 0, found)
        return found

    def _walk(self, value, path, stack, depth, collect):
        if depth > _MAX_DEPTH:
            error = UnsafeConfigError(
                f"{json_path(path)}: the config nests deeper than {_MAX_DEPTH} levels."
            )
            if collect is None:
                raise error
            collect.append(str(error))
            return
        if isinstance(value, list):
            for i, item in enumerate(value):
                self._walk(item, [*path, i], stack, depth + 1, collect)
            return
        if not isinstance(value, dict):
            return
        if _is_object(value):
            where = json_path(path) + _context(stack)
            try:
                self.resolve(value, where)
                if value["class_name"] in ("__numpy__", "__tensor__"):
                    _check_array(value, where)
            except UnsafeConfigError as error:
                if collect is None:
                    raise
                collect.append(str(error))
                return
            if value["class_name"] == "__lambda__":
                return
            stack = [*stack, value]
        for key, item in value.items():
            self._walk(item, [*path, key], stack, depth + 1, collect)


def _check_array(entry, where):
    inner = entry.get("config")
    dtype = inner.get("dtype") if isinstance(inner, dict) else None
    try:
        standard = dtypes.standardize_dtype(dtype)
    except (TypeError, ValueError):
        standard = None
    if standard is None or standard == "string":
        raise UnsafeConfigError(
            f"{where}: an array entry must give a numeric dtype; got {dtype!r}."
        )


def _modeling_bases():
    bases = [mb_layers.Layer, Operation, initializers.Initializer, regularizers.Regularizer]
    bases.append(constraints.Constraint)
    for family in (_builtins.OPTIMIZERS, _builtins.LOSSES, _builtins.METRICS, _builtins.SCHEDULES):
        bases.extend(v for v in family.table().values() if isinstance(v, type))
    return tuple(bases)


def _import(module, name, where):
    """safe_mode=False only: a user class or function found by importing its module.

    mb's and Keras's own modules are never imported this way: their modeling
    objects are in the allow-list already, and the rest (``load_model``,
    ``get_file``, ...) are not modeling APIs.
    """
    package = module.split(".", 1)[0]
    if package in _OWN_PACKAGES or package.startswith(("mb_backend_", "keras")):
        raise UnsafeConfigError(
            f"{where}: '{module}.{name}' is not one of mb's modeling objects; mb's and Keras's "
            "other APIs are refused even with safe_mode=False."
        )
    try:
        imported = importlib.import_module(module)
    except ImportError as error:
        raise UnsafeConfigError(
            f"{where}: cannot import module '{module}' for '{name}': {error}."
        ) from error
    found = getattr(imported, name, None)
    if isinstance(found, type) and issubclass(found, _modeling_bases()):
        return found
    if isinstance(found, types.FunctionType):
        return found
    raise UnsafeConfigError(
        f"{where}: '{module}.{name}' is neither a modeling class (a Layer, Loss, Metric, "
        "Optimizer, ...) nor a Python function; refused."
    )
