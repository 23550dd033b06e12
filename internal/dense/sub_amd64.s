// AVX2 row update of the Cholesky panel solve (see cholesky.go).

//go:build amd64 && !purego

#include "textflag.h"

// func subScaledAVX2(dst, src *float64, n int, f float64)
// dst[i] −= f·src[i] for i < n: multiply, round, subtract, round — the Go
// loop's operations (no fused multiply–add), eight values a step.
TEXT ·subScaledAVX2(SB), NOSPLIT, $0-32
	MOVQ         dst+0(FP), DI
	MOVQ         src+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSD f+24(FP), Y0
	MOVQ         CX, BX
	SHRQ         $3, BX
	JZ           sub_tail

sub_loop8:
	VMULPD  0(SI), Y0, Y1
	VMULPD  32(SI), Y0, Y2
	VMOVUPD 0(DI), Y3
	VMOVUPD 32(DI), Y4
	VSUBPD  Y1, Y3, Y3
	VSUBPD  Y2, Y4, Y4
	VMOVUPD Y3, 0(DI)
	VMOVUPD Y4, 32(DI)
	ADDQ    $64, SI
	ADDQ    $64, DI
	DECQ    BX
	JNZ     sub_loop8

sub_tail:
	ANDQ $7, CX
	JZ   sub_done

sub_loop1:
	VMOVSD (SI), X1
	VMULSD X0, X1, X1
	VMOVSD (DI), X2
	VSUBSD X1, X2, X2
	VMOVSD X2, (DI)
	ADDQ   $8, SI
	ADDQ   $8, DI
	DECQ   CX
	JNZ    sub_loop1

sub_done:
	VZEROUPPER
	RET
