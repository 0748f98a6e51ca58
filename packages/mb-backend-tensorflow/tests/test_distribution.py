"""The tensorflow backend's ``distribution`` module in one process, one device.

Training under ``MirroredStrategy`` and ``MultiWorkerMirroredStrategy`` runs in fresh
processes (logical devices and TF_CONFIG are fixed when TensorFlow starts):
tests/integration/test_distribution.py.
"""

import numpy as np
import pytest
import tensorflow as tf

from mb_backend_tensorflow import distribution
from mb_ops.distribution import DeviceMesh, TensorLayout


def test_tf_config_lists_every_worker_in_process_order():
    config = distribution._tf_config("10.0.0.1:2222,10.0.0.2:2222", 2, 1)
    assert config == {
        "cluster": {"worker": ["10.0.0.1:2222", "10.0.0.2:2222"]},
        "task": {"type": "worker", "index": 1},
    }
    # One address stands for consecutive ports on that host.
    config = distribution._tf_config("127.0.0.1:5000", 3, 0)
    assert config["cluster"]["worker"] == [f"127.0.0.1:{p}" for p in (5000, 5001, 5002)]


@pytest.mark.parametrize(
    "args, message",
    [
        (("a:1,b:1", 3, 0), "got 2 addresses for num_processes=3"),
        (("a:1,b:1", 2, 2), "needs process_id in \\[0, 2\\)"),
        (("", 2, 0), "needs job_addresses"),
    ],
)
def test_tf_config_errors_say_what_was_received(args, message):
    with pytest.raises(ValueError, match=message):
        distribution._tf_config(*args)


def test_one_device_runs_the_step_as_it_is():
    mesh = DeviceMesh((1,), ["batch"], devices=["cpu:0"])
    assert distribution.strategy_for(mesh) is None
    step = lambda read_only, mutable, data: ([m + 1 for m in mutable], data * 2)  # noqa: E731
    new, out = distribution.run_replicas(
        step, [], [tf.constant(1.0)], tf.constant([1.0, 2.0]), ["none"], True, mesh
    )
    assert float(new[0]) == 2.0 and out.numpy().tolist() == [2.0, 4.0]


def test_unknown_devices_are_refused_with_the_way_to_make_them():
    mesh = DeviceMesh((2,), ["batch"], devices=["cpu:0", "cpu:5"])
    with pytest.raises(ValueError, match="set_logical_device_configuration"):
        distribution.strategy_for(mesh)


def test_layouts_that_split_a_variable_are_refused():
    mesh = DeviceMesh((1, 2), ["batch", "model"], devices=["cpu:0", "cpu:1"])
    assert distribution.to_backend_layout(TensorLayout((None, None), mesh)) == (None, None)
    with pytest.raises(ValueError, match="cannot split a tensor over mesh axis 'model'"):
        distribution.to_backend_layout(TensorLayout((None, "model"), mesh))


def test_collectives_in_one_process_return_their_inputs():
    values = [tf.constant([1.0, 2.0]), tf.constant(3.0)]
    out = distribution.all_reduce(values, "sum")
    assert [np.asarray(v).tolist() for v in out] == [[1.0, 2.0], 3.0]
    assert distribution.broadcast_int(7) == 7
    assert distribution.gather_batch(tf.constant([[1.0]]), False).tolist() == [[1.0]]
    assert distribution.num_processes() == 1 and distribution.process_id() == 0
    with pytest.raises(ValueError, match="reduction must be 'mean' or 'sum'"):
        distribution.all_reduce(values, "max")


def test_synchronized_moments_outside_a_strategy_are_the_local_ones():
    from mb_backend_tensorflow import nn

    x = np.random.default_rng(0).normal(size=(5, 3)).astype("float32")
    mean, variance = nn.moments(x, axes=[0], synchronized=True)
    np.testing.assert_allclose(mean.numpy(), x.mean(0), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(variance.numpy(), x.var(0), rtol=1e-5, atol=1e-6)
