"""Install the umbrella from built wheels into a fresh venv, as a user would, and use it.

    wheel_install.py find-links DIST   pip install --no-index --find-links DIST mb-framework
    wheel_install.py index DIST        the release dry run: start a package index on
                                       127.0.0.1 (pypiserver), upload every wheel and sdist
                                       in DIST with `uv publish`, install mb-framework from
                                       that index alone

DIST is built first (`uv build --all-packages`) when it holds no wheel. The third-party
requirements come from uv.lock (the uv cache); every mb package must come from DIST or
the local index, so a wrong name or range fails here. Then ``ci/check_install.py`` runs
in the new environment: `mb --version`, a tiny fit, `mb quickstart`.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workspace import ROOT, install_wheels, run, third_party_env, uv_command

UMBRELLA = "mb-framework"


def ensure_wheels(dist: Path, uv: list[str]) -> None:
    if not list(dist.glob("*.whl")):
        run([*uv, "build", "--all-packages", "--quiet", "--out-dir", str(dist)])


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def local_index(storage: Path):
    """A pypiserver on 127.0.0.1 storing uploads in `storage`; yields its base URL."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    # -a . -P . : no authentication, for uploads too (it listens on the loopback only).
    serve = ["run", "-i", "127.0.0.1", "-p", str(port), "-a", ".", "-P", ".", str(storage)]
    server = subprocess.Popen(
        [sys.executable, "-m", "pypiserver", *serve],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{url}/simple/", timeout=2).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the local index did not start on {url}") from None
                time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)


def dry_run(dist: Path, python: Path, uv: list[str]) -> None:
    with (
        tempfile.TemporaryDirectory(prefix="mb-index-") as storage,
        local_index(Path(storage)) as url,
    ):
        files = sorted(str(p) for p in dist.iterdir() if p.suffix in (".whl", ".gz"))
        run([*uv, "publish", "--publish-url", f"{url}/", "-u", "dry-run", "-p", "dry-run", *files])
        listed = urllib.request.urlopen(f"{url}/simple/{UMBRELLA}/", timeout=10).read().decode()
        if "mb_framework-" not in listed:
            raise RuntimeError(f"the local index does not list {UMBRELLA}: {listed[:300]}")
        index = ["--index-url", f"{url}/simple/"]
        run([*uv, "pip", "install", "--quiet", "--python", str(python), *index, UMBRELLA])


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("find-links", "index"):
        print(__doc__, file=sys.stderr)
        return 2
    mode, dist = argv[0], Path(argv[1]).resolve()
    uv = uv_command()
    dist.mkdir(parents=True, exist_ok=True)
    ensure_wheels(dist, uv)
    venv = ROOT / ".ci-work" / "venvs" / f"wheel-install-{mode}"
    python = third_party_env(venv, UMBRELLA, uv)
    if mode == "find-links":
        install_wheels(python, [dist], [UMBRELLA], uv)
    else:
        dry_run(dist, python, uv)
    # The dry run checks the install and a fit; the find-links leg also runs the quickstart.
    check = [str(python), str(ROOT / "ci" / "check_install.py")]
    if mode == "index":
        check.append("--no-quickstart")
    return subprocess.run(check).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
