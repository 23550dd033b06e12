#!/usr/bin/python3
"""Anchor of BenchmarkTripled5391BarnesHut: scikit-learn's Barnes-Hut TSNE
on the digits three times over (raw pixels, copy c shifted by 0.01*c),
the gauss sigma = 30 feature-space distances of make_ref.py precomputed
outside the timer, perplexity 30, 1,000 iterations, best of 3 (seeds 0,
1, 2), with the best run's CPU time over wall time (the cores it kept
busy). n (the first n of the 5,391 rows) and runs default to 5391 and 3.
n_iter is passed as max_iter where scikit-learn has renamed it;
square_distances, which has no effect from 1.2 on and is gone from 1.3,
is not passed. Run with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset
(OMP_NUM_THREADS=1 for one core):
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 bench_tsne5391.py [n [runs]]
"""
import csv, inspect, os, sys, time
import numpy as np
import sklearn
from sklearn.manifold import TSNE
from sklearn.metrics.pairwise import euclidean_distances

n = int(sys.argv[1]) if len(sys.argv) > 1 else 5391
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "digits.csv")) as f:
    d = np.array([[float(v) for v in r[2:]] for r in list(csv.reader(f))[1:]])
X = np.vstack([d + 0.01 * c for c in range(3)])[:n]
sq = euclidean_distances(X, squared=True)
D = 2 - 2 * np.exp(-sq / (2 * 30.0 ** 2))
np.fill_diagonal(D, 0)
params = inspect.signature(TSNE).parameters
extra = {"max_iter" if "max_iter" in params else "n_iter": 1000}
best, kl = (float("inf"), 0.0), None
for seed in range(runs):
    t, c = time.perf_counter(), time.process_time()
    m = TSNE(n_components=2, perplexity=30, metric="precomputed", init="random", random_state=seed,
             method="barnes_hut", learning_rate="auto", **extra)
    m.fit_transform(D)
    wall = time.perf_counter() - t
    if wall < best[0]:
        best, kl = (wall, (time.process_time() - c) / wall), m.kl_divergence_
print(f"tsne: TSNE barnes_hut, scikit-learn {sklearn.__version__}, n={len(X)}: best of {runs}: {best[0]:.3f} s, "
      f"cpu/wall {best[1]:.1f} (KL {kl:.4f})")
