"""`mb.utils.FeatureSpace` on the leg's backend: eager calls, a model trained on its
outputs, `dataset.map` in a tf.data pipeline, and `.keras` files exchanged with
Keras 3.15 both ways (Keras runs in a subprocess with TensorFlow).
"""

from __future__ import annotations

import importlib.util
import json

import numpy as np
import pytest

import mb as keras
from mb.utils import FeatureSpace
from mb_ops import ops, testing

DATA = {
    "age": np.array([22.0, 35.0, 58.0, 41.0, 19.0, 66.0, 30.0, 47.0], "float32"),
    "city": np.array(["paris", "rome", "oslo", "rome", "paris", "oslo", "lima", "paris"]),
    "rooms": np.array([1, 3, 2, 3, 1, 4, 2, 2], "int32"),
    "score": np.array([0.1, 0.9, 0.4, 0.7, 0.2, 0.95, 0.5, 0.3], "float32"),
}
QUERY = {
    "age": [25.0, 70.0],
    "city": ["rome", "madrid"],
    "rooms": [3, 7],
    "score": [0.5, 0.05],
}


def make():
    return FeatureSpace(
        {
            "age": "float_normalized",
            "city": "string_categorical",
            "rooms": "integer_categorical",
            "score": FeatureSpace.float_discretized(num_bins=3),
        },
        crosses=[FeatureSpace.cross(("city", "rooms"), crossing_dim=8)],
        output_mode="concat",
    )


def _run_keras(script, *args):
    if importlib.util.find_spec("keras") is None:
        pytest.skip("Keras 3 is a test-only dependency")
    if importlib.util.find_spec("tensorflow") is None:
        pytest.skip("Keras's FeatureSpace needs TensorFlow, which is not installed")
    return testing.keras_json(script, *args, backend="tensorflow")


_KERAS_SAVE_AND_CALL = r"""
import json, sys
import numpy as np
import keras
from keras.utils import FeatureSpace
data, query, path = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
fs = FeatureSpace({"age": "float_normalized", "city": "string_categorical",
                   "rooms": "integer_categorical",
                   "score": FeatureSpace.float_discretized(num_bins=3)},
                  crosses=[FeatureSpace.cross(("city", "rooms"), crossing_dim=8)])
fs.adapt(data)
fs.save(path)
print(json.dumps(np.asarray(fs(query)).tolist()))
"""

_KERAS_LOAD_AND_CALL = r"""
import json, sys
import numpy as np
import keras
query, path = json.loads(sys.argv[1]), sys.argv[2]
fs = keras.models.load_model(path)
print(json.dumps(np.asarray(fs(query)).tolist()))
"""


def _plain(data):
    return json.dumps({k: np.asarray(v).tolist() for k, v in data.items()})


def test_eager_call_returns_the_backends_tensors():
    fs = make()
    fs.adapt(DATA)
    out = fs(QUERY)
    assert ops.is_tensor(out)
    # age (1) + score bins (3) + city [UNK]+4 (5) + rooms [UNK]+4 (5) + cross (8)
    assert tuple(out.shape) == (2, 22)
    single = fs({k: v[0] for k, v in QUERY.items()})
    # One float32 ulp: XLA fuses the normalization differently for one row.
    np.testing.assert_allclose(np.asarray(single), np.asarray(out)[0], rtol=1e-6)


@pytest.mark.trains
def test_a_model_trains_on_the_encoded_features():
    fs = make()
    fs.adapt(DATA)
    x = np.asarray(fs(DATA))
    y = (DATA["score"] > 0.45).astype("float32")
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((x.shape[1],)), keras.layers.Dense(1, "sigmoid")])
    model.compile("adam", "binary_crossentropy")
    history = model.fit(x, y, epochs=30, batch_size=4, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]


def test_functional_model_on_its_inputs_saves_and_reloads(tmp_path):
    # Numbers only: string tensors exist in no engine but TensorFlow, so a model that
    # takes strings runs only where the engine has them (as in Keras).
    fs = FeatureSpace(
        {"age": "float_normalized", "rooms": "integer_categorical", "score": "float_rescaled"},
    )
    numbers = {k: DATA[k] for k in ("age", "rooms", "score")}
    fs.adapt(numbers)
    encoded = fs.get_encoded_features()
    model = keras.Model(fs.get_inputs(), keras.layers.Dense(2, name="head")(encoded))
    batch = {k: np.asarray(QUERY[k])[:, None] for k in numbers}
    expected = ops.convert_to_numpy(model(batch))
    path = str(tmp_path / "with_features.keras")
    model.save(path)
    back = keras.models.load_model(path)
    np.testing.assert_allclose(ops.convert_to_numpy(back(batch)), expected, rtol=1e-6)


def test_dataset_map_runs_inside_tf_data():
    tf = pytest.importorskip("tensorflow")
    fs = make()
    ds = tf.data.Dataset.from_tensor_slices(DATA)
    fs.adapt(ds.batch(3))
    eager = np.asarray(fs(DATA))
    labels = tf.data.Dataset.from_tensor_slices(np.arange(8))
    mapped = tf.data.Dataset.zip((ds, labels)).batch(3).map(lambda x, y: (fs(x), y))
    assert mapped.element_spec[0].shape.as_list() == [None, eager.shape[1]]
    rows = np.concatenate([x.numpy() for x, _ in mapped])
    np.testing.assert_allclose(rows, eager, rtol=1e-6)
    # Unbatched elements give one vector each, as Keras's FeatureSpace does.
    single = next(iter(ds.map(fs)))
    assert single.shape == (eager.shape[1],)
    np.testing.assert_allclose(single.numpy(), eager[0], rtol=1e-6)


@pytest.mark.heavy
def test_keras_file_loads_in_mb_and_computes_the_same(tmp_path):
    path = str(tmp_path / "keras_fs.keras")
    theirs = np.asarray(_run_keras(_KERAS_SAVE_AND_CALL, _plain(DATA), _plain(QUERY), path))
    back = keras.models.load_model(path)
    assert isinstance(back, FeatureSpace)
    np.testing.assert_allclose(np.asarray(back(QUERY)), theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.heavy
def test_mb_file_loads_in_keras_and_computes_the_same(tmp_path):
    fs = make()
    fs.adapt(DATA)
    path = str(tmp_path / "mb_fs.keras")
    fs.save(path)
    mine = np.asarray(fs(QUERY))
    again = keras.models.load_model(path)
    np.testing.assert_array_equal(np.asarray(again(QUERY)), mine)
    theirs = np.asarray(_run_keras(_KERAS_LOAD_AND_CALL, _plain(QUERY), path))
    np.testing.assert_allclose(theirs, mine, rtol=1e-5, atol=1e-6)
