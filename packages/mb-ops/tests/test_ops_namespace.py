"""``mb_ops.ops`` has keras.ops' names and signatures."""

import inspect

import pytest

import mb_ops
from mb_ops import ops, testing

_KERAS_SIGNATURES = """
import inspect, json, os
os.environ["KERAS_BACKEND"] = "numpy"
import keras
from keras import ops
out = {}
for name in dir(ops):
    f = getattr(ops, name)
    if not name.startswith("_") and not inspect.ismodule(f):
        out["ops." + name] = str(inspect.signature(f))
for name in dir(ops.image):
    if not name.startswith("_"):
        out["image." + name] = str(inspect.signature(getattr(ops.image, name)))
for name in dir(keras.random):
    f = getattr(keras.random, name)
    if not name.startswith("_") and inspect.isfunction(f):
        out["random." + name] = str(inspect.signature(f))
print(json.dumps(out))
"""


def test_ops_has_341_names_and_the_four_submodules():
    assert len(ops.__all__) == 341
    for sub in ("numpy", "nn", "linalg", "image"):
        assert inspect.ismodule(getattr(ops, sub))
    assert not hasattr(ops, "math") and not hasattr(ops, "core")
    assert ops.add is mb_ops.numpy.add and ops.relu is mb_ops.nn.relu
    assert ops.cast is mb_ops.core.cast and ops.rearrange is mb_ops.einops.rearrange


def test_every_op_is_an_operation_subclass_plus_function():
    for name in ops.__all__:
        fn = getattr(ops, name)
        if inspect.ismodule(fn) or name in (
            "convert_to_numpy",
            "custom_gradient",
            "dtype",
            "is_tensor",
            "shape",
        ):
            continue
        assert issubclass(fn.operation_class, mb_ops.Operation), name


def test_names_and_signatures_match_keras3():
    pytest.importorskip("keras", reason="keras is an optional test-only reference")
    expected = testing.keras_json(_KERAS_SIGNATURES, backend="numpy")
    modules = {"ops": ops, "image": ops.image, "random": mb_ops.random}
    mismatches = []
    for key, signature in expected.items():
        module, name = key.split(".")
        fn = getattr(modules[module], name, None)
        if fn is None:
            mismatches.append((key, "missing"))
            continue
        ours = inspect.signature(fn).replace(return_annotation=inspect.Signature.empty)
        ours = ours.replace(
            parameters=[p.replace(annotation=p.empty) for p in ours.parameters.values()]
        )
        if str(ours) != signature:
            mismatches.append((key, str(ours), signature))
    assert not mismatches, mismatches
