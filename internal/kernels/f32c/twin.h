/* C twins of internal/kernels' vector kernels on float32 BLOBs, for C
 * adapters that would otherwise cross into Go for every call. Each gives
 * the bits the Go code gives (the same operations in the same order, no
 * contraction into fused multiply-adds but where Go's assembly has them)
 * and returns 1, or returns 0 where Go must decide: a non-finite or
 * out-of-range value, a scaled fallback, an exponent outside fastExp's
 * range, or a twin switched off. nbytes is a positive multiple of 4 and
 * the parameters are in their kernels' ranges; the caller checks both. */
#ifndef KSQL_F32C_TWIN_H
#define KSQL_F32C_TWIN_H

typedef struct ksql_twin_consts {
	double expHi[128], expLo[128];
	double expInvLn2N, expLn2HiN, expLn2LoN, expShift, expMin, expMax;
	double tiny, sigmaLo, sigmaHi;
	double polyR; /* poly's default r */
	int maxDegree;
	int avx2;    /* sum as kernels' AVX2 loops do */
	int enabled; /* the twins may answer at all */
} ksql_twin_consts;

extern ksql_twin_consts ksql_twin;

int ksql_twin_gauss(const void *x, const void *z, int nbytes, double sigma, double *out);
int ksql_twin_laplace(const void *x, const void *z, int nbytes, double sigma, double *out);
int ksql_twin_linear(const void *x, const void *z, int nbytes, double *out);
int ksql_twin_poly(const void *x, const void *z, int nbytes, int degree, double r, double *out);

#endif
