// AVX2 loops of the linear solver over float32 features (linear_dot.go):
// each float32 widened to float64, multiplied and then added (no FMA), so
// that the sums are dotF32Go's to the bit.

//go:build amd64 && !purego

#include "textflag.h"

// func dotF32AVX2(w *float64, x *float32, n int) float64
TEXT ·dotF32AVX2(SB), NOSPLIT, $0-32
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ n+16(FP), CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3

loop16:
	CMPQ CX, $16
	JLT  loop4
	VCVTPS2PD (DI), Y4
	VCVTPS2PD 16(DI), Y5
	VCVTPS2PD 32(DI), Y6
	VCVTPS2PD 48(DI), Y7
	VMULPD (SI), Y4, Y4
	VMULPD 32(SI), Y5, Y5
	VMULPD 64(SI), Y6, Y6
	VMULPD 96(SI), Y7, Y7
	VADDPD Y4, Y0, Y0
	VADDPD Y5, Y1, Y1
	VADDPD Y6, Y2, Y2
	VADDPD Y7, Y3, Y3
	ADDQ $128, SI
	ADDQ $64, DI
	SUBQ $16, CX
	JMP  loop16

loop4:
	CMPQ CX, $4
	JLT  done
	VCVTPS2PD (DI), Y4
	VMULPD (SI), Y4, Y4
	VADDPD Y4, Y0, Y0
	ADDQ $32, SI
	ADDQ $16, DI
	SUBQ $4, CX
	JMP  loop4

done:
	VADDPD Y2, Y0, Y0
	VADDPD Y3, Y1, Y1
	VADDPD Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VHADDPD X0, X0, X0
	VZEROUPPER
	MOVSD X0, ret+24(FP)
	RET

// func axpyF32AVX2(d float64, x *float32, w *float64, n int)
TEXT ·axpyF32AVX2(SB), NOSPLIT, $0-32
	VBROADCASTSD d+0(FP), Y0
	MOVQ x+8(FP), DI
	MOVQ w+16(FP), SI
	MOVQ n+24(FP), CX

axloop:
	CMPQ CX, $4
	JLT  axdone
	VCVTPS2PD (DI), Y1
	VMULPD Y0, Y1, Y1
	VADDPD (SI), Y1, Y1
	VMOVUPD Y1, (SI)
	ADDQ $16, DI
	ADDQ $32, SI
	SUBQ $4, CX
	JMP  axloop

axdone:
	VZEROUPPER
	RET
