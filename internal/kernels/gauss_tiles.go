package kernels

import "github.com/ksql/ksql/internal/dense"

// Gauss cross products by tiles. A Cross of a block of rows against a few
// hundred landmarks (the Nyström fits' kernel values) spends its time in
// the dot products ⟨x_i, y_j⟩. gaussRow takes them a row at a time from
// matrix–vector products, which read every landmark once per row; here
// four rows at a time meet eight landmarks at a time in dense's 4×8 tile
// kernel (AVX2 with fused multiply–adds), which keeps both in registers:
// several times fewer loads per product. Each value's dot product is the
// same sum in the same order whatever the rows' grouping or the workers,
// so results do not depend on the number of workers.

// tileRows is how many rows a tile of gaussTiles takes.
const tileRows = 4

// gaussTiled reports whether Cross of pa against pb can run by tiles: gauss
// on flat float64 vectors of one dimension on both sides.
func gaussTiled(pa, pb *Prepared) bool {
	return pa.norms != nil && pb.norms != nil && pa.flat != nil && pb.flat != nil && pa.dim == pb.dim &&
		pa.kern.op == vecGauss && pa.fast && len(pa.objs) >= tileRows && len(pb.objs) >= 8
}

// packCols packs pb's vectors into panels of 8 (d rows of 8 values, the
// vectors as columns), zero past the last vector.
func packCols(pb *Prepared) []float64 {
	d, m := pb.dim, len(pb.objs)
	panels := (m + 7) / 8
	out := make([]float64, panels*d*8)
	for j := range m {
		p := out[(j/8)*d*8:]
		x := pb.flat[j*d : (j+1)*d]
		for t, v := range x {
			p[t*8+j%8] = v
		}
	}
	return out
}

// gaussTile sets rows g·4 … g·4+3 of dst (n×m) to K(a_i, b_j), from the
// packed columns of pb (packCols); rows past n are not written. pack is a
// worker's scratch of 4·d values.
func gaussTile(pa, pb *Prepared, cols []float64, g int, dst []float64, pack []float64) {
	d, n, m := pa.dim, len(pa.objs), len(pb.objs)
	s2 := 2 * pa.kern.sigma * pa.kern.sigma
	i0 := g * tileRows
	rows := min(tileRows, n-i0)
	clear(pack)
	for r := range rows {
		for t, v := range pa.flat[(i0+r)*d : (i0+r+1)*d] {
			pack[t*tileRows+r] = v
		}
	}
	var tile [32]float64
	for jb := 0; jb*8 < m; jb++ {
		clear(tile[:])
		dense.Tile4x8(pack, cols[jb*d*8:], d, &tile)
		for r := range rows {
			i := i0 + r
			x, nx := pa.flat[i*d:(i+1)*d], pa.norms[i]
			for c := 0; c < 8 && jb*8+c < m; c++ {
				j := jb*8 + c
				s := nx + pb.norms[j]
				d2 := s - 2*tile[r*8+c]
				if !(d2 >= nearFraction*s) {
					d2 = sqDist4(x, pb.flat[j*d:(j+1)*d])
				}
				dst[i*m+j] = d2
			}
		}
	}
	for r := range rows {
		expRow(dst[(i0+r)*m:(i0+r+1)*m], s2)
	}
}
