#!/usr/bin/python3
"""Anchor of BenchmarkFitCores: scipy.linalg.eigh(M, N + reg*I), the
generalized symmetric-definite problem kfda solves, for n = 1,000 and
4,000 objects of 3 classes drawn like classData (class centre
(cos c, sin c) plus N(0, 0.6^2) noise; numpy's generator, not Go's),
gauss Gram exp(-|x - z|^2), reg = 1e-3. M and N are built outside the
timer (their build is timed apart); best of 3, with the best run's CPU
time over wall time (the cores it kept busy). sizes (comma-separated) and
runs default to 1000,4000 and 3. Run with OPENBLAS_CORETYPE and
OPENBLAS_L2_SIZE unset (OPENBLAS_NUM_THREADS=1 for one core):
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 bench_eigh.py [sizes [runs]]
"""
import sys, time
import numpy as np
import scipy, scipy.linalg

sizes = [int(v) for v in sys.argv[1].split(",")] if len(sys.argv) > 1 else [1000, 4000]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
rng = np.random.default_rng(1)
print(f"scipy {scipy.__version__} numpy {np.__version__}")
for n in sizes:
    y = np.arange(n) % 3
    P = np.c_[np.cos(y), np.sin(y)] + 0.6 * rng.standard_normal((n, 2))
    sq = ((P[:, None, :] - P[None, :, :]) ** 2).sum(-1)
    K = np.exp(-sq)
    t = time.perf_counter()
    m = K.mean(1)
    M = np.zeros((n, n))
    N = K @ K.T
    for c in range(3):
        idx = y == c
        mc = K[:, idx].mean(1)
        M += idx.sum() * np.outer(mc - m, mc - m)
        N -= idx.sum() * np.outer(mc, mc)
    B = N + 1e-3 * np.eye(n)
    build = time.perf_counter() - t
    best = (float("inf"), 0.0)
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        scipy.linalg.eigh(M, B)
        wall = time.perf_counter() - t
        best = min(best, (wall, (time.process_time() - c) / wall))
    print(f"n={n}: eigh(M, N + reg I): best of {runs}: {best[0]:.3f} s, cpu/wall {best[1]:.1f} (building M and N {build:.3f} s)")
