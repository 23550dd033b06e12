"""The scikit-learn side of internal/svm's benchmarks (not used by tests).

/usr/bin/python3 bench_sklearn.py   (run from this directory; prints the best
of several runs, in ms, of the same work as the Go benchmarks: SVC.fit on
all digits and on standardised spam, SVC.predict of the first 1,000 rows).
For fair numpy timings unset OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE.
"""
import time

import numpy as np
from sklearn.svm import SVC

from make_ref import load_digits, load_spam


def best(f, reps):
    t = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        t.append(time.perf_counter() - t0)
    return 1000 * min(t)


def main():
    for name, (X, y), C, gamma in [
        ("digits", load_digits(), 1.0, 0.001),
        ("spam", load_spam(), 5.0, 1 / 57),
    ]:
        m = SVC(C=C, gamma=gamma, tol=1e-5)
        fit = best(lambda: m.fit(X, y), 5)
        pred = best(lambda: m.predict(X[:1000]), 10)
        print(f"{name}: fit {fit:.1f} ms ({int(np.sum(m.n_iter_))} iterations, "
              f"{len(m.support_)} SVs); predict 1000 rows {pred:.1f} ms")


if __name__ == "__main__":
    main()
