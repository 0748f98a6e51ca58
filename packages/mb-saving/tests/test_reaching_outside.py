"""HDF5 entries that point outside the file are refused unread, alone or inside a .keras file.

Each crafted file is a real attack: h5py reading it naively returns the bytes of
the other file (checked in the test), while mb refuses it before any variable
is assigned, naming the dataset and what it points at.
"""

import contextlib
import os
import threading

import h5py
import mb_saving_fuzz as fuzz
import numpy as np
import pytest

import mb_layers
import mb_saving
from mb_layers import layers
from mb_train.models import Sequential

SECRET = np.arange(12, dtype="float32").reshape(4, 3) + 100.0


def _model():
    return Sequential([mb_layers.Input((4,)), layers.Dense(3, name="d")], name="small")


@pytest.fixture
def secrets(tmp_path):
    """``(raw file, HDF5 file with /data)``: what an attacker wants in the kernel."""
    raw = tmp_path / "secret.bin"
    raw.write_bytes(SECRET.tobytes())
    with h5py.File(tmp_path / "secret.h5", "w") as f:
        f["data"] = SECRET
    return str(raw), str(tmp_path / "secret.h5")


def _target(kind, secrets):
    raw, h5 = secrets
    return {"external storage": raw, "soft link": "/stash"}.get(kind, h5)


@pytest.mark.parametrize("kind", fuzz.REACHING_OUT)
def test_a_weights_file_pointing_outside_is_refused_before_any_assignment(tmp_path, secrets, kind):
    model = _model()
    model.save_weights(tmp_path / "ok.weights.h5")
    target = _target(kind, secrets)
    bad = tmp_path / "bad.weights.h5"
    bad.write_bytes(fuzz.reaching_out((tmp_path / "ok.weights.h5").read_bytes(), kind, target))
    if kind != "soft link":  # the file is a real attack: HDF5 itself serves the secret
        with h5py.File(bad, "r") as f:
            np.testing.assert_array_equal(f["layers/dense/vars/0"][()], SECRET)
    before = [w.copy() for w in model.get_weights()]
    with pytest.raises(mb_saving.UnsafeFileError) as caught:
        model.load_weights(bad)
    message = str(caught.value)
    assert "'layers/dense/vars/0'" in message and target in message and kind in message
    assert "nothing was loaded" in message
    assert caught.value.findings[0].kind == kind
    for now, then in zip(model.get_weights(), before, strict=True):
        np.testing.assert_array_equal(now, then)


@pytest.mark.parametrize("kind", fuzz.REACHING_OUT)
def test_a_keras_file_whose_weights_point_outside_is_refused(tmp_path, secrets, kind):
    model = _model()
    model.save(tmp_path / "ok.keras")
    target = _target(kind, secrets)
    bad = tmp_path / "bad.keras"
    bad.write_bytes(fuzz.reaching_out_archive((tmp_path / "ok.keras").read_bytes(), kind, target))
    with pytest.raises(mb_saving.UnsafeFileError, match=r"bad\.keras.*model\.weights\.h5") as err:
        mb_saving.load_model(bad)  # safe_mode left at its default
    assert "'layers/dense/vars/0'" in str(err.value) and target in str(err.value)
    with pytest.raises(mb_saving.UnsafeFileError, match=kind):
        mb_saving.load_model(bad, safe_mode=False)  # never allowed
    with pytest.raises(mb_saving.UnsafeFileError, match=kind):
        model.load_weights(bad)


@pytest.mark.parametrize("kind", fuzz.REACHING_OUT)
def test_a_sharded_weights_file_pointing_outside_is_refused(tmp_path, secrets, kind):
    model = _model()
    model.save_weights(tmp_path / "s.weights.json", max_shard_size=1e-7)
    shard = tmp_path / "s_00000.weights.h5"
    target = _target(kind, secrets)
    shard.write_bytes(fuzz.reaching_out(shard.read_bytes(), kind, target))
    with pytest.raises(mb_saving.UnsafeFileError, match=r"s_00000\.weights\.h5"):
        model.load_weights(tmp_path / "s.weights.json")


