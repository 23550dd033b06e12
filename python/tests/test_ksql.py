"""Tests of the installed ksql wheel (run them against the installed package:
.ci/run builds the wheel, installs it into a fresh virtual environment and
runs pytest there)."""
import os
import sqlite3
import subprocess
import sys

import numpy as np  # Debian: python3-numpy (the venv sees it with --system-site-packages)
import pytest

import ksql

# A small two-class set in the plane (coordinates exact in float32) and
# scikit-learn's answers for it. Made with Debian's /usr/bin/python3,
# scikit-learn 1.2.1:
#   SVC(kernel='rbf', gamma=0.5, C=1.0, tol=1e-10).fit(X, y).decision_function(...)
# gamma=0.5 is ksql's gauss(sigma=1): exp(-|x-y|^2 / (2 sigma^2)).
X = np.array([[0, 0], [0.5, 0.25], [1, 0.75], [0.25, 1], [1.5, 0.5], [0.75, -0.5],
              [2, 2], [2.5, 1.75], [1.75, 2.5], [3, 2.25], [1.25, 1.5], [0.5, 1.25]])
Y = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]
SK_DECISION = [-1.0000000307568622, -1.2777279454320865, -0.9627639317142664,
               -0.7146937239647385, -0.9999999754723894, -1.0000000048726387,
               1.0700644898464535, 0.9999999850734246, 0.999999957688707,
               1.0000000002577278, 0.27677723349563765, -0.39486106450277425]
NEW = np.array([[0.25, 0.25], [2.25, 2.0], [1.0, 1.25]])
SK_NEW_DECISION = [-1.17528756267534, 1.111618540535599, -0.22666518572943675]


@pytest.fixture
def conn():
    c = sqlite3.connect(":memory:")
    ksql.load(c)
    yield c
    c.close()


def points_table(conn):
    conn.execute("CREATE TABLE pts(id INTEGER PRIMARY KEY, v BLOB, label INTEGER)")
    conn.executemany("INSERT INTO pts VALUES (?, ?, ?)",
                     [(i + 1, ksql.serialize_float32(x), y) for i, (x, y) in enumerate(zip(X, Y))])


