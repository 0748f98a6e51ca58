"""`mb.legacy.saving` / `mb.utils.legacy`: the legacy serialization gives Keras 3's
dicts (compared in a subprocess) and rebuilds the objects."""

import json

import pytest

import mb as keras
from mb_ops import testing

_CODE = """
import json, keras
def double(x):
    return 2 * x
layer = keras.layers.Dense(3, activation="relu", name="d")
reg = keras.regularizers.L2(0.5)
print(json.dumps([keras.legacy.saving.serialize_keras_object(o) for o in (layer, reg, double)]))
"""


def _objects():
    def double(x):
        return 2 * x

    return keras.layers.Dense(3, activation="relu", name="d"), keras.regularizers.L2(0.5), double


def test_serialized_forms_equal_keras(tmp_path):
    pytest.importorskip("keras", reason="Keras 3 is a test-only dependency")
    theirs = testing.keras_json(_CODE, backend=keras.config.backend(), KERAS_HOME=str(tmp_path))
    mine = [keras.legacy.saving.serialize_keras_object(o) for o in _objects()]
    assert json.loads(json.dumps(mine)) == theirs
    assert keras.utils.legacy.serialize_keras_object is keras.legacy.saving.serialize_keras_object


def test_deserialize_rebuilds_from_module_objects_and_names_unknown_classes():
    _, reg, double = _objects()
    config = keras.legacy.saving.serialize_keras_object(reg)
    again = keras.legacy.saving.deserialize_keras_object(
        config, module_objects={"L2": keras.regularizers.L2}
    )
    assert again.get_config() == reg.get_config()
    found = keras.utils.legacy.deserialize_keras_object("double", custom_objects={"double": double})
    assert found is double
    with pytest.raises(ValueError, match="Unknown regularizer: 'L2'"):
        keras.legacy.saving.deserialize_keras_object(config, printable_module_name="regularizer")
