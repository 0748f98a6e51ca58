"""Bad arguments and misuse give errors that say what was received and what to do."""

import numpy as np
import pytest

import mb_ops
from mb_ops import ops
from mb_train import optimizers
from mb_train.optimizers import schedules


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"learning_rate": -0.1}, r"`learning_rate` must be a finite number >= 0.*-0.1"),
        ({"learning_rate": float("nan")}, r"`learning_rate` must be a finite number"),
        ({"learning_rate": "fast"}, r"should be a float, a LearningRateSchedule.*'fast'"),
        ({"learning_rate": True}, r"should be a float"),
        ({"clipnorm": 1.0, "global_clipnorm": 1.0}, r"only one of `clipnorm`, `clipvalue`"),
        ({"clipvalue": -1.0}, r"`clipvalue` must be None or a finite number >= 0"),
        ({"weight_decay": -0.01}, r"`weight_decay` must be None or a finite number >= 0"),
        ({"use_ema": True, "ema_momentum": 1.5}, r"`ema_momentum` must be in the range \[0, 1\]"),
        (
            {"use_ema": True, "ema_overwrite_frequency": 0},
            r"`ema_overwrite_frequency` must be an integer >= 1",
        ),
        ({"gradient_accumulation_steps": 1}, r"`gradient_accumulation_steps` must be an integer"),
        ({"loss_scale_factor": 0.0}, r"`loss_scale_factor` must be None or a finite number > 0"),
        ({"lr": 0.1}, r"argument\(s\) not recognized: \{'lr': 0.1\}"),
    ],
)
def test_bad_common_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        optimizers.Adam(**kwargs)


def test_bad_optimizer_specific_arguments():
    with pytest.raises(ValueError, match=r"SGD: `momentum` must be a number in \[0, 1\]"):
        optimizers.SGD(momentum=1.5)
    with pytest.raises(ValueError, match="AdamW: argument `weight_decay` must be a float"):
        optimizers.AdamW(weight_decay=None)
    with pytest.raises(ValueError, match=r"Lion: `beta_1` must be a number in \(0, 1\]"):
        optimizers.Lion(beta_1=0.0)
    with pytest.raises(ValueError, match="`learning_rate_power` needs to be negative or zero"):
        optimizers.Ftrl(learning_rate_power=0.5)
    with pytest.raises(ValueError, match="`l1_regularization_strength` needs to be positive"):
        optimizers.Ftrl(l1_regularization_strength=-1.0)
    with pytest.raises(ValueError, match="`initial_accumulator_value` must be >= 0"):
        optimizers.Adagrad(initial_accumulator_value=-0.1)
    with pytest.raises(ValueError, match="`ns_steps` must be an int >= 0"):
        optimizers.Muon(ns_steps=2.5)


def test_decay_argument_is_ignored_with_a_warning():
    with pytest.warns(UserWarning, match="`decay` is no longer supported"):
        optimizers.SGD(decay=0.1)


def test_loss_scale_optimizer_arguments():
    with pytest.raises(TypeError, match=r"wraps an optimizer object.*'adam'"):
        optimizers.LossScaleOptimizer("adam")
    with pytest.raises(ValueError, match="no longer supports `dynamic=False`"):
        optimizers.LossScaleOptimizer(optimizers.SGD(), dynamic=False)
    with pytest.raises(ValueError, match=r"does not support `clipnorm`.*inner_optimizer"):
        optimizers.LossScaleOptimizer(optimizers.SGD(), clipnorm=1.0)
    with pytest.raises(ValueError, match="`initial_scale` must be > 0"):
        optimizers.LossScaleOptimizer(optimizers.SGD(), initial_scale=0.0)
    with pytest.raises(ValueError, match="`dynamic_growth_steps` must be an integer >= 1"):
        optimizers.LossScaleOptimizer(optimizers.SGD(), dynamic_growth_steps=0)


def test_misuse_of_apply():
    w = mb_ops.Variable([1.0], name="w")
    other = mb_ops.Variable([1.0], name="other")
    optimizer = optimizers.SGD()
    with pytest.raises(ValueError, match="must already be built"):
        optimizer.apply([ops.ones((1,))])
    with pytest.raises(ValueError, match="received 2 gradients for 1 variables"):
        optimizer.apply([ops.ones((1,)), ops.ones((1,))], [w])
    optimizer.apply([ops.ones((1,))], [w])
    with pytest.raises(ValueError, match="Unknown variable: 'other'"):
        optimizer.apply([ops.ones((1,))], [other])
    with pytest.raises(ValueError, match="received 2 gradients, but the optimizer tracks 1"):
        optimizer.apply([ops.ones((1,)), ops.ones((1,))])


def test_schedule_learning_rate_cannot_be_set_to_a_number():
    optimizer = optimizers.SGD(learning_rate=schedules.ExponentialDecay(0.1, 10, 0.5))
    with pytest.raises(TypeError, match="its learning rate is not settable to a number"):
        optimizer.learning_rate = 0.01
    with pytest.raises(ValueError, match="must be a finite number >= 0"):
        optimizers.SGD().learning_rate = -1.0


def test_stateless_apply_checks_its_inputs():
    w = mb_ops.Variable(np.ones((2,), "float32"), name="w")
    optimizer = optimizers.SGD()
    with pytest.raises(ValueError, match="must be built"):
        optimizer.stateless_apply([], [ops.ones((2,))], [w.value])
    optimizer.build([w])
    with pytest.raises(ValueError, match=r"corresponding 1:1.*Received 1 values, expected 2"):
        optimizer.stateless_apply([w.value], [ops.ones((2,))], [w.value])


def test_custom_optimizer_without_math_says_what_to_implement():
    class Nothing(optimizers.Optimizer):
        pass

    w = mb_ops.Variable([1.0], name="w")
    with pytest.raises(NotImplementedError, match=r"must implement.*update_step"):
        Nothing(learning_rate=0.1).apply([ops.ones((1,))], [w])


def test_keras_style_custom_optimizer_works():
    class HalfStep(optimizers.Optimizer):
        def update_step(self, gradient, variable, learning_rate):
            self.assign_sub(variable, ops.multiply(ops.multiply(gradient, learning_rate), 0.5))

    w = mb_ops.Variable([1.0], name="w")
    HalfStep(learning_rate=0.2).apply([ops.ones((1,))], [w])
    np.testing.assert_allclose(w.numpy(), [0.9], rtol=1e-6)
