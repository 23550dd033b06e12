// AVX2/FMA loops over float32 BLOB vectors (see f32.go): each float32 is
// widened to float64 before it is subtracted or multiplied, as in the Go
// loops; eight values a step in two accumulators of four lanes.

//go:build amd64 && !purego

#include "textflag.h"

// func sqDistF32AVX2(x, y *byte, n int) float64
TEXT ·sqDistF32AVX2(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ n+16(FP), CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1

sqloop:
	CMPQ CX, $8
	JLT  sqdone
	VCVTPS2PD (SI), Y2
	VCVTPS2PD 16(SI), Y3
	VCVTPS2PD (DI), Y4
	VCVTPS2PD 16(DI), Y5
	VSUBPD Y4, Y2, Y2
	VSUBPD Y5, Y3, Y3
	VFMADD231PD Y2, Y2, Y0
	VFMADD231PD Y3, Y3, Y1
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  sqloop

sqdone:
	VADDPD Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VHADDPD X0, X0, X0
	VZEROUPPER
	MOVSD X0, ret+24(FP)
	RET

// func dotF32AVX2(x, y *byte, n int) float64
TEXT ·dotF32AVX2(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ n+16(FP), CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1

dotloop:
	CMPQ CX, $8
	JLT  dotdone
	VCVTPS2PD (SI), Y2
	VCVTPS2PD 16(SI), Y3
	VCVTPS2PD (DI), Y4
	VCVTPS2PD 16(DI), Y5
	VFMADD231PD Y4, Y2, Y0
	VFMADD231PD Y5, Y3, Y1
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  dotloop

dotdone:
	VADDPD Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VHADDPD X0, X0, X0
	VZEROUPPER
	MOVSD X0, ret+24(FP)
	RET

// func l1DistF32AVX2(x, y *byte, n int) float64
TEXT ·l1DistF32AVX2(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ n+16(FP), CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VPCMPEQQ Y7, Y7, Y7
	VPSRLQ $1, Y7, Y7 // every bit but the sign

l1loop:
	CMPQ CX, $8
	JLT  l1done
	VCVTPS2PD (SI), Y2
	VCVTPS2PD 16(SI), Y3
	VCVTPS2PD (DI), Y4
	VCVTPS2PD 16(DI), Y5
	VSUBPD Y4, Y2, Y2
	VSUBPD Y5, Y3, Y3
	VANDPD Y7, Y2, Y2
	VANDPD Y7, Y3, Y3
	VADDPD Y2, Y0, Y0
	VADDPD Y3, Y1, Y1
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  l1loop

l1done:
	VADDPD Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VHADDPD X0, X0, X0
	VZEROUPPER
	MOVSD X0, ret+24(FP)
	RET
