// runRowAVX2: runRowGo's loop (subseq.go) with every run of cells between
// two occurrences written in blocks of eight cells, old + P four lanes an
// instruction; the last block of a run runs on into the slack or into cells
// written again later, so that no branch depends on where a run ends
// unless it is longer than a block. Each cell is the same one addition as
// in runRowGo, so the bits are the same.

//go:build amd64 && !purego

#include "textflag.h"

// BLOCK writes w[j…j+7] = old[j…j+7] + P (P in every lane of Y0), j in DX.
#define BLOCK \
	VADDPD (R8)(DX*8), Y0, Y3 \
	VADDPD 32(R8)(DX*8), Y0, Y4 \
	VMOVUPD Y3, (R9)(DX*8) \
	VMOVUPD Y4, 32(R9)(DX*8) \
	ADDQ $8, DX

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

// anyFastAVX2: anyFastGo's loop (subseq.go), the runs written in blocks as
// in runRowAVX2, with their exponents.

// XBLOCK is BLOCK writing also ew[j…j+7] = kp (kp in every lane of Y1).
// It overwrites Y3 and Y4.
#define XBLOCK \
	VADDPD (R8)(DX*8), Y0, Y3 \
	VADDPD 32(R8)(DX*8), Y0, Y4 \
	VMOVUPD Y3, (R9)(DX*8) \
	VMOVUPD Y4, 32(R9)(DX*8) \
	VMOVDQU Y1, (R12)(DX*4) \
	ADDQ $8, DX

// BIG jumps to stop if the float64 in X reaches runMax (in X7).
#define BIG(X) \
	VUCOMISD X7, X \
	JAE  stop

// func anyFastAVX2(occ *int32, m int, old *float64, eo *int32, w *float64, ew *int32, n int, st *expRow)
TEXT ·anyFastAVX2(SB), NOSPLIT, $0-64
	MOVQ occ+0(FP), SI
	MOVQ m+8(FP), CX
	MOVQ old+16(FP), R8
	MOVQ eo+24(FP), R11
	MOVQ w+32(FP), R9
	MOVQ ew+40(FP), R12
	MOVQ n+48(FP), R10
	MOVQ st+56(FP), DI
	MOVQ 0(DI), BX          // i
	MOVQ 8(DI), DX          // j
	VMOVSD 16(DI), X2       // P
	VBROADCASTSD X2, Y0
	MOVLQSX 24(DI), R13     // kp
	MOVQ R13, X6
	VPBROADCASTD X6, Y1
	MOVQ $0x5fdfffffffffe000, R14 // runMax
	MOVQ R14, X7

xnext:
	CMPQ DX, R10
	JGT  stop               // j > n: the row is done
	CMPL -4(R11)(DX*4), R13 // the old cell before the run is at kp
	JNE  stop
	CMPQ BX, CX
	JGE  xlast
	MOVLQSX (SI)(BX*4), AX
	INCQ AX                 // the occurrence's column c
	CMPL (R11)(AX*4), R13   // and so is the old cell at c
	JNE  stop
	VADDSD -8(R8)(AX*8), X2, X8 // q = P + DP(i−1, c−1)
	VADDSD (R8)(AX*8), X8, X9   // DP(i, c) = DP(i−1, c) + q
	BIG(X9)
	CMPQ DX, AX
	JGE  xocc

xblocks:
	XBLOCK
	CMPQ DX, AX
	JLT  xblocks

xocc:
	VMOVSD X9, (R9)(AX*8)
	MOVL R13, (R12)(AX*4)
	VMOVAPD X8, X2
	VBROADCASTSD X2, Y0
	INCQ BX
	LEAQ 1(AX), DX
	JMP  xnext

xlast: // the run after the last occurrence, to column n
	CMPL (R11)(R10*4), R13
	JNE  stop
	VADDSD (R8)(R10*8), X2, X9
	BIG(X9)
	LEAQ 1(R10), AX

xlastblocks:
	XBLOCK
	CMPQ DX, AX
	JLT  xlastblocks
	MOVQ AX, DX

stop:
	MOVQ BX, 0(DI)
	MOVQ DX, 8(DI)
	VMOVSD X2, 16(DI)
	VZEROUPPER
	RET
