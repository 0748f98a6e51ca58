"""Turning what `compile` receives (strings, functions, objects) into losses, metrics
and an optimizer.

`mb_train.losses`, `mb_train.metrics` and `mb_train.optimizers` are imported when
`compile` runs, not when this module is imported (they import the model machinery).
"""

import importlib


def _lookup(kind, identifier):
    """``mb_train.<kind>.get(identifier)``."""
    return importlib.import_module(f"mb_train.{kind}").get(identifier)


def get_loss(identifier):
    """A callable ``loss(y_true, y_pred, sample_weight=None) -> scalar`` (or None).

    Names resolve through ``mb_train.losses.get``; a plain function (given, or what
    a name resolves to) is wrapped so that it reduces over the batch, as Keras's
    compile does.
    """
    if identifier is None:
        return None
    if isinstance(identifier, str | dict):
        identifier = _lookup("losses", identifier)
    if isinstance(identifier, type):
        return identifier()
    if callable(identifier):
        if _is_loss_object(identifier):
            return identifier
        return _wrap_function(identifier)
    raise TypeError(
        f"A loss must be a string, a Loss object or a function. Received: {identifier!r} "
        f"(of type {type(identifier).__name__})."
    )


def _wrap_function(fn):
    from mb_train.losses import LossFunctionWrapper

    return LossFunctionWrapper(fn, name=getattr(fn, "__name__", None))


def _is_loss_object(obj):
    from mb_train.losses import Loss

    if isinstance(obj, Loss):
        return True
    # Duck typing: an object with a `call(y_true, y_pred)` and a reduction.
    return hasattr(obj, "reduction") and hasattr(obj, "call")


def get_optimizer(identifier):
    """An optimizer object from a string, a config dict or an object."""
    if isinstance(identifier, str | dict):
        return _lookup("optimizers", identifier)
    if hasattr(identifier, "apply") and hasattr(identifier, "variables"):
        return identifier
    raise TypeError(
        "`optimizer` must be a string (e.g. 'adam') or an optimizer object. Received: "
        f"{identifier!r} (of type {type(identifier).__name__})."
    )


def is_metric_object(obj):
    return hasattr(obj, "update_state") and hasattr(obj, "result") and hasattr(obj, "variables")


_ACCURACY = ("accuracy", "acc")
_CROSSENTROPY = ("crossentropy", "ce")


def _loss_name(loss):
    name = getattr(loss, "name", None) or getattr(loss, "__name__", None)
    return (name or type(loss).__name__).lower()


def get_metric(identifier, y_true, y_pred, loss):
    """A metric object; "accuracy"/"crossentropy" pick the variant the data calls for."""
    if is_metric_object(identifier):
        return identifier
    from mb_train import metrics as module

    if isinstance(identifier, str) and identifier.lower() in _ACCURACY + _CROSSENTROPY:
        kind = _target_kind(y_true, y_pred, loss)
        short = identifier.lower() in _ACCURACY
        names = {
            "binary": ("binary_accuracy", "binary_crossentropy"),
            "sparse": ("sparse_categorical_accuracy", "sparse_categorical_crossentropy"),
            "categorical": ("categorical_accuracy", "categorical_crossentropy"),
        }[kind]
        metric = _lookup("metrics", names[0] if short else names[1])
        if hasattr(metric, "update_state"):
            metric_obj = metric
        else:
            metric_obj = module.MeanMetricWrapper(metric, name=identifier)
        _rename(metric_obj, identifier)
        return metric_obj
    if isinstance(identifier, str | dict):
        found = _lookup("metrics", identifier)
        if not is_metric_object(found):
            return module.MeanMetricWrapper(found, name=identifier)
        if isinstance(identifier, str) and type(found).__name__ != identifier:
            # As Keras: a metric asked for by name or alias ("mae") logs under that
            # string; a class name ("AUC") keeps the class's default name ("auc").
            _rename(found, identifier)
        return found
    if isinstance(identifier, type):
        return identifier()
    if callable(identifier):
        return module.MeanMetricWrapper(identifier, name=getattr(identifier, "__name__", None))
    raise TypeError(
        f"A metric must be a string, a Metric object or a function. Received: {identifier!r} "
        f"(of type {type(identifier).__name__})."
    )


def _rename(metric, name):
    try:
        metric.name = name
    except AttributeError:
        metric._name = name


def _target_kind(y_true, y_pred, loss):
    loss_name = _loss_name(loss) if loss is not None else ""
    if "binary" in loss_name:
        return "binary"
    if "sparse" in loss_name:
        return "sparse"
    if "categorical" in loss_name:
        return "categorical"
    pred_shape = tuple(y_pred.shape)
    true_shape = tuple(y_true.shape) if y_true is not None else ()
    if pred_shape and pred_shape[-1] == 1:
        return "binary"
    if len(true_shape) < len(pred_shape) or (true_shape and true_shape[-1] == 1):
        return "sparse"
    return "categorical"
