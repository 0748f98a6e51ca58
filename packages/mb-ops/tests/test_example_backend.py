"""A third-party backend written from the contract alone passes the kit for the ops it has.

``example_backend/mb_backend_example`` implements ``core``'s conversions,
``numpy.add``/``multiply``/``sum`` and ``nn.relu`` over NumPy, in the Protocols'
signatures. The test installs it the way a pip install would (a ``.dist-info``
folder with an ``mb.backends`` entry point) and runs mb_ops's conformance kit on it
in a fresh process.
"""

import json
import os
import pathlib
import shutil
import subprocess
import sys

from mb_ops import contract

HERE = pathlib.Path(__file__).parent
EXAMPLE_OPS = ("numpy.add", "numpy.multiply", "numpy.sum", "nn.relu")

_KIT = """
import json
from mb_ops import config, testing
assert config.backend() == "example", config.backend()
results = {}
for case in testing.cases():
    if case.op in %r:
        try:
            results[case.id] = testing.run_case(case)
        except AssertionError as error:
            results[case.id] = "failed: " + str(error)[:300]
print(json.dumps({
    "results": results,
    "signatures": testing.check_backend_signatures("mb_backend_example"),
    "missing": testing.check_backend_contract("mb_backend_example"),
}))
"""


def _install(site: pathlib.Path) -> None:
    shutil.copytree(HERE / "example_backend" / "mb_backend_example", site / "mb_backend_example")
    info = site / "mb_backend_example-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: mb-backend-example\nVersion: 0.1.0\n"
    )
    (info / "entry_points.txt").write_text(
        "[mb.backends]\nexample = mb_backend_example._descriptor:DESCRIPTOR\n"
    )


def test_a_backend_written_from_the_protocols_passes_the_kit_for_its_ops(tmp_path):
    _install(tmp_path)
    env = dict(os.environ, MB_BACKEND="example")
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")]).rstrip(":")
    done = subprocess.run(
        [sys.executable, "-c", _KIT % (EXAMPLE_OPS,)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    results = report["results"]
    assert len(results) >= 20, sorted(results)  # every kit case of the four ops
    assert {case.split("[")[0] for case in results} >= set(EXAMPLE_OPS)
    failed = {case: outcome for case, outcome in results.items() if outcome != "passed"}
    assert not failed, failed
    assert report["signatures"] == []
    # A partial backend: the contract check lists what it lacks, not what it has.
    assert "numpy.matmul" in report["missing"]
    assert not set(EXAMPLE_OPS) & set(report["missing"])


def test_the_signature_check_names_what_differs():
    expected = contract.protocol_members(contract.Numpy)["sum"]
    assert contract.signature_mismatch(lambda x, axis=None, keepdims=False: x, expected) is None
    wrong_name = contract.signature_mismatch(lambda a, axis=None, keepdims=False: a, expected)
    assert wrong_name == (
        "takes (a, axis=None, keepdims=False); the contract says (x, axis=None, keepdims=False)"
    )
    wrong_default = contract.signature_mismatch(lambda x, axis=-1, keepdims=False: x, expected)
    assert "axis=-1" in wrong_default


def test_required_and_optional_names_come_from_the_protocols():
    assert contract.REQUIRED["numpy"] == tuple(contract.protocol_members(contract.Numpy))
    assert "jit" in contract.REQUIRED["training"]
    assert "compile_ahead" in contract.OPTIONAL["training"]
    jit = contract.protocol_members(contract.Training)["jit"]
    assert list(jit.parameters) == ["fn", "jit_compile", "donate_argnums", "pure", "options"]
