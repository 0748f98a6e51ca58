"""The `Metric` base: variables, tracking, reset, __call__, stateless use, errors."""

import numpy as np
import pytest

import mb_ops
from mb_ops import ops
from mb_train import metrics


class CountAbove(metrics.Metric):
    """Counts values above a threshold (a user subclass, as in Keras's docs)."""

    def __init__(self, threshold=0.0, name="count_above", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.threshold = threshold
        self.count = self.add_variable(shape=(), initializer="zeros", name="count")

    def update_state(self, values):
        values = ops.convert_to_tensor(values, "float32")
        hits = ops.cast(ops.greater(values, self.threshold), self.dtype)
        self.count.assign(self.count.value + ops.sum(hits))

    def result(self):
        return self.count.value

    def get_config(self):
        return {**super().get_config(), "threshold": self.threshold}


class Pair(metrics.Metric):
    """Holds two metrics as attributes: their variables are tracked."""

    def __init__(self):
        super().__init__(name="pair")
        self.low = CountAbove(0.0, name="low")
        self.high = CountAbove(1.0, name="high")

    def update_state(self, values):
        self.low.update_state(values)
        self.high.update_state(values)

    def result(self):
        return self.low.result() - self.high.result()


class Forgetful(metrics.Metric):
    def __init__(self):
        self.x = 1


def test_variables_are_non_trainable_named_under_the_metric(support):
    m = CountAbove(name="my_count")
    (v,) = m.variables
    assert v.trainable is False
    assert v.path == "my_count/count"
    assert v.dtype == "float32"
    assert isinstance(v, mb_ops.Variable)


def test_update_accumulates_over_calls_and_reset_zeroes(support):
    m = CountAbove(0.5)
    m.update_state([0.1, 0.7, 0.9])
    m.update_state([1.0])
    assert support.to_numpy(m.result()) == 3.0
    m.reset_state()
    assert support.to_numpy(m.result()) == 0.0
    assert support.to_numpy(m.variables[0].value) == 0.0


def test_call_updates_then_returns_result(support):
    m = CountAbove(0.5)
    assert support.to_numpy(m([0.7, 0.9])) == 2.0
    assert support.to_numpy(m([0.7])) == 3.0


def test_metrics_held_as_attributes_contribute_variables(support):
    m = Pair()
    assert [v.path for v in m.variables] == ["low/count", "high/count"]
    m.update_state([0.5, 1.5, 2.5])
    assert support.to_numpy(m.result()) == 1.0
    m.reset_state()
    assert support.to_numpy(m.low.result()) == 0.0


def test_stateless_update_and_result_leave_the_variables_alone(support):
    m = metrics.Mean()
    start = [ops.zeros(()), ops.zeros(())]
    state = m.stateless_update_state(start, [1.0, 3.0])
    state = m.stateless_update_state(state, [5.0], sample_weight=[2.0])
    assert support.to_numpy(m.stateless_result(state)) == pytest.approx((1 + 3 + 10) / 4)
    assert support.to_numpy(m.result()) == 0.0
    assert [support.to_numpy(v.value) for v in m.variables] == [0.0, 0.0]
    m.update_state([1.0])
    reset = m.stateless_reset_state()
    assert [float(support.to_numpy(v)) for v in reset] == [0.0, 0.0]
    assert support.to_numpy(m.result()) == 1.0


def test_stateless_update_rejects_a_wrong_number_of_values():
    m = metrics.Mean()
    with pytest.raises(ValueError, match=r"match Mean\(\)\.variables one to one \(2 values\)"):
        m.stateless_update_state([ops.zeros(())], [1.0])


def test_dtype_and_default_names():
    mb_ops.clear_session()
    # A fixed default name stays as it is; a None default is made unique (as in Keras).
    assert metrics.Mean().name == metrics.Mean().name == "mean"
    assert [metrics.AUC().name, metrics.AUC().name] == ["auc", "auc_1"]
    assert metrics.MeanIoU(2).name == "mean_io_u"
    assert metrics.Mean(dtype="float16").dtype == "float16"
    assert metrics.Sum(dtype="bfloat16").variables[0].dtype == "bfloat16"
    assert repr(metrics.Mean(name="m")) == "<Mean name=m>"


def test_config_round_trip_of_a_subclass():
    m = CountAbove(0.25, name="c")
    again = CountAbove.from_config(m.get_config())
    assert again.get_config() == {"name": "c", "dtype": "float32", "threshold": 0.25}


def test_forgetting_super_init_is_a_clear_error():
    m = Forgetful()
    with pytest.raises(RuntimeError, match=r"did not call `super\(\).__init__\(\)`"):
        m.add_variable((), "zeros")


def test_base_methods_say_what_to_implement():
    class Bare(metrics.Metric):
        pass

    with pytest.raises(NotImplementedError, match="must implement update_state"):
        Bare().update_state(1)
    with pytest.raises(NotImplementedError, match=r"must implement result\(\)"):
        Bare().result()


def test_bad_name_and_initializer_are_clear_errors():
    with pytest.raises(TypeError, match="metric name must be a string"):
        metrics.Mean(name=3)
    with pytest.raises(ValueError, match="needs an initializer"):
        CountAbove().add_variable((), None)


def test_add_weight_alias_defaults_to_zeros(support):
    m = CountAbove()
    w = m.add_weight(shape=(2,), name="extra")
    np.testing.assert_array_equal(support.to_numpy(w.value), [0.0, 0.0])
    assert len(m.variables) == 2
