"""get_file against a local HTTP server: cache, hashes, extraction, errors, Keras's names."""

from __future__ import annotations

import hashlib
import io
import os
import tarfile
import zipfile
from pathlib import Path

import pytest

import mb_data
from mb_ops import testing


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _tar_gz(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in entries.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _zip(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return buffer.getvalue()


def _tree(folder) -> list[str]:
    out = []
    for root, _, files in os.walk(folder):
        out += [os.path.relpath(os.path.join(root, f), folder) for f in files]
    return sorted(out)


def test_downloads_once_then_reads_the_cache(http_server, tmp_path, capsys):
    payload = os.urandom(300_000)
    (http_server.root / "blob.bin").write_bytes(payload)
    cache = tmp_path / "cache"
    path = mb_data.get_file(origin=f"{http_server.url}/blob.bin", cache_dir=cache)
    assert path == str(cache / "datasets" / "blob.bin")
    assert Path(path).read_bytes() == payload
    out = capsys.readouterr().out
    assert f"Downloading data from {http_server.url}/blob.bin" in out
    assert "293.0 KB/293.0 KB" in out  # the finished progress line: bytes of bytes
    again = mb_data.get_file(
        "blob.bin",
        origin=f"{http_server.url}/blob.bin",
        cache_dir=cache,
        file_hash=_sha256(payload),
    )
    assert again == path
    assert http_server.requests == ["/blob.bin"]  # served from the cache the second time
    mb_data.get_file(origin=f"{http_server.url}/blob.bin", cache_dir=cache, force_download=True)
    assert http_server.requests == ["/blob.bin", "/blob.bin"]


def test_default_cache_follows_mb_home_then_keras_home_then_home(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    monkeypatch.delenv("MB_HOME", raising=False)
    monkeypatch.delenv("KERAS_HOME", raising=False)
    assert mb_data.default_cache_dir() == str(tmp_path / "home" / ".keras")
    monkeypatch.setenv("KERAS_HOME", str(tmp_path / "kh"))
    assert mb_data.default_cache_dir() == str(tmp_path / "kh")
    monkeypatch.setenv("MB_HOME", str(tmp_path / "mh"))
    assert mb_data.default_cache_dir() == str(tmp_path / "mh")


def test_keras_cache_is_reused_without_a_download(monkeypatch, tmp_path, closed_port):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("MB_HOME", raising=False)
    monkeypatch.delenv("KERAS_HOME", raising=False)
    cached = tmp_path / ".keras" / "datasets" / "mnist.npz"
    cached.parent.mkdir(parents=True)
    cached.write_bytes(b"already here")
    # The origin is unreachable: the file must come from Keras's cache folder.
    path = mb_data.get_file(
        "mnist.npz",
        origin=f"http://127.0.0.1:{closed_port}/mnist.npz",
        file_hash=_sha256(b"already here"),
    )
    assert path == str(cached)


def test_hash_mismatch_after_download_keeps_nothing(http_server, tmp_path):
    (http_server.root / "f.txt").write_bytes(b"served")
    with pytest.raises(ValueError, match="does not match the expected"):
        mb_data.get_file(
            origin=f"{http_server.url}/f.txt", cache_dir=tmp_path, file_hash=_sha256(b"other")
        )
    assert os.listdir(tmp_path / "datasets") == []


def test_stale_cached_file_is_downloaded_again(http_server, tmp_path, capsys):
    (http_server.root / "f.txt").write_bytes(b"fresh")
    (tmp_path / "datasets").mkdir()
    (tmp_path / "datasets" / "f.txt").write_bytes(b"stale")
    md5 = hashlib.md5(b"fresh").hexdigest()
    path = mb_data.get_file(origin=f"{http_server.url}/f.txt", cache_dir=tmp_path, md5_hash=md5)
    assert Path(path).read_bytes() == b"fresh"
    assert "hash does not match" in capsys.readouterr().out


def test_offline_and_http_errors_are_clear(http_server, tmp_path, closed_port):
    with pytest.raises(ConnectionError, match="offline") as info:
        mb_data.get_file(origin=f"http://127.0.0.1:{closed_port}/x.zip", cache_dir=tmp_path)
    assert str(tmp_path / "datasets" / "x.zip") in str(info.value)  # where to put it by hand
    with pytest.raises(OSError, match="HTTP 404"):
        mb_data.get_file(origin=f"{http_server.url}/missing.zip", cache_dir=tmp_path)
    assert os.listdir(tmp_path / "datasets") == []


def test_bad_arguments_are_clear_errors(tmp_path):
    with pytest.raises(ValueError, match="origin"):
        mb_data.get_file("a.txt", cache_dir=tmp_path)
    with pytest.raises(ValueError, match="not a path"):
        mb_data.get_file("sub/a.txt", origin="http://127.0.0.1/a.txt", cache_dir=tmp_path)
    with pytest.raises(ValueError, match="file name"):
        mb_data.get_file(origin="http://127.0.0.1/", cache_dir=tmp_path)


def test_extracts_tar_and_zip(http_server, tmp_path):
    (http_server.root / "t.tar.gz").write_bytes(_tar_gz({"top/a.txt": b"A", "top/b/c.txt": b"C"}))
    (http_server.root / "z.zip").write_bytes(_zip({"d.txt": b"D"}))
    folder = mb_data.get_file(
        "pack", origin=f"{http_server.url}/t.tar.gz", extract=True, cache_dir=tmp_path
    )
    assert _tree(folder) == ["top/a.txt", "top/b/c.txt"]
    folder = mb_data.get_file(origin=f"{http_server.url}/z.zip", extract=True, cache_dir=tmp_path)
    assert _tree(folder) == ["d.txt"]
    with pytest.raises(ValueError, match="not a tar or zip archive"):
        (http_server.root / "plain.txt").write_bytes(b"x")
        mb_data.get_file(origin=f"{http_server.url}/plain.txt", extract=True, cache_dir=tmp_path)


def test_extraction_never_writes_outside_the_target(http_server, tmp_path):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name in ("../escaped.txt", "/abs.txt", "ok/fine.txt"):
            info = tarfile.TarInfo(name)
            info.size = 1
            tar.addfile(info, io.BytesIO(b"x"))
        for name, target, kind in (
            ("out_link", "../../..", tarfile.SYMTYPE),
            ("abs_link", "/etc", tarfile.SYMTYPE),
            ("hard_out", "../escaped.txt", tarfile.LNKTYPE),
            ("ok/in_link", "fine.txt", tarfile.SYMTYPE),
        ):
            info = tarfile.TarInfo(name)
            info.type, info.linkname = kind, target
            tar.addfile(info)
        info = tarfile.TarInfo("out_link/pwned.txt")
        info.size = 1
        tar.addfile(info, io.BytesIO(b"x"))
    (http_server.root / "evil.tar.gz").write_bytes(buffer.getvalue())
    cache = tmp_path / "cache"
    with pytest.warns(UserWarning, match="Skipping") as caught:
        folder = mb_data.get_file(
            origin=f"{http_server.url}/evil.tar.gz", extract=True, cache_dir=cache
        )
    skipped = {str(w.message).split("'")[1] for w in caught}
    assert {"../escaped.txt", "/abs.txt", "out_link", "abs_link", "hard_out"} <= skipped
    assert sorted(os.listdir(folder)) == ["ok", "out_link"]  # out_link: a plain folder now
    assert os.path.islink(os.path.join(folder, "ok", "in_link"))
    assert Path(os.path.join(folder, "ok", "in_link")).read_text() == "x"
    everything = _tree(tmp_path)
    assert not any("escaped" in p or "abs.txt" in p for p in everything)

    z = _zip({"../up.txt": b"u", "fine.txt": b"f"})
    (http_server.root / "evil.zip").write_bytes(z)
    with pytest.warns(UserWarning, match="Skipping '../up.txt'"):
        folder = mb_data.get_file(
            origin=f"{http_server.url}/evil.zip", extract=True, cache_dir=cache
        )
    assert _tree(folder) == ["fine.txt"]
    assert not any("up.txt" in p for p in _tree(tmp_path))


_KERAS_CALLS = [
    {"fname": None, "origin": "t.tar.gz", "extract": True},
    {"fname": "named", "origin": "t.tar.gz", "extract": True},
    {"fname": "named.tar.gz", "origin": "t.tar.gz", "extract": True},
    {"fname": "z_named", "origin": "z.zip", "extract": True},
    {"fname": None, "origin": "plain.bin", "extract": False},
    {"fname": "renamed.bin", "origin": "plain.bin", "extract": False, "cache_subdir": "models"},
]


def test_paths_and_extracted_files_match_keras(http_server, tmp_path):
    (http_server.root / "t.tar.gz").write_bytes(_tar_gz({"top/a.txt": b"A", "b.txt": b"B"}))
    (http_server.root / "z.zip").write_bytes(_zip({"inner/d.txt": b"D"}))
    (http_server.root / "plain.bin").write_bytes(b"plain")

    def run(cache, get_file):
        results = []
        for call in _KERAS_CALLS:
            kwargs = {**call, "origin": f"{http_server.url}/{call['origin']}", "cache_dir": cache}
            path = get_file(**kwargs)
            listing = _tree(path) if os.path.isdir(path) else None
            results.append([os.path.relpath(path, cache), listing])
        return results

    code = (
        "import json, os, sys\n"
        "from keras.utils import get_file\n"
        f"calls = {_KERAS_CALLS!r}\n"
        f"url, cache = {http_server.url!r}, {str(tmp_path / 'keras')!r}\n"
        "out = []\n"
        "for call in calls:\n"
        "    kw = {**call, 'origin': url + '/' + call['origin'], 'cache_dir': cache}\n"
        "    p = get_file(**kw)\n"
        "    tree = sorted(os.path.relpath(os.path.join(r, f), p) for r, _, fs in os.walk(p)"
        " for f in fs) if os.path.isdir(p) else None\n"
        "    out.append([os.path.relpath(p, cache), tree])\n"
        "print(json.dumps(out))\n"
    )
    # Keras falls back to /tmp/.keras for a cache_dir that does not exist yet.
    (tmp_path / "keras").mkdir()
    expected = testing.keras_json(code, backend="numpy", KERAS_HOME=str(tmp_path / "keras_home"))
    assert run(str(tmp_path / "mb"), mb_data.get_file) == expected
    # And mb reads what Keras left in its cache, without asking the server.
    served = len(http_server.requests)
    assert run(str(tmp_path / "keras"), mb_data.get_file) == expected
    assert len(http_server.requests) == served
