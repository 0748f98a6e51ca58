"""A model's ``compile_config``: the arguments of ``compile``, written and applied back.

Keras writes ``optimizer`` (an object), ``loss``, ``loss_weights``, ``metrics``,
``weighted_metrics``, ``run_eagerly``, ``steps_per_execution`` and
``jit_compile`` (``{}`` when the model is not compiled). mb reads them off
the compiled model; loading calls ``compile(**config)`` and builds the
optimizer so that its state can be loaded next.

Keras stores ``jit_compile`` resolved for the backend that saved (``true``
on jax); a file without mb's metadata therefore compiles with ``"auto"``, the
loading backend's own default, instead of forcing e.g. torch.compile.
"""

from mb_saving._errors import DeserializationError, json_path
from mb_train.models import Model

_KEYS = (
    "optimizer",
    "loss",
    "loss_weights",
    "metrics",
    "weighted_metrics",
    "run_eagerly",
    "steps_per_execution",
    "jit_compile",
)


def is_model(obj):
    return isinstance(obj, Model)


def get_compile_config(model, serialize):
    """The compile config of `model` ({} when it was never compiled)."""
    if not getattr(model, "compiled", False):
        return {}
    compile_loss = getattr(model, "_compile_loss", None)
    compile_metrics = getattr(model, "_compile_metrics", None)
    config = {
        # The optimizer `compile` received (Keras's record), not the LossScaleOptimizer
        # that `compile` wraps it in under "mixed_float16": compiling again wraps it.
        "optimizer": getattr(model, "_compiled_optimizer", model.optimizer),
        "loss": getattr(model, "loss", None),
        "loss_weights": getattr(compile_loss, "_weights_spec", None),
        "metrics": getattr(compile_metrics, "_metrics_spec", None),
        "weighted_metrics": getattr(compile_metrics, "_weighted_spec", None),
        "run_eagerly": bool(getattr(model, "_run_eagerly", False)),
        "steps_per_execution": getattr(model, "_steps_per_execution", 1),
        "jit_compile": getattr(model, "_jit_compile", "auto"),
    }
    return {key: serialize(value) for key, value in config.items()}


def compile_from_config(model, config, reviver, path):
    """Compiles `model` from a compile config (after the allow-list checked it)."""
    if not isinstance(config, dict):
        raise DeserializationError(f"{json_path(path)}: a compile config must be a dict.")
    unknown = sorted(set(config) - set(_KEYS))
    if unknown:
        raise DeserializationError(
            f"{json_path(path)}: unknown compile arguments {unknown}; expected some of "
            f"{list(_KEYS)}."
        )
    arguments = {key: reviver.revive(value, [*path, key]) for key, value in config.items()}
    if arguments.get("jit_compile") is True and not reviver.written_by_mb:
        arguments["jit_compile"] = "auto"
    try:
        model.compile(**arguments)
        optimizer = model.optimizer
        if optimizer is not None and not getattr(optimizer, "built", True):
            optimizer.build(model.trainable_variables)
    except Exception as error:
        raise DeserializationError(
            f"{json_path(path)}: compiling the model from the file's compile config failed: "
            f"{type(error).__name__}: {error}. Load with compile=False to get the model "
            "without its training setup."
        ) from error