def test_links_on_groups_and_group_cycles_are_refused(tmp_path, secrets):
    model = _model()
    model.save_weights(tmp_path / "ok.weights.h5")
    for name, make in [
        ("external", lambda f: f.__setitem__("layers/dense", h5py.ExternalLink(secrets[1], "/"))),
        ("soft", lambda f: f.__setitem__("layers/dense", h5py.SoftLink("/elsewhere"))),
        ("cycle", lambda f: f.__setitem__("layers/dense/vars/loop", f["layers"])),
    ]:
        path = tmp_path / f"{name}.weights.h5"
        path.write_bytes((tmp_path / "ok.weights.h5").read_bytes())
        with h5py.File(path, "r+") as f:
            if name != "cycle":
                f.move("layers/dense", "elsewhere")
            make(f)
        with pytest.raises(mb_saving.UnsafeFileError) as caught:
            model.load_weights(path)
        finding = caught.value.findings[0]
        assert finding.kind == {"external": "external link", "soft": "soft link"}.get(
            name, "group alias"
        )
        assert finding.path.startswith("layers/dense"), finding


def test_a_soft_link_inside_an_objects_own_group_loads(tmp_path):
    model = Sequential([mb_layers.Input((3,)), layers.LayerNormalization()], name="ln")
    model.set_weights([np.array([1.0, 2.0, 3.0], "float32"), np.zeros(3, "float32")])
    model.save_weights(tmp_path / "ok.weights.h5")
    with h5py.File(tmp_path / "ok.weights.h5", "r+") as f:
        del f["layers/layer_normalization/vars/1"]
        f["layers/layer_normalization/vars/1"] = h5py.SoftLink("0")  # beta := gamma
    model.load_weights(tmp_path / "ok.weights.h5")
    np.testing.assert_array_equal(model.get_weights()[1], [1.0, 2.0, 3.0])


def _unblock(fifo):
    """Opens and closes the FIFO's writing end, so that a reader stuck on it sees EOF."""
    with contextlib.suppress(OSError):
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))


def _finishes(fifo, call, seconds=60):
    """Runs `call` in a thread; the outcome, or fails (unblocking the FIFO) on a hang."""
    outcome = {}

    def run():
        try:
            outcome["value"] = call()
        except Exception as error:
            outcome["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        _unblock(fifo)
        thread.join(10)
        pytest.fail(f"reading the file blocked on the FIFO {fifo}")
    return outcome


@pytest.mark.parametrize("kind", fuzz.REACHING_OUT[:3])
def test_external_data_on_a_fifo_is_refused_without_blocking(tmp_path, kind):
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    model = _model()
    model.save_weights(tmp_path / "ok.weights.h5")
    bad = tmp_path / "bad.weights.h5"
    bad.write_bytes(fuzz.reaching_out((tmp_path / "ok.weights.h5").read_bytes(), kind, fifo))
    outcome = _finishes(fifo, lambda: model.load_weights(bad))
    assert isinstance(outcome.get("error"), mb_saving.UnsafeFileError), outcome
    assert fifo in str(outcome["error"])
    report = _finishes(fifo, lambda: mb_saving.inspect(bad))["value"]
    [finding] = report["points_outside"]
    assert finding["path"] == "layers/dense/vars/0" and finding["kind"] == kind
    assert fifo in finding["target"]


def test_inspect_warns_about_every_entry_pointing_outside_without_following_it(tmp_path, secrets):
    model = _model()
    model.save(tmp_path / "ok.keras")
    data = (tmp_path / "ok.keras").read_bytes()
    data = fuzz.reaching_out_archive(data, "external storage", secrets[0], "layers/dense/vars/0")
    data = fuzz.reaching_out_archive(data, "virtual dataset", secrets[1], "layers/dense/vars/1")
    (tmp_path / "bad.keras").write_bytes(data)
    info = mb_saving.inspect(tmp_path / "bad.keras")
    assert [(f["path"], f["kind"]) for f in info["points_outside"]] == [
        ("layers/dense/vars/0", "external storage"),
        ("layers/dense/vars/1", "virtual dataset"),
    ]
    assert info["parameters"] == 0  # what they point at was not read, nor counted
    text = mb_saving.format_inspection(info)
    assert "WARNING: 2 HDF5 entries point outside the file" in text
    assert f"'layers/dense/vars/0' stores its values in '{secrets[0]}'" in text
    assert f"reading 'data' in file '{secrets[1]}'" in text
