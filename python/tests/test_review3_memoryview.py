"""serialize_float32 refuses a memoryview of bytes (a vector already
serialized), but a memoryview of typed numbers iterates as its numbers and
is serialized as them, as it was before bytes were refused."""
import array
import struct

import pytest

import ksql


@pytest.mark.parametrize("typecode", ["d", "f", "i", "q"])
def test_memoryview_of_numbers(typecode):
    values = [1.5, -2.0, 3.0] if typecode in "df" else [1, -2, 3]
    got = ksql.serialize_float32(memoryview(array.array(typecode, values)))
    assert got == struct.pack("<3f", *values)


@pytest.mark.parametrize("view", [memoryview(b"\1\2"), memoryview(bytearray(b"\1\2")),
                                  memoryview(array.array("b", [1, 2]))])
def test_memoryview_of_bytes_refused(view):
    with pytest.raises(TypeError, match="got memoryview"):
        ksql.serialize_float32(view)
