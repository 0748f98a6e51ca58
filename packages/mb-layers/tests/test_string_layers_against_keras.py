"""Hashing, lookup and text layers against Keras 3 (with TensorFlow) in one subprocess.

Each case is an mb layer's serialized config (so Keras reading mb's configs
is checked too), optional `adapt` data and the call inputs. Keras runs every
case once in a child process; the mb layer runs the same case here, without
TensorFlow, and the outputs (and learned vocabularies) must be equal.
"""

import json
import os
import tempfile

import numpy as np
import pytest

from mb_layers import layers
from mb_layers.layers._fingerprint import fingerprint64, siphash64
from mb_ops import ops, testing

_SCRIPT = r"""
import json, sys
import numpy as np
import keras
import tensorflow as tf

def arg(spec):
    if spec["dtype"] == "string":
        return spec["value"]
    return np.asarray(spec["value"], dtype=spec["dtype"])

def plain(x):
    x = x.numpy() if hasattr(x, "numpy") else np.asarray(x)
    if x.dtype == object:
        return np.vectorize(lambda v: v.decode() if isinstance(v, bytes) else v, otypes=[object])(
            x).tolist()
    return x.tolist()

results = []
for case in json.load(open(sys.argv[1])):
    if case["kind"] == "hash":
        values = tf.constant([bytes.fromhex(v) for v in case["values"]])
        if case["key"] is None:
            out = tf.strings.to_hash_bucket_fast(values, case["buckets"])
        else:
            out = tf.strings.to_hash_bucket_strong(values, case["buckets"], key=case["key"])
        results.append({"output": plain(out)})
        continue
    config = dict(case["config"])
    config.pop("build_config", None)
    layer = keras.layers.deserialize(config)
    if case["adapt"] is not None:
        layer.adapt(arg(case["adapt"]))
    if case["multi"]:
        out = layer([arg(s) for s in case["inputs"]])
    else:
        out = layer(arg(case["inputs"]))
    vocab = layer.get_vocabulary() if hasattr(layer, "get_vocabulary") else None
    if vocab is not None:
        vocab = [v.item() if hasattr(v, "item") else v for v in vocab]
    results.append({"output": plain(out), "vocabulary": vocab})
json.dump(results, open(sys.argv[2], "w"))
"""

RNG = np.random.default_rng(0)
WORDS = ["the", "cat", "sat", "on", "mat", "dog", "ate", "héllo", "", "[UNK]"]
TEXT = ["The cat sat on the mat.", "The dog ate the cat!", "héllo, WORLD", "a  b\tc", ""]
_STRINGS = [[w] for w in WORDS] + [["a much longer string that needs the loop of farmhash" * 2]]


def _spec(value, dtype="string"):
    if dtype != "string":
        value = np.asarray(value).tolist()
    return {"dtype": dtype, "value": value}


def _layer_case(layer, inputs, dtype="string", adapt=None, adapt_dtype="string", multi=False):
    return {
        "kind": "layer",
        "config": layers.serialize(layer),
        "adapt": None if adapt is None else _spec(adapt, adapt_dtype),
        "inputs": [_spec(v, d) for v, d in zip(inputs, dtype, strict=True)]
        if multi
        else _spec(inputs, dtype),
        "multi": multi,
    }


def _hash_values():
    lengths = [*range(0, 80), 100, 127, 128, 129, 300]
    return [bytes(RNG.integers(0, 256, n, dtype=np.uint8)) for n in lengths]


HASH_VALUES = _hash_values()


