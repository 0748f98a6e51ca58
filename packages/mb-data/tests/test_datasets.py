"""mb_data.datasets read files in Keras's real formats, served from 127.0.0.1, as Keras does.

The test writes small files in each data set's format (npz, gzip'd idx, CIFAR's
pickled batches in a tar.gz, word-index json), serves them from a local HTTP server,
points each loader's origin there (hash included), and compares every result with
Keras 3.15's loaders run on the same files in a subprocess.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import pickle
import struct
import tarfile

import numpy as np
import pytest

from mb_data import datasets
from mb_ops import config, testing

RNG = np.random.default_rng(0)


def _npz(**arrays) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def _idx(array: np.ndarray) -> bytes:
    magic = 2049 if array.ndim == 1 else 2051
    header = struct.pack(f">I{array.ndim}I", magic, *array.shape)
    return gzip.compress(header + array.astype(np.uint8).tobytes())


def _tar_gz(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _cifar_batch(n: int, label_keys: dict[str, int]) -> bytes:
    batch = {b"batch_label": b"a batch", b"data": RNG.integers(0, 256, (n, 3072), dtype=np.uint8)}
    for key, classes in label_keys.items():
        batch[key.encode()] = [int(v) for v in RNG.integers(0, classes, n)]
    batch[b"filenames"] = [f"img_{i}.png".encode() for i in range(n)]
    return pickle.dumps(batch, protocol=4)


def _unpickle(data: bytes) -> dict:
    return pickle.loads(data)


def _sequences(n: int, vocabulary: int) -> np.ndarray:
    out = np.empty(n, dtype=object)
    for i in range(n):
        out[i] = [int(w) for w in RNG.integers(1, vocabulary, RNG.integers(3, 25))]
    return out


def _files() -> dict[str, bytes]:
    cifar10 = {
        f"cifar-10-batches-py/data_batch_{i}": _cifar_batch(4, {"labels": 10}) for i in range(1, 6)
    }
    cifar10["cifar-10-batches-py/test_batch"] = _cifar_batch(3, {"labels": 10})
    cifar100_keys = {"fine_labels": 100, "coarse_labels": 20}
    return {
        "mnist.npz": _npz(
            x_train=RNG.integers(0, 256, (12, 28, 28), dtype=np.uint8),
            y_train=RNG.integers(0, 10, 12, dtype=np.uint8),
            x_test=RNG.integers(0, 256, (5, 28, 28), dtype=np.uint8),
            y_test=RNG.integers(0, 10, 5, dtype=np.uint8),
        ),
        "train-labels-idx1-ubyte.gz": _idx(RNG.integers(0, 10, 7)),
        "train-images-idx3-ubyte.gz": _idx(RNG.integers(0, 256, (7, 28, 28))),
        "t10k-labels-idx1-ubyte.gz": _idx(RNG.integers(0, 10, 3)),
        "t10k-images-idx3-ubyte.gz": _idx(RNG.integers(0, 256, (3, 28, 28))),
        "cifar-10-python.tar.gz": _tar_gz(cifar10),
        "cifar-100-python.tar.gz": _tar_gz(
            {
                "cifar-100-python/train": _cifar_batch(6, cifar100_keys),
                "cifar-100-python/test": _cifar_batch(4, cifar100_keys),
            }
        ),
        "imdb.npz": _npz(
            x_train=_sequences(30, 40),
            y_train=RNG.integers(0, 2, 30),
            x_test=_sequences(20, 40),
            y_test=RNG.integers(0, 2, 20),
        ),
        "imdb_word_index.json": json.dumps({f"w{i}": i for i in range(1, 40)}).encode(),
        "reuters.npz": _npz(x=_sequences(40, 50), y=RNG.integers(0, 46, 40)),
        "reuters_word_index.json": json.dumps({f"r{i}": i for i in range(1, 50)}).encode(),
        "boston_housing.npz": _npz(x=RNG.random((30, 13)), y=RNG.random(30) * 50),
        "california_housing.npz": _npz(x=RNG.random((650, 8)), y=RNG.random(650) * 5e5),
    }


# (module, origin attribute, hash attribute, file)
_ORIGINS = [
    ("mnist", "_ORIGIN", "_FILE_HASH", "mnist.npz"),
    ("cifar10", "_ORIGIN", "_FILE_HASH", "cifar-10-python.tar.gz"),
    ("cifar100", "_ORIGIN", "_FILE_HASH", "cifar-100-python.tar.gz"),
    ("imdb", "_ORIGIN", "_FILE_HASH", "imdb.npz"),
    ("imdb", "_WORD_INDEX_ORIGIN", "_WORD_INDEX_HASH", "imdb_word_index.json"),
    ("reuters", "_ORIGIN", "_FILE_HASH", "reuters.npz"),
    ("reuters", "_WORD_INDEX_ORIGIN", "_WORD_INDEX_HASH", "reuters_word_index.json"),
    ("boston_housing", "_ORIGIN", "_FILE_HASH", "boston_housing.npz"),
    ("california_housing", "_ORIGIN", "_FILE_HASH", "california_housing.npz"),
]

# (loader, kwargs): every call is made by mb and by Keras on the same files. (Keras's
# cifar10 assumes 10,000 images per batch file, too big to write here: it is checked
# against NumPy below.)
CALLS = [
    ("mnist.load_data", {}),
    ("fashion_mnist.load_data", {}),
    ("cifar100.load_data", {}),
    ("cifar100.load_data", {"label_mode": "coarse"}),
    ("imdb.load_data", {}),
    ("imdb.load_data", {"num_words": 20, "skip_top": 2, "maxlen": 15, "seed": 7}),
    ("imdb.load_data", {"start_char": None, "oov_char": None, "index_from": 0, "num_words": 9}),
    ("imdb.get_word_index", {}),
    ("reuters.load_data", {}),
    ("reuters.load_data", {"num_words": 15, "maxlen": 12, "test_split": 0.3, "oov_char": 5}),
    ("reuters.get_word_index", {}),
    ("reuters.get_label_names", {}),
    ("boston_housing.load_data", {}),
    ("boston_housing.load_data", {"test_split": 0.1, "seed": 1}),
    ("california_housing.load_data", {}),
    ("california_housing.load_data", {"version": "small", "test_split": 0.25}),
]

_KERAS_SCRIPT = """
import os, pickle, sys
import keras
from keras.src.utils import file_utils
import keras.src.datasets.{modules} as _
url, cache, calls, out = sys.argv[1], sys.argv[2], eval(sys.argv[3]), sys.argv[4]
def local_get_file(fname=None, origin=None, file_hash=None, **kwargs):
    origin = url + "/" + origin.rsplit("/", 1)[1]
    return file_utils.get_file(fname, origin, cache_dir=cache, **kwargs)
