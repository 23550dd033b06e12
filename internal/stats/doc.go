// Package stats holds the statistics that help choose a kernel before
// fitting anything: the kernel two-sample test (maximum mean discrepancy,
// Gretton et al. 2012, with a seeded permutation test), quantiles of
// pairwise distances (kernlab's sigest and the median heuristic) and
// centred kernel–target alignment (Cortes, Mohri & Rostamizadeh 2012).
// It works on Gram matrices and vectors already read; it knows nothing of
// where they came from.
package stats
