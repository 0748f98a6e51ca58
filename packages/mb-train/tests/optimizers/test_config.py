"""Configs, get/serialize/deserialize, and the optimizer variables' layout (Keras 3's)."""

import numpy as np
import pytest

import mb_ops
from mb_ops import ops
from mb_train import optimizers
from mb_train.optimizers import schedules

ALL = [
    optimizers.SGD,
    optimizers.RMSprop,
    optimizers.Adam,
    optimizers.AdamW,
    optimizers.Adadelta,
    optimizers.Adafactor,
    optimizers.Adagrad,
    optimizers.Adamax,
    optimizers.Ftrl,
    optimizers.Lamb,
    optimizers.Lion,
    optimizers.Nadam,
    optimizers.Muon,
    optimizers.ScheduleFreeAdamW,
]

_BASE_KEYS = {
    "name",
    "learning_rate",
    "weight_decay",
    "clipnorm",
    "global_clipnorm",
    "clipvalue",
    "use_ema",
    "ema_momentum",
    "ema_overwrite_frequency",
    "loss_scale_factor",
    "gradient_accumulation_steps",
}


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_config_round_trips(cls):
    optimizer = cls(learning_rate=0.25, clipnorm=1.5, use_ema=True, ema_momentum=0.5)
    config = optimizer.get_config()
    assert set(config) >= _BASE_KEYS
    assert config["learning_rate"] == 0.25 and config["clipnorm"] == 1.5
    again = cls.from_config(config)
    assert type(again) is cls
    assert again.get_config() == config
    serialized = optimizers.serialize(optimizer)
    assert serialized["module"] == "keras.optimizers"
    assert serialized["class_name"] == cls.__name__
    assert serialized["registered_name"] is None
    assert optimizers.deserialize(serialized).get_config() == config


def test_get_accepts_names_in_any_case_dicts_and_instances():
    assert type(optimizers.get("adam")) is optimizers.Adam
    assert type(optimizers.get("SGD")) is optimizers.SGD
    assert type(optimizers.get("rmsprop")) is optimizers.RMSprop
    assert type(optimizers.get("AdamW")) is optimizers.AdamW
    assert type(optimizers.get("lamb")) is optimizers.Lamb
    adam = optimizers.Adam()
    assert optimizers.get(adam) is adam
    assert optimizers.get(None) is None
    keras_dict = {
        "module": "keras.optimizers",
        "class_name": "Adam",
        "config": {"learning_rate": 0.009999999776482582, "beta_1": 0.8, "name": "adam_x"},
        "registered_name": None,
    }
    from_dict = optimizers.get(keras_dict)
    assert from_dict.beta_1 == 0.8 and from_dict.name == "adam_x"
    np.testing.assert_allclose(float(from_dict.learning_rate), 0.01, rtol=1e-6)


def test_get_refuses_unknown_identifiers():
    with pytest.raises(ValueError, match=r"Unknown optimizer.*'adamz'"):
        optimizers.get("adamz")
    with pytest.raises(ValueError, match="Could not interpret optimizer identifier"):
        optimizers.get(3)


def test_defaults_are_keras_defaults():
    assert optimizers.SGD().get_config()["learning_rate"] == pytest.approx(0.01)
    assert optimizers.RMSprop().get_config()["rho"] == 0.9
    assert optimizers.AdamW().weight_decay == 0.004
    assert optimizers.ScheduleFreeAdamW().get_config()["learning_rate"] == pytest.approx(0.0025)
    assert optimizers.Adam().get_config() | {"name": None} == {
        "name": None,
        "learning_rate": pytest.approx(0.001),
        "weight_decay": None,
        "clipnorm": None,
        "global_clipnorm": None,
        "clipvalue": None,
        "use_ema": False,
        "ema_momentum": 0.99,
        "ema_overwrite_frequency": None,
        "loss_scale_factor": None,
        "gradient_accumulation_steps": None,
        "beta_1": 0.9,
        "beta_2": 0.999,
        "epsilon": 1e-7,
        "amsgrad": False,
    }


def test_schedule_in_config_round_trips():
    schedule = schedules.PiecewiseConstantDecay([2, 4], [0.3, 0.2, 0.1])
    config = optimizers.serialize(optimizers.SGD(learning_rate=schedule))
    assert config["config"]["learning_rate"] == {
        "module": "keras.optimizers.schedules",
        "class_name": "PiecewiseConstantDecay",
        "config": {"boundaries": [2, 4], "values": [0.3, 0.2, 0.1], "name": "PiecewiseConstant"},
        "registered_name": None,
    }
    again = optimizers.deserialize(config)
    assert isinstance(again._learning_rate, schedules.PiecewiseConstantDecay)
    assert again._learning_rate.values == [0.3, 0.2, 0.1]