def _cases():
    """(name, case, mb layer, mb adapt data, mb inputs)."""
    out = []

    def add(name, layer, inputs, dtype="string", adapt=None, adapt_dtype="string", multi=False):
        case = _layer_case(layer, inputs, dtype, adapt, adapt_dtype, multi)
        out.append((name, case, layer, adapt, inputs, dtype))

    add("hashing", layers.Hashing(7), _STRINGS)
    add("hashing_mask", layers.Hashing(5, mask_value=""), _STRINGS)
    add("hashing_salt", layers.Hashing(11, salt=[133, 137]), _STRINGS)
    add("hashing_one_salt", layers.Hashing(11, salt=42), _STRINGS)
    add("hashing_ints", layers.Hashing(13), [[3, -7], [123456789, 0]], "int64")
    add("hashing_int_mask", layers.Hashing(4, mask_value=0), [[3, 0], [0, 9]], "int64")
    add("hashing_floats", layers.Hashing(13), [[3.7, -7.2]], "float32")
    add("hashing_multi_hot", layers.Hashing(6, output_mode="multi_hot"), [WORDS[:4], WORDS[4:8]])
    add("hashing_count", layers.Hashing(6, output_mode="count"), [WORDS[:4], WORDS[4:8]])
    add("hashing_one_hot", layers.Hashing(6, output_mode="one_hot"), [[w] for w in WORDS[:6]])
    ints = np.array([[1], [-2], [5], [123456789012]])
    strs = [["A"], ["B"], ["hello world"], ["héllo"]]
    add("cross", layers.HashedCrossing(1000), [strs, ints], ("string", "int64"), multi=True)
    add("cross_rev", layers.HashedCrossing(97), [ints, strs], ("int64", "string"), multi=True)
    add(
        "cross_one_hot",
        layers.HashedCrossing(5, output_mode="one_hot"),
        [ints[:, 0], ints[:, 0] * 3],
        ("int64", "int64"),
        multi=True,
    )
    batch = [["the", "cat", "zebra"], ["", "mat", "the"]]
    vocab = ["the", "cat", "sat", "mat"]
    add("string_lookup", layers.StringLookup(vocabulary=vocab), batch)
    add("string_oov3", layers.StringLookup(vocabulary=vocab, num_oov_indices=3), batch)
    add("string_mask", layers.StringLookup(vocabulary=vocab, mask_token=""), batch)
    add(
        "string_salt",
        layers.StringLookup(vocabulary=vocab, num_oov_indices=4, salt=7),
        [["zebra", "yak", "x", "w"]],
    )
    add(
        "string_invert",
        layers.StringLookup(vocabulary=vocab, invert=True, mask_token="[M]"),
        [[0, 1, 2, 5, 6, -1]],
        "int64",
    )
    for mode in ("one_hot", "multi_hot", "count"):
        add(
            f"string_{mode}",
            layers.StringLookup(vocabulary=vocab, output_mode=mode, mask_token=""),
            [["the"], ["zebra"], [""]] if mode == "one_hot" else batch,
        )
    add(
        "string_tf_idf_given",
        layers.StringLookup(
            vocabulary=vocab, idf_weights=[0.5, 1.0, 1.5, 2.0], output_mode="tf_idf"
        ),
        batch,
    )
    corpus = [["a", "b", "b", "c"], ["b", "c", "d", "e"], ["e", "e", "e", "a"]]
    add("string_adapt", layers.StringLookup(max_tokens=5), batch, adapt=corpus)
    add(
        "string_adapt_tf_idf",
        layers.StringLookup(output_mode="tf_idf", pad_to_max_tokens=True, max_tokens=9),
        [["a", "e", "zebra"]],
        adapt=corpus,
    )
    add(
        "string_adapt_1d",
        layers.StringLookup(output_mode="count"),
        [["a", "b"]],
        adapt=["a", "b", "b", "c"],
    )
    int_batch = [[5, 7, 11, 0], [-3, 9, 5, 12]]
    add("int_lookup", layers.IntegerLookup(vocabulary=[5, 7, 9]), int_batch, "int64")
    add(
        "int_oov_mask",
        layers.IntegerLookup(vocabulary=[5, 7, 9], num_oov_indices=3, mask_token=0),
        int_batch,
        "int64",
    )
    add(
        "int_farmhash",
        layers.IntegerLookup(vocabulary=[5, 7, 9], num_oov_indices=3, oov_method="farmhash"),
        int_batch,
        "int64",
    )
    add(
        "int_invert",
        layers.IntegerLookup(vocabulary=[5, 7, 9], invert=True),
        [[0, 1, 2, 3, 4]],
        "int64",
    )
    add(
        "int_adapt_multi_hot",
        layers.IntegerLookup(output_mode="multi_hot", max_tokens=4),
        int_batch,
        "int64",
        adapt=[[1, 2, 2, 3], [3, 3, 4, 9]],
        adapt_dtype="int64",
    )
    add("text", layers.TextVectorization(), TEXT, adapt=TEXT)
    add(
        "text_ngrams",
        layers.TextVectorization(ngrams=(1, 3), output_sequence_length=6, max_tokens=12),
        TEXT,
        adapt=TEXT,
    )
    add(
        "text_chars",
        layers.TextVectorization(split="character", standardize="lower"),
        [[t] for t in TEXT],
        adapt=TEXT,
    )
    for mode in ("multi_hot", "count", "tf_idf"):
        add(
            f"text_{mode}",
            layers.TextVectorization(output_mode=mode, ngrams=2, standardize="strip_punctuation"),
            TEXT,
            adapt=TEXT,
        )
    add(
        "text_vocabulary",
        layers.TextVectorization(vocabulary=["the", "cat", "dog"], output_sequence_length=3),
        TEXT,
    )
    return out


