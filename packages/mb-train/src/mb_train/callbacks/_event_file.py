"""A minimal writer of TensorBoard event files (TFRecord framing, Event protobufs).

Written by hand so that TensorBoard logs need neither TensorFlow nor tensorboard:
each record is ``length (uint64) | masked crc32c(length) | data | masked crc32c(data)``,
and ``data`` is an ``Event`` message (wall_time, step, file_version or a Summary
of ``simple_value`` scalars).
"""

import os
import socket
import struct
import time


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


def _event(step, wall_time=None, file_version=None, scalars=None):
    # Event: wall_time = 1 (double), step = 2 (int64), file_version = 3, summary = 5
    data = _field(1, 1) + struct.pack("<d", time.time() if wall_time is None else wall_time)
    data += _field(2, 0) + _varint(int(step) & 0xFFFFFFFFFFFFFFFF)
    if file_version is not None:
        data += _bytes_field(3, file_version.encode())
    if scalars:
        summary = b"".join(_bytes_field(1, _scalar_value(k, v)) for k, v in scalars.items())
        data += _bytes_field(5, summary)
    return data


class EventFileWriter:
    """Appends scalar summaries to ``logdir/events.out.tfevents.<time>.<host>``."""

    def __init__(self, logdir):
        os.makedirs(logdir, exist_ok=True)
        name = f"events.out.tfevents.{int(time.time())}.{socket.gethostname()}.mb"
        self.path = os.path.join(logdir, name)
        self._file = open(self.path, "wb")  # noqa: SIM115  (closed in close())
        self._write(_event(0, file_version="brain.Event:2"))

    def _write(self, data):
        header = struct.pack("<Q", len(data))
        self._file.write(header + struct.pack("<I", _masked(crc32c(header))))
        self._file.write(data + struct.pack("<I", _masked(crc32c(data))))

    def add_scalars(self, scalars, step):
        self._write(_event(step, scalars=scalars))

    def flush(self):
        self._file.flush()

    def close(self):
        if not self._file.closed:
            self._file.close()
