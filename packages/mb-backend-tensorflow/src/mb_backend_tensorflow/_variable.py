"""``Variable`` of the TensorFlow backend: an ``mb_ops.Variable`` over a ``tf.Variable``."""

import numpy as np
import tensorflow as tf

from mb_backend_tensorflow._convert import convert_to_tensor
from mb_backend_tensorflow._dtypes import standardize_dtype
from mb_ops import Variable as BaseVariable


class Variable(BaseVariable):
    """A variable whose storage is a ``tf.Variable``.

    Outside a stateless scope ``.value`` is the ``tf.Variable`` itself, so
    ``tf.GradientTape`` and ``tf.function`` see the live state; inside an
    ``mb_ops.StatelessScope`` reads return the scope's value (handled by the base
    class). The object converts to a tensor wherever TensorFlow expects one
    (``__tf_tensor__``), and TensorFlow treats it as the resource variable it
    wraps (``_should_act_as_resource_variable``, ``handle``): a
    ``tf.GradientTape`` watches it and ``tape.gradient(loss, variables)`` takes
    mb variables, as with Keras's variables.
    """

    # Read by tf's `is_resource_variable`: the tape then works on `handle`.
    _should_act_as_resource_variable = True

    def _initialize(self, value):
        if isinstance(value, tf.Variable):
            self._value = value
            return
        dtype = getattr(self, "_dtype", None)
        with tf.init_scope():
            if callable(value):
                value = value()
            self._value = tf.Variable(
                convert_to_tensor(value, dtype=dtype),
                trainable=bool(getattr(self, "_trainable", True)),
                name=getattr(self, "_name", None),
            )

    def _initialize_with_initializer(self, initializer):
        # Run the initializer eagerly even when first touched inside a tf.function.
        with tf.init_scope():
            value = self._convert_to_tensor(initializer(self._shape, dtype=self._dtype))
            # Placed as the active distribution's layout says (checked: tf.distribute
            # replicates every variable).
            value = self._placed(value)
        self._initialize(value)

    def _direct_assign(self, value):
        value = convert_to_tensor(value)
        self._value.assign(tf.cast(value, self._value.dtype))

    def _convert_to_tensor(self, value, dtype=None):
        return convert_to_tensor(value, dtype=dtype)

    def numpy(self):
        # np.array: a 0-d value is an array too (tf's .numpy() gives a NumPy scalar,
        # which np.asarray(variable) would refuse from __array__).
        return np.array(convert_to_tensor(self.value).numpy())

    @property
    def handle(self):
        """The resource handle of the underlying ``tf.Variable``."""
        return self._value.handle

    def __tf_tensor__(self, dtype=None, name=None):
        value = self.value
        if dtype is not None and standardize_dtype(dtype) != standardize_dtype(value.dtype):
            return tf.cast(value, dtype, name=name)
        return tf.convert_to_tensor(value, name=name)
