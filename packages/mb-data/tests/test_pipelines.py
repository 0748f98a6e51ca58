"""tf.data, torch DataLoader, grain and generator inputs, and how inputs are told apart."""

import numpy as np
import pytest

import mb_data

X = np.arange(20, dtype="float32").reshape(10, 2)
Y = np.arange(10, dtype="int64")


def _collect(adapter, as_numpy):
    batches = [as_numpy(b) for b in adapter.get_iterator()]
    return np.concatenate([b[0] for b in batches]), np.concatenate([b[1] for b in batches])


def _tf_dataset():
    tf = pytest.importorskip("tensorflow")
    return tf.data.Dataset.from_tensor_slices((X, Y)).batch(4)


def _torch_loader(**kwargs):
    torch = pytest.importorskip("torch")
    data = torch.utils.data.TensorDataset(torch.from_numpy(X), torch.from_numpy(Y))
    return torch.utils.data.DataLoader(data, batch_size=4, **kwargs)


def _grain_map():
    grain = pytest.importorskip("grain")
    return grain.MapDataset.source(list(zip(X, Y, strict=True))).batch(4)


def _grain_iter():
    return _grain_map().to_iter_dataset()


def _grain_loader():
    grain = pytest.importorskip("grain")
    return grain.DataLoader(
        data_source=list(zip(X, Y, strict=True)),
        sampler=grain.samplers.IndexSampler(10, shuffle=False, num_epochs=1),
        operations=[grain.transforms.Batch(4)],
        worker_count=0,
    )


PIPELINES = {
    "tf.data": (_tf_dataset, mb_data.TFDatasetAdapter, 3),
    "torch": (_torch_loader, mb_data.TorchDataLoaderAdapter, 3),
    "grain-map": (_grain_map, mb_data.GrainDatasetAdapter, 3),
    "grain-iter": (_grain_iter, mb_data.GrainDatasetAdapter, None),
    "grain-loader": (_grain_loader, mb_data.GrainDatasetAdapter, None),
}


@pytest.mark.parametrize("name", sorted(PIPELINES))
def test_pipeline_is_adapted_and_read_again_each_pass(name, as_numpy):
    make, cls, num_batches = PIPELINES[name]
    adapter = mb_data.get_data_adapter(make())
    assert type(adapter) is cls
    assert adapter.num_batches == num_batches
    for _ in range(2):
        x, y = _collect(adapter, as_numpy)
        np.testing.assert_array_equal(x, X)
        np.testing.assert_array_equal(y, Y)


@pytest.mark.parametrize("name", sorted(PIPELINES))
def test_pipeline_rejects_y_and_sample_weight(name):
    make = PIPELINES[name][0]
    with pytest.raises(ValueError, match=r"`y` should not be passed.*must yield the targets"):
        mb_data.get_data_adapter(make(), y=Y)
    with pytest.raises(ValueError, match="`sample_weight` should not be passed"):
        mb_data.get_data_adapter(make(), sample_weight=Y)


@pytest.mark.parametrize("name", ["torch", "grain-map"])
def test_class_weight_is_refused_where_batches_cannot_carry_it(name):
    with pytest.raises(ValueError, match="`class_weight` is not supported"):
        mb_data.get_data_adapter(PIPELINES[name][0](), class_weight={0: 2.0})


def test_tf_dataset_class_weight_adds_sample_weights(as_numpy):
    adapter = mb_data.get_data_adapter(_tf_dataset(), class_weight={3: 5.0})
    batch = as_numpy(next(iter(adapter.get_iterator())))
    np.testing.assert_allclose(batch[2], [1.0, 1.0, 1.0, 5.0])


def test_shuffle_is_ignored_silently_for_pipelines(as_numpy):
    # fit's default is shuffle=True: Keras ignores it for pipelines without a word, so
    # model.fit(dataset) must not warn (warnings are errors here).
    adapter = mb_data.get_data_adapter(_torch_loader(), shuffle=True)
    first = [as_numpy(b) for b in adapter.get_iterator()]
    second = [as_numpy(b) for b in mb_data.get_data_adapter(_torch_loader()).get_iterator()]
    for (xa, ya), (xb, yb) in zip(first, second, strict=True):
        np.testing.assert_array_equal(xa, xb)
        np.testing.assert_array_equal(ya, yb)


def test_torch_loader_partial_batch_is_reported():
    adapter = mb_data.get_data_adapter(_torch_loader())
    assert (adapter.batch_size, adapter.has_partial_batch, adapter.partial_batch_size) == (
        4,
        True,
        2,
    )


def test_generator_lists_are_read_as_tuples(as_numpy):
    adapter = mb_data.get_data_adapter([X[i : i + 5], Y[i : i + 5]] for i in (0, 5))
    assert type(adapter) is mb_data.GeneratorDataAdapter
    batch = next(iter(adapter.get_iterator()))
    assert isinstance(batch, tuple)
    np.testing.assert_array_equal(as_numpy(batch[1]), Y[:5])


def test_unsupported_input_says_what_is_accepted():
    with pytest.raises(TypeError, match=r"x of type int.*Accepted: NumPy arrays.*PyDataset"):
        mb_data.get_data_adapter(3)
    with pytest.raises(TypeError, match=r"x of type list.*numpy.asarray"):
        mb_data.get_data_adapter([1, 2, 3])


def test_a_data_adapter_is_used_as_given():
    adapter = mb_data.ArrayDataAdapter(X)
    assert mb_data.get_data_adapter(adapter) is adapter


def test_a_structure_with_a_non_array_leaf_names_that_leaf():
    with pytest.raises(TypeError, match=r"Received x\['ids'\]\[0\]: int"):
        mb_data.get_data_adapter({"pixels": X, "ids": [1, 2]})
