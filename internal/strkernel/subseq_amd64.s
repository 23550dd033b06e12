// runRowAVX2: runRowGo's loop (subseq.go) with every run of cells between
// two occurrences written in blocks of sixteen cells, old + P four lanes an
// instruction; the last block of a run runs on into the slack or into cells
// written again later, so that no branch depends on where a run ends
// unless it is longer than a block. Each cell is the same one addition as
// in runRowGo, so the bits are the same.

//go:build amd64 && !purego

#include "textflag.h"

// BLOCK writes w[j…j+15] = old[j…j+15] + P (P in every lane of Y0), j in DX.
#define BLOCK \
	VADDPD (R8)(DX*8), Y0, Y3 \
	VADDPD 32(R8)(DX*8), Y0, Y4 \
	VADDPD 64(R8)(DX*8), Y0, Y5 \
	VADDPD 96(R8)(DX*8), Y0, Y6 \
	VMOVUPD Y3, (R9)(DX*8) \
	VMOVUPD Y4, 32(R9)(DX*8) \
	VMOVUPD Y5, 64(R9)(DX*8) \
	VMOVUPD Y6, 96(R9)(DX*8) \
	ADDQ $16, DX

// func runRowAVX2(occ *int32, m int, old, w *float64, n int)
TEXT ·runRowAVX2(SB), NOSPLIT, $0-40
	MOVQ occ+0(FP), SI
	MOVQ m+8(FP), CX
	MOVQ old+16(FP), R8
	MOVQ w+24(FP), R9
	MOVQ n+32(FP), R10
	INCQ R10                // the run after the last occurrence ends at n+1
	VXORPD Y0, Y0, Y0       // P in every lane
	VXORPD X2, X2, X2       // P
	MOVQ $1, DX             // j, the first column not yet written

next:
	TESTQ CX, CX
	JZ    last
	MOVLQSX (SI), AX
	INCQ  AX                // the occurrence's column c

run:
	BLOCK
	CMPQ DX, AX
	JLT  run

	VADDSD -8(R8)(AX*8), X2, X2 // P += DP(i−1, c−1)
	VADDSD (R8)(AX*8), X2, X3   // DP(i, c) = DP(i−1, c) + P
	VMOVSD X3, (R9)(AX*8)
	VBROADCASTSD X2, Y0
	LEAQ 1(AX), DX
	ADDQ $4, SI
	DECQ CX
	JMP  next

last:
	BLOCK
	CMPQ DX, R10
	JLT  last
	VZEROUPPER
	RET
