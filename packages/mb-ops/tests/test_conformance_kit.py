"""The conformance kit run on the NumPy backend, and the kit's own behaviour."""

import importlib
import sys
import types

import numpy as np
import pytest

import mb_ops
from mb_ops import testing
from mb_ops._ops import _machinery

_PROVIDED = [c for c in testing.cases() if testing.provided_by_backend(c.op)]


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in _PROVIDED])
def test_numpy_backend_conforms(case):
    assert mb_ops.config.backend() == "numpy"
    assert testing.run_case(case) in ("passed", "unsupported")


def test_kit_covers_every_op_family_with_edge_cases():
    ops = testing.covered_ops()
    for family in ("numpy", "nn", "math", "linalg", "image", "core", "einops"):
        assert any(op.startswith(f"{family}.") for op in ops), family
    labels = {c.label for c in testing.cases()}
    for needed in ("empty", "broadcast", "int32", "bool", "float16", "bfloat16", "scalar"):
        assert needed in labels, needed
    assert len([c for c in testing.cases() if c.module == "numpy"]) > 400


@pytest.mark.parametrize("group", ["arithmetic", "transcendental", "logic"])
def test_each_case_file_checks_the_op_group_it_is_named_after(group):
    cases = getattr(importlib.import_module(f"mb_ops.testing._cases_{group}"), f"{group}_cases")()
    elsewhere = {
        c.op for c in cases if _machinery.REGISTRY[tuple(c.op.split("."))].group != f"numpy_{group}"
    }
    assert cases and not elsewhere, (
        f"cases of other groups in _cases_{group}.py: {sorted(elsewhere)}"
    )


def test_kit_reports_a_wrong_value():
    case = testing.OpCase(
        "numpy.add",
        (np.ones(3, "float32"), np.ones(3, "float32")),
        reference=lambda a, b: a + b + 1e-3,
    )
    with pytest.raises(AssertionError, match=r"numpy\.add"):
        testing.run_case(case)


def test_kit_reports_a_dtype_that_breaks_mbs_rule(monkeypatch):
    real = mb_ops.backends.backend_module("numpy").add
    monkeypatch.setattr(
        mb_ops.backends.backend_module("numpy"), "add", lambda a, b: real(a, b).astype("float64")
    )
    _fresh_backend_function(monkeypatch, _machinery.REGISTRY[("numpy", "add")])
    case = testing.OpCase("numpy.add", (np.ones(3, "float32"), np.ones(3, "float32")))
    with pytest.raises(AssertionError, match=r"dtype float64 differs from mb's dtype rule float32"):
        testing.run_case(case)


def _fresh_backend_function(monkeypatch, info):
    # The op caches the backend function on first call; re-resolve it.
    for cell in info.function.__closure__ or ():
        value = cell.cell_contents
        if isinstance(value, _machinery.BackendFunction):
            monkeypatch.setattr(value, "fn", value._resolve_and_call)
            return value
    raise AssertionError("no BackendFunction in the op's closure")


def test_unsupported_ops_raise_naming_op_and_backend(monkeypatch):
    fake = types.SimpleNamespace(UNSUPPORTED={"median": "NumPy has no such kernel here"})
    monkeypatch.setattr("mb_ops._backends.backend_module", lambda name: fake)
    fn = _machinery.resolve_backend_function("numpy", "median")
    with pytest.raises(NotImplementedError, match="median is not supported on the numpy backend"):
        fn(np.ones(3))
    missing = _machinery.resolve_backend_function("numpy", "nanmedian")
    with pytest.raises(NotImplementedError, match=r"nanmedian.*numpy backend.*does not provide"):
        missing(np.ones(3))


def test_check_backend_contract_lists_missing_and_accepts_declared(tmp_path, monkeypatch):
    package = tmp_path / "fake_backend"
    package.mkdir()
    (package / "__init__.py").write_text("")
    names = testing.REQUIRED["numpy"]
    body = "\n".join(f"def {n}(*a, **k): pass" for n in names[2:])
    body += f"\nUNSUPPORTED = {{{names[0]!r}: 'not in this engine'}}\n"
    (package / "numpy.py").write_text(body)
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        missing = testing.check_backend_contract("fake_backend")
    finally:
        for mod in [m for m in sys.modules if m.startswith("fake_backend")]:
            del sys.modules[mod]
    assert f"numpy.{names[1]}" in missing
    assert f"numpy.{names[0]}" not in missing
    assert "nn.relu" in missing and "core.cast" in missing
    assert not [m for m in missing if m.startswith("numpy.") and m != f"numpy.{names[1]}"]


def test_contract_lists_keras_backend_names():
    assert len(testing.REQUIRED["numpy"]) == 219
    assert len(testing.REQUIRED["nn"]) == 50
    assert len(testing.REQUIRED["math"]) == 21
    assert len(testing.REQUIRED["linalg"]) == 16
    assert len(testing.REQUIRED["random"]) == 10
    assert "get_item" not in testing.REQUIRED["numpy"]
    assert set(testing.REQUIRED) == set(mb_ops.backends.CONTRACT_MODULES)


@pytest.mark.parametrize("check", testing.pytest_random_checks())
def test_numpy_backend_random_conforms(check):
    assert testing.run_random_check(check) in ("passed", "unsupported")
