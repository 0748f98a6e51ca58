"""The array adapter: batching, partial batches, shuffling, structures, casts and errors."""

import numpy as np
import pytest

import mb_data
from mb_ops import backends, config


def _epoch(adapter, as_numpy):
    return [as_numpy(b) for b in adapter.get_iterator()]


def test_batches_cover_data_in_order_with_partial_last_batch(as_numpy):
    x = np.arange(10.0)
    adapter = mb_data.ArrayDataAdapter(x, x * 2, batch_size=4)
    assert (adapter.num_batches, adapter.has_partial_batch, adapter.partial_batch_size) == (
        3,
        True,
        2,
    )
    batches = _epoch(adapter, as_numpy)
    assert [len(bx) for bx, _ in batches] == [4, 4, 2]
    np.testing.assert_array_equal(np.concatenate([bx for bx, _ in batches]), x)
    np.testing.assert_array_equal(np.concatenate([by for _, by in batches]), x * 2)


def test_batch_size_defaults_to_32_or_follows_steps():
    x = np.zeros((100, 2))
    assert mb_data.ArrayDataAdapter(x).batch_size == 32
    assert mb_data.ArrayDataAdapter(x, steps=3).batch_size == 34


def test_shuffle_true_gives_a_new_permutation_each_pass(as_numpy):
    x = np.arange(50)
    adapter = mb_data.ArrayDataAdapter(x, x, batch_size=8, shuffle=True, seed=1)
    orders = []
    for _ in range(3):
        batches = _epoch(adapter, as_numpy)
        for bx, by in batches:
            np.testing.assert_array_equal(bx, by)  # x and y stay aligned
        orders.append(np.concatenate([bx for bx, _ in batches]))
    for order in orders:
        np.testing.assert_array_equal(np.sort(order), x)
    assert not np.array_equal(orders[0], orders[1])
    assert not np.array_equal(orders[1], orders[2])
    assert not np.array_equal(orders[0], x)


def test_shuffle_batch_keeps_batches_but_shuffles_within(as_numpy):
    x = np.arange(40)
    adapter = mb_data.ArrayDataAdapter(x, batch_size=10, shuffle="batch", seed=3)
    batches = _epoch(adapter, as_numpy)
    for i, batch in enumerate(batches):
        np.testing.assert_array_equal(np.sort(batch), x[i * 10 : (i + 1) * 10])
    assert any(not np.array_equal(b, np.sort(b)) for b in batches)


def test_nested_structures_are_batched_leaf_by_leaf(as_numpy):
    x = {"a": np.arange(6.0).reshape(6, 1), "b": [np.arange(6), np.ones((6, 2, 2))]}
    y = (np.arange(6), np.arange(6) * 3)
    batches = _epoch(mb_data.ArrayDataAdapter(x, y, batch_size=4), as_numpy)
    bx, by = batches[1]
    assert set(bx) == {"a", "b"} and isinstance(bx["b"], list)
    np.testing.assert_array_equal(bx["a"], x["a"][4:])
    np.testing.assert_array_equal(bx["b"][1], x["b"][1][4:])
    np.testing.assert_array_equal(by[1], y[1][4:])


def test_float64_is_fed_as_floatx_and_ints_keep_their_dtype(as_numpy):
    adapter = mb_data.ArrayDataAdapter(np.zeros((4, 2), "float64"), np.zeros(4, "int64"))
    bx, by = _epoch(adapter, as_numpy)[0]
    assert bx.dtype == np.dtype(config.floatx())
    # int64 as the backend stores it (jax without x64 keeps 32-bit integers)
    stored = as_numpy(backends.backend_module("core").convert_to_tensor(np.zeros(1, "int64")))
    assert by.dtype == stored.dtype and by.dtype.kind == "i"


def test_sample_weight_is_the_third_element_and_shared_across_outputs(as_numpy):
    x, w = np.arange(4.0), np.array([1.0, 2.0, 3.0, 4.0])
    batch = _epoch(mb_data.ArrayDataAdapter(x, x, sample_weight=w, batch_size=4), as_numpy)[0]
    np.testing.assert_array_equal(batch[2], w)
    batch = _epoch(mb_data.ArrayDataAdapter(x, (x, x), sample_weight=w, batch_size=4), as_numpy)[0]
    np.testing.assert_array_equal(batch[2][0], w)
    np.testing.assert_array_equal(batch[2][1], w)


def test_class_weight_becomes_sample_weights(as_numpy):
    y = np.array([0, 1, 1, 2])
    batch = _epoch(mb_data.ArrayDataAdapter(np.zeros(4), y, class_weight={1: 5.0}), as_numpy)[0]
    np.testing.assert_allclose(batch[2], [1.0, 5.0, 5.0, 1.0])


def test_pandas_frames_and_series_are_accepted(as_numpy):
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"a": np.arange(5.0), "b": np.arange(5.0) * 2})
    series = pd.Series(np.arange(5))
    batches = _epoch(mb_data.ArrayDataAdapter(frame, series, batch_size=5), as_numpy)
    np.testing.assert_array_equal(batches[0][0], frame.to_numpy().astype(config.floatx()))
    np.testing.assert_array_equal(batches[0][1], series.to_numpy())


@pytest.mark.parametrize("engine", ["torch", "jax", "tensorflow"])
def test_engine_tensors_are_accepted(engine, as_numpy):
    data = np.arange(12.0, dtype="float32").reshape(6, 2)
    if engine == "torch":
        torch = pytest.importorskip("torch")
        tensor = torch.from_numpy(data.copy())
    elif engine == "jax":
        jnp = pytest.importorskip("jax.numpy")
        tensor = jnp.asarray(data)
    else:
        tf = pytest.importorskip("tensorflow")
        tensor = tf.constant(data)
    adapter = mb_data.ArrayDataAdapter(tensor, batch_size=4, shuffle=True, seed=0)
    got = np.concatenate(_epoch(adapter, as_numpy))
    np.testing.assert_array_equal(np.sort(got, axis=0), data)


def test_mismatched_lengths_name_every_size():
    with pytest.raises(ValueError, match=r"x sizes: 10; y sizes: 9"):
        mb_data.ArrayDataAdapter(np.zeros(10), np.zeros(9))


def test_unsupported_leaves_are_named_with_what_is_accepted():
    with pytest.raises(TypeError, match=r"NumPy arrays.*Received y\[1\]: str"):
        mb_data.ArrayDataAdapter(np.zeros(3), (np.zeros(3), "labels"))


def test_class_weight_with_sample_weight_is_refused():
    with pytest.raises(ValueError, match="cannot be used at the same time"):
        mb_data.ArrayDataAdapter(
            np.zeros(3), np.zeros(3), sample_weight=np.ones(3), class_weight={0: 1.0}
        )


def test_bad_shuffle_value_is_refused():
    with pytest.raises(ValueError, match='True, False or "batch"'):
        mb_data.ArrayDataAdapter(np.zeros(3), shuffle="yes")


def test_numpy_iterator_gives_numpy_arrays():
    batches = list(mb_data.ArrayDataAdapter(np.arange(5), batch_size=2).get_numpy_iterator())
    assert all(isinstance(b, np.ndarray) for b in batches)
    np.testing.assert_array_equal(np.concatenate(batches), np.arange(5))
