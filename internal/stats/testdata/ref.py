# Reference values for internal/stats and sqltests/discovery.test, made with
# Debian's numpy:  /usr/bin/python3 internal/stats/testdata/ref.py > internal/stats/testdata/ref.json
# (numpy 1.24.2). The data are small fixed vectors so that the SQL tests can
# insert the same ones; every statistic is the textbook formula on the Gram
# blocks, written independently of the Go code.
import json
import numpy as np

A = np.array([[0.0, 1.0], [1.0, 0.5], [2.0, 2.0], [0.5, -1.0], [1.5, 0.0]])
B = np.array([[3.0, 1.0], [2.5, 2.0], [4.0, 0.0], [3.5, 1.5]])
sigma = 1.5


def gauss(X, Z):
    d2 = ((X[:, None, :] - Z[None, :, :]) ** 2).sum(-1)
    return np.exp(-d2 / (2 * sigma ** 2))


def mmd(X, Y):
    n, m = len(X), len(Y)
    Kxx, Kyy, Kxy = gauss(X, X), gauss(Y, Y), gauss(X, Y)
    biased = Kxx.sum() / n**2 + Kyy.sum() / m**2 - 2 * Kxy.mean()
    unbiased = ((Kxx.sum() - np.trace(Kxx)) / (n * (n - 1))
                + (Kyy.sum() - np.trace(Kyy)) / (m * (m - 1)) - 2 * Kxy.mean())
    return unbiased, biased


def alignment(K, Y):
    n = len(K)
    H = np.eye(n) - np.ones((n, n)) / n
    Kc, Lc = H @ K @ H, H @ (Y @ Y.T) @ H
    return float((Kc * Lc).sum() / (np.linalg.norm(Kc) * np.linalg.norm(Lc)))


X = np.vstack([A, B])
K = gauss(X, X)
u, b = mmd(A, B)
classes = ['a', 'a', 'b', 'a', 'b', 'c', 'c', 'b', 'c']
onehot = np.array([[1.0 if c == k else 0.0 for k in 'abc'] for c in classes])
numbers = np.array([[0.5], [1.0], [4.0], [-2.0], [3.0], [7.0], [6.5], [8.0], [5.5]])
D = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))[np.triu_indices(len(X), 1)]
L1 = np.abs(X[:, None, :] - X[None, :, :]).sum(-1)[np.triu_indices(len(X), 1)]
qs = [0.0, 0.1, 0.25, 0.5, 0.9, 1.0]
out = {
    "a": A.tolist(), "b": B.tolist(), "sigma": sigma, "gram": K.ravel().tolist(),
    "mmd2_unbiased": u, "mmd2_biased": b,
    "classes": classes, "numbers": numbers.ravel().tolist(),
    "align_classes": alignment(K, onehot), "align_numbers": alignment(K, numbers),
    "quantiles": qs,
    "l2_quantiles": [float(np.quantile(D, q)) for q in qs],
    "l1_quantiles": [float(np.quantile(L1, q)) for q in qs],
}
print(json.dumps(out, indent=1))
