/*
 * The all-subsequences kernel by the textbook dynamic programme, written
 * plainly in C, as the speed reference of BenchmarkSubseqPairs (which builds
 * it with gcc -O2 when gcc is installed; the package's tests never need it):
 *
 *   DP[i][j] = DP[i-1][j] + P,  P += DP[i-1][j-1] where s_i = t_j,
 *
 * in float64, two rows of the table kept. Usage:
 *
 *   subseq_ref PAIRS OUT REPS
 *
 * PAIRS holds little-endian int32s: the number of pairs, then per pair |s|,
 * the symbols of s, |t|, the symbols of t. The program evaluates all pairs
 * REPS times, writes each pair's value (float64, little-endian) to OUT and
 * prints the best wall and CPU nanoseconds per pair over the repetitions.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double subseq(const int32_t *s, int m, const int32_t *t, int n, double *prev, double *cur) {
	for (int j = 0; j <= n; j++)
		prev[j] = 1;
	for (int i = 1; i <= m; i++) {
		double P = 0;
		cur[0] = 1;
		for (int j = 1; j <= n; j++) {
			if (s[i - 1] == t[j - 1])
				P += prev[j - 1];
			cur[j] = prev[j] + P;
		}
		double *x = prev;
		prev = cur;
		cur = x;
	}
	return prev[n];
}

static double now(clockid_t c) {
	struct timespec ts;
	clock_gettime(c, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int32_t *readAll(const char *path, long *len) {
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	*len = ftell(f) / 4;
	fseek(f, 0, SEEK_SET);
	int32_t *buf = malloc(*len * 4 + 4);
	if (fread(buf, 4, *len, f) != (size_t)*len) {
		perror(path);
		exit(1);
	}
	fclose(f);
	return buf;
}

int main(int argc, char **argv) {
	if (argc != 4) {
		fprintf(stderr, "usage: subseq_ref PAIRS OUT REPS\n");
		return 2;
	}
	long len;
	int32_t *buf = readAll(argv[1], &len);
	int reps = atoi(argv[3]);
	int np = buf[0], maxn = 0;
	const int32_t **s = malloc(np * sizeof *s), **t = malloc(np * sizeof *t);
	int *m = malloc(np * sizeof *m), *n = malloc(np * sizeof *n);
	long k = 1;
	for (int p = 0; p < np; p++) {
		m[p] = buf[k++], s[p] = buf + k, k += m[p];
		n[p] = buf[k++], t[p] = buf + k, k += n[p];
		if (n[p] > maxn)
			maxn = n[p];
	}
	double *prev = malloc((maxn + 1) * sizeof *prev), *cur = malloc((maxn + 1) * sizeof *cur);
	double *out = malloc(np * sizeof *out);
	double bestWall = 1e300, bestCPU = 1e300;
	for (int r = 0; r < reps; r++) {
		double w = now(CLOCK_MONOTONIC), c = now(CLOCK_PROCESS_CPUTIME_ID);
		for (int p = 0; p < np; p++)
			out[p] = subseq(s[p], m[p], t[p], n[p], prev, cur);
		w = now(CLOCK_MONOTONIC) - w, c = now(CLOCK_PROCESS_CPUTIME_ID) - c;
		if (w < bestWall)
			bestWall = w;
		if (c < bestCPU)
			bestCPU = c;
	}
	FILE *f = fopen(argv[2], "wb");
	if (!f || fwrite(out, sizeof *out, np, f) != (size_t)np || fclose(f)) {
		perror(argv[2]);
		return 1;
	}
	printf("%.0f %.0f\n", bestWall / np, bestCPU / np);
	return 0;
}
