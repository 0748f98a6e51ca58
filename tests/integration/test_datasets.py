"""The top README's MNIST convnet runs as written on every trainable backend.

mnist.npz is a small learnable stand-in written by the test into the cache folder
(``$MB_HOME/datasets``), with the loader's expected hash set to it: nothing is
downloaded.
"""

from __future__ import annotations

import hashlib
import io
import re
from pathlib import Path

import numpy as np
import pytest

import mb_data.datasets.mnist
from mb_ops import config

README = Path(__file__).resolve().parents[2] / "README.md"


def _readme_program() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("## A Keras program, unchanged: the MNIST convnet", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def _tiny_mnist(n_train=256, n_test=64) -> bytes:
    """Digits k drawn as a bright 6x6 square at a place that depends on k."""
    rng = np.random.default_rng(0)

    def draw(n):
        y = rng.integers(0, 10, n).astype(np.uint8)
        x = rng.integers(0, 40, (n, 28, 28)).astype(np.uint8)
        for i, k in enumerate(y):
            r, c = 2 + 8 * (k // 4), 2 + 8 * (k % 4)
            x[i, r : r + 6, c : c + 6] = 255
        return x, y

    (x_train, y_train), (x_test, y_test) = draw(n_train), draw(n_test)
    buffer = io.BytesIO()
    np.savez(buffer, x_train=x_train, y_train=y_train, x_test=x_test, y_test=y_test)
    return buffer.getvalue()


@pytest.mark.trains
def test_readme_mnist_convnet_trains_and_evaluates(tmp_path, monkeypatch, capsys):
    data = _tiny_mnist()
    (tmp_path / "datasets").mkdir()
    (tmp_path / "datasets" / "mnist.npz").write_bytes(data)
    monkeypatch.setenv("MB_HOME", str(tmp_path))
    monkeypatch.setattr(mb_data.datasets.mnist, "_FILE_HASH", hashlib.sha256(data).hexdigest())
    before = config.image_data_format()
    config.set_image_data_format("channels_last")  # the README assumes Keras's default
    try:
        namespace = {}
        exec(_readme_program(), namespace)
    finally:
        config.set_image_data_format(before)
    loss, accuracy = (
        float(v) for v in re.findall(r"[\d.]+(?:e-?\d+)?", capsys.readouterr().out.splitlines()[-1])
    )
    model = namespace["model"]
    history = model.history.history
    assert history["loss"][-1] < history["loss"][0]
    # What it printed is the test set's evaluation (Dropout is off in evaluate).
    again = model.evaluate(namespace["x_test"], namespace["y_test"], verbose=0)
    np.testing.assert_allclose([loss, accuracy], again, rtol=1e-4)
    assert namespace["x_train"].shape == (256, 28, 28, 1)
