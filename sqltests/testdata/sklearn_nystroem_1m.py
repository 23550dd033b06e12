#!/usr/bin/python3
"""Anchor of BenchmarkKPCANystrom1M and BenchmarkKRRNystrom1M: the same
1,000,000 rows (digit i mod 1,797 plus 0.01·(i div 1,797), float32, as
loadTiled makes them), scikit-learn Nystroem(500 components, rbf, gamma =
1/(2·5.66²), ksql's gauss(sigma=5.66)) then PCA(5), fit_transform; and
Nystroem(500, gamma = 1/(2·20²)) then Ridge(alpha=1) fit + predict, krr's
shape. Times are of the fits on arrays in memory (reading the rows is not
counted), best of 3 (or runs), with CPU time over wall time of the best
run (the cores it kept busy) and peak resident memory. Run from this
directory with OpenBLAS's tuning variables unset; which is kpca, krr or
both (the default):

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 sklearn_nystroem_1m.py [rows [which [runs]]]
"""
import csv
import resource
import sys
import time

import numpy as np
import sklearn
from sklearn.decomposition import PCA
from sklearn.kernel_approximation import Nystroem
from sklearn.linear_model import Ridge

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
which = sys.argv[2] if len(sys.argv) > 2 else "both"
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
if which not in ("kpca", "krr", "both"):
    sys.exit("which must be kpca, krr or both, not %r" % which)
with open("digits.csv", newline="") as f:
    rows = list(csv.reader(f))[1:]
D = np.array([[float(v) for v in r[2:66]] for r in rows])
y0 = np.array([float(r[1]) for r in rows])
i = np.arange(n)
X = (D[i % len(D)] + 0.01 * (i // len(D))[:, None]).astype(np.float32)
y = y0[i % len(D)]
del D, i
rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def best(f):
    """Best wall time of runs calls of f, that call's CPU/wall, the median."""
    times = []
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        f()
        wall = time.perf_counter() - t
        times.append((wall, (time.process_time() - c) / wall))
    return min(times) + (sorted(times)[len(times) // 2][0],)


def kpca():
    F = Nystroem(kernel="rbf", gamma=1 / (2 * 5.66**2), n_components=500, random_state=0).fit_transform(X)
    return PCA(n_components=5).fit_transform(F)


def krr():
    F = Nystroem(kernel="rbf", gamma=1 / (2 * 20.0**2), n_components=500, random_state=0).fit_transform(X)
    return Ridge(alpha=1).fit(F, y).predict(F)


print("scikit-learn", sklearn.__version__, "numpy", np.__version__, "X", X.shape, X.dtype)
if which != "krr":
    print("kpca: Nystroem(500)+PCA(5), n=%d: best of %d: %.2f s, cpu/wall %.1f (median %.2f s)" % ((n, runs) + best(kpca)))
if which != "kpca":
    print("krr: Nystroem(500)+Ridge fit+predict, n=%d: best of %d: %.2f s, cpu/wall %.1f (median %.2f s)" % ((n, runs) + best(krr)))
print("peak RSS %.0f MiB (%.0f MiB with the rows alone)" % (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, rss0))
