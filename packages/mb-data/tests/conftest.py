"""Unit tests of mb_data run on the NumPy backend unless a backend is chosen already."""

import functools
import http.server
import os
import socket
import threading

import numpy as np
import pytest

os.environ.setdefault("MB_BACKEND", "numpy")

from mb_ops import backends


def as_numpy(batch):
    """Every leaf of a batch of the active backend's tensors as a NumPy array."""
    to_numpy = backends.backend_module("core").convert_to_numpy
    if isinstance(batch, dict):
        return {k: as_numpy(v) for k, v in batch.items()}
    if isinstance(batch, (list, tuple)):
        return type(batch)(as_numpy(v) for v in batch)
    if batch is None:
        return None
    return np.asarray(to_numpy(batch))


def run_with_deadline(fn, seconds):
    """``fn()``'s result, or AssertionError if it has not finished in ``seconds`` (a hang)."""
    box = {}

    def target():
        try:
            box["value"] = fn()
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds}s: the data pipeline hangs"
    if "error" in box:
        raise box["error"]
    return box["value"]


@pytest.fixture(name="as_numpy")
def _as_numpy_fixture():
    return as_numpy


@pytest.fixture(name="run_with_deadline")
def _run_with_deadline_fixture():
    return run_with_deadline


class _Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep test output clean
        pass

    def do_GET(self):
        self.server.requests.append(self.path)
        super().do_GET()


@pytest.fixture(name="http_server")
def _http_server_fixture(tmp_path):
    """An HTTP server on 127.0.0.1 serving ``tmp_path / "www"``, stopped after the test.

    ``server.url`` is its address, ``server.root`` the folder it serves and
    ``server.requests`` the paths asked for so far. Tests never reach the internet.
    """
    root = tmp_path / "www"
    root.mkdir()
    handler = functools.partial(_Handler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.requests = []
    server.root = root
    server.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


@pytest.fixture(name="closed_port")
def _closed_port_fixture():
    """A port on 127.0.0.1 that nothing listens on (connections are refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
