"""`FeatureSpace` (``keras.utils.FeatureSpace``): preprocessing and encoding of structured data.

Each feature is a preprocessing layer (``Normalization``, ``StringLookup``,
``Hashing``, ...), crosses are ``HashedCrossing`` layers, categorical outputs
are multi-hot encoded by ``CategoryEncoding`` layers and concatenated (or
returned as a dict), in Keras 3's order: features sorted by name, then crosses
sorted by name.

Keras runs this on TensorFlow whatever the backend. mb runs it on the host
and the active backend (strings stay NumPy, as in mb's string layers), so it
needs no TensorFlow and returns the active backend's tensors; inside a
``tf.data`` pipeline (``dataset.map(feature_space)``) it runs through
``tf.numpy_function`` (`_feature_space_tf`, imported only then) and returns
TensorFlow tensors, as Keras's does. The ``.keras`` file is Keras's (same
config, weight paths and vocabulary assets), so files move both ways.
"""

import numpy as np

from mb_graph.naming import auto_name
from mb_layers import _registry, _saving_hook
from mb_layers._input_layer import Input
from mb_layers._layer import Layer
from mb_layers._ops import ops
from mb_layers.layers import (
    CategoryEncoding,
    Discretization,
    HashedCrossing,
    Hashing,
    IntegerLookup,
    Normalization,
    Rescaling,
    StringLookup,
    TextVectorization,
    _host_data,
)
from mb_layers.layers._preprocessing import _Preprocessing

# Where Keras 3 defines these classes: the module its files name them by.
KERAS_MODULE = "keras.src.layers.preprocessing.feature_space"
_FEATURE_MODES = ("int", "one_hot", "float")
_CROSS_MODES = ("int", "one_hot")
# The unbatched elements of a dataset are batched by this many for `adapt`, as Keras does.
_ADAPT_BATCH = 32


def _object_dict(obj, class_name):
    return {
        "module": KERAS_MODULE,
        "class_name": class_name,
        "config": obj.get_config(),
        "registered_name": class_name,
    }


def _revive(value, expected):
    """A `Feature` or `Cross` from its config dict (as Keras writes it), else `value` as is."""
    if not isinstance(value, dict):
        return value
    if value.get("class_name") != expected.__name__ or not isinstance(value.get("config"), dict):
        raise ValueError(
            f"Expected a serialized {expected.__name__} (a dict with class_name "
            f"'{expected.__name__}' and a 'config'). Received: {value!r}."
        )
    return expected.from_config(value["config"])


class Cross:
    """A cross of features, hashed into `crossing_dim` bins (``FeatureSpace.cross``)."""

    def __init__(self, feature_names, crossing_dim, output_mode="one_hot"):
        if output_mode not in _CROSS_MODES:
            raise ValueError(
                "Invalid value for argument `output_mode`. Expected one of "
                f"{{'int', 'one_hot'}}. Received: output_mode={output_mode!r}"
            )
        self.feature_names = tuple(feature_names)
        self.crossing_dim = crossing_dim
        self.output_mode = output_mode

    @property
    def name(self):
        """``"a_X_b"`` for the cross of features ``a`` and ``b``."""
        return "_X_".join(self.feature_names)

    def get_config(self):
        return {
            "feature_names": self.feature_names,
            "crossing_dim": self.crossing_dim,
            "output_mode": self.output_mode,
        }

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class Feature:
    """One feature: its input dtype, its preprocessing layer and how its output is encoded."""

    def __init__(self, dtype, preprocessor, output_mode):
        if output_mode not in _FEATURE_MODES:
            raise ValueError(
                "Invalid value for argument `output_mode`. Expected one of "
                f"{{'int', 'one_hot', 'float'}}. Received: output_mode={output_mode!r}"
            )
        self.dtype = dtype
        if isinstance(preprocessor, dict):
            preprocessor = _registry.deserialize(preprocessor)
        if not isinstance(preprocessor, Layer):
            raise TypeError(
                "A feature's `preprocessor` must be a layer (e.g. "
                f"mb.layers.StringLookup()). Received: {preprocessor!r}."
            )
        self.preprocessor = preprocessor
        self.output_mode = output_mode

    def get_config(self):
        return {
            "dtype": self.dtype,
            "preprocessor": _registry.serialize(self.preprocessor),
            "output_mode": self.output_mode,
        }

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class TFDIdentity(_Preprocessing):
    """The preprocessor of ``"float"`` features: passes its input through."""

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def compute_output_spec(self, inputs):
        return inputs


