"""``save_model`` / ``load_model`` / ``save_weights`` / ``load_weights`` / ``model_from_json``.

Saving serializes everything in memory first, then writes through a
temporary file and a rename (`_atomic`): an error or a crash never damages
the previous file. Loading checks the container, then the whole config
against the allow-list, creates the model, checks every variable against
the file and only then assigns them: it returns a complete model or raises.
"""

import io
import json
import os
import warnings

import mb_layers
from mb_saving import _assets, _atomic, _limits, _metadata, _orbax, _shards
from mb_saving._archive import CONFIG, METADATA, WEIGHTS, Archive, parse_json, write_archive
from mb_saving._compile_config import compile_from_config, get_compile_config
from mb_saving._errors import FileFormatError
from mb_saving._folder import Folder
from mb_saving._h5_store import H5Reader, H5Writer
from mb_saving._legacy_h5 import load_legacy_weights
from mb_saving._revive import Reviver
from mb_saving._safe_mode import resolve_safe_mode
from mb_saving._serialization import serialize_keras_object
from mb_saving._weights_io import load_state, save_state
from mb_train._trainer._distributed import is_chief, whole_state

_LEGACY_H5 = (
    "'{path}' is a legacy Keras 2 HDF5 model path ({ext}). mb reads and writes the Keras 3 "
    "format only: save with model.save('model.keras'), or save only the weights with "
    "model.save_weights('model.weights.h5')."
)


def _weights_bytes(model):
    buffer = io.BytesIO()
    writer = H5Writer(buffer)
    try:
        manifest = save_state(model, writer)
    finally:
        writer.close()
    return buffer.getvalue(), manifest


def save_model(model, filepath, overwrite=True, zipped=None, **kwargs):
    """Saves `model` as a ``.keras`` file: config, weights and optimizer state.

    Args:
        model: the model.
        filepath: a path ending in ``.keras``.
        overwrite: replace an existing file; with False an existing file is an error.
        zipped: write a zip (default) or, with False, a folder of the same members.

    Example:

    >>> import os, tempfile
    >>> import mb_layers, mb_train.models
    >>> x = mb_layers.Input((3,))
    >>> model = mb_train.models.Model(x, mb_layers.layers.Dense(2)(x))
    >>> path = os.path.join(tempfile.mkdtemp(), "m.keras")
    >>> save_model(model, path)
    >>> load_model(path).count_params()
    8
    """
    if kwargs:
        raise TypeError(
            f"save_model got unsupported arguments {sorted(kwargs)} (Keras 2 options such as "
            "save_format and include_optimizer do not exist in the Keras 3 format)."
        )
    path = os.fspath(filepath)
    zipped = True if zipped is None else bool(zipped)
    if path.endswith((".h5", ".hdf5")):
        raise ValueError(_LEGACY_H5.format(path=path, ext=os.path.splitext(path)[1]))
    if zipped and not path.endswith(".keras"):
        raise ValueError(f"The file name must end in '.keras'. Received: filepath={path!r}.")
    with whole_state(model) as gathered:
        if gathered and not is_chief():
            return  # variables split over processes: all gathered them, process 0 writes
        _atomic.check_overwrite(path, overwrite)
        _write_model(model, path, zipped)


