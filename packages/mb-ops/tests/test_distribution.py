"""`mb_ops.distribution`: Keras's classes and functions, their rules and their errors.

Runs on any backend with the devices it has (the NumPy backend: one CPU). Placement
on many devices and processes is tested in tests/integration/test_distribution.py.
"""

import doctest

import numpy as np
import pytest

import mb_ops
from mb_ops import distribution
from mb_ops._distribution import _api, _layouts, _strategies
from mb_ops.distribution import (
    DataParallel,
    DeviceMesh,
    LayoutMap,
    ModelParallel,
    TensorLayout,
)

CPU0 = ["cpu:0"]


def test_keras_names_are_all_here():
    keras_names = {
        "DataParallel",
        "DeviceMesh",
        "LayoutMap",
        "ModelParallel",
        "TensorLayout",
        "distribute_tensor",
        "distribution",
        "get_device_count",
        "initialize",
        "list_devices",
        "set_distribution",
    }
    assert keras_names <= set(distribution.__all__)


def test_device_mesh_reshapes_its_devices_and_checks_the_count():
    mesh = DeviceMesh((1, 1), ["batch", "model"], devices=CPU0)
    assert mesh.devices.shape == (1, 1) and mesh.devices[0, 0] == "cpu:0"
    assert repr(mesh) == "<DeviceMesh shape=(1, 1), axis_names=['batch', 'model']>"
    with pytest.raises(ValueError, match="needs 4 devices, but 1 were given"):
        DeviceMesh((2, 2), ["batch", "model"], devices=CPU0)
    with pytest.raises(ValueError, match="one axis name per axis"):
        DeviceMesh((1,), ["batch", "model"], devices=CPU0)
    with pytest.raises(ValueError, match="non-empty"):
        DeviceMesh((), [], devices=CPU0)
    default = DeviceMesh((distribution.get_device_count(),), ["batch"])
    assert default.devices.tolist() == distribution.list_devices()


def test_tensor_layout_checks_its_axes_against_the_mesh():
    mesh = DeviceMesh((1, 1), ["batch", "model"], devices=CPU0)
    layout = TensorLayout((None, "model"))
    layout.device_mesh = mesh
    assert layout.axes == (None, "model") and layout.device_mesh is mesh
    with pytest.raises(ValueError, match="cannot be replaced"):
        layout.device_mesh = mesh
    with pytest.raises(ValueError, match=r"name \['data'\], which the mesh does not have"):
        TensorLayout(("data", None), mesh)
    with pytest.raises(ValueError, match="more than once"):
        TensorLayout(("model", "model"), mesh)
    with pytest.raises(TypeError, match="not a string"):
        TensorLayout("model", mesh)
    with pytest.raises(ValueError, match="has no device mesh"):
        TensorLayout((None,)).backend_layout  # noqa: B018


def test_layout_map_keys_are_regexes_matched_against_the_whole_path():
    mesh = DeviceMesh((1, 1), ["batch", "model"], devices=CPU0)
    layout_map = LayoutMap(mesh)
    layout_map[".*dense.*kernel"] = (None, "model")
    layout_map[".*dense.*bias"] = ("model",)
    layout_map["exact/kernel"] = TensorLayout(("model", None))
    assert layout_map["dense_1/kernel"].axes == (None, "model")
    assert layout_map["seq/dense/bias"].axes == ("model",)
    assert layout_map["seq/dense/bias"].device_mesh is mesh  # tuples get the map's mesh
    assert layout_map["conv2d/kernel"] is None
    assert layout_map["dense/kernel_extra"] is None  # fullmatch, not search
    assert layout_map.get("conv2d/kernel", "fallback") == "fallback"
    assert layout_map["exact/kernel"].axes == ("model", None)
    assert len(layout_map) == 3 and list(layout_map) == [
        ".*dense.*kernel",
        ".*dense.*bias",
        "exact/kernel",
    ]
    layout_map[".*kernel"] = (None, None)
    with pytest.raises(ValueError, match="matches several LayoutMap keys"):
        layout_map["dense/kernel"]
    assert layout_map["exact/kernel"].axes == ("model", None)  # an exact key wins
    with pytest.raises(ValueError, match="already in the LayoutMap"):
        layout_map[".*kernel"] = (None, "model")
    with pytest.raises(ValueError, match="TensorLayouts or tuples"):
        layout_map["x"] = "model"
    del layout_map[".*kernel"]
    assert layout_map["dense/kernel"].axes == (None, "model")


def test_data_parallel_replicates_variables_and_splits_the_batch():
    data_parallel = DataParallel(devices=CPU0)
    assert data_parallel.batch_dim_name == "batch" and data_parallel.num_model_replicas == 1
    assert data_parallel.get_data_layout((8, 3)).axes == ("batch", None)
    variable = mb_ops.Variable(np.zeros((2, 3)))
    assert data_parallel.get_variable_layout(variable).axes == (None, None)
    assert data_parallel.get_tensor_layout("dense/output") is None
    assert data_parallel.num_processes == 1 and data_parallel.data_shard_id == 0
    assert data_parallel.auto_shard_dataset is True
    mesh = DeviceMesh((1,), ["data"], devices=CPU0)
    assert DataParallel(device_mesh=mesh).batch_dim_name == "data"
    with pytest.warns(UserWarning, match="expects a 1-D mesh"):
        DataParallel(device_mesh=DeviceMesh((1, 1), ["a", "b"], devices=CPU0))
    with pytest.raises(ValueError, match="to be a DeviceMesh"):
        DataParallel(device_mesh="cpu:0")
    assert DataParallel().device_mesh.devices.tolist() == distribution.list_devices()


