"""The scikit-learn side of internal/svm's BenchmarkNuSVCDigits,
BenchmarkOneClassDigits, BenchmarkEpsSVRDigits and BenchmarkNuSVRDigits, and
of their *Spam twins (standardised spam, gamma = 1/57; types_bench_test.go;
not used by tests).

/usr/bin/python3 bench_types_sklearn.py   (from this directory; prints the
best of several runs, in ms, of fit on all 1,797 digits then predict of
every row, gamma = 0.001, tol = 1e-3; the regressions' target is the digit;
the CPU time beside the wall time, as the Go benchmarks' cpu-ms/op).
For fair numpy timings unset OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE.
"""
import time

import numpy as np
from sklearn.svm import SVR, NuSVC, NuSVR, OneClassSVM

from make_ref import load_digits, load_spam


def best(f, reps):
    """Best wall and best CPU (process) time of reps runs, in ms."""
    t, c = [], []
    for _ in range(reps):
        t0, c0 = time.perf_counter(), time.process_time()
        f()
        t.append(time.perf_counter() - t0)
        c.append(time.process_time() - c0)
    return 1000 * min(t), 1000 * min(c)


def main():
    bench("digits", *load_digits(), 0.001)
    bench("spam", *load_spam(), 1 / 57)


def bench(data, X, y, gamma):
    common = dict(kernel="rbf", gamma=gamma, tol=1e-3)
    if y.dtype.kind not in "iuf":  # spam's labels: 0 nonspam, 1 spam, as the Go side
        y = (y == "spam").astype(int)
    for name, m, target in [
        ("NuSVC(nu=0.1)", NuSVC(nu=0.1, **common), y),
        ("OneClassSVM(nu=0.1)", OneClassSVM(nu=0.1, **common), None),
        ("SVR(C=1, epsilon=0.1)", SVR(C=1, epsilon=0.1, **common), np.asarray(y, float)),
        ("NuSVR(C=1, nu=0.5)", NuSVR(C=1, nu=0.5, **common), np.asarray(y, float)),
    ]:
        def run():
            m.fit(X, target)
            m.predict(X)
        ms, cpu = best(run, 5)
        print(f"{data} {name}: fit + predict {ms:.1f} ms, cpu {cpu:.1f} ms ({int(np.sum(m.n_iter_))} iterations, {len(m.support_)} SVs)")


if __name__ == "__main__":
    main()
