package rff

import (
	"encoding/binary"
	"math"
	"testing"
)

// TestSIMDMatchesGo: the AVX2 kernels give the portable code's bits, on
// maps of every shape (partial blocks, n not a multiple of 4) and inputs
// from tiny to past the Payne–Hanek threshold.
func TestSIMDMatchesGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 kernels on this machine or build")
	}
	defer func() { useAVX2 = true }()
	r := &splitMix{state: 99}
	for trial := 0; trial < 300; trial++ {
		kind := Gauss + Kind(trial%2)
		d := 1 + int(r.next()%70)
		dim := 2 * (1 + int(r.next()%150))
		m, err := Get(kind, 0.3+r.sym()*0.2, d, dim, r.next())
		if err != nil {
			t.Fatal(err)
		}
		x := make([]float64, d)
		scale := math.Pow(10, float64(trial%11)-3) // 1e-3 … 1e7: θ up to ~1e9
		for i := range x {
			x[i] = float64(float32(r.sym() * scale))
		}
		blob := f32Blob(x)
		var outs [4][]byte
		for i := range outs {
			outs[i] = make([]byte, 4*dim)
			useAVX2 = i < 2
			if i%2 == 0 {
				err = m.EmbedF64(x, outs[i])
			} else {
				err = m.EmbedF32(blob, outs[i])
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		for i := 1; i < 4; i++ {
			if string(outs[i]) != string(outs[0]) {
				for k := 0; k < len(outs[0]); k += 4 {
					if string(outs[i][k:k+4]) != string(outs[0][k:k+4]) {
						t.Logf("value %d: % x vs % x", k/4, outs[i][k:k+4], outs[0][k:k+4])
					}
				}
				t.Fatalf("trial %d (%v d=%d dim=%d scale %g): path %d differs from AVX2 f64", trial, kind, d, dim, scale, i)
			}
		}
	}
}

// TestSincosAVX2 compares the kernel with detSincos value by value,
// including octant boundaries and the reduction threshold.
func TestSincosAVX2(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 kernels on this machine or build")
	}
	var th []float64
	for k := -40; k <= 40; k++ {
		b := float64(k) * math.Pi / 4
		th = append(th, b, math.Nextafter(b, 0), math.Nextafter(b, 10), -b)
	}
	th = append(th, 0, 1e-300, -1e-300, 5e-324, math.Nextafter(1<<29, 0), -math.Nextafter(1<<29, 0), 1<<28+0.5)
	r := &splitMix{state: 5}
	for len(th)%8 != 0 || len(th) < 20000 {
		th = append(th, r.sym()*math.Pow(2, float64(r.next()%30)))
	}
	cosOut, sinOut := make([]byte, 4*len(th)), make([]byte, 4*len(th))
	const scale = 0.0625
	if !sincosAVX2(&th[0], len(th), scale, &cosOut[0], &sinOut[0]) {
		t.Fatal("sincosAVX2 refused finite values below 2^29")
	}
	for i, v := range th {
		s, c := detSincos(v)
		wc, ws := math.Float32bits(float32(c*scale)), math.Float32bits(float32(s*scale))
		if gc, gs := binary.LittleEndian.Uint32(cosOut[4*i:]), binary.LittleEndian.Uint32(sinOut[4*i:]); gc != wc || gs != ws {
			t.Fatalf("θ=%v: AVX2 cos,sin bits %08x %08x, Go %08x %08x", v, gc, gs, wc, ws)
		}
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1 << 29, -1e10} {
		in := []float64{1, 2, 3, bad}
		if sincosAVX2(&in[0], 4, 1, &cosOut[0], &sinOut[0]) {
			t.Errorf("sincosAVX2 accepted %v", bad)
		}
	}
}
