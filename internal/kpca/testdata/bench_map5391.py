#!/usr/bin/python3
"""Anchor of BenchmarkFitMap5391 (gram+fit): rbf_kernel (gamma = 1/512,
ksql's gauss(sigma=16)) and scipy.linalg.eigh of the 5,391 digits three
times over (raw pixels, copy c shifted by 0.01*c, as the benchmark's
sqlDigits), best of 3; eigh alone too (the benchmark's fit). Each line
gives the best run's CPU time over wall time (the cores it kept busy).
n (the first n of the 5,391 rows) and runs default to 5391 and 3. Run
with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset, with
OPENBLAS_NUM_THREADS=1 for one core:
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 bench_map5391.py [n [runs]]
"""
import csv, os, sys, time
import numpy as np
import scipy, scipy.linalg
from sklearn.metrics.pairwise import rbf_kernel

n = int(sys.argv[1]) if len(sys.argv) > 1 else 5391
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "digits.csv")) as f:
    d = np.array([[float(v) for v in r[2:66]] for r in list(csv.reader(f))[1:]])
X = np.vstack([d + 0.01 * c for c in range(3)])[:n]
best = best_eigh = (float("inf"), 0.0)
for _ in range(runs):
    t0, c0 = time.perf_counter(), time.process_time()
    K = rbf_kernel(X, gamma=1 / 512)
    t1, c1 = time.perf_counter(), time.process_time()
    scipy.linalg.eigh(K)
    t2, c2 = time.perf_counter(), time.process_time()
    best = min(best, (t2 - t0, (c2 - c0) / (t2 - t0)))
    best_eigh = min(best_eigh, (t2 - t1, (c2 - c1) / (t2 - t1)))
print(f"scipy {scipy.__version__} numpy {np.__version__}")
print(f"gram+fit: rbf_kernel + eigh, n={len(X)}: best of {runs}: {best[0]:.3f} s, cpu/wall {best[1]:.1f}")
print(f"fit: eigh alone, n={len(X)}: best of {runs}: {best_eigh[0]:.3f} s, cpu/wall {best_eigh[1]:.1f}")