def gauss_gram(A, B, sigma):
    d2 = ((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=2)
    return np.exp(-d2 / (2 * sigma**2))


def test_installed_package_holds_the_library():
    path = ksql.loadable_path()
    assert os.path.isfile(path), path
    assert os.path.dirname(path) == os.path.dirname(os.path.abspath(ksql.__file__))


def test_load_answers_and_disables_extension_loading(conn):
    assert conn.execute("SELECT ksql_version()").fetchone()[0]
    # load() switched extension loading off again: SQL cannot load a library.
    with pytest.raises(sqlite3.OperationalError, match="not authorized"):
        conn.execute("SELECT load_extension(?)", (ksql.loadable_path(),)).fetchone()


@pytest.mark.parametrize("a,b,sigma", [
    ([1, 2], [1, 3], 1.0),
    (np.array([0.1, -2.5, 3.0]), np.array([1.5, 0.25, -1.0]), 2.5),
    (np.arange(64, dtype=np.float32) / 7, np.ones(64, dtype=np.float64), 10.0),
])
def test_gauss_kernel_value(conn, a, b, sigma):
    got, = conn.execute("SELECT gauss_kernel(?, ?, ?)",
                        (ksql.serialize_float32(a), ksql.serialize_float32(b), sigma)).fetchone()
    # The BLOBs hold float32 values: compare with the kernel of those values.
    a32, b32 = (np.asarray(v, dtype=np.float32).astype(np.float64) for v in (a, b))
    want = np.exp(-((a32 - b32) ** 2).sum() / (2 * sigma**2))
    assert got == pytest.approx(want, rel=1e-12, abs=1e-15)


def test_load_twice(conn):
    ksql.load(conn)
    got, = conn.execute("SELECT gauss_kernel('[1,2]', '[1,3]', 1)").fetchone()
    assert got == pytest.approx(np.exp(-0.5), rel=1e-15)
    with pytest.raises(sqlite3.OperationalError, match="not authorized"):
        conn.execute("SELECT load_extension(?)", (ksql.loadable_path(),)).fetchone()


def test_kpca_matches_numpy(conn):
    points_table(conn)
    conn.execute("CREATE VIRTUAL TABLE p USING kpca(table=pts, id=id, column=v, "
                 "kernel='gauss(sigma=1)', components=2)")
    got = np.array(conn.execute("SELECT pc1, pc2 FROM p ORDER BY id").fetchall())
    new = np.array(conn.execute("SELECT pc1, pc2 FROM p(?)",
                                (ksql.serialize_float32(NEW[0]),)).fetchall())

    # Kernel PCA from its definition: centre K, eigenvectors, sqrt(lambda)*v,
    # each component's largest-magnitude entry positive.
    n = len(X)
    K = gauss_gram(X, X, 1.0)
    J = np.eye(n) - np.ones((n, n)) / n
    lam, V = np.linalg.eigh(J @ K @ J)
    lam, V = lam[::-1][:2], V[:, ::-1][:, :2]
    V *= np.sign(V[np.abs(V).argmax(axis=0), range(2)])
    np.testing.assert_allclose(got, V * np.sqrt(lam), rtol=1e-9, atol=1e-12)
    k = gauss_gram(NEW[:1], X, 1.0)[0]
    kc = k - k.mean() - K.mean(axis=0) + K.mean()
    np.testing.assert_allclose(new[0], kc @ (V / np.sqrt(lam)), rtol=1e-9, atol=1e-12)


def test_kernel_map_vectors_come_back_as_arrays(conn):
    points_table(conn)
    conn.execute("CREATE VIRTUAL TABLE m USING kernel_map(table=pts, id=id, column=v, "
                 "kernel='gauss(sigma=1)')")
    vecs = [ksql.deserialize_float32(b) for b, in conn.execute("SELECT vector FROM m ORDER BY id")]
    assert all(isinstance(v, np.ndarray) and v.dtype == np.float32 for v in vecs)
    F = np.stack(vecs).astype(np.float64)
    # <phi(x_i), phi(x_j)> = k(x_i, x_j), to float32's rounding of phi.
    np.testing.assert_allclose(F @ F.T, gauss_gram(X, X, 1.0), atol=1e-5)


def test_svm_matches_scikit_learn(conn):
    points_table(conn)
    conn.execute("CREATE VIRTUAL TABLE s USING svm(table=pts, id=id, column=v, label=label, "
                 "kernel='gauss(sigma=1)', C=1, tol=1e-10)")
    rows = conn.execute("SELECT prediction, decision FROM s ORDER BY id").fetchall()
    np.testing.assert_allclose([d for _, d in rows], SK_DECISION, atol=1e-6)
    assert [p for p, _ in rows] == [int(d > 0) for d in SK_DECISION]
    for x, want in zip(NEW, SK_NEW_DECISION):
        (p, d), = conn.execute("SELECT prediction, decision FROM s(?)",
                               (ksql.serialize_float32(x),)).fetchall()
        assert d == pytest.approx(want, abs=1e-6)
        assert p == int(want > 0)


def test_closed_connection():
    c = sqlite3.connect(":memory:")
    c.close()
    with pytest.raises(sqlite3.ProgrammingError, match=r"ksql\.load: .*closed"):
        ksql.load(c)


class NoExtensions(sqlite3.Connection):
    """A connection of a Python built without extension loading (pyenv's,
    macOS's): sqlite3.Connection has no enable_load_extension there."""

    @property
    def enable_load_extension(self):
        raise AttributeError("enable_load_extension")


def test_connection_that_forbids_extensions():
    c = sqlite3.connect(":memory:", factory=NoExtensions)
    with pytest.raises(sqlite3.NotSupportedError, match=r"ksql\.load: .*without extension loading"):
        ksql.load(c)
    with pytest.raises(sqlite3.OperationalError, match="no such function"):
        c.execute("SELECT ksql_version()")
    c.close()


def test_not_a_connection():
    with pytest.raises(TypeError, match=r"ksql\.load: expected a sqlite3\.Connection, got str"):
        ksql.load("db.sqlite")


def test_failed_load_still_disables_extension_loading(conn, monkeypatch):
    monkeypatch.setattr(ksql, "loadable_path", lambda: "/nonexistent/ksql.so")
    with pytest.raises(sqlite3.OperationalError, match=r"ksql\.load: loading /nonexistent/ksql\.so failed"):
        ksql.load(conn)
    with pytest.raises(sqlite3.OperationalError, match="not authorized"):
        conn.execute("SELECT load_extension('/nonexistent/ksql.so')").fetchone()


@pytest.mark.parametrize("values", [
    [], [1.5], [0.1, -2.0, 3.25e10, float("inf"), -0.0],
    np.array([0.1, -2.0, 3.25e10], dtype=np.float64), np.arange(5, dtype=np.int64),
])
def test_round_trip(values):
    blob = ksql.serialize_float32(values)
    want = np.asarray(values, dtype=np.float32)
    assert blob == want.astype("<f4").tobytes()
    got = ksql.deserialize_float32(blob)
    assert isinstance(got, np.ndarray) and got.dtype == np.float32 and got.flags.writeable
    np.testing.assert_array_equal(got, want)
    as_list = ksql.deserialize_float32(memoryview(blob), numpy=False)
    assert isinstance(as_list, list) and as_list == want.tolist()


@pytest.mark.parametrize("fn,arg,exc,msg", [
    (ksql.serialize_float32, [1.0, 1e39], ValueError, "out of float32's range"),
    (ksql.serialize_float32, np.array([1e39]), ValueError, "out of float32's range"),
    (ksql.serialize_float32, ["a"], TypeError, "sequence of numbers"),
    (ksql.serialize_float32, 3.0, TypeError, "sequence of numbers"),
    (ksql.serialize_float32, np.zeros((2, 2)), ValueError, "1-D array"),
    (ksql.serialize_float32, np.array(["x"]), TypeError, "real numeric array"),
    # Text and bytes iterate as characters and small integers: "123" is
    # not [1, 2, 3], and a vector already serialized is not its bytes.
    (ksql.serialize_float32, "123", TypeError, "got str"),
    (ksql.serialize_float32, ksql.serialize_float32([1.0, 2.0]), TypeError, "got bytes"),
    (ksql.serialize_float32, bytearray(b"\1\2"), TypeError, "got bytearray"),
    (ksql.serialize_float32, memoryview(b"\1\2"), TypeError, "got memoryview"),
    # A mapping iterates over its keys, a set in no order.
    (ksql.serialize_float32, {2: 0.5, 1: 0.25}, TypeError, "got dict"),
    (ksql.serialize_float32, {1.0, 2.0}, TypeError, "got set"),
    (ksql.serialize_float32, [10**400], ValueError, "out of float32's range"),
    (ksql.serialize_float32, np.ma.masked_array([1.0, 2.0], mask=[False, True]), ValueError, "masked"),
    (ksql.serialize_float32, np.array([1, 2], dtype="m8[s]"), TypeError, "real numeric array"),
    (ksql.deserialize_float32, b"\0" * 7, ValueError, "multiple of 4 bytes, got 7"),
    (ksql.deserialize_float32, "abcd", TypeError, "expected bytes, got str"),
])
def test_bad_input(fn, arg, exc, msg):
    with pytest.raises(exc, match=rf"ksql\.{fn.__name__}: .*{msg}"):
        fn(arg)


def test_without_numpy():
    # numpy is optional: with it unimportable, vectors are lists of floats.
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "import sqlite3, ksql\n"
        "b = ksql.serialize_float32([1.0, 2.5, -3.0])\n"
        "assert b == bytes.fromhex('0000803f00002040000040c0'), b.hex()\n"
        "v = ksql.deserialize_float32(b)\n"
        "assert v == [1.0, 2.5, -3.0] and type(v) is list, v\n"
        "try:\n"
        "    ksql.deserialize_float32(b, numpy=True)\n"
        "    raise SystemExit('numpy=True without numpy did not fail')\n"
        "except ImportError as e:\n"
        "    assert 'numpy is not installed' in str(e)\n"
        "c = sqlite3.connect(':memory:'); ksql.load(c)\n"
        "print(c.execute('SELECT linear_kernel(?, ?)', (b, b)).fetchone()[0])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert float(out.stdout) == 1.0 + 6.25 + 9.0
