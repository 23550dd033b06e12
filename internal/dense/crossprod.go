// Package dense holds the dense products that ksql's fits spend their time
// in and that gonum runs too slowly for them: CᵀC of a tall matrix (the
// Nyström fits' n·m² product), by packed panels and an AVX2/FMA tile kernel.
package dense

import "github.com/ksql/ksql/internal/par"

// Blocked CᵀC for the Nyström fits' n·m² product, which gonum's Dsyrk ran
// on one core at about 3 GFLOPS. Rows are taken in
// blocks of crossRows; each block's columns are packed into panels of 4
// and 8 (zero-padded), and every 4×8 tile of the upper triangle of G is
// accumulated from them by one call of gramTile4x8 (assembly on AVX2/FMA
// machines). Within a block the tiles are shared among workers by their
// row of tiles; blocks follow each other in order, so every entry of G is
// the same sum in the same order whatever the number of workers: fits stay
// deterministic, as replicated databases need.

const crossRows = 256

// CrossProduct adds CᵀC for the n×m row-major C to the upper triangle of
// G (m×m row-major; the strict lower triangle gets partial sums to
// ignore). poll (nil: none) is called for every row of tiles (4 columns
// of C against all the others, a few milliseconds); its error stops the
// product.
func CrossProduct(C []float64, n, m int, G []float64, poll func() error) error {
	return new(CrossWork).Product(C, n, m, G, poll)
}

// CrossWork holds CrossProduct's packed panels, for a caller that adds
// many blocks (a streaming fit) without allocating them each time. The
// zero value is ready; it must not be used by two goroutines at once.
// Workers bounds the goroutines of each block (0: runtime.GOMAXPROCS(0));
// a streaming fit whose blocks already run side by side sets it to 1.
// Team runs the blocks' packing and tiles (nil: Product makes a team of
// Workers, or runs them on the caller with one worker).
type CrossWork struct {
	a, b    []float64
	Workers int
	Team    *par.Team
}

// Product is CrossProduct with w's panels. Its blocks' phases run on
// w.Team, or on a team of its own: a block of a 1,000-column product is a
// millisecond of tiles, about what starting goroutines anew costs.
func (w *CrossWork) Product(C []float64, n, m int, G []float64, poll func() error) error {
	pm, qm := (m+3)/4, (m+7)/8
	if len(w.a) < pm*crossRows*4 {
		w.a, w.b = make([]float64, pm*crossRows*4), make([]float64, qm*crossRows*8)
	}
	a, b := w.a, w.b
	t := w.Team
	if workers := par.Workers(w.Workers, pm); t == nil && workers > 1 {
		t = par.NewTeam("dense.CrossProduct", workers)
	}
	for lo := 0; lo < n; lo += crossRows {
		if poll != nil {
			if err := poll(); err != nil {
				return err
			}
		}
		k := min(crossRows, n-lo)
		// k·m copies, serial a tenth of the block on many cores
		err := t.For("dense.CrossProduct", (pm+packGroup-1)/packGroup, w.Workers, func(g int) error {
			c0 := g * packGroup * 4
			c1 := min(m, c0+packGroup*4)
			packPanels(C[lo*m:], k, m, 4, a, c0, c1)
			packPanels(C[lo*m:], k, m, 8, b, c0, c1)
			return nil
		})
		if err != nil {
			return err
		}
		err = t.For("dense.CrossProduct", pm, w.Workers, func(pb int) error {
			if poll != nil { // a block of rows is seconds of work when m is in the thousands
				if err := poll(); err != nil {
					return err
				}
			}
			var tile [32]float64
			ap := a[pb*crossRows*4:]
			for qb := pb / 2; qb < qm; qb++ { // tiles that reach the upper triangle
				clear(tile[:])
				gramTile4x8(ap, b[qb*crossRows*8:], k, &tile)
				addTile(G, m, pb*4, qb*8, &tile)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// packPanels copies columns c0..c1−1 of the k rows of C (stride m; c0 a
// multiple of w) into panels of w columns: panel j holds C[i][j·w+t] at
// j·crossRows·w + i·w + t, zero past column m.
func packPanels(C []float64, k, m, w int, dst []float64, c0, c1 int) {
	for j := c0 / w; j*w < c1; j++ {
		p := dst[j*crossRows*w:]
		cols := min(w, m-j*w)
		for i := 0; i < k; i++ {
			row := p[i*w : i*w+w]
			copy(row, C[i*m+j*w:i*m+j*w+cols])
			clear(row[cols:])
		}
	}
}

// addTile adds the 4×8 tile at (p0, q0) to G, within its m×m bounds.
func addTile(G []float64, m, p0, q0 int, tile *[32]float64) {
	for p := 0; p < 4 && p0+p < m; p++ {
		row := G[(p0+p)*m:]
		for q := 0; q < 8 && q0+q < m; q++ {
			row[q0+q] += tile[p*8+q]
		}
	}
}

// gramTile4x8 sets tile[p·8+q] += Σ_{i<k} a[i·4+p]·b[i·8+q].
func gramTile4x8(a, b []float64, k int, tile *[32]float64) {
	if k == 0 {
		return
	}
	_, _ = a[4*k-1], b[8*k-1]
	if useAVX2 {
		gramTile4x8AVX2(&a[0], &b[0], k, tile)
		return
	}
	for i := 0; i < k; i++ {
		ai, bi := a[i*4:i*4+4], b[i*8:i*8+8]
		for p, x := range ai {
			for q, y := range bi {
				tile[p*8+q] += x * y
			}
		}
	}
}
