# Reference decision values for sqltests/svm_test.go's string-kernel check:
# scikit-learn's SVC(kernel='precomputed', C=10, tol=1e-5) fed ksql's own
# Gram matrices, so the check is of the solver, not of the kernels.
# The Gram matrices and labels were written by the ksql shell:
#   ksql :memory: ".read gram.sql"   (the .sql is in this script's docstring below)
# then:  /usr/bin/python3 make_svm_strings.py /tmp/sref
# (scikit-learn 1.2.1, Debian python3-sklearn 1.2.1+dfsg-1)
#
# gram.sql:
#   .import --csv examples/promoters.csv promoters
#   .import --csv examples/reuters.csv reuters
#   .mode csv
#   CREATE VIRTUAL TABLE pg USING gram(table=promoters, id=id, column=sequence, kernel='normalize(ssk(p=3, lambda=0.5))');
#   CREATE VIRTUAL TABLE rg USING gram(table=reuters, id=id, column=text, kernel='normalize(ngram(n=5))');
#   .output promoters_gram.csv / SELECT row_id, col_id, printf('%.17g', value) FROM pg;  (and rg)
#   .output promoters_y.csv / SELECT id, class FROM promoters ORDER BY id;  (and reuters: id, label)
import csv, json, sys, numpy as np, sklearn
from sklearn.svm import SVC
d = sys.argv[1]
out = {"sklearn": sklearn.__version__, "C": 10, "tol": 1e-5}
for name in ("promoters", "reuters"):
    ys = list(csv.reader(open(f"{d}/{name}_y.csv")))
    ids = [int(r[0]) for r in ys]
    pos = {i: p for p, i in enumerate(ids)}
    n = len(ids)
    K = np.zeros((n, n))
    for r, c, v in csv.reader(open(f"{d}/{name}_gram.csv")):
        K[pos[int(r)], pos[int(c)]] = float(v)
    y = [r[1] for r in ys]
    m = SVC(kernel="precomputed", C=10, tol=1e-5).fit(K, y)
    out[name] = {"classes": list(m.classes_), "decision": m.decision_function(K).tolist(),
                 "n_support": m.n_support_.tolist(), "predict": list(m.predict(K))}
json.dump(out, open("ref_svm_strings.json", "w"), indent=0)
