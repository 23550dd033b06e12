"""Reference values of sqltests/cluster_test.go (kkmeans and spectral), made
with Debian's scikit-learn 1.2.1 / numpy 1.24.2, independently of ksql.
Run from this directory: /usr/bin/python3 make_cluster_ref.py > ref_cluster.json

For each data set: the points, the true labels, the gauss sigma and k used,
scikit-learn's KMeans(n_clusters=k, n_init=10).inertia_ on the raw points
(the objective kkmeans with kernel='linear' must reach), and the labels of
SpectralClustering(n_clusters=k, affinity='precomputed', n_init=10) on the
gauss kernel matrix exp(-|x-z|^2 / (2 sigma^2)), which is ksql's gauss(sigma=)."""
import csv
import json

import numpy as np
from sklearn.cluster import KMeans, SpectralClustering
from sklearn.datasets import make_blobs, make_circles, make_moons


def gauss(X, sigma):
    d2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    return np.exp(-d2 / (2 * sigma * sigma))


def iris():
    with open("iris.csv") as f:
        rows = list(csv.reader(f))[1:]
    X = np.array([[float(v) for v in r[1:5]] for r in rows])
    names = sorted({r[5] for r in rows})
    return X, np.array([names.index(r[5]) for r in rows])


sets = {
    # name: (points, truth), k, sigma
    "iris": (iris(), 3, 1.0),
    "blobs": (make_blobs(n_samples=300, centers=4, cluster_std=1.0, random_state=0), 4, 1.0),
    "blobs_sep": (make_blobs(n_samples=300, centers=4, cluster_std=0.6, random_state=0), 4, 1.0),
    "circles": (make_circles(n_samples=300, factor=0.3, noise=0.05, random_state=0), 2, 0.2),
    "moons": (make_moons(n_samples=300, noise=0.05, random_state=0), 2, 0.15),
}
out = {}
for name, ((X, y), k, sigma) in sets.items():
    km = KMeans(n_clusters=k, n_init=10, random_state=0).fit(X)
    sc = SpectralClustering(n_clusters=k, affinity="precomputed", n_init=10, random_state=0).fit(gauss(X, sigma))
    out[name] = {
        "x": X.tolist(),
        "truth": [int(v) for v in y],
        "k": k,
        "sigma": sigma,
        "kmeans_inertia": float(km.inertia_),
        "spectral_labels": [int(v) for v in sc.labels_],
    }
json.dump(out, __import__("sys").stdout)
