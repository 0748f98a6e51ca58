"""A minimal writer of TensorBoard event files (TFRecord framing, Event protobufs).

Written by hand so that TensorBoard logs need neither TensorFlow nor tensorboard:
each record is ``length (uint64) | masked crc32c(length) | data | masked crc32c(data)``,
and ``data`` is an ``Event`` message (wall_time, step, file_version or a Summary
of ``simple_value`` scalars and plugin tensors).
"""

import itertools
import os
import socket
import struct
import threading
import time
import weakref


def _crc32c_table():
    table = []
    for i in range(256):
        crc = i
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return table


_TABLE = _crc32c_table()


def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def _masked(crc):
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _varint(value):
    out = bytearray()
    while True:
        bits = value & 0x7F
        value >>= 7
        if value:
            out.append(bits | 0x80)
        else:
            out.append(bits)
            return bytes(out)


def _field(number, wire_type):
    return _varint((number << 3) | wire_type)


def _bytes_field(number, payload):
    return _field(number, 2) + _varint(len(payload)) + payload


def _scalar_value(tag, value):
    # Summary.Value: tag = 1 (string), simple_value = 2 (float)
    return _bytes_field(1, tag.encode()) + _field(2, 5) + struct.pack("<f", float(value))


_DT_STRING = 7


def _string_tensor_value(tag, text, plugin_name, plugin_content):
    # Summary.Value: tag = 1, metadata = 9 (SummaryMetadata: plugin_data = 1, whose
    # plugin_name = 1 and content = 2), tensor = 8 (TensorProto: dtype = 1,
    # tensor_shape = 2 (empty: a scalar), string_val = 8).
    plugin = _bytes_field(1, plugin_name.encode()) + _bytes_field(2, plugin_content)
    tensor = _field(1, 0) + _varint(_DT_STRING) + _bytes_field(2, b"")
    tensor += _bytes_field(8, text.encode())
    value = _bytes_field(1, tag.encode()) + _bytes_field(9, _bytes_field(1, plugin))
    return value + _bytes_field(8, tensor)


def _event(step, wall_time=None, file_version=None, values=()):
    # Event: wall_time = 1 (double), step = 2 (int64), file_version = 3, summary = 5
    data = _field(1, 1) + struct.pack("<d", time.time() if wall_time is None else wall_time)
    data += _field(2, 0) + _varint(int(step) & 0xFFFFFFFFFFFFFFFF)
    if file_version is not None:
        data += _bytes_field(3, file_version.encode())
    if values:
        data += _bytes_field(5, b"".join(_bytes_field(1, v) for v in values))
    return data


# TensorFlow numbers the event files of a process 0, 1, 2, ... (one counter for all
# writers), so two writers opened in the same second never share a name.
_counter = itertools.count()
_counter_lock = threading.Lock()


def _new_event_file(logdir):
    host, pid = socket.gethostname(), os.getpid()
    while True:
        with _counter_lock:
            number = next(_counter)
        name = f"events.out.tfevents.{int(time.time())}.{host}.{pid}.{number}.v2"
        path = os.path.join(logdir, name)
        try:
            return path, open(path, "xb")  # closed in EventFileWriter.close
        except FileExistsError:  # another process forked with our pid and counter
            continue


class EventFileWriter:
    """Appends summaries to ``logdir/events.out.tfevents.<time>.<host>.<pid>.<n>.v2``
    (TensorFlow's file name for its summary writers)."""

    def __init__(self, logdir):
        os.makedirs(logdir, exist_ok=True)
        self.path, self._file = _new_event_file(logdir)
        # A fit that raised never reaches on_train_end: the file is closed (and what
        # was written flushed) when the writer is dropped.
        self._closer = weakref.finalize(self, self._file.close)
        self._write(_event(0, file_version="brain.Event:2"))

    def _write(self, data):
        header = struct.pack("<Q", len(data))
        self._file.write(header + struct.pack("<I", _masked(crc32c(header))))
        self._file.write(data + struct.pack("<I", _masked(crc32c(data))))

    def add_scalars(self, scalars, step):
        """One event at `step` holding ``{tag: value}`` as scalar summaries."""
        if scalars:
            values = [_scalar_value(tag, value) for tag, value in scalars.items()]
            self._write(_event(step, values=values))

    def add_text_tensor(self, tag, text, step, plugin_name, plugin_content=b""):
        """One event at `step` holding `text` as a scalar string tensor for `plugin_name`."""
        value = _string_tensor_value(tag, text, plugin_name, plugin_content)
        self._write(_event(step, values=[value]))

    def flush(self):
        self._file.flush()

    def close(self):
        self._closer()
