"""`mb inspect` on exported artifacts: a SavedModel, ONNX, OpenVINO IR and LiteRT file
each show their inputs (names, dtypes, shapes with the dynamic batch axis) and outputs,
read from the file without running it. The artifacts are the zoo's dict-input model,
written once per session by the format tests."""

from __future__ import annotations

import pytest

from mb import _cli

pytestmark = pytest.mark.trains


@pytest.mark.parametrize("format", ["tf_saved_model", "onnx", "openvino", "litert"])
def test_mb_inspect_shows_an_artifacts_signature(format, exported, capsys):
    path = exported("dict_inputs", format).path
    assert _cli.main(["inspect", path]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{path}: {format}"
    starts = [i for i, line in enumerate(lines) if line.startswith("signature ")]
    first = lines[starts[0] + 1 : starts[1] if len(starts) > 1 else None]
    inputs = [line.split()[1:] for line in first if line.strip().startswith("input ")]
    outputs = [line.split()[1:] for line in first if line.strip().startswith("output ")]
    # The dict's keys name the inputs; the batch axis stays dynamic.
    assert sorted(inputs) == [["a:", "float32", "(None,", "3)"], ["b:", "float32", "(None,", "2)"]]
    assert sorted(o[1:] for o in outputs) == [
        ["float32", "(None,", "1)"],
        ["float32", "(None,", "2)"],
    ]
