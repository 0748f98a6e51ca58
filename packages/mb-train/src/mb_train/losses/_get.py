"""`get`: a loss from whatever `compile(loss=...)` or a user hands over."""

from mb_train.losses import _serialization
from mb_train.losses._loss import Loss


def get(identifier):
    """A loss from None, a name, a Keras 3 config dict, a class, a function or an object.

    - a class name (``"Huber"``) gives an instance with the default arguments;
    - a function name or alias (``"sparse_categorical_crossentropy"``, ``"mse"``)
      gives that function, which returns one value per sample, as in Keras 3
      (`compile` wraps it in a `LossFunctionWrapper` that reduces);
    - a dict is deserialized (`deserialize`);
    - a `Loss` subclass is instantiated; functions and `Loss` objects are
      returned as they are.

    Example:

    >>> fn = get("mse")
    >>> fn.__name__, [float(v) for v in fn([[0.0], [2.0]], [[1.0], [1.0]])]
    ('mean_squared_error', [1.0, 1.0])
    >>> type(get({"class_name": "Huber", "config": {"delta": 2.0}})).__name__
    'Huber'

    Raises:
        ValueError: for an unknown name (close matches are listed) or an
            object that is not a loss.
    """
    if identifier is None:
        return None
    if isinstance(identifier, str):
        found = _serialization.BUILTINS.get(identifier)
        if found is None:
            raise _serialization.unknown_name_error(identifier)
        if isinstance(found, type):
            return found()
        return found
    if isinstance(identifier, dict):
        return _serialization.deserialize(identifier)
    if isinstance(identifier, type):
        if issubclass(identifier, Loss):
            return identifier()
        raise ValueError(
            f"Could not interpret loss identifier {identifier!r}: a class given as a loss "
            "must subclass mb_train.losses.Loss."
        )
    if callable(identifier):
        return identifier
    raise ValueError(
        f"Could not interpret loss identifier: {identifier!r} (of type "
        f"{type(identifier).__name__}). Expected a name such as 'mean_squared_error', a "
        "serialized dict, a Loss class or object, or a function fn(y_true, y_pred)."
    )
