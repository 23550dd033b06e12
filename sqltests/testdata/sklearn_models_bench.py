#!/usr/bin/python3
"""Times scikit-learn on the problems of sqltests/models_bench_test.go (fit
only, data in memory; best of 5). Run from this directory, with the
OpenBLAS variables of this machine unset for a fair anchor:

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 sklearn_models_bench.py
"""
import csv, gzip, time
import numpy as np, sklearn
from sklearn.svm import SVC
from sklearn.kernel_ridge import KernelRidge

def best(f, reps=5):
    ts = []
    for _ in range(reps):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return min(ts)

rows = list(csv.reader(open("digits.csv")))[1:]
X = np.array([[float(v) for v in r[2:66]] for r in rows]); y = np.array([int(r[1]) for r in rows])
print("scikit-learn", sklearn.__version__)
print("SVC fit digits (gamma=0.001, C=1): %.1f ms" % (1e3 * best(lambda: SVC(C=1, gamma=0.001).fit(X, y))))
m = SVC(C=1, gamma=0.001).fit(X, y)
print("SVC predict 1000 digits: %.1f ms" % (1e3 * best(lambda: m.predict(X[:1000]))))
s = list(csv.reader(gzip.open("../../internal/svm/testdata/spam.csv.gz", "rt")))[1:]
S = np.array([[float(v) for v in r[1:-1]] for r in s]); S = (S - S.mean(0)) / S.std(0); sy = [r[-1] for r in s]
print("SVC fit spam (gamma=1/57, C=5): %.1f ms" % (1e3 * best(lambda: SVC(C=5, gamma=1/57).fit(S, sy))))
T = np.vstack([X, X[:203] + 0.01])[:2000]; ty = np.arange(2000) % 10
print("KernelRidge(rbf, gamma=1/64, alpha=1) fit 2000 digits: %.1f ms" % (1e3 * best(lambda: KernelRidge(alpha=1, kernel="rbf", gamma=1/64).fit(T, ty))))
