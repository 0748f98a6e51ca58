"""Behaviours Keras 3 programs rely on: `training` on any layer, Bidirectional's masked
steps, Discretization's adapted boundaries, each against Keras 3 in a subprocess."""

import json

import numpy as np
import pytest

from mb_layers import Layer, layers
from mb_layers.testing import compare_with_keras
from mb_ops import testing

RNG = np.random.default_rng(7)


def _keras_json(code):
    """The JSON a Keras 3 script (NumPy backend) prints on its last line."""
    out = testing.run_keras(code, backend="numpy", timeout=300)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _with_random_weights(layer, x):
    layer(x)
    layer.set_weights([RNG.standard_normal(w.shape).astype("float32") for w in layer.weights])
    return layer


def test_activity_regularization_accepts_training_and_adds_its_loss():
    x = np.array([[1.0, -2.0], [3.0, 0.5]], "float32")
    layer = layers.ActivityRegularization(l1=0.1, l2=0.01)
    out = layer(x, training=True)
    np.testing.assert_array_equal(np.asarray(out), x)
    expected = (0.1 * np.abs(x).sum() + 0.01 * (x**2).sum()) / 2  # per sample
    np.testing.assert_allclose(float(np.asarray(layer.losses[0])), expected, rtol=1e-6)


def test_training_passed_to_a_layer_without_it_reaches_the_layers_inside():
    class Outer(Layer):  # its call takes no `training`, as in many Keras programs
        def __init__(self):
            super().__init__()
            self.dropout = layers.Dropout(0.5, seed=1)

        def call(self, inputs):
            return self.dropout(inputs)

    x = np.ones((8, 16), "float32")
    outer = Outer()
    np.testing.assert_array_equal(np.asarray(outer(x)), x)
    dropped = np.asarray(outer(x, training=True))
    assert set(np.unique(dropped)) == {0.0, 2.0}


def test_bidirectional_merges_masked_steps_as_keras():
    x = RNG.standard_normal((3, 6, 4)).astype("float32")
    mask = np.array([[True] * 6, [True] * 4 + [False] * 2, [True, True] + [False] * 4])
    cases = []
    for cell, merge_mode in (("LSTM", "concat"), ("GRU", "sum"), ("SimpleRNN", "ave")):
        for return_sequences in (True, False):
            rnn = getattr(layers, cell)(3, return_sequences=return_sequences)
            layer = layers.Bidirectional(rnn, merge_mode=merge_mode)
            cases.append((_with_random_weights(layer, x), x, {"mask": mask}))
    layer = layers.Bidirectional(layers.LSTM(2, return_sequences=True), merge_mode="mul")
    cases.append((_with_random_weights(layer, x), x, {"mask": mask}))
    compare_with_keras(cases, atol=1e-5, rtol=1e-5)
    # Keras's outputs at masked steps are zero in both directions, whatever the mode.
    sequences = cases[0][0](x, mask=mask)
    np.testing.assert_array_equal(np.asarray(sequences)[2, 2:], 0.0)


def test_discretization_adapt_learns_keras_bin_boundaries(tmp_path):
    data = {
        "normal": RNG.standard_normal(1000).astype("float32"),
        "few": RNG.random(7).astype("float32"),
        "ties": RNG.integers(0, 20, (300, 3)).astype("float32"),
    }
    batches = np.stack([RNG.exponential(size=(50, 2)).astype("float32") for _ in range(4)])
    settings = [(4, 0.01), (7, 0.1), (3, 0.001)]
    np.savez(tmp_path / "data.npz", batches=batches, **data)
    got = {}
    for key, values in data.items():
        for num_bins, epsilon in settings:
            layer = layers.Discretization(num_bins=num_bins, epsilon=epsilon)
            layer.adapt(values)
            got[f"{key}/{num_bins}/{epsilon}"] = layer.bin_boundaries
    layer = layers.Discretization(num_bins=5)
    layer.adapt(list(batches))
    got["batches"] = layer.bin_boundaries
    layer = layers.Discretization(num_bins=5)
    layer.adapt(iter(list(batches)), steps=2)
    got["steps"] = layer.bin_boundaries
    expected = _keras_json(
        "import json, keras, numpy as np\n"
        f"a = np.load({str(tmp_path / 'data.npz')!r}); out = {{}}\n"
        f"for key in {list(data)!r}:\n"
        f"    for num_bins, epsilon in {settings!r}:\n"
        "        d = keras.layers.Discretization(num_bins=num_bins, epsilon=epsilon)\n"
        "        d.adapt(a[key]); out[f'{key}/{num_bins}/{epsilon}'] = d.bin_boundaries\n"
        "d = keras.layers.Discretization(num_bins=5); d.adapt(list(a['batches']))\n"
        "out['batches'] = d.bin_boundaries\n"
        "d = keras.layers.Discretization(num_bins=5)\n"
        "d.adapt(iter(list(a['batches'])), steps=2); out['steps'] = d.bin_boundaries\n"
        "print(json.dumps(out))"
    )
    assert set(got) == set(expected)
    for key, boundaries in expected.items():
        np.testing.assert_allclose(got[key], boundaries, rtol=0, atol=1e-7, err_msg=key)
    # Not NumPy's exact quantiles: the summary's interpolation differs on this data.
    assert not np.allclose(got["normal/4/0.01"], np.quantile(data["normal"], [0.25, 0.5, 0.75]))


def test_discretization_adapt_refuses_a_layer_given_boundaries():
    layer = layers.Discretization(bin_boundaries=[0.0, 1.0])
    with pytest.raises(ValueError, match="num_bins"):
        layer.adapt(np.zeros(4, "float32"))
