package kernels

import (
	"encoding/binary"
	"math"
)

// The float32 BLOB loops: assembly where the CPU has AVX2 and FMA for
// every whole block of eight values, Go for the rest and elsewhere.

// dotF32 is Dot of two float32 BLOBs of equal length.
func dotF32(x, y []byte) float64 { return f32Loop(x, y, dotF32AVX2, dotF32Go) }

// sqDistF32 is SqDist of two float32 BLOBs of equal length.
func sqDistF32(x, y []byte) float64 { return f32Loop(x, y, sqDistF32AVX2, sqDistF32Go) }

// l1DistF32 is L1Dist of two float32 BLOBs of equal length.
func l1DistF32(x, y []byte) float64 { return f32Loop(x, y, l1DistF32AVX2, l1DistF32Go) }

// f32Loop runs asm on the whole blocks of eight values and goLoop on the
// rest (on all of it without AVX2), adding the rest only when there is one.
func f32Loop(x, y []byte, asm func(x, y *byte, n int) float64, goLoop func(x, y []byte) float64) float64 {
	n := len(x) &^ 31
	if !useAVX2 || n == 0 {
		return goLoop(x, y)
	}
	s := asm(&x[0], &y[0], n/4)
	if n < len(x) {
		s += goLoop(x[n:], y[n:len(x)])
	}
	return s
}

// dotF32Go is Dot of two float32 BLOBs of equal length. Four partial sums
// let the additions overlap instead of each waiting for the last: on the
// 64-dimensional vectors of a SQL self-join that halves the loop.
func dotF32Go(x, y []byte) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+16 <= len(x); i += 16 {
		a, b := x[i:i+16:i+16], y[i:i+16:i+16]
		s0 += f32(a, 0) * f32(b, 0)
		s1 += f32(a, 1) * f32(b, 1)
		s2 += f32(a, 2) * f32(b, 2)
		s3 += f32(a, 3) * f32(b, 3)
	}
	for ; i+4 <= len(x); i += 4 {
		s0 += f32(x, i/4) * f32(y, i/4)
	}
	return (s0 + s1) + (s2 + s3)
}

// sqDistF32Go is SqDist of two float32 BLOBs of equal length, with partial
// sums as dotF32Go.
func sqDistF32Go(x, y []byte) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+16 <= len(x); i += 16 {
		a, b := x[i:i+16:i+16], y[i:i+16:i+16]
		d0 := f32(a, 0) - f32(b, 0)
		d1 := f32(a, 1) - f32(b, 1)
		d2 := f32(a, 2) - f32(b, 2)
		d3 := f32(a, 3) - f32(b, 3)
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; i+4 <= len(x); i += 4 {
		d := f32(x, i/4) - f32(y, i/4)
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}

// l1DistF32Go is L1Dist of two float32 BLOBs of equal length.
func l1DistF32Go(x, y []byte) float64 {
	var s float64
	y = y[:len(x)]
	for i := 0; i+4 <= len(x); i += 4 {
		s += math.Abs(f32(x, i/4) - f32(y, i/4))
	}
	return s
}

// FirstNonFinite returns the index of the first NaN or infinite element
// of a float32 BLOB, or -1: blocks of eight at once in assembly, then one
// at a time from the block that has one (or for the rest).
func FirstNonFinite(x []byte) int {
	const exp = 0x7f800000 // all exponent bits set: NaN or ±Inf
	i := 0
	if n := len(x) &^ 31; useAVX2 && n > 0 {
		i = 4 * nonFiniteBlockAVX2(&x[0], n/4)
	}
	for ; i+4 <= len(x); i += 4 {
		if binary.LittleEndian.Uint32(x[i:])&exp == exp {
			return i / 4
		}
	}
	return -1
}
