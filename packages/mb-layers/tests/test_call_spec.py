"""How a layer call binds to `call`'s signature: the plain path (no ``inspect`` per call)
must bind exactly as ``inspect.Signature.bind`` does, or leave the call to it."""

import inspect
import itertools

import numpy as np
import pytest

from mb_layers import Layer
from mb_layers._call_spec import CallSpec, _bind, _bind_plainly, call_plan


def _keras_call(inputs, training=None, mask=None): ...
def _required_mask(inputs, mask, *, training=False): ...
def _positional_only(a, /, b=2, c=3): ...
def _two(x, y): ...
def _var_kwargs(inputs, **kwargs): ...
def _var_args(*args): ...
def _sequential_call(inputs, training=None, mask=None, **kwargs): ...
def _keyword_only_and_rest(a, /, *, b=1, **rest): ...


SIGNATURES = [
    inspect.signature(f)
    for f in (
        _keras_call,
        _required_mask,
        _positional_only,
        _two,
        _var_kwargs,
        _var_args,
        _sequential_call,
        _keyword_only_and_rest,
    )
]
CALLS = [
    ((1,), {}),
    ((1, 2), {}),
    ((1,), {"training": True}),
    ((1,), {"mask": 5, "training": 0}),
    ((), {"inputs": 1}),
    ((1, 2, 3), {}),
    ((1,), {"b": 9}),
    ((1,), {"a": 2}),
    ((1,), {"c": 1, "b": 2}),
    ((), {"y": 2, "x": 1}),
    ((1,), {"y": 3}),
    ((1,), {"z": 1}),
    ((1, 2, 3, 4), {}),
    ((1,), {"z": 1, "training": True}),
    ((1,), {"kwargs": 1, "rest": 2}),
    ((), {"mask": 1, "inputs": 2, "z": 3}),
]


@pytest.mark.parametrize(("signature", "call"), list(itertools.product(SIGNATURES, CALLS)))
def test_the_plain_binding_is_inspects_or_declines(signature, call):
    args, kwargs = call
    try:
        expected = _bind(signature, args, kwargs)
    except TypeError:
        expected = None
    got = _bind_plainly(call_plan(signature), args, kwargs)
    if got is None:  # declined: inspect binds it (or raises its error)
        return
    assert expected is not None, "bound a call inspect refuses"
    user, arguments = got
    assert list(user.items()) == list(expected[0].items())  # same values, same order
    assert list(arguments.items()) == list(expected[1].items())


def test_a_call_that_does_not_fit_names_the_signature():
    class Two(Layer):
        def call(self, x, y):
            return x + y

    with pytest.raises(TypeError, match=r"call signature \(x, y\)"):
        Two()(np.ones((1, 2), "float32"))
    spec = CallSpec(inspect.signature(_keras_call), (1,), {"mask": 2})
    assert spec.arguments_dict == {"inputs": 1, "training": None, "mask": 2}
    assert spec.user_arguments_dict == {"inputs": 1, "mask": 2}


def test_a_plain_keras_call_is_bound_without_inspect():
    # Declining every call would keep the results right but lose the fast path.
    plan = call_plan(inspect.signature(_keras_call))
    assert _bind_plainly(plan, (1,), {"training": True}) == (
        {"inputs": 1, "training": True},
        {"inputs": 1, "training": True, "mask": None},
    )
    # ... nor that of Sequential's and Functional's `call`, which take **kwargs.
    plan = call_plan(inspect.signature(_sequential_call))
    assert _bind_plainly(plan, (1,), {"training": False, "z": 2}) == (
        {"inputs": 1, "training": False, "kwargs": {"z": 2}},
        {"inputs": 1, "training": False, "mask": None, "z": 2},
    )
    assert _bind_plainly(call_plan(inspect.signature(_var_args)), (1,), {}) is None
