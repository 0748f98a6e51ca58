"""``Variable`` of the JAX backend: an ``mb_ops.Variable`` holding a ``jax.Array``.

Reads go through the base class, so an active ``mb_ops.StatelessScope`` wins
over the stored value. ``jnp.asarray(v)`` and every ``jnp`` function accept a
variable through ``__jax_array__``.

Variables are also registered as JAX pytree nodes whose single leaf is the
current value. A variable passed as an argument to a function under
``jax.jit``/``jax.grad``/``jax.vmap`` is therefore rebuilt inside the
transformation as a *view*: a variable of the same name, path and dtype whose
value is the traced leaf. ``jax.grad(f)(v)`` returns such a view holding the
gradient. Assigning to a view changes only the view, never the variable it was
made from: write results back with ``v.assign(...)`` outside the
transformation (or use the stateless pattern of ``mb_backend_jax.layer``).
"""

import jax

from mb_backend_jax._convert import convert_to_tensor
from mb_backend_jax._sharding import place
from mb_ops import Variable as BaseVariable


class Variable(BaseVariable):
    """A state tensor of the JAX backend (see ``mb_ops.Variable``)."""

    def _initialize(self, value):
        self._value = value

    def _direct_assign(self, value):
        # A variable with a layout (mb.distribution) keeps it whatever is assigned.
        layout = self.__dict__.get("_layout")
        self._value = value if layout is None else place(value, layout)

    def _convert_to_tensor(self, value, dtype=None):
        return convert_to_tensor(value, dtype=dtype)

    def __jax_array__(self):
        return self.value

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        jax.tree_util.register_pytree_node(cls, _flatten, _unflatten)


class _Ref:
    """Pytree auxiliary data: compares variables by identity, never by value."""

    __slots__ = ("variable",)

    def __init__(self, variable):
        self.variable = variable

    def __eq__(self, other):
        return isinstance(other, _Ref) and other.variable is self.variable

    def __hash__(self):
        return id(self.variable)


def _flatten(variable):
    return (variable.value,), _Ref(variable)


def _unflatten(ref, children):
    source = ref.variable
    view = object.__new__(type(source))
    view.__dict__.update(source.__dict__)
    view.__dict__["_value"] = children[0]
    view.__dict__["_view_of"] = source
    return view


jax.tree_util.register_pytree_node(Variable, _flatten, _unflatten)
