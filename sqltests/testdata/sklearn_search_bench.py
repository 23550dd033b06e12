#!/usr/bin/python3
"""Times scikit-learn's GridSearchCV on the problem of
sqltests/search_test.go's BenchmarkModelSearchDigits: all 1,797 digits,
SVC with rbf gamma in {0.0005, 0.001, 0.002} (gauss sigma = 1/sqrt(2
gamma)) x C in {0.1, 1, 10}, 5 stratified folds, n_jobs=-1 (every core),
refit of the best on all rows (the default; model_search also fits every
point on all rows). Data in memory; best of 3. Run from this directory,
with the OpenBLAS variables of this machine unset for a fair anchor:

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 sklearn_search_bench.py
"""
import csv, os, time
import numpy as np, sklearn
from sklearn.model_selection import GridSearchCV
from sklearn.svm import SVC

rows = list(csv.reader(open("digits.csv")))[1:]
X = np.array([[float(v) for v in r[2:66]] for r in rows]); y = np.array([int(r[1]) for r in rows])
grid = {"gamma": [0.0005, 0.001, 0.002], "C": [0.1, 1, 10]}

def run():
    return GridSearchCV(SVC(), grid, cv=5, n_jobs=-1).fit(X, y)

def tree_cpu():
    """CPU seconds (user + system) of this process and its descendants
    alive now (joblib's workers), from /proc."""
    stats = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                f = open("/proc/%s/stat" % d).read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            stats[int(d)] = (int(f[1]), (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK"))
    mine, total, grew = {os.getpid()}, 0.0, True
    while grew:
        grew = False
        for pid, (ppid, _) in stats.items():
            if ppid in mine and pid not in mine:
                mine.add(pid); grew = True
    return sum(stats[p][1] for p in mine if p in stats)

run()  # start the worker pool once, as a session would
ts, cs = [], []
for _ in range(3):
    c = tree_cpu(); t = time.perf_counter(); g = run(); ts.append(time.perf_counter() - t); cs.append(tree_cpu() - c)
print("scikit-learn", sklearn.__version__, "cores", os.cpu_count())
print("GridSearchCV(SVC(), 3 gamma x 3 C, cv=5, n_jobs=-1) on 1797 digits: %.0f ms wall (best of 3), %.2f cpu-s (mean of 3, workers included)"
      % (1e3 * min(ts), sum(cs) / len(cs)))
for p, s, sd, r in zip(g.cv_results_["params"], g.cv_results_["mean_test_score"], g.cv_results_["std_test_score"], g.cv_results_["rank_test_score"]):
    print("  gamma=%g C=%g: mean %.6f std %.6f rank %d" % (p["gamma"], p["C"], s, sd, r))
