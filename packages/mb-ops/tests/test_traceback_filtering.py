"""`filter_traceback`: errors raised through an mb entry point keep only the caller's
frames, unless `config.disable_traceback_filtering()` ran."""

from __future__ import annotations

import traceback

import pytest

from mb_ops import _traceback, config, filter_traceback


def _user_code():
    raise ValueError("raised by user code")


@filter_traceback
def _entry_point(fn):
    # Stands for an mb entry point (a layer call) running user code.
    return _inner(fn)


def _inner(fn):
    return fn()


@pytest.fixture(autouse=True)
def _restore():
    yield
    config.enable_traceback_filtering()


def _frames(error):
    return [frame.name for frame in traceback.extract_tb(error.__traceback__)]


def _raise_through(monkeypatch, internal):
    # This test module is not mb's own code: treat its `_inner`/`_entry_point` frames as
    # mb's for the filter, as they would be in a layer.
    original = _traceback.is_internal_frame
    monkeypatch.setattr(
        _traceback,
        "is_internal_frame",
        lambda frame: frame.f_code.co_name in internal or original(frame),
    )
    with pytest.raises(ValueError, match="raised by user code") as info:
        _entry_point(_user_code)
    return _frames(info.value)


def test_internal_frames_are_removed(monkeypatch):
    frames = _raise_through(monkeypatch, {"_inner", "error_handler"})
    assert "_user_code" in frames
    assert "_inner" not in frames
    assert "error_handler" not in frames


def test_disabled_filtering_keeps_every_frame(monkeypatch):
    config.disable_traceback_filtering()
    frames = _raise_through(monkeypatch, {"_inner", "error_handler"})
    assert frames[-2:] == ["_inner", "_user_code"]


def test_the_cause_of_an_error_survives_filtering():
    @filter_traceback
    def entry():
        try:
            {}["missing"]
        except KeyError as key_error:
            raise RuntimeError("wrapped") from key_error

    with pytest.raises(RuntimeError) as info:
        entry()
    assert isinstance(info.value.__cause__, KeyError)
