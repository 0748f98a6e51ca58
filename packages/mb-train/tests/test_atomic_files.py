"""Atomic writes: the umask decides the mode, overwrites keep it, temporaries never linger."""

import doctest
import os
import stat
import subprocess
import sys

import pytest

from mb_train import _atomic_files


def _mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def _write(path, text="x"):
    with _atomic_files.atomic_file(path) as tmp, open(tmp, "w") as f:
        f.write(text)


def test_a_new_file_gets_the_mode_open_would_give(tmp_path, umask):
    with open(tmp_path / "reference", "w") as f:
        f.write("x")
    _write(tmp_path / "new.txt")
    assert _mode(tmp_path / "new.txt") == _mode(tmp_path / "reference") == 0o666 & ~umask


def test_an_overwritten_file_keeps_its_mode(tmp_path, umask):
    _write(tmp_path / "f.txt", "old")
    os.chmod(tmp_path / "f.txt", 0o640)
    _write(tmp_path / "f.txt", "new")
    assert _mode(tmp_path / "f.txt") == 0o640 and (tmp_path / "f.txt").read_text() == "new"


def test_a_folder_gets_the_mode_mkdir_would_give_and_keeps_it_on_overwrite(tmp_path, umask):
    os.mkdir(tmp_path / "reference")
    with _atomic_files.atomic_folder(tmp_path / "model") as tmp:
        (open(os.path.join(tmp, "a"), "w")).close()
    assert _mode(tmp_path / "model") == _mode(tmp_path / "reference") == 0o777 & ~umask
    os.chmod(tmp_path / "model", 0o750)
    with _atomic_files.atomic_folder(tmp_path / "model") as tmp:
        (open(os.path.join(tmp, "b"), "w")).close()
    assert _mode(tmp_path / "model") == 0o750 and os.listdir(tmp_path / "model") == ["b"]
    assert sorted(os.listdir(tmp_path)) == ["model", "reference"]


def test_a_write_that_raises_leaves_no_temporary_and_the_old_file(tmp_path):
    _write(tmp_path / "f.txt", "old")
    with (
        pytest.raises(RuntimeError, match="disk full"),
        _atomic_files.atomic_file(tmp_path / "f.txt") as tmp,
    ):
        with open(tmp, "w") as f:
            f.write("half")
        raise RuntimeError("disk full")
    assert os.listdir(tmp_path) == ["f.txt"] and (tmp_path / "f.txt").read_text() == "old"


def test_a_folder_write_that_raises_leaves_no_temporary_and_the_old_folder(tmp_path):
    with _atomic_files.atomic_folder(tmp_path / "model") as tmp:
        (tmp_path / "marker").write_text("")
        os.replace(tmp_path / "marker", os.path.join(tmp, "old"))
    with (
        pytest.raises(RuntimeError, match="disk full"),
        _atomic_files.atomic_folder(tmp_path / "model") as tmp,
    ):
        with open(os.path.join(tmp, "new"), "w") as f:
            f.write("half")
        raise RuntimeError("disk full")
    assert os.listdir(tmp_path) == ["model"] and os.listdir(tmp_path / "model") == ["old"]


def _dead_pid():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_stale_temporaries_of_dead_processes_of_this_host_are_removed(tmp_path):
    dead = _dead_pid()
    host = _atomic_files._HOST
    other_host = "0" * 8 if host != "0" * 8 else "1" * 8
    names = {
        "dead": f".m.keras.mb-tmp-{host}-{dead}-00aa11bb",
        "dead_folder": f".m.mb-tmp-{host}-{dead}-00aa11cc",
        "dead_old": f".m.mb-tmp-{host}-{dead}-00aa11dd.old",
        "alive": f".m.keras.mb-tmp-{host}-{os.getpid()}-00aa11ee",
        "other_host": f".m.keras.mb-tmp-{other_host}-{dead}-00aa11ff",
        "not_ours": ".m.keras.tmp",
    }
    for key, name in names.items():
        if key.startswith("dead_"):
            os.mkdir(tmp_path / name)
            (tmp_path / name / "model.weights.h5").write_bytes(b"x")
        else:
            (tmp_path / name).write_bytes(b"x")
    _write(tmp_path / "other.txt")  # a save in that folder cleans up
    left = set(os.listdir(tmp_path))
    assert left == {"other.txt", names["alive"], names["other_host"], names["not_ours"]}


def test_temporary_names_are_recognisable(tmp_path):
    name = os.path.basename(_atomic_files.temporary_name(tmp_path / "model.keras"))
    assert name.startswith(".model.keras.mb-tmp-") and f"-{os.getpid()}-" in name


def test_the_docstring_example_runs():
    result = doctest.testmod(_atomic_files)
    assert result.attempted > 0 and result.failed == 0
