#!/usr/bin/python3
"""Anchor of BenchmarkFitPredict5391: scikit-learn's KernelRidge(alpha=1,
kernel='rbf', gamma=1/64) fit and predict on its own rows, the digits
three times over (raw pixels, copy c shifted by 0.01*c; label the digit),
best of 3, with the best run's CPU time over wall time (the cores it kept
busy). n (the first n of the 5,391 rows) and runs default to 5391 and 3.
Run with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset
(OPENBLAS_NUM_THREADS=1 for one core):
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 bench_krr5391.py [n [runs]]
"""
import csv, os, sys, time
import numpy as np
import sklearn
from sklearn.kernel_ridge import KernelRidge

n = int(sys.argv[1]) if len(sys.argv) > 1 else 5391
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "..", "..", "kpca", "testdata", "digits.csv")) as f:
    rows = list(csv.reader(f))[1:]
d = np.array([[float(v) for v in r[2:66]] for r in rows])
X = np.vstack([d + 0.01 * c for c in range(3)])[:n]
y = np.tile(np.array([float(r[1]) for r in rows]), 3)[:n]
best = (float("inf"), 0.0)
for _ in range(runs):
    t, c = time.perf_counter(), time.process_time()
    p = KernelRidge(alpha=1, kernel="rbf", gamma=1 / 64).fit(X, y).predict(X)
    wall = time.perf_counter() - t
    best = min(best, (wall, (time.process_time() - c) / wall))
print(f"train: KernelRidge fit+predict, scikit-learn {sklearn.__version__}, n={len(X)}: best of {runs}: {best[0]:.3f} s, "
      f"cpu/wall {best[1]:.1f} (train MAE {np.abs(p - y).mean():.4f})")
