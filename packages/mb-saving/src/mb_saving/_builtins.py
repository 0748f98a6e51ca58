"""The allow-list: every built-in modeling object a file may name, by family.

A family is what Keras exports under one module (``keras.layers``,
``keras.initializers``, ...): its table maps names to mb's classes and
functions. Only names in these tables (and objects the caller registered)
can be created from a file. Non-modeling APIs (``load_model``, ``get_file``,
``serialize``, ...) are in no table, so they are refused without a deny-list.

The tables of mb_train's families (losses, metrics, optimizers, schedules) are read
when first needed, so importing mb-saving does not import them.
"""

from mb_layers import (
    InputSpec,
    _dtype_policy,
    _quantization_config,
    _registry,
    activations,
    constraints,
    initializers,
    regularizers,
)
from mb_ops._ops._machinery import REGISTRY as _OP_REGISTRY


class Family:
    """One kind of serializable object.

    Attributes:
        kind: the word used in errors (``"layer"``).
        modules: the Keras modules its built-ins are written under; the first
            is the one mb writes.
    """

    def __init__(self, kind, modules, table):
        self.kind = kind
        self.modules = tuple(modules)
        self.module = self.modules[0]
        self._table = table

    def table(self):
        """dict name -> class or function of the family's built-ins."""
        return self._table()


def _optimizers_table():
    from mb_train.optimizers import _registry as optimizer_registry

    return dict(optimizer_registry.BUILTINS)


def _schedules_table():
    from mb_train.optimizers import schedules

    return dict(schedules._CLASSES)


def _losses_table():
    from mb_train.losses import _serialization as loss_serialization

    return dict(loss_serialization.BUILTINS)


def _metrics_table():
    from mb_train.metrics import _registry as metric_registry

    return dict(metric_registry.ALL_OBJECTS)


def _operations_table():
    return {info.operation_class.__name__: info.operation_class for info in _OP_REGISTRY.values()}


def operation_module(cls):
    """Keras's module for an mb op class (``keras.src.ops.numpy``), or None."""
    for info in _OP_REGISTRY.values():
        if info.operation_class is cls:
            return f"keras.src.ops.{info.module}"
    return None


def _top_level_table():
    # The base classes Keras exports at its top level (keras.Loss, keras.InputSpec, ...):
    # Keras writes them with module "keras".
    from mb_train.losses import Loss
    from mb_train.metrics import Metric
    from mb_train.optimizers import Optimizer

    return {
        "InputSpec": InputSpec,
        "Initializer": initializers.Initializer,
        "Loss": Loss,
        "Metric": Metric,
        "Optimizer": Optimizer,
    }


TOP_LEVEL = Family("base class", ("keras",), _top_level_table)
LAYERS = Family(
    "layer",
    ("keras.layers", "keras", "keras.models", "keras.src.models.functional"),
    _registry.builtin_classes,
)
DTYPE_POLICIES = Family(
    "dtype policy",
    ("keras", "keras.dtype_policies", "keras.mixed_precision"),
    lambda: dict(_dtype_policy.ALL_POLICIES),
)
INITIALIZERS = Family(
    "initializer",
    ("keras.initializers",),
    lambda: dict(initializers.ALL_OBJECTS),
)
REGULARIZERS = Family(
    "regularizer",
    ("keras.regularizers",),
    lambda: dict(regularizers.ALL_OBJECTS),
)
CONSTRAINTS = Family(
    "constraint",
    ("keras.constraints",),
    lambda: dict(constraints.ALL_OBJECTS),
)
ACTIVATIONS = Family(
    "activation",
    ("keras.activations",),
    lambda: {**activations.ALL_OBJECTS, "swish": activations.silu},
)
OPTIMIZERS = Family(
    "optimizer",
    ("keras.optimizers",),
    _optimizers_table,
)
SCHEDULES = Family(
    "learning rate schedule",
    ("keras.optimizers.schedules",),
    _schedules_table,
)
LOSSES = Family(
    "loss",
    ("keras.losses",),
    _losses_table,
)
METRICS = Family(
    "metric",
    ("keras.metrics",),
    _metrics_table,
)


def _feature_space_table():
    from mb_layers import _feature_space

    return {
        "Feature": _feature_space.Feature,
        "Cross": _feature_space.Cross,
        "TFDIdentity": _feature_space.TFDIdentity,
        "TFDConcat": _feature_space.TFDConcat,
    }


# The objects a keras.utils.FeatureSpace config names, written (as Keras writes them)
# with the module that defines them; FeatureSpace itself is a layer ("keras.utils").
FEATURE_SPACE = Family(
    "feature space part",
    ("keras.src.layers.preprocessing.feature_space",),
    _feature_space_table,
)
QUANTIZERS = Family(
    "quantizer",
    ("keras.quantizers",),
    lambda: dict(_quantization_config.ALL_OBJECTS),
)
OPERATIONS = Family(
    "operation",
    tuple(
        f"keras.src.ops.{m}" for m in ("numpy", "nn", "math", "linalg", "image", "core", "einops")
    ),
    _operations_table,
)

FAMILIES = (
    TOP_LEVEL,
    LAYERS,
    DTYPE_POLICIES,
    INITIALIZERS,
    REGULARIZERS,
    CONSTRAINTS,
    ACTIVATIONS,
    OPTIMIZERS,
    SCHEDULES,
    LOSSES,
    METRICS,
    FEATURE_SPACE,
    QUANTIZERS,
    OPERATIONS,
)
_MODEL_FAMILIES = FAMILIES[:-1]
# Where Keras looks up a function written with module "builtins".
FUNCTION_FAMILIES = (ACTIVATIONS, LOSSES, METRICS, INITIALIZERS, REGULARIZERS, CONSTRAINTS)


def is_keras_module(module):
    return isinstance(module, str) and (module == "keras" or module.startswith("keras."))


def is_known_module(module):
    """Keras's modules, and mb's own op modules (configs from ``get_config`` name them)."""
    return is_keras_module(module) or (isinstance(module, str) and module.startswith("mb_ops."))


def families_for_module(module):
    """The families whose built-ins `module` may name.

    Ops (``keras.src.ops.*``, ``mb_ops.*``) are looked up only among ops, so the
    op ``Add`` is never taken for the layer ``Add``.
    """
    if isinstance(module, str) and module.startswith(("keras.src.ops", "mb_ops.")):
        return (OPERATIONS,)
    found = tuple(f for f in FAMILIES if module in f.modules)
    return found or _MODEL_FAMILIES


def find_builtin(name, families):
    """``(family, object)`` for the first family whose table has `name`, else None."""
    for family in families:
        obj = family.table().get(name)
        if obj is not None:
            return family, obj
    return None


def builtin_name(obj):
    """``(family, name)`` when `obj` (a class or function) is a built-in, else None.

    The name is the object's own ``__name__`` when the table lists it under it
    (aliases such as ``glorot_uniform`` are not written).
    """
    own = getattr(obj, "__name__", None)
    for family in FAMILIES:
        table = family.table()
        if own is not None and table.get(own) is obj:
            return family, own
    for family in FAMILIES:
        for name, value in family.table().items():
            if value is obj:
                return family, name
    return None
