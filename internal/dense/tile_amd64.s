// AVX2/FMA tile kernel of CrossProduct (see crossprod.go).

//go:build amd64 && !purego

#include "textflag.h"

// func gramTile4x8AVX2(a, b *float64, k int, out *[32]float64)
// out[p·8+q] += Σ_{i<k} a[i·4+p]·b[i·8+q]: a 4×8 tile of AᵀB from packed
// panels, eight accumulators of four lanes.
TEXT ·gramTile4x8AVX2(SB), NOSPLIT, $0-32
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ k+16(FP), CX
	MOVQ out+24(FP), DX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	TESTQ CX, CX
	JZ    tile_done

tile_loop:
	VMOVUPD      0(DI), Y8
	VMOVUPD      32(DI), Y9
	VBROADCASTSD 0(SI), Y10
	VFMADD231PD  Y8, Y10, Y0
	VFMADD231PD  Y9, Y10, Y1
	VBROADCASTSD 8(SI), Y11
	VFMADD231PD  Y8, Y11, Y2
	VFMADD231PD  Y9, Y11, Y3
	VBROADCASTSD 16(SI), Y10
	VFMADD231PD  Y8, Y10, Y4
	VFMADD231PD  Y9, Y10, Y5
	VBROADCASTSD 24(SI), Y11
	VFMADD231PD  Y8, Y11, Y6
	VFMADD231PD  Y9, Y11, Y7
	ADDQ         $32, SI
	ADDQ         $64, DI
	DECQ         CX
	JNZ          tile_loop

tile_done:
	VADDPD  0(DX), Y0, Y0
	VMOVUPD Y0, 0(DX)
	VADDPD  32(DX), Y1, Y1
	VMOVUPD Y1, 32(DX)
	VADDPD  64(DX), Y2, Y2
	VMOVUPD Y2, 64(DX)
	VADDPD  96(DX), Y3, Y3
	VMOVUPD Y3, 96(DX)
	VADDPD  128(DX), Y4, Y4
	VMOVUPD Y4, 128(DX)
	VADDPD  160(DX), Y5, Y5
	VMOVUPD Y5, 160(DX)
	VADDPD  192(DX), Y6, Y6
	VMOVUPD Y6, 192(DX)
	VADDPD  224(DX), Y7, Y7
	VMOVUPD Y7, 224(DX)
	VZEROUPPER
	RET
