package kpca

import "gonum.org/v1/gonum/blas/blas64"

// Four-row kernels of the Lanczos solver. Each reads the rows
// a[r·stride : r·stride+n] for r < 4 (n = len(x) or len(y)) in one sweep,
// so that every entry of x (or y) loaded serves four rows: the products are
// bound by how fast the matrix streams through the core, and this is what
// lets the AVX2 versions reach that bound.

// symv4 sets out[r] = Σ_j a_r[j]·x[j] and adds Σ_r xr[r]·a_r[j] to y[j]:
// a block of four rows of a symmetric matrix stored as its upper triangle
// contributes to y through both the rows and their mirror images.
func symv4(a []float64, stride int, x, y []float64, xr, out *[4]float64) {
	*out = [4]float64{}
	n := len(x)
	if n == 0 {
		return
	}
	y = y[:n]
	_ = a[3*stride+n-1]
	n4 := 0
	if useAVX2 && n >= 4 {
		n4 = n &^ 3
		symv4AVX2(&a[0], stride, n4, &x[0], &y[0], xr, out)
	}
	a0, a1, a2, a3 := a[:n], a[stride:stride+n], a[2*stride:2*stride+n], a[3*stride:3*stride+n]
	for j := n4; j < n; j++ {
		xj := x[j]
		out[0] += a0[j] * xj
		out[1] += a1[j] * xj
		out[2] += a2[j] * xj
		out[3] += a3[j] * xj
		y[j] += xr[0]*a0[j] + xr[1]*a1[j] + xr[2]*a2[j] + xr[3]*a3[j]
	}
}

// dot4 sets out[r] = Σ_j a_r[j]·x[j].
func dot4(a []float64, stride int, x []float64, out *[4]float64) {
	*out = [4]float64{}
	n := len(x)
	if n == 0 {
		return
	}
	_ = a[3*stride+n-1]
	n4 := 0
	if useAVX2 && n >= 4 {
		n4 = n &^ 3
		dot4AVX2(&a[0], stride, n4, &x[0], out)
	}
	a0, a1, a2, a3 := a[:n], a[stride:stride+n], a[2*stride:2*stride+n], a[3*stride:3*stride+n]
	for j := n4; j < n; j++ {
		xj := x[j]
		out[0] += a0[j] * xj
		out[1] += a1[j] * xj
		out[2] += a2[j] * xj
		out[3] += a3[j] * xj
	}
}

// axpy4 adds Σ_r c[r]·a_r[j] to y[j].
func axpy4(a []float64, stride int, c *[4]float64, y []float64) {
	n := len(y)
	if n == 0 {
		return
	}
	_ = a[3*stride+n-1]
	n4 := 0
	if useAVX2 && n >= 4 {
		n4 = n &^ 3
		axpy4AVX2(&a[0], stride, n4, c, &y[0])
	}
	a0, a1, a2, a3 := a[:n], a[stride:stride+n], a[2*stride:2*stride+n], a[3*stride:3*stride+n]
	for j := n4; j < n; j++ {
		y[j] += c[0]*a0[j] + c[1]*a1[j] + c[2]*a2[j] + c[3]*a3[j]
	}
}

// basisDots sets h[r] = V_r·w for the m rows of V (each of length n = len(w),
// stored one after the other).
func basisDots(V []float64, m int, w, h []float64) {
	n := len(w)
	var out [4]float64
	r := 0
	for ; r+4 <= m; r += 4 {
		dot4(V[r*n:], n, w, &out)
		copy(h[r:r+4], out[:])
	}
	for ; r < m; r++ {
		h[r] = blas64.Dot(vec(V[r*n:(r+1)*n]), vec(w))
	}
}

// basisAxpy adds alpha·Σ_r h[r]·V_r to w, for the m rows of V.
func basisAxpy(V []float64, m int, alpha float64, h, w []float64) {
	n := len(w)
	r := 0
	for ; r+4 <= m; r += 4 {
		c := [4]float64{alpha * h[r], alpha * h[r+1], alpha * h[r+2], alpha * h[r+3]}
		axpy4(V[r*n:], n, &c, w)
	}
	for ; r < m; r++ {
		blas64.Axpy(alpha*h[r], vec(V[r*n:(r+1)*n]), vec(w))
	}
}
