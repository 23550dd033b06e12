#!/usr/bin/python3
"""Anchor of BenchmarkSVMNystrom: scikit-learn Nystroem(500 components, rbf,
gamma = 1/800 = ksql's gauss(sigma=20)) then LinearSVC(loss='hinge',
dual=True, C=1) (one-vs-rest, 10 classes) on the benchmark's rows: the
digits tiled to 100,000, copy k's pixel j shifted by ((7k + 13j) mod 11)/100.
Times Nystroem.fit_transform + LinearSVC.fit + predict of the rows; best of
the runs given (default 1). Run from this directory with OpenBLAS's tuning
variables unset:

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 sklearn_svm_nystrom_bench.py [rows] [runs]
"""
import csv
import resource
import sys
import time

import numpy as np
import sklearn
from sklearn.kernel_approximation import Nystroem
from sklearn.svm import LinearSVC

rows_wanted = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 1
with open("digits.csv", newline="") as f:
    rows = list(csv.reader(f))[1:]
D = np.array([[float(v) for v in r[2:66]] for r in rows])
L = np.array([int(r[1]) for r in rows])
copies = -(-rows_wanted // len(D))
k = np.repeat(np.arange(copies), len(D))[:rows_wanted]
X = np.tile(D, (copies, 1))[:rows_wanted] + ((7 * k[:, None] + 13 * np.arange(64)[None, :]) % 11) / 100.0
y = np.tile(L, copies)[:rows_wanted]
times = []
for rep in range(runs):
    t = time.perf_counter()
    F = Nystroem(kernel="rbf", gamma=1 / 800, n_components=500, random_state=0).fit_transform(X)
    svc = LinearSVC(loss="hinge", dual=True, C=1.0, tol=1e-4, max_iter=1000, random_state=0).fit(F, y)
    acc = (svc.predict(F) == y).mean()
    times.append(time.perf_counter() - t)
print("scikit-learn", sklearn.__version__, "numpy", np.__version__, "X", X.shape, "n_iter", svc.n_iter_, "training accuracy %.4f" % acc)
print("Nystroem(500)+LinearSVC(hinge) fit+predict seconds: min %.3f" % min(times))
print("peak RSS MiB %.0f" % (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))
