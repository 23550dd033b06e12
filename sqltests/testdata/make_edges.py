"""Reference values of sqltests/edges.test, computed with mpmath at
60 digits from the definitions in DESIGN.md, independently of ksql.
Run: /usr/bin/python3 sqltests/testdata/make_edges.py"""
from mpmath import mp, mpf, exp, sqrt, binomial

mp.dps = 60


def gauss_over(d2, sigma):
    """value and squared feature-space distance of gauss(sigma, over=K) given K's d2"""
    v = exp(-d2 / (2 * sigma**2))
    return v, 2 - 2 * v


def show(name, x):
    print(f"{name}: {mp.nstr(x, 17)}")


show("exp(-1/2)", exp(mpf(-1) / 2))
show("exp(-2)", exp(-2))
# forty nested gauss(sigma=1, over=...) around linear, a=[0], b=[1]: K's d2 = 1
d2 = mpf(1)
for level in range(40):
    v, d2 = gauss_over(d2, 1)
show("40 nested gauss over linear, [0] vs [1]", v)
# kernel_distance('gauss(sigma=1)', '[0]', '[1e-9]') * 1e9
show("gauss distance 1e-9 scaled", sqrt(2 - 2 * exp(-mpf("1e-18") / 2)) * mpf(10) ** 9)
show("laplace distance 1e-12 scaled", sqrt(2 - 2 * exp(-mpf("1e-12"))) * mpf(10) ** 6)
# normalize(subseq(p=2)) of 'abcab' and 'abcb': brute force over index pairs
def subseq_p(s, t, p):
    from itertools import combinations
    n = 0
    for i in combinations(range(len(s)), p):
        for j in combinations(range(len(t)), p):
            if all(s[a] == t[b] for a, b in zip(i, j)):
                n += 1
    return n
s, t = "abcab", "abcb"
show("normalize(subseq(p=2)) abcab abcb", subseq_p(s, t, 2) / sqrt(subseq_p(s, s, 2) * subseq_p(t, t, 2)))
# poly(degree=3, r=1) distance of [1e8, 1] and [1e8, 0]: A^3 - 2B^3 + C^3
A, B, C = mpf(10)**16 + 1 + 1, mpf(10)**16 + 1, mpf(10)**16 + 1
show("poly3 distance near 1e8", sqrt(A**3 - 2 * B**3 + C**3))
# normalize(poly(degree=2, r=0)) distance of [1, 1e-8] and [1, 0]
x, z = (mpf(1), mpf("1e-8")), (mpf(1), mpf(0))
dot = lambda u, w: sum(a * b for a, b in zip(u, w))
k = lambda u, w: dot(u, w) ** 2
show("normalize(poly2) distance", sqrt(2 - 2 * k(x, z) / sqrt(k(x, x) * k(z, z))) * mpf(10) ** 8)
# gauss(sigma=1)*gauss(sigma=2) distance of [0] and [1e-6], times 1e6
kab = exp(-mpf("1e-12") / 2) * exp(-mpf("1e-12") / 8)
show("product distance", sqrt(2 - 2 * kab) * mpf(10) ** 6)
