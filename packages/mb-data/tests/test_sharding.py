"""Each process's part of every batch (`mb_data.DataSharding`), for every kind of input.

The processes are simulated: a `DataParallel` whose process count and index are set
by hand, one per "rank", each reading the same input. The real multi-process runs
are in tests/integration/test_distribution.py.
"""

import numpy as np
import pytest

import mb_data
from mb_ops.distribution import DataParallel, DeviceMesh


def _fake_rank(rank, world, auto_shard_dataset=True):
    """A DataParallel as process `rank` of `world` sees it (one device per process)."""
    devices = [f"cpu:{i}" for i in range(world)]
    distribution = DataParallel(
        device_mesh=DeviceMesh((world,), ["batch"], devices=devices),
        auto_shard_dataset=auto_shard_dataset,
    )
    distribution._num_processes, distribution._process_id = world, rank
    distribution._is_multi_process = world > 1
    return distribution


def _seen(make_input, world, epochs=2, auto_shard_dataset=True, **fit_args):
    """Per epoch, per rank: the sample indices (the input's first column) it read."""
    per_rank = []
    for rank in range(world):
        distribution = _fake_rank(rank, world, auto_shard_dataset)
        # Processes are seeded alike (mb.distribution.initialize does it; this
        # backend has no collective to share process 0's shuffling seed).
        np.random.seed(7)
        with distribution.scope():
            iterator = mb_data.EpochIterator(make_input(rank, world), **fit_args)
        iterator.sharding._place_leaf = None  # no devices to place on: backend tensors
        epochs_seen = []
        for _ in range(epochs):
            batches = []
            for _, _, chunk in iterator.enumerate_epoch():
                for batch in chunk:
                    x = batch[0] if isinstance(batch, tuple) else batch
                    batches.append(np.asarray(x)[:, 0].astype(int).tolist())
            epochs_seen.append(batches)
        per_rank.append(epochs_seen)
    return per_rank


def _check_partition(per_rank, num_samples, world, batch_size):
    """Every epoch: full batches split evenly with no sample read twice; a last batch
    that does not split evenly is read whole by every rank."""
    for epoch in range(len(per_rank[0])):
        steps = [len(rank[epoch]) for rank in per_rank]
        assert len(set(steps)) == 1, f"ranks ran different numbers of steps: {steps}"
        union = []
        for step in range(steps[0]):
            parts = [rank[epoch][step] for rank in per_rank]
            if all(part == parts[0] for part in parts) and len(parts[0]) % world:
                assert len(parts[0]) < batch_size, "only a partial last batch is read whole"
                union += parts[0]
                continue
            sizes = {len(part) for part in parts}
            assert sizes == {len(parts[0])}, f"uneven parts {parts}"
            flat = [i for part in parts for i in part]
            assert len(flat) == len(set(flat)), f"a sample read by two ranks: {parts}"
            union += flat
        assert sorted(union) == list(range(num_samples)), f"epoch {epoch} missed samples"


@pytest.mark.parametrize(
    "num_samples, world, batch_size", [(24, 2, 8), (26, 2, 8), (25, 2, 8), (31, 3, 9), (32, 3, 9)]
)
def test_arrays_are_split_per_rank_with_no_sample_read_twice(num_samples, world, batch_size):
    x = np.arange(num_samples, dtype="float32").reshape(-1, 1)
    seen = _seen(lambda r, w: x, world, batch_size=batch_size, shuffle=True)
    _check_partition(seen, num_samples, world, batch_size)
    # The ranks agree on the shuffle: each epoch's order is one permutation.
    assert seen[0][0] != seen[0][1]


def test_a_partial_batch_that_splits_evenly_is_split():
    x = np.arange(10, dtype="float32").reshape(-1, 1)
    seen = _seen(lambda r, w: x, 2, epochs=1, batch_size=8)
    assert [rank[0] for rank in seen] == [[[0, 1, 2, 3], [8]], [[4, 5, 6, 7], [9]]]


def test_a_partial_batch_that_does_not_split_is_read_whole_by_every_rank():
    x = np.arange(11, dtype="float32").reshape(-1, 1)
    seen = _seen(lambda r, w: x, 2, epochs=1, batch_size=8)
    assert [rank[0] for rank in seen] == [[[0, 1, 2, 3], [8, 9, 10]], [[4, 5, 6, 7], [8, 9, 10]]]


