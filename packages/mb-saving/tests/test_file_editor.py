"""KerasFileEditor: opens files as loading does, edits weights in memory, saves a
``.weights.h5`` that mb and Keras 3.15 (jax, in a subprocess) load with the edits, and
answers bad input with an error that says what it received, leaving every file as it was."""

import hashlib
import json
import os
import textwrap

import mb_saving_fuzz as fuzz
import numpy as np
import pytest
from mb_saving_helpers import run_python

import mb_layers
import mb_saving
from mb_saving import KerasFileEditor
from mb_train.models import Sequential


def _model(units=2):
    layers = [mb_layers.Input((3,)), mb_layers.layers.Dense(units, name="body")]
    model = Sequential([*layers, mb_layers.layers.Dense(1, name="head")], name="net")
    model.compile("adam", "mse")
    return model


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def saved(tmp_path):
    model = _model()
    model.save(tmp_path / "model.keras")
    model.save_weights(tmp_path / "model.weights.h5")
    return model, tmp_path


@pytest.mark.parametrize("name", ["model.keras", "model.weights.h5"])
def test_opens_both_formats_and_reads_every_weight(saved, name, capsys):
    model, folder = saved
    editor = KerasFileEditor(folder / name)
    assert f"Keras model file '{folder / name}'" in capsys.readouterr().out
    np.testing.assert_array_equal(
        editor.weights_dict["layers"]["dense"]["0"], model.layers[0].kernel.numpy()
    )
    assert editor.object_metadata["layers/dense_1"] == "head"
    assert (editor.config is not None) == name.endswith(".keras")
    editor.summary()
    out = capsys.readouterr().out
    assert "dense_1 ('head')" in out and "0: shape=(3, 2), dtype=float32" in out


def test_compare_lists_what_differs_from_a_model(saved, capsys):
    model, folder = saved
    editor = KerasFileEditor(folder / "model.weights.h5")
    assert editor.compare(model) == {"status": "success", "error_count": 0, "match_count": 6}
    wider = _model(units=5)
    result = editor.compare(wider)
    assert (
        result["status"] == "error" and result["error_count"] == 3
    )  # body's kernel and bias, head's kernel
    assert "Weight shape mismatch for /layers/dense/0" in capsys.readouterr().out
    editor.delete_object("dense_1")
    assert editor.compare(model)["error_count"] == 1
    assert "Object /layers/dense_1 present in reference model, missing from saved file" in (
        capsys.readouterr().out
    )


