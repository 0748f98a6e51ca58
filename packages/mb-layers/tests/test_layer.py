"""The base Layer: building, tracking, weights, losses, masks, dtype policies, config."""

import numpy as np
import pytest

import mb_layers
from mb_graph import KerasTensor
from mb_layers import InputSpec, Layer, layers, regularizers
from mb_layers._backend import variable_class
from mb_layers._ops import ops


class Scale(Layer):
    def __init__(self, units=3, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")
        self.b = self.add_weight(shape=(), initializer="zeros", trainable=False, name="b")

    def call(self, x):
        return x * self.w + self.b


class Block(Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.first = Scale(name="first")
        self.stack = [Scale(name="second")]
        self.by_name = {"third": Scale(name="third")}

    def call(self, x):
        return self.by_name["third"](self.stack[0](self.first(x)))


def test_first_call_builds_with_the_input_shape_and_names_paths():
    layer = Scale(name="scale")
    y = layer(np.ones((2, 4), "float32"))
    assert layer.built
    assert tuple(y.shape) == (2, 4)
    assert [v.path for v in layer.weights] == ["scale/w", "scale/b"]
    assert layer.get_build_config() == {"input_shape": (2, 4)}


def test_build_called_directly_marks_built_and_records_shape():
    layer = Scale(name="direct")
    assert layer.path is None  # not built yet, as in Keras
    layer.build((None, 5))
    assert layer.path == "direct"
    assert layer.built and layer.w.shape == (5,)
    assert layer.get_build_config() == {"input_shape": (None, 5)}


def test_sublayers_in_attributes_lists_and_dicts_are_tracked():
    block = Block(name="block")
    block(np.ones((1, 2), "float32"))
    assert [layer.name for layer in block.layers] == ["first", "second", "third"]
    assert len(block.weights) == 6
    assert len(block.trainable_weights) == 3 and len(block.non_trainable_weights) == 3
    assert block.weights[0].path == "block/first/w"
    assert [block.path, block.first.path, block.by_name["third"].path] == [
        "block",
        "block/first",
        "block/third",
    ]
    block.stack.append(Scale(name="fourth"))
    assert [layer.name for layer in block.layers][-1] == "fourth"
    block.stack.pop()
    assert "fourth" not in [layer.name for layer in block.layers]


def test_variables_assigned_as_attributes_are_tracked():
    class Holder(Layer):
        def __init__(self):
            super().__init__()
            self.v = variable_class()(np.zeros((2,), "float32"), trainable=False)

    holder = Holder()
    assert len(holder.non_trainable_weights) == 1
    assert holder.non_trainable_weights[0] is holder.v


def test_trainable_false_moves_weights_to_non_trainable():
    block = Block()
    block(np.ones((1, 2), "float32"))
    block.trainable = False
    assert block.trainable_weights == []
    assert len(block.non_trainable_weights) == 6
    block.trainable = True
    assert len(block.trainable_weights) == 3


def test_get_and_set_weights_round_trip_and_mismatch_names_the_variable():
    layer = Scale(name="sw")
    layer(np.ones((1, 3), "float32"))
    layer.set_weights([np.array([1.0, 2.0, 3.0], "float32"), np.array(0.5, "float32")])
    np.testing.assert_allclose(layer(np.ones((1, 3), "float32")), [[1.5, 2.5, 3.5]], rtol=1e-6)
    with pytest.raises(ValueError, match="sw/w"):
        layer.set_weights([np.ones((4,), "float32"), np.array(0.0, "float32")])
    with pytest.raises(ValueError, match="2 weights"):
        layer.set_weights([np.ones((3,), "float32")])


def test_symbolic_call_records_a_node_and_infers_shape_without_data():
    layer = Scale(name="sym")
    x = KerasTensor((None, 7))
    y = layer(x)
    assert y.shape == (None, 7) and y.dtype == "float32"
    assert y._keras_history.operation is layer
    assert len(layer._inbound_nodes) == 1
    assert layer.w.shape == (7,)


def test_compute_output_shape_by_symbolic_inference():
    layer = Scale()
    assert layer.compute_output_shape((None, 2)) == (None, 2)


def test_input_spec_errors_name_the_layer_and_shapes():
    class Needs4(Layer):
        def __init__(self):
            super().__init__(name="needs4")
            self.input_spec = InputSpec(min_ndim=2, axes={-1: 4})

        def call(self, x):
            return x

    with pytest.raises(ValueError, match=r"needs4.*axis -1.*value 4.*\(2, 3\)"):
        Needs4()(np.ones((2, 3), "float32"))
    with pytest.raises(ValueError, match="min_ndim=2"):
        Needs4()(np.ones((4,), "float32"))


def test_training_argument_propagates_from_outer_call():
    seen = []

    class Probe(Layer):
        def call(self, x, training=None):
            if not isinstance(x, KerasTensor):  # Building traces `call` symbolically once.
                seen.append(training)
            return x

    Probe()(np.ones((1,), "float32"), training=True)
    assert seen == [True]

    class OuterTraining(Layer):
        def __init__(self):
            super().__init__()
            self.probe = Probe()

        def call(self, x, training=None):
            return self.probe(x)

    OuterTraining()(np.ones((1,), "float32"), training=True)
    OuterTraining()(np.ones((1,), "float32"))
    assert seen == [True, True, None]


def test_mask_propagates_through_masking_layers():
    class MakeMask(Layer):
        def call(self, x):
            return x

        def compute_mask(self, inputs, previous_mask):
            return ops.not_equal(inputs, 0)

    class UseMask(Layer):
        def __init__(self):
            super().__init__()
            self.supports_masking = True
            self.received = None

        def call(self, x, mask=None):
            self.received = mask
            return x

    x = np.array([[1.0, 0.0, 2.0]], "float32")
    y = MakeMask()(x)
    assert mb_layers.get_keras_mask(y).tolist() == [[True, False, True]]
    user = UseMask()
    z = user(y)
    assert user.received.tolist() == [[True, False, True]]
    assert mb_layers.get_keras_mask(z).tolist() == [[True, False, True]]


def test_weight_and_activity_regularization_losses():
    class Reg(Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=(2,), initializer="ones", regularizer="l2")

        def call(self, x):
            return x * self.w

    layer = Reg(activity_regularizer=regularizers.L1(0.5))
    x = np.array([[1.0, -2.0], [3.0, 4.0]], "float32")
    layer(x)
    losses = [float(np.asarray(v)) for v in layer.losses]
    # activity: 0.5 * sum|x| / batch = 0.5 * 10 / 2; weight: 0.01 * sum(w**2) = 0.02
    np.testing.assert_allclose(sorted(losses), [0.02, 2.5], rtol=1e-6)
    layer(x)
    assert len(layer.losses) == 2  # Losses of the previous call are cleared.


def test_mixed_float16_computes_in_float16_with_float32_variables():
    layer = Scale(dtype="mixed_float16")
    y = layer(np.ones((2, 3), "float32"))
    assert layer.w.dtype == "float32" or layer.w._dtype == "float32"
    assert str(y.dtype) == "float16"
    assert layer.compute_dtype == "float16" and layer.variable_dtype == "float32"
    sym = Scale(dtype="mixed_bfloat16")(KerasTensor((None, 3)))
    assert sym.dtype == "bfloat16"


def test_get_config_from_config_round_trip():
    layer = Scale(units=5, name="cfg", dtype="mixed_float16")
    config = layer.get_config()
    assert config["name"] == "cfg" and config["units"] == 5
    assert config["dtype"]["config"] == {"name": "mixed_float16"}
    clone = Scale.from_config(config)
    assert clone.units == 5 and clone.name == "cfg"
    assert clone.dtype_policy.name == "mixed_float16"


def test_stateless_call_uses_given_values_and_leaves_variables_alone():
    layer = Scale()
    x = np.ones((1, 2), "float32")
    layer(x)
    trainable = [np.array([2.0, 3.0], "float32")]
    non_trainable = [np.array(1.0, "float32")]
    y, new_nt = layer.stateless_call(trainable, non_trainable, x)
    np.testing.assert_allclose(y, [[3.0, 4.0]])
    np.testing.assert_allclose(layer.w.numpy(), [1.0, 1.0])
    assert len(new_nt) == 1


def test_missing_super_init_is_reported():
    class Broken(Layer):
        def __init__(self):
            pass

        def call(self, x):
            return x

    with pytest.raises(RuntimeError, match="super"):
        Broken()(np.ones((1,), "float32"))


def test_default_build_from_a_shape_builds_the_sub_layers_and_records_it():
    from mb_layers import layers

    class Block(Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.inner = layers.Dense(2)

        def call(self, x):
            return self.inner(x)

    block = Block()
    block.build((None, 3))  # no build method of its own: sub-layers built from `call`
    assert block.inner.built and tuple(block.inner.kernel.shape) == (3, 2)
    called = Block()
    called(np.ones((4, 3), "float32"))
    assert called.get_build_config() == {"input_shape": (4, 3)}


def test_bidirectional_refuses_layers_that_disagree_and_stacked_cells_build_once():
    from mb_layers import layers

    with pytest.raises(ValueError, match="must agree on `return_sequences`"):
        layers.Bidirectional(
            layers.LSTM(2, return_sequences=True),
            backward_layer=layers.LSTM(2, go_backwards=True),
        )
    cells = layers.StackedRNNCells([layers.LSTMCell(3), layers.GRUCell(2)])
    cells.build((None, 4))
    cells.build((None, 4))  # e.g. after build_from_config: the cells keep one set
    assert len(cells.weights) == 3 + 3


class Penalized(Layer):
    def call(self, x):
        self.add_loss(ops.mean(ops.square(x)))
        return x


def test_add_loss_in_a_symbolic_call_is_skipped_and_recorded_on_data():
    from mb_layers import Functional, Input

    x = Input((3,))
    net = Functional(x, Penalized()(x))  # a symbolic call: no error, nothing recorded
    assert net.losses == []
    data = np.full((2, 3), 2.0, "float32")
    net(data)
    assert [float(np.asarray(loss)) for loss in net.losses] == [4.0]


def test_a_layer_frozen_before_it_builds_makes_frozen_variables():
    layer = Scale(trainable=False)
    layer(np.ones((2, 3), "float32"))
    assert layer.trainable_weights == []
    assert all(not v.trainable for v in layer.weights)


def test_add_weight_takes_kerass_positional_shape_initializer_dtype_else_keywords():
    layer = Layer()
    w = layer.add_weight((2, 3), "ones", "float16")
    assert tuple(w.shape) == (2, 3) and w.dtype == "float16"
    np.testing.assert_array_equal(ops.convert_to_numpy(w.value), np.ones((2, 3)))
    with pytest.raises(ValueError, match="`name` as a keyword"):
        layer.add_weight("kernel", shape=(2,))
    with pytest.raises(ValueError, match="`shape` both positionally"):
        layer.add_weight((2,), shape=(3,))
    with pytest.raises(TypeError, match="at most 3 positional"):
        layer.add_weight((2,), "zeros", "float32", True)


def test_input_spec_is_a_property_that_a_subclass_can_set_and_clear():
    class Needs4(Layer):
        def call(self, x):
            return x

    layer = Needs4()
    assert "input_spec" in vars(Layer) and layer.input_spec is None
    layer.input_spec = InputSpec(axes={-1: 4})
    with pytest.raises(ValueError, match="axis -1"):
        layer(np.ones((2, 3), "float32"))
    layer.input_spec = None
    assert layer(np.ones((2, 3), "float32")).shape == (2, 3)


def test_compute_mask_takes_kerass_previous_mask_keyword():
    mask = np.array([[True, False]])
    wrapped = layers.TimeDistributed(layers.Dense(2))
    assert wrapped.compute_mask(np.ones((1, 2, 3)), previous_mask=mask) is mask
    attention = layers.MultiHeadAttention(num_heads=1, key_dim=2)
    assert attention.compute_mask(np.ones((1, 2, 3)), previous_mask=mask) is None
