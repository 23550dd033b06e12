# Independent re-implementation of internal/cv's documented fold rule, to pin
# TestFoldsGolden: python3 testdata_make_golden.py
M = (1 << 64) - 1
def gen(seed):
    s = seed
    while True:
        s = (s + 0x9e3779b97f4a7c15) & M
        z = s
        z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M
        z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M
        yield z ^ (z >> 31)
def below(g, n):
    x = next(g) * n
    hi, lo = x >> 64, x & M
    if lo < n:
        t = (-n) % (1 << 64) % n
        while lo < t:
            x = next(g) * n
            hi, lo = x >> 64, x & M
    return hi
def folds(n, k, seed):
    g = gen(seed); pos = list(range(n))
    for i in range(n - 1, 0, -1):
        j = below(g, i + 1); pos[i], pos[j] = pos[j], pos[i]
    f = [0] * n
    for p, r in enumerate(pos):
        f[r] = p % k
    return f
print(folds(10, 3, 0), folds(12, 4, 42))