for name in {names!r}:
    module = getattr(keras.src.datasets, name)
    module.get_file = local_get_file
results = []
for loader, kwargs in calls:
    module, fn = loader.split(".")
    results.append(getattr(getattr(keras.datasets, module), fn)(**kwargs))
with open(out, "wb") as f:
    pickle.dump(results, f)
"""


@pytest.fixture(name="served")
def _served(http_server, monkeypatch, tmp_path):
    for name, data in _files().items():
        (http_server.root / name).write_bytes(data)
    for module, origin_attr, hash_attr, name in _ORIGINS:
        data = (http_server.root / name).read_bytes()
        digest = hashlib.md5(data) if "WORD" in hash_attr else hashlib.sha256(data)
        monkeypatch.setattr(getattr(datasets, module), origin_attr, f"{http_server.url}/{name}")
        monkeypatch.setattr(getattr(datasets, module), hash_attr, digest.hexdigest())
    monkeypatch.setattr(datasets.fashion_mnist, "_ORIGIN_FOLDER", f"{http_server.url}/")
    monkeypatch.setenv("MB_HOME", str(tmp_path / "mb_home"))
    return http_server


def _call(loader):
    module, fn = loader.split(".")
    return getattr(getattr(datasets, module), fn)


def _assert_same(ours, theirs, where):
    if isinstance(theirs, (tuple, list)) and not isinstance(theirs, np.ndarray):
        assert type(ours) is type(theirs) and len(ours) == len(theirs), where
        for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            _assert_same(a, b, f"{where}[{i}]")
    elif isinstance(theirs, np.ndarray):
        assert isinstance(ours, np.ndarray), where
        assert (ours.shape, ours.dtype) == (theirs.shape, theirs.dtype), where
        if theirs.dtype == object:
            assert [list(s) for s in ours] == [list(s) for s in theirs], where
        else:
            np.testing.assert_array_equal(ours, theirs, err_msg=where)
    else:
        assert ours == theirs, where


def test_every_loader_matches_keras_on_the_same_files(served, tmp_path):
    modules = sorted({loader.split(".")[0] for loader, _ in CALLS})
    script = _KERAS_SCRIPT.format(modules=", keras.src.datasets.".join(modules), names=modules)
    out = tmp_path / "keras.pkl"
    testing.run_keras(
        script,
        served.url,
        str(tmp_path / "keras_cache"),
        repr(CALLS),
        str(out),
        backend="numpy",
        KERAS_HOME=str(tmp_path / "keras_home"),
    )
    with open(out, "rb") as f:
        expected = pickle.load(f)
    for (loader, kwargs), theirs in zip(CALLS, expected, strict=True):
        _assert_same(_call(loader)(**kwargs), theirs, f"{loader}(**{kwargs})")


def test_files_land_in_keras_cache_layout_and_are_reused(served, tmp_path):
    datasets.mnist.load_data()
    datasets.cifar10.load_data()
    datasets.fashion_mnist.load_data()
    home = tmp_path / "mb_home" / "datasets"
    assert (home / "mnist.npz").is_file()
    assert (home / "cifar-10-batches-py-target_archive").is_file()
    assert (home / "cifar-10-batches-py-target" / "cifar-10-batches-py" / "test_batch").is_file()
    assert (home / "fashion-mnist" / "t10k-images-idx3-ubyte.gz").is_file()
    asked = len(served.requests)
    (x_train, _), _ = datasets.mnist.load_data()
    datasets.cifar10.load_data()
    assert len(served.requests) == asked  # the second time, all from the cache
    assert x_train.shape == (12, 28, 28) and x_train.dtype == np.uint8


def test_cifar10_assembles_the_batches_in_order(served):
    members = {}
    with tarfile.open(
        fileobj=io.BytesIO((served.root / "cifar-10-python.tar.gz").read_bytes())
    ) as t:
        for info in t:
            members[os.path.basename(info.name)] = _unpickle(t.extractfile(info).read())
    train = [members[f"data_batch_{i}"] for i in range(1, 6)]
    x_ref = np.concatenate([b[b"data"] for b in train]).reshape(-1, 3, 32, 32)
    y_ref = np.concatenate([b[b"labels"] for b in train]).astype(np.uint8)[:, None]
    (x_train, y_train), (x_test, y_test) = datasets.cifar10.load_data()
    np.testing.assert_array_equal(x_train, x_ref.transpose(0, 2, 3, 1))
    np.testing.assert_array_equal(y_train, y_ref)
    test = members["test_batch"]
    np.testing.assert_array_equal(
        x_test, test[b"data"].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
    )
    assert y_test.tolist() == [[v] for v in test[b"labels"]]
    assert (x_train.dtype, y_train.dtype, x_test.dtype, y_test.dtype) == (np.uint8,) * 4


def test_cifar_follows_channels_first(served):
    before = config.image_data_format()
    config.set_image_data_format("channels_first")
    try:
        (x_first, _), _ = datasets.cifar10.load_data()
    finally:
        config.set_image_data_format(before)
    (x_last, y), _ = datasets.cifar10.load_data()
    assert x_first.shape == (20, 3, 32, 32) and x_last.shape == (20, 32, 32, 3)
    np.testing.assert_array_equal(x_first.transpose(0, 2, 3, 1), x_last)
    assert y.shape == (20, 1) and y.dtype == np.uint8


def test_a_tampered_pickle_is_refused(served, tmp_path):
    class Evil:
        def __reduce__(self):
            return (os.system, ("echo pwned",))

    data = _npz(x=np.array([Evil()], dtype=object), y=np.zeros(1))
    (served.root / "reuters.npz").write_bytes(data)
    datasets.reuters._FILE_HASH = hashlib.sha256(data).hexdigest()
    with pytest.raises(pickle.UnpicklingError, match=r"Refusing to load posix\.system"):
        datasets.reuters.load_data()


def test_bad_arguments_are_clear_errors(served):
    with pytest.raises(ValueError, match="label_mode"):
        datasets.cifar100.load_data(label_mode="medium")
    with pytest.raises(ValueError, match="test_split"):
        datasets.boston_housing.load_data(test_split=1.0)
    with pytest.raises(ValueError, match="version"):
        datasets.california_housing.load_data(version="huge")
    with pytest.raises(ValueError, match="Increase maxlen"):
        datasets.imdb.load_data(maxlen=2)
    with pytest.warns(UserWarning, match="nb_words"):
        datasets.imdb.load_data(nb_words=10)
