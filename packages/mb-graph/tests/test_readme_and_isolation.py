import contextlib
import io
import pathlib
import re
import subprocess
import sys

from mb_graph import naming

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def test_readme_example_runs_and_prints_what_its_comments_say():
    code = "\n".join(re.findall(r"```python\n(.*?)```", README.read_text(), re.S))
    expected = [
        line.split("#", 1)[1].strip()
        for line in code.splitlines()
        if line.lstrip().startswith("print(") and "#" in line
    ]
    naming.reset_uids()  # Auto names as in a fresh process.
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(code, str(README), "exec"), {"__name__": "readme"})
    printed = output.getvalue().splitlines()
    assert len(printed) == len(expected)
    for got, want in zip(printed, expected, strict=True):
        if want.startswith("..."):
            fragment = want.strip(". ").split("...")[0].strip(" ;")
            assert fragment in got
        else:
            assert got == want


def test_importing_mb_graph_loads_no_array_library():
    code = (
        "import sys, mb_graph\n"
        "loaded = {'numpy', 'jax', 'torch', 'tensorflow', 'mb_ops'} & set(sys.modules)\n"
        "assert not loaded, loaded"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