class TFDConcat(_Preprocessing):
    """Concatenates the encoded features (the ``concat`` of ``output_mode="concat"``)."""

    def __init__(self, axis, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, xs):
        return ops.concatenate(list(xs), axis=self.axis)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


_registry.register_builtin(TFDIdentity, module=KERAS_MODULE, registered_name="TFDIdentity")
_registry.register_builtin(TFDConcat, module=KERAS_MODULE, registered_name="TFDConcat")


def _is_tf_tensor(x):
    # Data from a tf.data pipeline: recognized by type, so TensorFlow is imported only then.
    return type(x).__module__.startswith("tensorflow")


def _host(x, name):
    """A feature's values as a NumPy array (strings as str/bytes)."""
    if _is_tf_tensor(x) and hasattr(x, "numpy"):
        return np.asarray(x.numpy())
    return _host_data.to_host(x, f"FeatureSpace (feature '{name}')")


def _batches(dataset):
    """The elements of `dataset` (a tf.data.Dataset, a PyDataset, a grain dataset, a list,
    any iterable of dicts)."""
    num_batches = getattr(dataset, "num_batches", None)
    if hasattr(dataset, "__getitem__") and isinstance(num_batches, int):
        for i in range(num_batches):
            yield dataset[i]
        return
    yield from dataset


def _features_of(element):
    """The dict of features of one dataset element (``x`` of an ``(x, y)`` element too)."""
    if isinstance(element, (tuple, list)) and element and isinstance(element[0], dict):
        element = element[0]
    if not isinstance(element, dict):
        raise ValueError(
            "FeatureSpace.adapt() needs a dataset whose elements are dicts mapping feature "
            f"names to values. Received an element of type {type(element).__name__}."
        )
    return element


def _cardinality(layer):
    if isinstance(layer, (IntegerLookup, StringLookup)):
        return layer.vocabulary_size()
    if isinstance(layer, CategoryEncoding):
        return layer.num_tokens
    if isinstance(layer, Discretization):
        if layer.num_bins is not None:
            return layer.num_bins
        return len(layer.bin_boundaries) + 1 if layer.bin_boundaries is not None else None
    if isinstance(layer, (HashedCrossing, Hashing)):
        return layer.num_bins
    return False


def _categorical(lookup, dtype, kind, max_tokens, num_oov_indices, output_mode, name):
    """A categorical feature of `dtype` indexed by a `lookup` layer (`kind` names it)."""
    name = name or auto_name(kind)
    preprocessor = lookup(
        name=f"{name}_preprocessor", max_tokens=max_tokens, num_oov_indices=num_oov_indices
    )
    return Feature(dtype=dtype, preprocessor=preprocessor, output_mode=output_mode)


