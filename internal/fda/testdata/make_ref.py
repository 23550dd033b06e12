# Reference for internal/fda: the same discriminant computed independently
# with numpy/scipy (scipy.linalg.eigh on the generalised problem
# M a = lambda (N + reg I) a, whose eigenvectors are normalised so that
# a^T (N + reg I) a = 1), on iris (4 features, gauss gamma = 0.5) and
# wine (13 features z-scored with the population std, gamma = 0.05),
# reg = 0.1. Training rows: those with id % 5 != 0; the others are new
# points. Projections of both, signed so that each a's entry of largest
# magnitude is positive. iris.csv, wine.csv: shared/data (scikit-learn's
# datasets, Debian python3-sklearn 1.2.1+dfsg-1).
#   /usr/bin/python3 make_ref.py
import csv, json, numpy as np, scipy, scipy.linalg
from sklearn.metrics.pairwise import rbf_kernel

def load(name, feat, label, z):
    rows = list(csv.reader(open(name)))[1:]
    X = np.array([[float(r[i]) for i in feat] for r in rows])
    if z:
        X = (X - X.mean(0)) / X.std(0)
    y = [r[label] for r in rows]
    return X, y

out = {"scipy": scipy.__version__, "cases": []}
for name, feat, label, z, gamma in [("iris.csv", range(1, 5), 5, False, 0.5), ("wine.csv", range(2, 15), 1, True, 0.05)]:
    X, y = load(name, feat, label, z)
    tr = [i for i in range(len(X)) if i % 5 != 0]
    te = [i for i in range(len(X)) if i % 5 == 0]
    K = rbf_kernel(X[tr], X[tr], gamma=gamma)
    classes = sorted(set(y[i] for i in tr))
    n = len(tr)
    m = K.mean(1)
    M = np.zeros((n, n)); N = K @ K
    for c in classes:
        idx = [t for t, i in enumerate(tr) if y[i] == c]
        mc = K[:, idx].mean(1)
        M += len(idx) * np.outer(mc, mc)
        N -= len(idx) * np.outer(mc, mc)
    M -= n * np.outer(m, m)
    w, A = scipy.linalg.eigh(M, N + 0.1 * np.eye(n))
    A = A[:, ::-1][:, :len(classes) - 1]; w = w[::-1][:len(classes) - 1]
    for j in range(A.shape[1]):
        k = np.argmax(np.abs(A[:, j]))
        A[:, j] *= np.sign(A[k, j])
    out["cases"].append({"file": name, "gamma": gamma, "eigenvalues": w.tolist(),
                         "train": (K @ A).tolist(), "test": (rbf_kernel(X[te], X[tr], gamma=gamma) @ A).tolist()})
json.dump(out, open("ref.json", "w"))
