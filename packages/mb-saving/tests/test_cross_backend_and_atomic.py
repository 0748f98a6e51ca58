"""A model trained and saved on one backend loads on every other; a killed save harms nothing
and its temporary is cleaned up by the next load.

Each backend runs in its own subprocess (the backend is fixed per process),
through `backend_side.py`.
"""

import os
import signal
import subprocess
import sys

import numpy as np
import pytest
from mb_saving_helpers import HERE, python_env, run_python

import mb_saving

SIDE = os.path.join(HERE, "backend_side.py")
# (saved on, loaded on): a cycle over the trainable backends, and inference on NumPy.
PAIRS = [("jax", "torch"), ("torch", "tensorflow"), ("tensorflow", "jax"), ("jax", "numpy")]


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cross_backend")
    paths = {}
    for backend in sorted({saved_on for saved_on, _ in PAIRS}):
        paths[backend] = str(folder / f"{backend}.keras")
        run_python([SIDE, "train", paths[backend]], MB_BACKEND=backend)
    return paths


@pytest.mark.parametrize(("saved_on", "loaded_on"), PAIRS)
def test_saved_on_one_backend_predicts_and_resumes_training_on_another(saved, saved_on, loaded_on):
    path = saved[saved_on]
    run_python([SIDE, "resume", path], MB_BACKEND=loaded_on)
    reference = np.load(f"{path}.npz")
    result = np.load(f"{path}.{loaded_on}.npz")
    np.testing.assert_allclose(result["predictions"], reference["predictions"], atol=1e-5)
    if loaded_on != "numpy":
        # One more epoch of Adam from the restored optimizer state lands on the same weights.
        np.testing.assert_allclose(result["after"], reference["after"], atol=1e-4)
    info = mb_saving.inspect(path)
    assert info["mb"]["backend"] == saved_on


def test_a_save_killed_mid_write_leaves_the_previous_file_intact(tmp_path):
    path = tmp_path / "model.keras"
    process = subprocess.Popen(
        [sys.executable, SIDE, "slow-save", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=python_env(),
        cwd=HERE,
    )
    try:
        line = process.stdout.readline()
        assert line.strip() == "writing", process.stderr.read()[-3000:]
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.wait(timeout=60)
        process.stdout.close()
        process.stderr.close()
    leftovers = [p.name for p in tmp_path.iterdir() if ".mb-tmp-" in p.name]
    # The half-written new file, never renamed into place, named after its process.
    assert len(leftovers) == 1 and f"-{process.pid}-" in leftovers[0]
    assert leftovers[0].startswith(".model.keras.mb-tmp-")
    model = mb_saving.load_model(path)
    assert model.name == "first"
    expected = np.load(f"{path}.first.npy")
    np.testing.assert_array_equal(model.predict(np.ones((1, 3), "float32"), verbose=0), expected)
    # That load removed the dead save's temporary; the next save would have too.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.keras", "model.keras.first.npy"]