_KERAS_LOADS = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    import keras

    body, head = keras.layers.Dense(4, name="body"), keras.layers.Dense(1, name="head")
    model = keras.Sequential([keras.Input((3,)), body, head], name="net")
    model.load_weights(sys.argv[1])
    print(json.dumps([v.numpy().tolist() for v in model.weights]))
    """
)


def test_an_edited_file_loads_in_mb_and_keras_with_the_edits(saved):
    model, folder = saved
    editor = KerasFileEditor(folder / "model.keras")
    # The new architecture: `body` has 4 units, so its kernel and bias and the head's kernel
    # change shape; the optimizer's state is dropped.
    kernel = np.arange(12, dtype="float32").reshape(3, 4)
    editor.delete_object("optimizer")
    editor.delete_object("layers/dense")
    editor.add_object("layers/dense", {"0": kernel, "1": np.ones(4, "float32")})
    editor.delete_weight("dense_1", "0")
    editor.add_weights("layers/dense_1", {"0": np.full((4, 1), 0.5, "float32")})
    editor.save(folder / "edited.weights.h5")

    new = Sequential(
        [
            mb_layers.Input((3,)),
            mb_layers.layers.Dense(4, name="body"),
            mb_layers.layers.Dense(1, name="head"),
        ]
    )
    new.load_weights(folder / "edited.weights.h5")
    expected = [kernel, np.ones(4), np.full((4, 1), 0.5), model.layers[1].bias.numpy()]
    for got, want in zip([v.numpy() for v in new.weights], expected, strict=True):
        np.testing.assert_array_equal(got, want)
    pytest.importorskip("keras", reason="Keras 3 is a test-only dependency")
    code = ["-c", _KERAS_LOADS, str(folder / "edited.weights.h5")]
    keras_weights = json.loads(run_python(code, KERAS_BACKEND="jax", MB_BACKEND=None))
    for got, want in zip(keras_weights, expected, strict=True):
        np.testing.assert_array_equal(np.asarray(got, "float32"), want)


def test_rename_object_and_resave_weights(saved):
    _, folder = saved
    editor = KerasFileEditor(folder / "model.weights.h5")
    editor.rename_object("layers/dense", "renamed")
    editor.resave_weights(folder / "renamed.weights.h5")
    again = KerasFileEditor(folder / "renamed.weights.h5")
    assert sorted(again.weights_dict["layers"]) == ["dense_1", "renamed"]


def test_bad_input_says_what_it_received_and_changes_nothing(saved):
    _, folder = saved
    path = folder / "model.weights.h5"
    before = _digest(path)
    with pytest.raises(FileNotFoundError, match=r"no such file: '.*missing\.weights\.h5'"):
        KerasFileEditor(folder / "missing.weights.h5")
    with pytest.raises(ValueError, match=r"`.keras` or `.weights.h5` extension. Received: "):
        KerasFileEditor(folder / "model.h5")
    editor = KerasFileEditor(path)
    snapshot = {k: dict(v) for k, v in editor.weights_dict["layers"].items()}
    with pytest.raises(ValueError, match=r"'head' is the saved name of the object at "):
        editor.delete_object("head")
    with pytest.raises(ValueError, match="Path 'layers/nope' not found in the file"):
        editor.delete_object("layers/nope")
    with pytest.raises(ValueError, match=r"Name '0' occurs 3 times"):
        editor.delete_object("0")
    with pytest.raises(ValueError, match=r"Weight 7 not found in object dense. Weights found: "):
        editor.delete_weight("dense", "7")
    with pytest.raises(ValueError, match=r"should be a leaf name.*Received: new_name='a/b'"):
        editor.rename_object("dense", "a/b")
    with pytest.raises(ValueError, match="already there"):
        editor.rename_object("dense", "dense_1")
    with pytest.raises(ValueError, match=r"Received: type\(weights\)=<class 'list'>"):
        editor.add_weights("dense", [np.ones(2)])
    with pytest.raises(ValueError, match=r"should be a numeric array\. Received: dtype=<U1"):
        editor.add_object("layers/x", {"0": np.array(["a"])})
    with pytest.raises(ValueError, match="Path 'nowhere' not found in the file"):
        editor.add_object("nowhere/x", {"0": np.ones(2)})
    with pytest.raises(
        ValueError, match=r"`.weights.h5` extension. Received: filepath='.*\.keras'"
    ):
        editor.save(folder / "out.keras")
    assert not os.path.exists(folder / "out.keras")
    assert _digest(path) == before  # the opened file is untouched
    assert editor.weights_dict["layers"].keys() == snapshot.keys()  # and so is the editor's tree
    for name, weights in snapshot.items():
        for key, value in weights.items():
            np.testing.assert_array_equal(editor.weights_dict["layers"][name][key], value)
    # Saving over the opened file replaces it whole (it was read into memory).
    editor.save(path)
    np.testing.assert_array_equal(
        KerasFileEditor(path).weights_dict["layers"]["dense"]["0"], snapshot["dense"]["0"]
    )


@pytest.mark.parametrize("kind", ["external link", "soft link"])
def test_a_file_reaching_outside_is_refused(saved, kind):
    _, folder = saved
    bad = folder / "bad.weights.h5"
    target = str(folder / "secret.h5") if kind == "external link" else "/elsewhere"
    bad.write_bytes(fuzz.reaching_out((folder / "model.weights.h5").read_bytes(), kind, target))
    with pytest.raises(mb_saving.UnsafeFileError):
        KerasFileEditor(bad)