def test_model_parallel_takes_layouts_from_the_map_by_variable_path():
    mesh = DeviceMesh((1, 1), ["batch", "model"], devices=CPU0)
    layout_map = LayoutMap(mesh)
    layout_map[".*dense.*kernel"] = (None, "model")
    model_parallel = ModelParallel(layout_map=layout_map)
    assert model_parallel.batch_dim_name == "batch" and model_parallel.num_model_replicas == 1
    assert ModelParallel(layout_map=layout_map, batch_dim_name="model").batch_dim_name == "model"
    with mb_ops.name_scope("dense"):
        kernel = mb_ops.Variable(np.zeros((2, 3)), name="kernel")
        bias = mb_ops.Variable(np.zeros((3,)), name="bias")
    assert model_parallel.get_variable_layout(kernel).axes == (None, "model")
    assert model_parallel.get_variable_layout(bias).axes == (None,)  # replicated
    assert model_parallel.get_tensor_layout("dense/kernel").axes == (None, "model")
    with mb_ops.name_scope("dense_2"):
        flat = mb_ops.Variable(np.zeros((3,)), name="kernel")
    with pytest.raises(ValueError, match="which has 2 axes; it needs 1"):
        model_parallel.get_variable_layout(flat)
    with pytest.raises(ValueError, match="needs a `layout_map`"):
        ModelParallel()
    with pytest.raises(ValueError, match="to be a LayoutMap"):
        ModelParallel(layout_map={".*": (None,)})
    with pytest.raises(ValueError, match="is not an axis of the mesh"):
        ModelParallel(layout_map=layout_map, batch_dim_name="data")


def test_the_scope_and_set_distribution_make_a_distribution_active():
    assert distribution.distribution() is None
    data_parallel = DataParallel(devices=CPU0)
    with data_parallel.scope():
        assert distribution.distribution() is data_parallel
        inner = DataParallel(devices=CPU0)
        with inner.scope():
            assert distribution.distribution() is inner
        assert distribution.distribution() is data_parallel
    assert distribution.distribution() is None
    distribution.set_distribution(data_parallel)
    try:
        assert distribution.distribution() is data_parallel
    finally:
        distribution.set_distribution(None)


def test_variables_made_under_a_distribution_take_its_layout():
    mesh = DeviceMesh((1, 1), ["batch", "model"], devices=CPU0)
    layout_map = LayoutMap(mesh)
    layout_map[".*kernel"] = ("model", None)
    with ModelParallel(layout_map=layout_map).scope():
        with mb_ops.name_scope("dense"):
            kernel = mb_ops.Variable(np.ones((2, 3)), name="kernel")
        own = mb_ops.Variable(np.ones(3), layout=TensorLayout(("batch",), mesh))
    outside = mb_ops.Variable(np.ones(3))
    assert kernel._layout.axes == ("model", None)
    assert own._layout.axes == ("batch",)  # a variable's own layout is kept
    assert outside._layout is None
    np.testing.assert_array_equal(kernel.numpy(), np.ones((2, 3)))


def test_devices_and_device_count_agree():
    devices = distribution.list_devices()
    assert devices and all(":" in d for d in devices)
    assert distribution.get_device_count() == len(devices)
    assert distribution.get_device_count("cpu") == len(distribution.list_devices("cpu"))


def test_distribute_tensor_keeps_symbolic_tensors():
    symbolic = mb_ops.KerasTensor((None, 3))
    mesh = DeviceMesh((1,), ["batch"], devices=CPU0)
    assert distribution.distribute_tensor(symbolic, TensorLayout(("batch", None), mesh)) is symbolic


def test_initialize_checks_its_arguments_and_reads_keras_environment(monkeypatch):
    with pytest.raises(ValueError, match=r"process_id must be in \[0, num_processes - 1\]"):
        distribution.initialize("127.0.0.1:1234", num_processes=2, process_id=2)
    with pytest.raises(ValueError, match="lists 3 processes"):
        distribution.initialize("a:1,b:2,c:3", num_processes=2, process_id=0)
    monkeypatch.setenv("KERAS_DISTRIBUTION_NUM_PROCESSES", "two")
    with pytest.raises(ValueError, match="KERAS_DISTRIBUTION_NUM_PROCESSES='two'"):
        distribution.initialize()
    calls = []
    monkeypatch.setattr(
        _api._state, "backend_function", lambda name: lambda *args: calls.append((name, args))
    )
    monkeypatch.setenv("KERAS_DISTRIBUTION_JOB_ADDRESSES", "10.0.0.1:1234,10.0.0.2:2345")
    monkeypatch.setenv("KERAS_DISTRIBUTION_NUM_PROCESSES", "2")
    monkeypatch.setenv("KERAS_DISTRIBUTION_PROCESS_ID", "1")
    distribution.initialize()
    assert calls == [("initialize", ("10.0.0.1:1234,10.0.0.2:2345", 2, 1))]
    distribution.initialize("127.0.0.1:9", num_processes=4, process_id=3)  # arguments win
    assert calls[-1] == ("initialize", ("127.0.0.1:9", 4, 3))


@pytest.mark.parametrize("module", [_layouts, _strategies, _api, distribution])
def test_docstring_examples_run(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
