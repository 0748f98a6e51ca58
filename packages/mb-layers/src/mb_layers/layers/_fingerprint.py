"""The string hashes of TensorFlow's preprocessing ops, in NumPy (no TensorFlow needed).

* `fingerprint64`: FarmHash's ``Fingerprint64`` (the ``farmhashna`` 64-bit hash),
  which ``tf.strings.to_hash_bucket_fast`` reduces modulo the bucket count.
* `siphash64`: SipHash-2-4 keyed by two 64-bit words, which
  ``tf.strings.to_hash_bucket_strong`` uses.
* `fingerprint_cat64`: TensorFlow's ``FingerprintCat64``, which
  ``tf.sparse.cross_hashed`` uses to combine the hashes of crossed features.

Strings are hashed as UTF-8 bytes. Every function takes a sequence of ``bytes``
and returns a ``uint64`` array; strings of one length are hashed together as
rows of a byte matrix, so the work is vectorized over the batch.
"""

import numpy as np

_U64 = np.uint64
_K0 = _U64(0xC3A5C85C97CB3127)
_K1 = _U64(0xB492B66FBE98F273)
_K2 = _U64(0x9AE16A3B2F90404F)
_KMUL = _U64(0x9DDFEA08EB382D69)
_CAT_MUL = _U64(0xC6A4A7935BD1E995)


def _rotr(v, shift):
    return (v >> _U64(shift)) | (v << _U64(64 - shift))


def _rotl(v, shift):
    return (v << _U64(shift)) | (v >> _U64(64 - shift))


def _shift_mix(v):
    return v ^ (v >> _U64(47))


def _fetch64(rows, offset):
    return np.ascontiguousarray(rows[:, offset : offset + 8]).view("<u8")[:, 0].astype(_U64)


def _fetch32(rows, offset):
    return np.ascontiguousarray(rows[:, offset : offset + 4]).view("<u4")[:, 0].astype(_U64)


def _hash_len16(u, v, mul):
    a = (u ^ v) * mul
    a ^= a >> _U64(47)
    b = (v ^ a) * mul
    b ^= b >> _U64(47)
    return b * mul


def _len_0_to_16(rows, n):
    count = rows.shape[0]
    if n >= 8:
        mul = _K2 + _U64(n * 2)
        a = _fetch64(rows, 0) + _K2
        b = _fetch64(rows, n - 8)
        c = _rotr(b, 37) * mul + a
        d = (_rotr(a, 25) + b) * mul
        return _hash_len16(c, d, mul)
    if n >= 4:
        mul = _K2 + _U64(n * 2)
        a = _fetch32(rows, 0)
        return _hash_len16(_U64(n) + (a << _U64(3)), _fetch32(rows, n - 4), mul)
    if n > 0:
        a, b, c = (rows[:, i].astype(_U64) for i in (0, n >> 1, n - 1))
        y = a + (b << _U64(8))
        z = _U64(n) + (c << _U64(2))
        return _shift_mix(y * _K2 ^ z * _K0) * _K2
    return np.full(count, _K2, dtype=_U64)


def _len_17_to_32(rows, n):
    mul = _K2 + _U64(n * 2)
    a = _fetch64(rows, 0) * _K1
    b = _fetch64(rows, 8)
    c = _fetch64(rows, n - 8) * mul
    d = _fetch64(rows, n - 16) * _K2
    return _hash_len16(_rotr(a + b, 43) + _rotr(c, 30) + d, a + _rotr(b + _K2, 18) + c, mul)


def _len_33_to_64(rows, n):
    mul = _K2 + _U64(n * 2)
    a = _fetch64(rows, 0) * _K2
    b = _fetch64(rows, 8)
    c = _fetch64(rows, n - 8) * mul
    d = _fetch64(rows, n - 16) * _K2
    y = _rotr(a + b, 43) + _rotr(c, 30) + d
    z = _hash_len16(y, a + _rotr(b + _K2, 18) + c, mul)
    e = _fetch64(rows, 16) * mul
    f = _fetch64(rows, 24)
    g = (y + _fetch64(rows, n - 32)) * mul
    h = (z + _fetch64(rows, n - 24)) * mul
    return _hash_len16(_rotr(e + f, 43) + _rotr(g, 30) + h, e + _rotr(f + a, 18) + g, mul)


def _weak_hash_32(rows, offset, a, b):
    w, x, y, z = (_fetch64(rows, offset + 8 * i) for i in range(4))
    a = a + w
    b = _rotr(b + a + z, 21)
    c = a
    a = a + x + y
    b = b + _rotr(a, 44)
    return a + z, b + c


