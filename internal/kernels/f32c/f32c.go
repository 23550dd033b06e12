//go:build cgo

// Package f32c holds C twins of internal/kernels' vector kernels on
// float32 BLOBs (gauss, laplace, linear, poly), for the C adapters
// (ext/loadable, and mattn through it): a call answered in C costs no
// crossing into Go, which is most of a cheap kernel's time there. A twin
// gives the Go code's bits or declines (see twin.h); tests compare the two
// on every length and range. The twins answer only on amd64 builds whose
// Go code does not fuse multiply-adds (GOAMD64 below v3).
package f32c

/*
#cgo CFLAGS: -O2
#include "twin.h"
*/
import "C"

import (
	"unsafe"

	"github.com/ksql/ksql/internal/kernels"
)

func init() { Load() }

// Load copies kernels' constants and its choice of loops to the twins;
// tests call it again after kernels.SetAVX2.
func Load() {
	t := kernels.Twin()
	c := &C.ksql_twin
	for i := range t.ExpHi {
		c.expHi[i], c.expLo[i] = C.double(t.ExpHi[i]), C.double(t.ExpLo[i])
	}
	c.expInvLn2N, c.expLn2HiN, c.expLn2LoN = C.double(t.ExpInvLn2N), C.double(t.ExpLn2HiN), C.double(t.ExpLn2LoN)
	c.expShift, c.expMin, c.expMax = C.double(t.ExpShift), C.double(t.ExpMin), C.double(t.ExpMax)
	c.tiny, c.sigmaLo, c.sigmaHi = C.double(t.Tiny), C.double(t.SigmaLo), C.double(t.SigmaHi)
	c.polyR, c.maxDegree = C.double(t.PolyR), C.int(t.MaxDegree)
	c.avx2, c.enabled = cbool(t.AVX2), cbool(enabled)
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// Enabled reports whether the twins answer in this build.
func Enabled() bool { return enabled }

// The Go entry points below are for tests; adapters call the C functions.
// x and z are float32 BLOBs of one non-zero length.

// Gauss is ksql_twin_gauss.
func Gauss(x, z []byte, sigma float64) (v float64, ok bool) {
	var out C.double
	ok = C.ksql_twin_gauss(ptr(x), ptr(z), C.int(len(x)), C.double(sigma), &out) != 0
	return float64(out), ok
}

// Laplace is ksql_twin_laplace.
func Laplace(x, z []byte, sigma float64) (v float64, ok bool) {
	var out C.double
	ok = C.ksql_twin_laplace(ptr(x), ptr(z), C.int(len(x)), C.double(sigma), &out) != 0
	return float64(out), ok
}

// Linear is ksql_twin_linear.
func Linear(x, z []byte) (v float64, ok bool) {
	var out C.double
	ok = C.ksql_twin_linear(ptr(x), ptr(z), C.int(len(x)), &out) != 0
	return float64(out), ok
}

// Poly is ksql_twin_poly.
func Poly(x, z []byte, degree int, r float64) (v float64, ok bool) {
	var out C.double
	ok = C.ksql_twin_poly(ptr(x), ptr(z), C.int(len(x)), C.int(degree), C.double(r), &out) != 0
	return float64(out), ok
}

func ptr(b []byte) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(b)) }
