# Reference for internal/tsne's digits test: scikit-learn's TSNE on the
# gauss-kernel feature-space distances of all 1,797 digits (raw pixels,
# sigma = 30): d2 = 2 - 2 exp(-|x - z|^2 / (2 sigma^2)), given as the
# precomputed "distances" (TSNE uses a precomputed matrix as is, so it
# plays the role of ksql's squared distances).
# digits.csv: shared/data/digits.csv (scikit-learn's bundled digits,
# Debian python3-sklearn 1.2.1+dfsg-1). Run:
#   env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 make_ref.py
import csv, json, time, numpy as np, sklearn
from sklearn.manifold import TSNE, trustworthiness
rows = list(csv.reader(open("digits.csv")))[1:]
X = np.array([[float(v) for v in r[2:]] for r in rows])
sq = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
D = 2 - 2 * np.exp(-sq / (2 * 30.0 ** 2))
np.fill_diagonal(D, 0)
out = {"sklearn": sklearn.__version__, "runs": []}
for seed in range(3):
    t = time.perf_counter()
    m = TSNE(n_components=2, perplexity=30, metric="precomputed", init="random", random_state=seed,
             method="barnes_hut", n_iter=1000, learning_rate="auto", square_distances=True)
    Y = m.fit_transform(D)
    el = time.perf_counter() - t
    out["runs"].append({"seed": seed, "kl": float(m.kl_divergence_),
                        "trustworthiness": float(trustworthiness(D, Y, n_neighbors=5, metric="precomputed")), "seconds": el})
    print(out["runs"][-1])
json.dump(out, open("ref_digits.json", "w"), indent=1)
