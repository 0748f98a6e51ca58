"""mb-applications tests run on mb's numpy backend unless MB_BACKEND says otherwise: no
engine compiles, so many models build and run quickly; the integration tests
(tests/integration/test_applications.py) run the models on every engine.

Keras (a test-only dependency) runs in child interpreters (``apps_side.py``) on its
numpy backend; what they produce is computed once per test session and shared by the
xdist workers through a lock (``helpers.py``, importable as ``apps_helpers``).
"""

import functools
import http.server
import importlib.util
import os
import sys
import threading

os.environ.setdefault("MB_BACKEND", "numpy")

import pytest

_spec = importlib.util.spec_from_file_location(
    "apps_helpers", os.path.join(os.path.dirname(os.path.abspath(__file__)), "helpers.py")
)
helpers = importlib.util.module_from_spec(_spec)
sys.modules["apps_helpers"] = helpers
_spec.loader.exec_module(helpers)


@pytest.fixture(scope="session")
def session_dir(tmp_path_factory):
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # this session's folder, shared by its workers
    return root


class _Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep the test output clean
        pass

    def do_GET(self):
        self.server.requests.append(self.path)
        super().do_GET()


@pytest.fixture
def http_server(tmp_path):
    """An HTTP server on 127.0.0.1 serving ``tmp_path / "www"``, stopped after the test
    (``.url``, ``.root``, ``.requests``: the paths asked for). Never the internet."""
    root = tmp_path / "www"
    root.mkdir()
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Handler, directory=str(root))
    )
    server.requests, server.root = [], root
    server.url = f"http://127.0.0.1:{server.server_address[1]}/"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty download cache (``MB_HOME``), so nothing from ``~/.keras`` is used."""
    home = tmp_path / "home"
    monkeypatch.setenv("MB_HOME", str(home))
    return home