def _write_model(model, path, zipped):
    config = serialize_keras_object(model)
    weights, manifest = _weights_bytes(model)
    assets = _assets.collect(model)
    metadata = _metadata.archive_metadata(manifest)
    if zipped:
        with _atomic.atomic_file(path) as tmp:
            write_archive(tmp, metadata, config, weights, assets)
        return
    with _atomic.atomic_folder(path) as tmp:
        for name, data in (
            (METADATA, json.dumps(metadata).encode()),
            (CONFIG, json.dumps(config).encode()),
            (WEIGHTS, weights),
            *assets.items(),
        ):
            target = os.path.join(tmp, *name.split("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as f:
                f.write(data)


def _open_model_file(path):
    if os.path.isdir(path):
        return Folder(path)
    if path.endswith((".weights.h5", ".weights.json")):
        raise ValueError(
            f"'{path}' holds only weights. Create the model in code, then call "
            "model.load_weights(path)."
        )
    if path.endswith((".h5", ".hdf5")):
        raise ValueError(_LEGACY_H5.format(path=path, ext=os.path.splitext(path)[1]))
    if not path.endswith(".keras"):
        raise ValueError(
            f"Cannot load '{path}': mb loads '.keras' files (or folders saved with "
            "zipped=False). For weights files use model.load_weights()."
        )
    if not os.path.exists(path):
        raise FileNotFoundError(f"No such file: '{path}'.")
    return Archive(path)


def _revive_model(config, custom_objects, compile, safe_mode, written_by_mb, path):
    """The model a config describes, checked against the allow-list and safe mode."""
    if not compile:
        config = {k: v for k, v in config.items() if k != "compile_config"}
    for key in ("class_name", "config"):
        if key not in config:
            raise FileFormatError(f"'{path}': the config has no '{key}'; it describes no model.")
    reviver = Reviver(custom_objects, resolve_safe_mode(safe_mode), compile_from_config)
    reviver.written_by_mb = written_by_mb
    reviver.allow.check(config, ("config",))
    with reviver.scope():
        model = reviver.revive(config, ["config"])
    if not isinstance(model, mb_layers.Layer):
        raise FileFormatError(
            f"'{path}': the config describes a {type(model).__name__}, not a model."
        )
    return model


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):
    """Loads a model saved by `save_model` or by Keras 3 (``.keras``).

    Args:
        filepath: the ``.keras`` file (or a folder saved with ``zipped=False``).
        custom_objects: dict name -> class or function for custom objects that
            are not registered.
        compile: compile the model as it was (loads the optimizer state too).
        safe_mode: refuse code stored in the file (lambdas). Only pass False
            for files from a source you trust.

    Returns:
        The model, with every variable loaded.

    Raises:
        FileFormatError: the file is damaged or not a ``.keras`` file.
        UnsafeFileError: the weights point outside the file (HDF5 external
            storage or links, virtual datasets, ...); refused always.
        UnsafeConfigError: the config names something safe mode does not load.
        DeserializationError: an allowed object could not be created.
        WeightsMismatchError: the weights do not match the model.

    Example:

    >>> import os, tempfile
    >>> import numpy as np
    >>> from mb_layers import Input
    >>> from mb_layers.layers import Dense
    >>> from mb_train.models import Sequential
    >>> model = Sequential([Input((4,)), Dense(2, activation="softmax", name="scores")])
    >>> path = os.path.join(tempfile.mkdtemp(), "classifier.keras")
    >>> model.save(path)
    >>> restored = load_model(path)
    >>> type(restored).__name__, [layer.name for layer in restored.layers]
    ('Sequential', ['scores'])
    >>> x = np.ones((1, 4), "float32")
    >>> bool(np.allclose(restored.predict(x, verbose=0), model.predict(x, verbose=0)))
    True
    """
    path = os.fspath(filepath)
    if _orbax.is_orbax_checkpoint(path):
        config, tree = _orbax.read_checkpoint(path, with_config=True)
        model = _revive_model(config, custom_objects, compile, safe_mode, False, path)
        _orbax.assign_state_tree(model, tree, f"The Orbax checkpoint '{path}'")
        return model
    _atomic.remove_stale_near(path)  # what killed saves left next to it
    with _open_model_file(path) as source:
        metadata = source.metadata()
        written_by_mb = isinstance(metadata.get("mb"), dict)
        model = _revive_model(
            source.config(), custom_objects, compile, safe_mode, written_by_mb, path
        )
        # The weights may expand only as far as the model's variables declare; they
        # are mapped (and refused if they reach outside the file) before any is assigned.
        manifest = _metadata.manifest_of(metadata)
        limit = _limits.for_model(model, manifest)
        reader = H5Reader.open(source.weights_file(limit), f"'{path}' ({WEIGHTS})")
        try:
            load_state(model, reader, manifest, source=f"'{path}'")
        finally:
            reader.close()
        _assets.restore(model, source.read, source.members, f"'{path}'")
    return model


def model_from_json(json_string, custom_objects=None):
    """A model (with fresh weights) from the JSON of its config, in safe mode.

    As in Keras, a config that carries Python bytecode (a ``Lambda``'s function) is
    refused unless safe mode is off: inside ``SafeModeScope(False)``, or for the whole
    process after ``enable_unsafe_deserialization()``.
    """
    config = parse_json(json_string, "the JSON string", "config")
    reviver = Reviver(custom_objects, resolve_safe_mode(None), None)
    reviver.allow.check(config, ("config",))
    with reviver.scope():
        return reviver.revive(config, ["config"])


def save_weights(model, filepath, overwrite=True, max_shard_size=None, **kwargs):
    """Saves the variables of `model` (Keras's layout) as ``.weights.h5`` or sharded.

    Keyword arguments: ``objects_to_skip``, layers or other objects of `model` whose
    variables (and whose sub-objects' variables) are left out of the file, as in Keras.
    """
    path = os.fspath(filepath)
    skip = tuple(kwargs.pop("objects_to_skip", None) or ())
    if kwargs:
        raise TypeError(
            f"save_weights got unsupported arguments {sorted(kwargs)}; it takes "
            "overwrite, max_shard_size and objects_to_skip."
        )
    if max_shard_size is None and not path.endswith(".weights.h5"):
        raise ValueError(f"The file name must end in '.weights.h5'. Received: filepath={path!r}.")
    if max_shard_size is not None and not path.endswith((".weights.h5", ".weights.json")):
        raise ValueError(
            f"With max_shard_size the file name must end in '.weights.json'. Received: {path!r}."
        )
    if not model.built:
        raise ValueError(
            f"Model '{model.name}' is not built, so it has no weights to save. Call it on data "
            "or call model.build(input_shape) first."
        )
    with whole_state(model) as gathered:
        if gathered and not is_chief():
            return  # variables split over processes: all gathered them, process 0 writes
        _write_weights(model, path, overwrite, max_shard_size, skip)


def _write_weights(model, path, overwrite, max_shard_size, skip):
    if max_shard_size is None:
        _atomic.check_overwrite(path, overwrite)
        weights, manifest = _weights_bytes_with_attribute(model, skip)
        with _atomic.atomic_file(path) as tmp, open(tmp, "wb") as f:
            f.write(weights)
        return
    if path.endswith(".weights.h5"):
        path = path[: -len(".weights.h5")] + ".weights.json"
        warnings.warn(
            f"Sharded weights need a '.weights.json' index; writing '{path}'.", stacklevel=2
        )
    _atomic.check_overwrite(path, overwrite)
    writer = _shards.ShardedH5Writer(path, max_shard_size)
    try:
        manifest = save_state(model, writer, skip)
        writer.commit(_metadata.mb_block(manifest))
    except BaseException:
        writer.abort()
        raise


def _weights_bytes_with_attribute(model, skip=()):
    buffer = io.BytesIO()
    writer = H5Writer(buffer)
    try:
        manifest = save_state(model, writer, skip)
        writer.set_root_attribute(_metadata.ROOT_ATTRIBUTE, _metadata.weights_attribute(manifest))
    finally:
        writer.close()
    return buffer.getvalue(), manifest


def load_weights(model, filepath, skip_mismatch=False, **kwargs):
    """Loads variables saved by `save_weights`, `save_model` or Keras into `model`.

    Reads ``.weights.h5``, ``.weights.json`` (sharded) and ``.keras`` files, and the
    Keras 2 ``.h5`` layout (``keras.applications``' published weights, or a whole
    model saved to ``.h5``) where layers are matched in order, or by name with
    ``by_name=True``.
    """
    path = os.fspath(filepath)
    skip = tuple(kwargs.pop("objects_to_skip", None) or ())
    by_name = kwargs.pop("by_name", None)
    if kwargs:
        raise TypeError(f"load_weights got unsupported arguments {sorted(kwargs)}.")
    legacy = path.endswith((".h5", ".hdf5")) and not path.endswith(".weights.h5")
    if by_name is not None and not legacy:
        raise ValueError(
            f"`by_name` only supports loading legacy '.h5' or '.hdf5' files. Received: {path!r}."
        )
    if skip and legacy:
        raise ValueError(
            f"`objects_to_skip` only supports loading '.weights.h5' files. Received: {path!r}."
        )
    if not model.built:
        raise ValueError(
            f"Model '{model.name}' is not built, so its variables do not exist yet. Call it on "
            "data or call model.build(input_shape) before load_weights."
        )
    optimizer = getattr(model, "optimizer", None)
    if optimizer is not None and not getattr(optimizer, "built", True):
        optimizer.build(model.trainable_variables)
    if _orbax.is_orbax_checkpoint(path):
        _, tree = _orbax.read_checkpoint(path, with_config=False)
        _orbax.assign_state_tree(model, tree, f"The Orbax checkpoint '{path}'")
        return
    _atomic.remove_stale_near(path)  # what killed saves left next to it
    if path.endswith(".keras"):
        if not os.path.exists(path):
            raise FileNotFoundError(f"No such file: '{path}'.")
        with Archive(path) as archive:
            manifest = _metadata.manifest_of(archive.metadata())
            limit = _limits.for_model(model, manifest, skip)
            reader = H5Reader.open(archive.weights_file(limit), f"'{path}' ({WEIGHTS})")
    elif path.endswith(".weights.json"):
        reader, block = _shards.open_sharded(path)
        manifest = _metadata.manifest_of({"mb": block})
    elif path.endswith(".weights.h5"):
        if not os.path.exists(path):
            raise FileNotFoundError(f"No such file: '{path}'.")
        reader = H5Reader.open(path, f"'{path}'")
        block = _metadata.parse_weights_attribute(reader.root_attribute(_metadata.ROOT_ATTRIBUTE))
        manifest = _metadata.manifest_of({"mb": block})
    elif legacy:
        if not os.path.exists(path):
            raise FileNotFoundError(f"No such file: '{path}'.")
        load_legacy_weights(model, path, f"'{path}'", bool(by_name), skip_mismatch)
        return
    else:
        raise ValueError(
            f"Cannot load weights from '{path}': expected '.weights.h5', '.weights.json', "
            "'.keras' or a Keras 2 '.h5'."
        )
    try:
        load_state(model, reader, manifest, skip, skip_mismatch, source=f"'{path}'")
    finally:
        reader.close()


def model_to_json(model, **kwargs):
    """The JSON of `model`'s config (Keras's ``Model.to_json``); ``kwargs`` go to
    ``json.dumps``. `model_from_json` turns it back into a model with fresh weights."""
    return json.dumps(serialize_keras_object(model), **kwargs)


def model_compile_config(model):
    """`Model.get_compile_config`: the compile arguments, serialized as Keras writes them."""
    return get_compile_config(model, serialize_keras_object)


def compile_model_from_config(model, config, custom_objects=None, safe_mode=None):
    """`Model.compile_from_config`: checks `config` (the allow-list, safe mode), revives
    its objects and compiles `model` with them."""
    reviver = Reviver(custom_objects, resolve_safe_mode(safe_mode), compile_from_config)
    reviver.written_by_mb = True  # keep `jit_compile` as given
    reviver.allow.check(config, ("compile_config",))
    with reviver.scope():
        compile_from_config(model, config, reviver, ["compile_config"])


class SavingImplementation:
    """What mb_train's `Model.save` / `save_weights` / `load_weights` / `to_json` /
    `get_compile_config` / `compile_from_config` call."""

    save_model = staticmethod(save_model)
    save_weights = staticmethod(save_weights)
    load_weights = staticmethod(load_weights)
    to_json = staticmethod(model_to_json)
    get_compile_config = staticmethod(model_compile_config)
    compile_from_config = staticmethod(compile_model_from_config)
