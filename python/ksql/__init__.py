"""ksql: kernel methods inside SQLite, for Python's sqlite3 module.

    import sqlite3, ksql
    conn = sqlite3.connect(":memory:")
    ksql.load(conn)
    conn.execute("SELECT gauss_kernel(?, ?, 1)",
                 (ksql.serialize_float32([1, 2]), ksql.serialize_float32([1, 3])))

Vectors are BLOBs of little-endian float32 values, sqlite-vec's format.
"""
import collections.abc
import math
import os
import sqlite3
import struct

__all__ = ["load", "loadable_path", "serialize_float32", "deserialize_float32"]


def loadable_path():
    """The path of the ksql.so shipped in this package."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "ksql.so")


def load(conn):
    """Loads ksql into the sqlite3 connection conn.

    Extension loading is enabled only for the load and disabled again
    afterwards, also when the load fails, so SQL on conn cannot load
    libraries of its own with load_extension(). Loading twice is harmless.
    """
    if not isinstance(conn, sqlite3.Connection):
        raise TypeError(f"ksql.load: expected a sqlite3.Connection, got {type(conn).__name__}")
    if not hasattr(conn, "enable_load_extension"):
        raise sqlite3.NotSupportedError(
            "ksql.load: this Python's sqlite3 module was built without extension loading "
            "(sqlite3.Connection has no enable_load_extension); use a Python whose sqlite3 "
            "supports it, e.g. Debian's /usr/bin/python3")
    try:
        conn.enable_load_extension(True)
    except sqlite3.ProgrammingError as e:
        raise sqlite3.ProgrammingError(f"ksql.load: cannot use the connection: {e}") from e
    try:
        # The entry point follows from the file name: sqlite3_ksql_init.
        conn.load_extension(loadable_path())
    except sqlite3.OperationalError as e:
        raise sqlite3.OperationalError(f"ksql.load: loading {loadable_path()} failed: {e}") from e
    finally:
        conn.enable_load_extension(False)


def _numpy():
    try:
        import numpy
    except ImportError:
        return None
    return numpy


def serialize_float32(values):
    """Packs a sequence of numbers (a list, or a 1-D numpy array) into a
    BLOB of little-endian float32 values, the vector format of ksql and
    sqlite-vec. A finite value too large for float32 is an error, not inf."""
    np = _numpy()
    if np is not None and isinstance(values, np.ndarray):
        return _serialize_numpy(np, values)
    # These iterate, but not as a vector's numbers: text as characters,
    # bytes (a vector already serialized) as small integers, a mapping as
    # its keys, a set in no order. A memoryview of typed numbers (of an
    # array('d')) iterates as them; one of bytes does not.
    raw = isinstance(values, memoryview) and values.format in ("B", "b", "c")
    if raw or isinstance(values, (str, bytes, bytearray, collections.abc.Mapping, collections.abc.Set)):
        raise TypeError(f"ksql.serialize_float32: expected a sequence of numbers, got {type(values).__name__}")
    try:
        vals = [_float(v) for v in values]
    except (TypeError, ValueError) as e:
        if isinstance(e, _OutOfRange):
            raise ValueError(f"ksql.serialize_float32: {e} is out of float32's range") from None
        raise TypeError(f"ksql.serialize_float32: expected a sequence of numbers: {e}") from None
    try:
        return struct.pack(f"<{len(vals)}f", *vals)
    except OverflowError:
        big = next(v for v in vals if math.isfinite(v) and abs(v) > 3.4028234663852886e38)
        raise ValueError(f"ksql.serialize_float32: {big!r} is out of float32's range") from None


class _OutOfRange(ValueError):
    pass


def _float(v):
    try:
        return float(v)
    except OverflowError:  # an int past float64's range
        r = repr(v)
        raise _OutOfRange(r if len(r) <= 24 else f"{r[:12]}…({len(r)} digits)") from None


def _serialize_numpy(np, values):
    if values.ndim != 1:
        raise ValueError(f"ksql.serialize_float32: expected a 1-D array, got shape {values.shape}")
    if not (np.issubdtype(values.dtype, np.number) or values.dtype == np.bool_) or \
            np.issubdtype(values.dtype, np.complexfloating) or np.issubdtype(values.dtype, np.timedelta64):
        raise TypeError(f"ksql.serialize_float32: expected a real numeric array, got dtype {values.dtype}")
    # tobytes() writes a masked entry as the fill value (1e20 for floats).
    if np.ma.is_masked(values):
        raise ValueError("ksql.serialize_float32: the array has masked entries; fill them first (numpy.ma.filled)")
    values = np.asarray(values)
    with np.errstate(over="ignore"):
        out = values.astype("<f4")
    bad = np.isinf(out) & np.isfinite(values)
    if bad.any():
        raise ValueError(f"ksql.serialize_float32: {values[bad][0]!r} is out of float32's range")
    return out.tobytes()


def deserialize_float32(blob, *, numpy=None):
    """Unpacks a BLOB of little-endian float32 values.

    Returns a writable numpy float32 array when numpy is installed and a list
    of floats otherwise; numpy=False always gives a list, numpy=True
    requires numpy."""
    if not isinstance(blob, (bytes, bytearray, memoryview)):
        raise TypeError(f"ksql.deserialize_float32: expected bytes, got {type(blob).__name__}")
    data = bytes(blob)
    if len(data) % 4:
        raise ValueError(
            f"ksql.deserialize_float32: a float32 vector's length is a multiple of 4 bytes, got {len(data)}")
    np = _numpy() if numpy is not False else None
    if numpy and np is None:
        raise ImportError("ksql.deserialize_float32: numpy=True but numpy is not installed")
    if np is not None:
        return np.frombuffer(data, dtype="<f4").astype(np.float32)
    return list(struct.unpack(f"<{len(data) // 4}f", data))
