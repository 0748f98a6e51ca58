"""`import mb as keras`: Keras programs run through the umbrella.

Names, members and signatures are compared with Keras 3 in `test_keras_parity.py`."""

from __future__ import annotations

import mb


def test_a_keras_program_trains_and_saves_through_the_umbrella(tmp_path):
    import numpy as np

    import mb as keras

    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 4)).astype("float32")
    y = (x @ np.array([1.0, -2.0, 0.5, 3.0], dtype="float32"))[:, None]
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    history = model.fit(x, y, batch_size=16, epochs=5, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0] / 4
    path = str(tmp_path / "m.keras")
    model.save(path)
    restored = keras.models.load_model(path)
    np.testing.assert_allclose(
        restored.predict(x, verbose=0), model.predict(x, verbose=0), atol=1e-6
    )


def test_ops_work_through_the_umbrella():
    x = mb.ops.convert_to_tensor([[1.0, 2.0], [3.0, 4.0]])
    y = mb.ops.convert_to_numpy(mb.ops.matmul(x, x))
    assert y.tolist() == [[7.0, 10.0], [15.0, 22.0]]
    symbolic = mb.KerasTensor((None, 3))
    assert mb.ops.matmul(symbolic, mb.KerasTensor((3, 5))).shape == (None, 5)


def test_variable_takes_a_string_initializer_as_in_keras():
    import numpy as np

    ones = mb.Variable(initializer="ones", shape=(2, 3), dtype="float32")
    np.testing.assert_array_equal(mb.ops.convert_to_numpy(ones), np.ones((2, 3)))
    glorot = mb.ops.convert_to_numpy(mb.Variable("glorot_uniform", shape=(20, 30)))
    limit = np.sqrt(6 / (20 + 30))
    assert glorot.shape == (20, 30) and np.abs(glorot).max() <= limit
    assert glorot.std() > limit / 4  # drawn, not constant