def test_py_datasets_and_generators_yield_global_batches_split_per_rank():
    class Indices(mb_data.PyDataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            rows = np.arange(i * 6, min(i * 6 + 6, 21), dtype="float32").reshape(-1, 1)
            return rows, rows

    _check_partition(_seen(lambda r, w: Indices(), 2, shuffle=True), 21, 2, 6)

    def generator(rank, world):
        return ((np.arange(i, i + 4, dtype="float32").reshape(-1, 1),) for i in range(0, 20, 4))

    _check_partition(_seen(generator, 2, epochs=1), 20, 2, 4)


def test_tf_datasets_are_split_per_rank():
    tf = pytest.importorskip("tensorflow")
    ds = tf.data.Dataset.from_tensor_slices(np.arange(22, dtype="float32").reshape(-1, 1))
    _check_partition(_seen(lambda r, w: ds.batch(6), 2), 22, 2, 6)


def test_a_torch_loader_with_a_distributed_sampler_is_read_as_it_shards_itself():
    torch = pytest.importorskip("torch")
    torch_data = pytest.importorskip("torch.utils.data")
    DataLoader, DistributedSampler = torch_data.DataLoader, torch_data.DistributedSampler
    TensorDataset = torch_data.TensorDataset

    data = TensorDataset(torch.arange(20, dtype=torch.float32).reshape(-1, 1))

    def loader(rank, world):
        sampler = DistributedSampler(data, num_replicas=world, rank=rank, shuffle=True, seed=1)
        return DataLoader(data, batch_size=5, sampler=sampler)

    seen = _seen(loader, 2, epochs=1)
    flat = [i for rank in seen for batch in rank[0] for i in batch]
    assert sorted(flat) == list(range(20))  # each rank its own half, batches of 5 kept
    assert [len(b) for b in seen[0][0]] == [5, 5]
    # A plain DataLoader yields global batches, which are split.
    plain = _seen(lambda r, w: DataLoader(data, batch_size=10), 2, epochs=1)
    _check_partition(plain, 20, 2, 10)


def test_grain_loaders_with_shard_options_are_read_as_they_shard_themselves():
    grain = pytest.importorskip("grain.python")
    source = np.arange(16, dtype="float32").reshape(-1, 1)

    def loader(rank, world):
        return grain.DataLoader(
            data_source=source,
            sampler=grain.IndexSampler(16, grain.NoSharding(), shuffle=False, num_epochs=1),
            operations=[grain.Batch(4)],
            shard_options=grain.ShardOptions(shard_index=rank, shard_count=world),
        )

    seen = _seen(loader, 2, epochs=1)
    flat = [i for rank in seen for batch in rank[0] for i in batch]
    assert sorted(flat) == list(range(16))
    dataset = grain.MapDataset.source(source).batch(4)  # no shard option: split by mb
    _check_partition(_seen(lambda r, w: dataset, 2, epochs=1), 16, 2, 4)


def test_auto_shard_dataset_false_leaves_each_rank_its_own_input():
    x = np.arange(12, dtype="float32").reshape(-1, 1)
    seen = _seen(lambda r, w: x[r::w], 2, epochs=1, auto_shard_dataset=False, batch_size=3)
    assert seen[0][0] == [[0, 2, 4], [6, 8, 10]] and seen[1][0] == [[1, 3, 5], [7, 9, 11]]


def test_a_batch_size_that_never_splits_is_warned_about():
    x = np.arange(16, dtype="float32").reshape(-1, 1)
    with pytest.warns(UserWarning, match="does not split evenly over the 3 model replicas"):
        seen = _seen(lambda r, w: x, 3, epochs=1, batch_size=8)
    assert seen[0][0] == seen[1][0] == [list(range(8)), list(range(8, 16))]


def test_one_process_reads_every_batch_whole():
    sharding = mb_data.DataSharding(_fake_rank(0, 1))
    assert sharding.rows(7) == (slice(0, 7), "split")
    assert mb_data.DataSharding.current() is None  # no active distribution