def test_loss_scale_optimizer_config_nests_the_inner_optimizer():
    optimizer = optimizers.LossScaleOptimizer(
        optimizers.Adam(0.5), initial_scale=64.0, dynamic_growth_steps=10
    )
    config = optimizers.serialize(optimizer)
    assert config["config"]["inner_optimizer"]["class_name"] == "Adam"
    again = optimizers.deserialize(config)
    assert isinstance(again.inner_optimizer, optimizers.Adam)
    assert again.initial_scale == 64.0 and again.dynamic_growth_steps == 10
    assert float(again.learning_rate.numpy()) == 0.5


def test_custom_optimizer_through_custom_objects():
    class MySGD(optimizers.SGD):
        pass

    config = optimizers.serialize(MySGD(0.5))
    assert config["class_name"] == "MySGD" and config["registered_name"] == "MySGD"
    again = optimizers.deserialize(config, custom_objects={"MySGD": MySGD})
    assert type(again) is MySGD


def test_variables_follow_keras_order_and_names():
    kernel = mb_ops.Variable(np.zeros((2, 3), "float32"), name="kernel")
    bias = mb_ops.Variable(np.zeros((3,), "float32"), name="bias")
    adam = optimizers.Adam(name="adam_t", use_ema=True, gradient_accumulation_steps=2)
    adam.build([kernel, bias])
    assert [v.name for v in adam.variables] == [
        "iteration",
        "learning_rate",
        "kernel_average",
        "bias_average",
        "kernel_gradient_accumulator",
        "bias_gradient_accumulator",
        "kernel_momentum",
        "kernel_velocity",
        "bias_momentum",
        "bias_velocity",
    ]
    assert adam.variables[0].dtype == "int32" and adam.variables[1].dtype == "float32"
    assert adam.variables[6].path == "adam_t/kernel_momentum"
    scheduled = optimizers.Adam(learning_rate=schedules.ExponentialDecay(0.1, 10, 0.9))
    scheduled.build([kernel, bias])
    assert [v.name for v in scheduled.variables][:2] == ["iteration", "kernel_momentum"]


def test_slot_names_use_the_variable_path():
    with mb_ops.name_scope("dense"):
        kernel = mb_ops.Variable(np.zeros((2, 2), "float32"), name="kernel")
    optimizer = optimizers.SGD(momentum=0.9)
    optimizer.build([kernel])
    assert optimizer.variables[2].name == "dense_kernel_momentum"


def test_save_and_load_own_variables_round_trip(h):
    params, grads = h.make_problem(steps=2)
    _, trained = h.run_mb(optimizers.Adam(0.1), params, grads)
    store = {}
    trained.save_own_variables(store)
    assert sorted(store, key=int) == [str(i) for i in range(len(trained.variables))]
    fresh = optimizers.Adam(0.1)
    fresh.build(h.make_variables(params))
    fresh.load_own_variables(store)
    for a, b in zip(fresh.variables, trained.variables, strict=True):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert int(fresh.iterations.numpy()) == 2
    smaller = optimizers.SGD()
    with pytest.warns(UserWarning, match="Skipping variable loading for optimizer"):
        smaller.load_own_variables(store)


def test_set_weights_checks_count_and_shapes(h):
    params, _ = h.make_problem()
    optimizer = optimizers.SGD(momentum=0.5)
    with pytest.raises(ValueError, match="has not been built"):
        optimizer.set_weights([])
    optimizer.build(h.make_variables(params))
    with pytest.raises(ValueError, match=r"received 1 arrays.*has 4 variables"):
        optimizer.set_weights([np.zeros(())])
    weights = [np.array(7, "int32"), np.array(0.5, "float32")]
    weights += [np.ones(p.shape, "float32") for p in params]
    optimizer.set_weights(weights)
    assert int(optimizer.iterations.numpy()) == 7
    np.testing.assert_array_equal(optimizer.momentums[0].numpy(), np.ones(params[0].shape))


def test_apply_gradients_takes_pairs_and_returns_the_counter():
    w = mb_ops.Variable([1.0], name="w")
    optimizer = optimizers.SGD(0.5)
    counter = optimizer.apply_gradients([(ops.ones((1,)), w)])
    assert int(counter.numpy()) == 1
    np.testing.assert_allclose(w.numpy(), [0.5])