class FeatureSpace(Layer):
    """One-stop preprocessing and encoding of structured data (``keras.utils.FeatureSpace``).

    Args:
        features: dict feature name -> feature type, a string
            (``"float"``, ``"float_rescaled"``, ``"float_normalized"``,
            ``"float_discretized"``, ``"integer_categorical"``,
            ``"string_categorical"``, ``"integer_hashed"``, ``"string_hashed"``)
            or a feature made by the static constructors (``FeatureSpace.float_normalized()``).
        output_mode: ``"concat"`` (one vector per sample) or ``"dict"`` (one
            encoded tensor per feature and cross).
        crosses: features to cross, e.g. ``[("a", "b")]`` or ``FeatureSpace.cross(...)``.
        crossing_dim: the number of bins of crosses given as tuples.
        hashing_dim: the number of bins of ``"*_hashed"`` features given by name.
        num_discretization_bins: the bins of ``"float_discretized"`` features given by name.
        name: the layer's name.

    Call `adapt(dataset)` first (a ``tf.data.Dataset``, a dict of arrays, a
    PyDataset or any iterable of dicts of batches), then call it on a dict of
    batches (or of single values), map it over a ``tf.data`` pipeline
    (``ds.map(feature_space)``), or use `get_inputs` / `get_encoded_features`
    to build a functional model.

    Example:

    >>> data = {"x": [0.0, 1.0, 2.0], "c": ["a", "b", "a"]}
    >>> fs = FeatureSpace({"x": "float_normalized", "c": "string_categorical"})
    >>> fs.adapt(data)
    >>> tuple(fs(data).shape)
    (3, 4)
    """

    @classmethod
    def cross(cls, feature_names, crossing_dim, output_mode="one_hot"):
        """A cross of `feature_names` hashed into `crossing_dim` bins."""
        return Cross(feature_names, crossing_dim, output_mode=output_mode)

    @classmethod
    def feature(cls, dtype, preprocessor, output_mode):
        """A feature preprocessed by your own layer (`output_mode`: int, one_hot or float)."""
        return Feature(dtype, preprocessor, output_mode)

    @classmethod
    def float(cls, name=None):
        """Float values, passed through."""
        name = name or auto_name("float")
        preprocessor = TFDIdentity(dtype="float32", name=f"{name}_preprocessor")
        return Feature(dtype="float32", preprocessor=preprocessor, output_mode="float")

    @classmethod
    def float_rescaled(cls, scale=1.0, offset=0.0, name=None):
        """Float values as ``x * scale + offset`` (a ``Rescaling`` layer)."""
        name = name or auto_name("float_rescaled")
        preprocessor = Rescaling(scale=scale, offset=offset, name=f"{name}_preprocessor")
        return Feature(dtype="float32", preprocessor=preprocessor, output_mode="float")

    @classmethod
    def float_normalized(cls, name=None):
        """Float values standardized with the mean and variance `adapt` learns."""
        name = name or auto_name("float_normalized")
        preprocessor = Normalization(axis=-1, name=f"{name}_preprocessor")
        return Feature(dtype="float32", preprocessor=preprocessor, output_mode="float")

    @classmethod
    def float_discretized(cls, num_bins, bin_boundaries=None, output_mode="one_hot", name=None):
        """Float values bucketed into `num_bins` quantile bins (or by `bin_boundaries`)."""
        name = name or auto_name("float_discretized")
        preprocessor = Discretization(
            num_bins=num_bins, bin_boundaries=bin_boundaries, name=f"{name}_preprocessor"
        )
        return Feature(dtype="float32", preprocessor=preprocessor, output_mode=output_mode)

    @classmethod
    def integer_categorical(
        cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot", name=None
    ):
        """Integer categories, indexed by the vocabulary `adapt` learns."""
        lookup = IntegerLookup, "int32", "integer_categorical"
        return _categorical(*lookup, max_tokens, num_oov_indices, output_mode, name)

    @classmethod
    def string_categorical(
        cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot", name=None
    ):
        """String categories, indexed by the vocabulary `adapt` learns."""
        lookup = StringLookup, "string", "string_categorical"
        return _categorical(*lookup, max_tokens, num_oov_indices, output_mode, name)

    @classmethod
    def string_hashed(cls, num_bins, output_mode="one_hot", name=None):
        """Strings hashed into `num_bins` bins."""
        name = name or auto_name("string_hashed")
        preprocessor = Hashing(name=f"{name}_preprocessor", num_bins=num_bins)
        return Feature(dtype="string", preprocessor=preprocessor, output_mode=output_mode)

    @classmethod
    def integer_hashed(cls, num_bins, output_mode="one_hot", name=None):
        """Integers hashed into `num_bins` bins."""
        name = name or auto_name("integer_hashed")
        preprocessor = Hashing(name=f"{name}_preprocessor", num_bins=num_bins)
        return Feature(dtype="int32", preprocessor=preprocessor, output_mode=output_mode)

    def __init__(
        self,
        features,
        output_mode="concat",
        crosses=None,
        crossing_dim=32,
        hashing_dim=32,
        num_discretization_bins=32,
        name=None,
    ):
        super().__init__(name=name)
        if not features:
            raise ValueError(
                "The `features` argument cannot be None or empty: give a dict of feature "
                "name -> feature type, e.g. {'age': 'float_normalized'}."
            )
        if not isinstance(features, dict):
            raise TypeError(
                "`features` must be a dict of feature name -> feature type. "
                f"Received: {type(features).__name__}."
            )
        if output_mode not in ("dict", "concat"):
            raise ValueError(
                "Invalid value for argument `output_mode`. Expected one of "
                f"{{'dict', 'concat'}}. Received: output_mode={output_mode!r}"
            )
        self.crossing_dim = crossing_dim
        self.hashing_dim = hashing_dim
        self.num_discretization_bins = num_discretization_bins
        self.output_mode = output_mode
        self.features = {n: self._standardize_feature(n, v) for n, v in features.items()}
        self.crosses = [self._standardize_cross(c, set(features)) for c in crosses or ()]
        self.crosses_by_name = {cross.name: cross for cross in self.crosses}
        self.inputs = {
            n: Input(shape=(1,), dtype=f.dtype, name=n) for n, f in self.features.items()
        }
        self.preprocessors = {n: f.preprocessor for n, f in self.features.items()}
        self.encoded_features = None
        self.crossers = {c.name: HashedCrossing(c.crossing_dim, name=c.name) for c in self.crosses}
        self.one_hot_encoders = {}
        self._is_adapted = False
        self.concat = None
        self._preprocessed_features_names = None
        self._crossed_features_names = None
        self._sublayers_built = False

    # ----- construction --------------------------------------------------------------

    def _standardize_feature(self, name, feature):
        if isinstance(feature, Feature):
            return feature
        if isinstance(feature, dict):
            return _revive(feature, Feature)
        makers = {
            "float": lambda: self.float(name=name),
            "float_normalized": lambda: self.float_normalized(name=name),
            "float_rescaled": lambda: self.float_rescaled(name=name),
            "float_discretized": lambda: self.float_discretized(
                name=name, num_bins=self.num_discretization_bins
            ),
            "integer_categorical": lambda: self.integer_categorical(name=name),
            "string_categorical": lambda: self.string_categorical(name=name),
            "integer_hashed": lambda: self.integer_hashed(self.hashing_dim, name=name),
            "string_hashed": lambda: self.string_hashed(self.hashing_dim, name=name),
        }
        if not isinstance(feature, str) or feature not in makers:
            raise ValueError(
                f"Invalid feature type for feature '{name}': {feature!r}. Expected one of "
                f"{sorted(makers)} or a feature from FeatureSpace.feature() / "
                "FeatureSpace.float_normalized() / ..."
            )
        return makers[feature]()

    def _standardize_cross(self, cross, feature_names):
        cross = _revive(cross, Cross)
        if not isinstance(cross, Cross):
            if not self.crossing_dim:
                raise ValueError(
                    "When specifying `crosses`, the argument `crossing_dim` "
                    "(dimensionality of the crossing space) should be specified as well."
                )
            cross = Cross(cross, crossing_dim=self.crossing_dim)
        unknown = [n for n in cross.feature_names if n not in feature_names]
        if unknown:
            raise ValueError(
                "All features referenced in the `crosses` argument should be present in the "
                f"`features` dict. Received unknown features {unknown} in the cross "
                f"{cross.feature_names}; the features are {sorted(feature_names)}."
            )
        return cross

    # ----- adapt ---------------------------------------------------------------------

    def _list_adaptable_preprocessors(self):
        names = []
        for name in self.features:
            preprocessor = self.preprocessors[name]
            # Layers given their statistics or vocabulary are not adapted.
            if isinstance(preprocessor, Normalization) and preprocessor.input_mean is not None:
                continue
            if isinstance(preprocessor, TextVectorization):
                if preprocessor._lookup_layer._has_input_vocabulary:
                    continue
            elif getattr(preprocessor, "_has_input_vocabulary", False):
                continue
            if isinstance(preprocessor, Discretization) and preprocessor.num_bins is None:
                continue
            if hasattr(preprocessor, "adapt"):
                names.append(name)
        return names

    def adapt(self, dataset):
        """Learns the statistics and vocabularies of the features from `dataset`.

        Args:
            dataset: a ``tf.data.Dataset`` of dicts (batched or not), a dict of
                arrays or lists (all the data), an mb ``PyDataset`` or a grain
                dataset yielding dicts, or a list of dicts of batches. Elements
                ``(x, y)`` are read as their ``x``.
        """
        if isinstance(dataset, dict):
            columns = {name: _host(value, name) for name, value in dataset.items()}
            size = len(next(iter(columns.values()))) if columns else 0
            # Keras slices the dict and batches it by 32: the same batches here.
            elements = [
                {name: col[i : i + _ADAPT_BATCH] for name, col in columns.items()}
                for i in range(0, size, _ADAPT_BATCH)
            ]
        elif isinstance(dataset, (str, bytes)) or not hasattr(dataset, "__iter__"):
            raise ValueError(
                "`adapt()` can only be called on a dataset (tf.data.Dataset, PyDataset, grain "
                "dataset, list of dict batches) or a dict of arrays/lists. "
                f"Received instead: {dataset!r} (of type {type(dataset).__name__})"
            )
        else:
            elements = dataset
        names = self._list_adaptable_preprocessors()
        if names:
            columns = {name: [] for name in names}
            for element in _batches(elements):
                element = _features_of(element)
                for name in names:
                    if name not in element:
                        raise ValueError(
                            f"Feature '{name}' is not in the dataset's elements, which have "
                            f"the keys {sorted(element)}."
                        )
                    columns[name].append(_host(element[name], name))
            for name in names:
                # An iterator: the layers read a list as one batch.
                self.preprocessors[name].adapt(iter(self._adapt_batches(columns[name], name)))
        self._is_adapted = True
        self.get_encoded_features()  # Finishes building the layer.
        self.built = True
        self._sublayers_built = True

    def _adapt_batches(self, values, name):
        if not values:
            raise ValueError(f"Cannot adapt feature '{name}': the dataset is empty.")
        if values[0].ndim == 0:
            # Unbatched scalars: batched by 32, as Keras does.
            flat = np.stack(values)
            values = [flat[i : i + _ADAPT_BATCH] for i in range(0, len(flat), _ADAPT_BATCH)]
        if values[0].ndim == 1:
            values = [v[:, None] for v in values]
        return values

    # ----- symbolic graph ------------------------------------------------------------

    def get_inputs(self):
        """The dict of symbolic inputs (one ``Input(shape=(1,))`` per feature)."""
        self._check_if_built()
        return self.inputs

    def get_encoded_features(self):
        """The symbolic encoded features (a tensor, or a dict in ``"dict"`` mode)."""
        self._check_if_adapted()
        if self.encoded_features is None:
            preprocessed = self._preprocess_features(self.inputs)
            crossed = self._cross_features(preprocessed)
            self.encoded_features = self._merge_features(preprocessed, crossed)
        return self.encoded_features

    def _preprocess_features(self, features):
        return {name: self.preprocessors[name](features[name]) for name in features}

    def _cross_features(self, features):
        return {
            cross.name: self.crossers[cross.name]([features[n] for n in cross.feature_names])
            for cross in self.crosses
        }

    def _merge_features(self, preprocessed, crossed):
        if not self._preprocessed_features_names:
            self._preprocessed_features_names = sorted(preprocessed)
            self._crossed_features_names = sorted(crossed)
        names = self._preprocessed_features_names + self._crossed_features_names
        values = [preprocessed[n] for n in self._preprocessed_features_names] + [
            crossed[n] for n in self._crossed_features_names
        ]
        if self._sublayers_built:
            encoded = {}
            for name, value in zip(names, values, strict=True):
                encoder = self.one_hot_encoders.get(name)
                encoded[name] = encoder(value) if encoder is not None else value
            if self.output_mode == "dict":
                return encoded
            return self.concat([encoded[n] for n in names])
        specs = [self.features[n] for n in self._preprocessed_features_names] + [
            self.crosses_by_name[n] for n in self._crossed_features_names
        ]
        encoded = {}
        for name, value, spec in zip(names, values, specs, strict=True):
            if spec.output_mode == "one_hot":
                value = self._one_hot(name, value)
            if self.output_mode == "concat":
                dtype = str(value.dtype)
                if dtype.startswith(("int", "uint")) or dtype == "string":
                    raise ValueError(
                        f"Cannot concatenate features because feature '{name}' has not been "
                        f"encoded (it has dtype {dtype}). Consider using `output_mode='dict'`."
                    )
            encoded[name] = value
        if self.output_mode == "dict":
            return encoded
        self.concat = TFDConcat(axis=-1)
        return self.concat([encoded[n] for n in names])

    def _one_hot(self, name, value):
        dtype = str(value.dtype)
        if not dtype.startswith(("int", "uint")):
            raise ValueError(
                f"Feature '{name}' has `output_mode='one_hot'`. Thus its preprocessor should "
                f"return an integer dtype. Instead it returns a {dtype} dtype."
            )
        layer = self.preprocessors.get(name) or self.crossers.get(name)
        cardinality = _cardinality(layer)
        if cardinality is False:
            raise ValueError(
                f"Feature '{name}' has `output_mode='one_hot'`. However it isn't a standard "
                "feature and the dimensionality of its output space is not known, thus it "
                "cannot be one-hot encoded. Try using `output_mode='int'`."
            )
        if cardinality is None:
            return value
        encoder = CategoryEncoding(num_tokens=cardinality, output_mode="multi_hot")
        self.one_hot_encoders[name] = encoder
        return encoder(value)

    def _check_if_adapted(self):
        if not self._is_adapted:
            if self._list_adaptable_preprocessors():
                raise ValueError(
                    "You need to call `.adapt(dataset)` on the FeatureSpace before you can "
                    "start using it."
                )
            self._is_adapted = True

    def _check_if_built(self):
        if not self._sublayers_built:
            self._check_if_adapted()
            self.get_encoded_features()
            self._sublayers_built = True

    # ----- calling -------------------------------------------------------------------

    def __call__(self, data):
        self._check_if_built()
        if not isinstance(data, dict):
            raise ValueError(
                f"A FeatureSpace can only be called with a dict. Received: data={data!r} "
                f"(of type {type(data).__name__})"
            )
        missing = [n for n in self.features if n not in data]
        if missing:
            raise ValueError(
                f"The FeatureSpace needs the features {missing}, which are missing from the "
                f"data (it has the keys {sorted(data)})."
            )
        if any(_is_tf_tensor(v) and not hasattr(v, "numpy") for v in data.values()):
            # Traced by tf.data (dataset.map): run on the host through tf.numpy_function.
            from mb_layers import _feature_space_tf

            return _feature_space_tf.call_in_graph(self, data)
        return self._call_eager(data)

    def _call_eager(self, data):
        arrays = {}
        rebatched = False
        for name in self.features:
            x = _host(data[name], name)
            if self.features[name].dtype == "float32" and x.dtype.kind in "iufb":
                x = x.astype("float32")
            if x.ndim == 0:
                x = x.reshape(1, 1)
                rebatched = True
            elif x.ndim == 1:
                x = x[:, None]
            arrays[name] = x
        preprocessed = self._preprocess_features(arrays)
        crossed = self._cross_features(preprocessed)
        merged = self._merge_features(preprocessed, crossed)
        if rebatched:
            if self.output_mode == "concat":
                if merged.shape[0] != 1:
                    raise ValueError(
                        "Expected rebatched data to have batch size 1. "
                        f"Received: shape={tuple(merged.shape)}"
                    )
                merged = ops.squeeze(merged, axis=0)
            else:
                merged = {
                    n: ops.squeeze(x, axis=0) if len(x.shape) == 2 and x.shape[0] == 1 else x
                    for n, x in merged.items()
                }
        return merged

    def _output_specs(self):
        """``{name: (shape, dtype)}`` of the outputs of a batch (a dict with key None in
        ``"concat"`` mode); the batch dimension is None."""
        self._check_if_built()
        encoded = self.encoded_features
        items = encoded.items() if isinstance(encoded, dict) else [(None, encoded)]
        return {k: (tuple(v.shape), str(v.dtype)) for k, v in items}

    # ----- saving --------------------------------------------------------------------

    def get_config(self):
        return {
            "features": {n: _object_dict(f, "Feature") for n, f in self.features.items()},
            "output_mode": self.output_mode,
            "crosses": [_object_dict(c, "Cross") for c in self.crosses],
            "crossing_dim": self.crossing_dim,
            "hashing_dim": self.hashing_dim,
            "num_discretization_bins": self.num_discretization_bins,
        }

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def get_build_config(self):
        return {
            name: feature.preprocessor.get_build_config() or {}
            for name, feature in self.features.items()
        }

    def build_from_config(self, config):
        for name in config:
            preprocessor = self.features[name].preprocessor
            if not preprocessor.built and config[name]:
                preprocessor.build_from_config(config[name])
        self._is_adapted = True

    def save(self, filepath):
        """Saves the `FeatureSpace` to a ``.keras`` file (reload it with ``load_model``)."""
        _saving_hook.save_implementation("FeatureSpace.save")(self, filepath)

    def save_own_variables(self, store):
        return

    def load_own_variables(self, store):
        return


_registry.register_builtin(FeatureSpace, module="keras.utils")