def _len_over_64(rows, n):
    count = rows.shape[0]
    seed = _U64(81)
    x = np.full(count, seed, dtype=_U64)
    y = x * _K1 + _U64(113)
    z = _shift_mix(y * _K2 + _U64(113)) * _K2
    v0 = v1 = w0 = w1 = np.zeros(count, dtype=_U64)
    x = x * _K2 + _fetch64(rows, 0)
    for s in range(0, ((n - 1) // 64) * 64, 64):
        x = _rotr(x + y + v0 + _fetch64(rows, s + 8), 37) * _K1
        y = _rotr(y + v1 + _fetch64(rows, s + 48), 42) * _K1
        x = x ^ w1
        y = y + v0 + _fetch64(rows, s + 40)
        z = _rotr(z + w0, 33) * _K1
        v0, v1 = _weak_hash_32(rows, s, v1 * _K1, x + w0)
        w0, w1 = _weak_hash_32(rows, s + 32, z + w1, y + _fetch64(rows, s + 16))
        z, x = x, z
    mul = _K1 + ((z & _U64(0xFF)) << _U64(1))
    s = n - 64
    w0 = w0 + _U64((n - 1) & 63)
    v0 = v0 + w0
    w0 = w0 + v0
    x = _rotr(x + y + v0 + _fetch64(rows, s + 8), 37) * mul
    y = _rotr(y + v1 + _fetch64(rows, s + 48), 42) * mul
    x = x ^ (w1 * _U64(9))
    y = y + v0 * _U64(9) + _fetch64(rows, s + 40)
    z = _rotr(z + w0, 33) * mul
    v0, v1 = _weak_hash_32(rows, s, v1 * mul, x + w0)
    w0, w1 = _weak_hash_32(rows, s + 32, z + w1, y + _fetch64(rows, s + 16))
    z, x = x, z
    return _hash_len16(
        _hash_len16(v0, w0, mul) + _shift_mix(y) * _K0 + z, _hash_len16(v1, w1, mul) + x, mul
    )


def _farmhash_rows(rows, n):
    if n <= 16:
        return _len_0_to_16(rows, n)
    if n <= 32:
        return _len_17_to_32(rows, n)
    if n <= 64:
        return _len_33_to_64(rows, n)
    return _len_over_64(rows, n)


def _sip_round(v0, v1, v2, v3):
    v0 = v0 + v1
    v1 = _rotl(v1, 13) ^ v0
    v0 = _rotl(v0, 32)
    v2 = v2 + v3
    v3 = _rotl(v3, 16) ^ v2
    v0 = v0 + v3
    v3 = _rotl(v3, 21) ^ v0
    v2 = v2 + v1
    v1 = _rotl(v1, 17) ^ v2
    v2 = _rotl(v2, 32)
    return v0, v1, v2, v3


def _siphash_rows(rows, n, key):
    count = rows.shape[0]
    k0, k1 = (_U64(int(k) % 2**64) for k in key)
    v0 = np.full(count, k0 ^ _U64(0x736F6D6570736575), dtype=_U64)
    v1 = np.full(count, k1 ^ _U64(0x646F72616E646F6D), dtype=_U64)
    v2 = np.full(count, k0 ^ _U64(0x6C7967656E657261), dtype=_U64)
    v3 = np.full(count, k1 ^ _U64(0x7465646279746573), dtype=_U64)
    full = n - n % 8
    tail = np.zeros((count, 8), dtype=np.uint8)
    tail[:, : n - full] = rows[:, full:n]
    tail[:, 7] = n & 0xFF
    words = [_fetch64(rows, s) for s in range(0, full, 8)] + [_fetch64(tail, 0)]
    for m in words:
        v3 = v3 ^ m
        v0, v1, v2, v3 = _sip_round(*_sip_round(v0, v1, v2, v3))
        v0 = v0 ^ m
    v2 = v2 ^ _U64(0xFF)
    for _ in range(4):
        v0, v1, v2, v3 = _sip_round(v0, v1, v2, v3)
    return v0 ^ v1 ^ v2 ^ v3


def _by_length(values, hash_rows):
    out = np.zeros(len(values), dtype=_U64)
    groups = {}
    for i, value in enumerate(values):
        groups.setdefault(len(value), []).append(i)
    for n, positions in groups.items():
        joined = b"".join(values[i] for i in positions)
        rows = np.frombuffer(joined, dtype=np.uint8).reshape(len(positions), n)
        out[positions] = hash_rows(rows, n)
    return out


def fingerprint64(values):
    """FarmHash ``Fingerprint64`` of each ``bytes`` in `values`, as a uint64 array."""
    return _by_length(list(values), _farmhash_rows)


def siphash64(values, key):
    """SipHash-2-4 of each ``bytes`` in `values` with the 128-bit `key` (two ints)."""
    return _by_length(list(values), lambda rows, n: _siphash_rows(rows, n, key))


def fingerprint_cat64(first, second):
    """TensorFlow's ``FingerprintCat64(first, second)`` of two uint64 arrays."""
    first = np.asarray(first, dtype=_U64)
    second = np.asarray(second, dtype=_U64)
    result = first ^ _CAT_MUL
    result = result ^ (_shift_mix(second * _CAT_MUL) * _CAT_MUL)
    result = result * _CAT_MUL
    result = _shift_mix(result) * _CAT_MUL
    return _shift_mix(result)
