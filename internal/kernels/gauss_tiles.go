package kernels

import (
	"fmt"

	"github.com/ksql/ksql/internal/dense"
)

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

// Basis is objects prepared once for many Cross calls against them: a
// streamed fit's landmarks meet every block of rows.
type Basis struct {
	objs []Object
	p    *Prepared
	cols []float64 // packCols, when tiles apply
}

// NewBasis prepares b for CrossBasis.
func (s *Spec) NewBasis(b []Object) *Basis {
	p := s.Prepare(b)
	if len(b) >= 8 {
		p = p.withNorms()
	}
	bs := &Basis{objs: b, p: p}
	if p.flat != nil && p.norms != nil && p.kern.op == vecGauss && p.fast {
		bs.cols = packCols(p)
	}
	return bs
}

// CrossWork is a caller's scratch for CrossBasis, reused from call to call
// so that a stream of blocks allocates nothing per block. The zero value
// is ready; it must not be used by two calls at once.
type CrossWork struct{ norms, flat []float64 }

// CrossBasis is Cross(a, b's objects, dst, opt) with the basis prepared
// once (NewBasis) and the rows' vectors prepared in w (nil: new storage).
func (s *Spec) CrossBasis(a []Object, b *Basis, dst []float64, opt GramOptions, w *CrossWork) error {
	n, m := len(a), len(b.objs)
	if len(dst) < n*m {
		return fmt.Errorf("kernels: Cross needs %d cells, dst has %d", n*m, len(dst))
	}
	if w == nil {
		w = new(CrossWork)
	}
	pa, pb := s.Prepare(a), b.p
	if n >= 8 && m >= 8 {
		pa = pa.withNormsIn(w.norms, w.flat)
		w.norms, w.flat = pa.norms, pa.flat
	}
	if b.cols != nil && gaussTiled(pa, pb) {
		return s.crossTiles(pa, pb, b.cols, dst, opt)
	}
	return s.parallel("kernels.Cross", n, s.cost(a, b.objs, n*m), max(1, 64/max(m, 1)), opt, func(i int, p *poller) error {
		return p.row(pa, i, pb, 0, m, dst[i*m:(i+1)*m])
	})
}

// crossTiles is Cross by tiles (gaussTiled), cols being pb's packed
// columns.
func (s *Spec) crossTiles(pa, pb *Prepared, cols, dst []float64, opt GramOptions) error {
	n, m := len(pa.objs), len(pb.objs)
	groups := (n + tileRows - 1) / tileRows
	return s.parallel("kernels.Cross", groups, n*m, max(1, 64/m), opt, func(g int, p *poller) error {
		if p.pack == nil {
			p.pack = make([]float64, tileRows*pa.dim)
		}
		gaussTile(pa, pb, cols, g, dst, p.pack)
		if p.count += tileRows * m; p.count >= pollCells && p.check != nil {
			p.count = 0
			return p.check()
		}
		return nil
	})
}