CASES = _cases()


def _hash_cases():
    hexes = [v.hex() for v in HASH_VALUES]
    return [
        {"kind": "hash", "values": hexes, "buckets": 2**62 + 11, "key": None},
        {"kind": "hash", "values": hexes, "buckets": 2**62 + 11, "key": [2**62 + 5, 12345]},
    ]


@pytest.fixture(scope="module")
def keras_results():
    with tempfile.TemporaryDirectory() as folder:
        cases_path = os.path.join(folder, "cases.json")
        results_path = os.path.join(folder, "results.json")
        with open(cases_path, "w") as f:
            json.dump(_hash_cases() + [c for _, c, *_ in CASES], f)
        testing.run_keras(_SCRIPT, cases_path, results_path, backend="tensorflow")
        with open(results_path) as f:
            return json.load(f)


def test_farmhash_and_siphash_match_tensorflow(keras_results):
    farm, sip = keras_results[0]["output"], keras_results[1]["output"]
    buckets = np.uint64(2**62 + 11)
    np.testing.assert_array_equal(fingerprint64(HASH_VALUES) % buckets, np.asarray(farm, "uint64"))
    ours = siphash64(HASH_VALUES, [2**62 + 5, 12345]) % buckets
    np.testing.assert_array_equal(ours, np.asarray(sip, "uint64"))


def _mb_input(value, dtype):
    return value if dtype == "string" else np.asarray(value, dtype=dtype)


@pytest.mark.parametrize("index", range(len(CASES)), ids=[c[0] for c in CASES])
def test_layer_matches_keras(keras_results, index):
    name, case, layer, adapt, inputs, dtype = CASES[index]
    expected = keras_results[2 + index]
    if adapt is not None:
        layer.adapt(adapt)
    if case["multi"]:
        got = layer([_mb_input(v, d) for v, d in zip(inputs, dtype, strict=True)])
    else:
        got = layer(_mb_input(inputs, dtype))
    if isinstance(got, np.ndarray) and got.dtype.kind in "UO":  # strings from invert=True
        assert got.tolist() == expected["output"], name
    else:
        got = np.asarray(ops.convert_to_numpy(got), "float64")
        np.testing.assert_allclose(got, expected["output"], atol=1e-6, err_msg=name)
    if expected["vocabulary"] is not None:
        assert layer.get_vocabulary() == expected["vocabulary"], name


@pytest.mark.parametrize(
    "index",
    [i for i, c in enumerate(CASES) if c[3] is not None],
    ids=[c[0] for c in CASES if c[3] is not None],
)
def test_adapted_config_inlines_the_vocabulary(keras_results, index):
    """An adapted layer's config holds its vocabulary: a layer rebuilt from it needs no data."""
    name, _, layer, adapt, inputs, dtype = CASES[index]
    layer.adapt(adapt)
    revived = layers.deserialize(json.loads(json.dumps(layers.serialize(layer))))
    assert revived.get_vocabulary() == keras_results[2 + index]["vocabulary"], name
    got = ops.convert_to_numpy(revived(_mb_input(inputs, dtype)))
    np.testing.assert_allclose(got, keras_results[2 + index]["output"], atol=1e-6)
