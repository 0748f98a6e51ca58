"""The state of the current chain of layer calls: the `training` flag of outer calls."""

import threading


class _State(threading.local):
    def __init__(self):
        self.entry_layer = None
        self.values = {}


_STATE = _State()


def entry_layer():
    """The outermost layer being called, or None outside any call."""
    return _STATE.entry_layer


def get_value(name):
    """The value (e.g. of ``training``) set by an enclosing layer call, or None."""
    return _STATE.values.get(name)


class CallScope:
    """Opens a layer call: the first one is the entry; values set inside are undone at exit."""

    def __init__(self, layer):
        self.layer = layer
        self._saved = None
        self._is_entry = False

    def __enter__(self):
        self._is_entry = _STATE.entry_layer is None
        if self._is_entry:
            _STATE.entry_layer = self.layer
        self._saved = dict(_STATE.values)
        return self

    def set_value(self, name, value):
        _STATE.values[name] = value

    @property
    def is_entry(self):
        return self._is_entry

    def __exit__(self, *exc):
        _STATE.values = self._saved
        if self._is_entry:
            _STATE.entry_layer = None
