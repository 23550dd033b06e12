# Reference values of kernlab's string kernels for strkernel's cross-check
# (kernlab_test.go). Run from this directory:
#
#   Rscript make_ref.R > kernlab_ref.csv
#
# kernlab 0.9-32 (Debian r-cran-kernlab). Two kernels match strkernel's:
#   stringdot(type = "sequence", length = p, lambda = l, normalized = FALSE)
#     is Lodhi's gap-weighted kernel, ssk(p, lambda), on bytes;
#   stringdot(type = "spectrum", length = n, normalized = FALSE)
#     counts common byte n-grams after appending "\n" to each string, so it
#     is ngram(n) plus the n-grams that contain that newline (the test
#     removes them).
# The inputs are ASCII, so bytes are code points.
library(kernlab)
cat(sprintf("# kernlab %s, R %s\n", packageVersion("kernlab"), getRversion()))
cat("kernel,p,lambda,source,i,j,value\n")
prom <- read.csv("promoters.csv", stringsAsFactors = FALSE)
ids <- c(0:14, 53:67) # 15 promoters and 15 non-promoters
seqs <- as.list(prom$sequence[ids + 1])
reut <- read.csv("reuters.csv", stringsAsFactors = FALSE)
rids <- c(0, 1, 2, 20, 21, 22)
texts <- as.list(substr(reut$text[rids + 1], 1, 300))
emit <- function(kernel, p, lambda, source, x, xids) {
  m <- kernelMatrix(kernel, x)
  for (a in seq_along(x)) for (b in a:length(x)) {
    cat(sprintf("%s,%d,%.17g,%s,%d,%d,%.17g\n", kernel@kpar$type, p, lambda, source,
                xids[a], xids[b], m[a, b]))
  }
}
for (s in list(c(1, 0.5), c(3, 0.5), c(5, 0.8), c(2, 0.1), c(8, 0.9))) {
  k <- stringdot(type = "sequence", length = s[1], lambda = s[2], normalized = FALSE)
  emit(k, s[1], s[2], "promoters", seqs, ids)
}
for (s in list(c(3, 0.5), c(4, 0.25))) {
  k <- stringdot(type = "sequence", length = s[1], lambda = s[2], normalized = FALSE)
  emit(k, s[1], s[2], "reuters300", texts, rids)
}
for (n in c(1, 3, 5, 12)) {
  k <- stringdot(type = "spectrum", length = n, normalized = FALSE)
  emit(k, n, 0, "promoters", seqs, ids)
}
