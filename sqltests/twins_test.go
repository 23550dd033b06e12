package sqltests

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/kernels"
)

// TestVectorKernelsSameBits: on every driver, the vector kernels on
// float32 BLOBs give exactly the bits of internal/kernels' Go code, which
// the Gram tables use too — whether the call is answered in Go (modernc)
// or by a C twin (mattn, the loadable library), and on the calls a twin
// declines (σ so small that e^x leaves fastExp's range, a REAL degree,
// vectors that cancel).
func TestVectorKernelsSameBits(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	type pair struct{ x, z []byte }
	var pairs []pair
	for _, n := range []int{1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 70} {
		for _, scale := range []float64{1e-3, 0.5, 3, 1e4} {
			x, z := make([]byte, 4*n), make([]byte, 4*n)
			for i := range n {
				binary.LittleEndian.PutUint32(x[4*i:], math.Float32bits(float32(r.NormFloat64()*scale)))
				binary.LittleEndian.PutUint32(z[4*i:], math.Float32bits(float32(r.NormFloat64()*scale)))
			}
			pairs = append(pairs, pair{x, z})
		}
	}
	orth := pair{host.Float32Blob([]float64{1, 2}), host.Float32Blob([]float64{2, -1})} // ⟨x, z⟩ = 0: the scaled form
	pairs = append(pairs, orth)
	// Literals, not parameters: the loadable library's proxy takes none.
	const q = `SELECT gauss_kernel(%[1]s, %[2]s, 0.7), gauss_kernel(%[1]s, %[2]s, 0.05), laplace_kernel(%[1]s, %[2]s, 2),
		linear_kernel(%[1]s, %[2]s), poly_kernel(%[1]s, %[2]s, 3, 0.5), poly_kernel(%[1]s, %[2]s, 2.0), poly_kernel(%[1]s, %[2]s, 4)`
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			for k, p := range pairs {
				got := make([]float64, 7)
				sql := fmt.Sprintf(q, fmt.Sprintf("x'%x'", p.x), fmt.Sprintf("x'%x'", p.z))
				if err := db.QueryRow(sql).Scan(&got[0], &got[1], &got[2], &got[3], &got[4], &got[5], &got[6]); err != nil {
					t.Fatal(err)
				}
				x, z := kernels.Vec{F32: p.x}, kernels.Vec{F32: p.z}
				d2, d1, dot := kernels.SqDist(x, z), kernels.L1Dist(x, z), kernels.Dot(x, z)
				want := []float64{
					kernels.GaussAt(x, z, d2, 0.7), kernels.GaussAt(x, z, d2, 0.05), kernels.LaplaceAt(x, z, d1, 2),
					kernels.LinearAt(x, z, dot), kernels.PolyAt(x, z, dot, 3, 0.5), kernels.PolyAt(x, z, dot, 2, 1),
					kernels.PolyAt(x, z, dot, 4, 1),
				}
				for i := range want {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Errorf("pair %d (dim %d), column %d: %v, Go %v", k, len(p.x)/4, i+1, got[i], want[i])
					}
				}
			}
		})
	}
}
