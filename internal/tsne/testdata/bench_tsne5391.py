#!/usr/bin/python3
"""Anchor of BenchmarkTripled5391BarnesHut: scikit-learn's Barnes-Hut TSNE
on the digits three times over (raw pixels, copy c shifted by 0.01*c),
the gauss sigma = 30 feature-space distances of make_ref.py precomputed
outside the timer, perplexity 30, 1,000 iterations, best of 3. Run with
OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset (OMP_NUM_THREADS=1 for one
core):
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 bench_tsne5391.py
"""
import csv, os, time
import numpy as np
import sklearn
from sklearn.manifold import TSNE
from sklearn.metrics.pairwise import euclidean_distances

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "digits.csv")) as f:
    d = np.array([[float(v) for v in r[2:]] for r in list(csv.reader(f))[1:]])
X = np.vstack([d + 0.01 * c for c in range(3)])
sq = euclidean_distances(X, squared=True)
D = 2 - 2 * np.exp(-sq / (2 * 30.0 ** 2))
np.fill_diagonal(D, 0)
best, kl = float("inf"), None
for seed in range(3):
    t = time.perf_counter()
    m = TSNE(n_components=2, perplexity=30, metric="precomputed", init="random", random_state=seed,
             method="barnes_hut", n_iter=1000, learning_rate="auto", square_distances=True)
    m.fit_transform(D)
    el = time.perf_counter() - t
    if el < best:
        best, kl = el, m.kl_divergence_
print(f"n={len(X)} scikit-learn {sklearn.__version__}: TSNE barnes_hut best of 3 {best:.3f} s (KL {kl:.4f})")
