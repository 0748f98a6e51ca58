"""Importing mb_train loads at most the engine of the chosen backend, never the others."""

from mb_ops import testing


def test_import_under_numpy_loads_no_engine():
    assert testing.engines_loaded_by("import mb_train") == []
