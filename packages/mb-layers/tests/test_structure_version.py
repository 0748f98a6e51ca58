"""`structure_version` moves with every change to what a layer's variable lists hold
(models check it instead of walking their layers per call) and stays put on calls."""

import numpy as np

import mb_layers
from mb_layers._tracking import structure_version
from mb_ops.random import SeedGenerator


def _moves(change):
    before = structure_version()
    change()
    return structure_version() != before


class _Holder(mb_layers.Layer):
    def call(self, x):
        return x


def test_variables_sub_layers_seeds_freezing_and_building_move_the_version():
    layer = _Holder()
    assert _moves(lambda: layer.add_weight(shape=(2,), name="w"))
    assert _moves(lambda: setattr(layer, "inner", mb_layers.layers.Dense(2)))
    assert _moves(lambda: delattr(layer, "inner"))
    assert _moves(lambda: setattr(layer, "seed", SeedGenerator(1)))
    assert _moves(lambda: setattr(layer, "trainable", False))
    dense = mb_layers.layers.Dense(2)
    assert _moves(lambda: dense.build((None, 3)))
    stack = mb_layers.Sequential([mb_layers.Input((3,)), mb_layers.layers.Dense(2)])
    assert _moves(lambda: stack.add(mb_layers.layers.Activation("relu")))
    assert _moves(stack.pop)


def test_calls_and_new_values_leave_the_version_alone():
    stack = mb_layers.Sequential([mb_layers.Input((3,)), mb_layers.layers.Dense(2)])
    x = np.ones((2, 3), "float32")
    stack(x)
    weights = [w + 1 for w in stack.get_weights()]
    assert not _moves(lambda: stack(x))
    assert not _moves(lambda: stack.set_weights(weights))
    np.testing.assert_allclose(stack.get_weights()[1], weights[1])
