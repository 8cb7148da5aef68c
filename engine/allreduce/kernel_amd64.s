//go:build amd64 && !purego

#include "go_asm.h"
#include "textflag.h"

// Two pairs an iteration, in the lanes of the XMM registers. A sweep
// (kernel_amd64.go) says where they are: lane 0's lower member at a, its
// partner pbOff bytes further, lane 1 lane bytes after lane 0, and the
// next iteration step bytes on; their indices idx and idx+idxLane, idx
// growing by idxStep. Registers:
//   SI, DI  lane 0's lower member and partner    BX  lane    AX  step
//   CX      iterations left   DX  idx   R12 idxLane   R13 idxStep
//   R8      slow              R9  n     R10 the slow lanes' mask
//   X12     the maxima (both lanes)   X13 tcomm or flight   X14 work
// Each iteration tests both pairs' fast-path conditions at once (CMPPD,
// MOVMSKPD): when both hold, both are stored; otherwise each lane is
// stored or sent to slow on its own.

// func butterflySweep(s *sweep, tcomm, work, mx float64, slow *int32, n int) (float64, int)
TEXT ·butterflySweep(SB), NOSPLIT, $0-64
	MOVQ s+0(FP), R11
	MOVQ sweep_a(R11), SI
	MOVQ sweep_pbOff(R11), DI
	ADDQ SI, DI
	MOVQ sweep_lane(R11), BX
	MOVQ sweep_step(R11), AX
	MOVQ sweep_iters(R11), CX
	MOVQ sweep_idx(R11), DX
	MOVQ sweep_idxLane(R11), R12
	MOVQ sweep_idxStep(R11), R13
	MOVSD tcomm+8(FP), X13
	UNPCKLPD X13, X13
	MOVSD work+16(FP), X14
	UNPCKLPD X14, X14
	MOVSD mx+24(FP), X12
	UNPCKLPD X12, X12
	MOVQ slow+32(FP), R8
	MOVQ n+40(FP), R9

bloop:
	// fa, fb
	MOVSD 0(SI), X0
	MOVHPD 0(SI)(BX*1), X0
	MOVSD 0(DI), X1
	MOVHPD 0(DI)(BX*1), X1
	// ea = max(fa, fb+tcomm) + work; eb = max(fb, fa+tcomm) + work
	MOVAPD X1, X2
	ADDPD X13, X2
	MAXPD X0, X2
	ADDPD X14, X2
	MOVAPD X0, X3
	ADDPD X13, X3
	MAXPD X1, X3
	ADDPD X14, X3
	// slow lanes: fa > a.lim, fb > b.lim, ea > a.w, eb > b.w
	MOVSD 8(SI), X4
	MOVHPD 8(SI)(BX*1), X4
	CMPPD X0, X4, $1
	MOVSD 8(DI), X5
	MOVHPD 8(DI)(BX*1), X5
	CMPPD X1, X5, $1
	ORPD X5, X4
	MOVSD 16(SI), X5
	MOVHPD 16(SI)(BX*1), X5
	CMPPD X2, X5, $1
	ORPD X5, X4
	MOVSD 16(DI), X5
	MOVHPD 16(DI)(BX*1), X5
	CMPPD X3, X5, $1
	ORPD X5, X4
	MOVMSKPD X4, R10
	TESTQ R10, R10
	JNZ bmixed
	MOVSD X2, 0(SI)
	MOVHPD X2, 0(SI)(BX*1)
	MOVSD X3, 0(DI)
	MOVHPD X3, 0(DI)(BX*1)
	MAXPD X2, X12
	MAXPD X3, X12

bnext:
	ADDQ AX, SI
	ADDQ AX, DI
	ADDQ R13, DX
	DECQ CX
	JNZ bloop
	// the larger of X12's lanes
	MOVHLPS X12, X6
	MAXSD X6, X12
	MOVSD X12, ret+48(FP)
	MOVQ R9, ret1+56(FP)
	RET

bmixed:
	TESTQ $1, R10
	JNZ bslow0
	MOVSD X2, 0(SI)
	MOVSD X3, 0(DI)
	MAXSD X2, X12
	MAXSD X3, X12
	JMP blane1

bslow0:
	MOVL DX, 0(R8)(R9*4)
	INCQ R9

blane1:
	TESTQ $2, R10
	JNZ bslow1
	MOVHPD X2, 0(SI)(BX*1)
	MOVHPD X3, 0(DI)(BX*1)
	MOVHLPS X2, X6
	MAXSD X6, X12
	MOVHLPS X3, X6
	MAXSD X6, X12
	JMP bnext

bslow1:
	LEAQ 0(DX)(R12*1), R11
	MOVL R11, 0(R8)(R9*4)
	INCQ R9
	JMP bnext

// func redundantSweep(s *sweep, flight, mx float64, slow *int32, n int) (float64, int)
TEXT ·redundantSweep(SB), NOSPLIT, $0-56
	MOVQ s+0(FP), R11
	MOVQ sweep_a(R11), SI
	MOVQ sweep_pbOff(R11), DI
	ADDQ SI, DI
	MOVQ sweep_lane(R11), BX
	MOVQ sweep_step(R11), AX
	MOVQ sweep_iters(R11), CX
	MOVQ sweep_idx(R11), DX
	MOVQ sweep_idxLane(R11), R12
	MOVQ sweep_idxStep(R11), R13
	MOVSD flight+8(FP), X13
	UNPCKLPD X13, X13
	MOVSD mx+16(FP), X12
	UNPCKLPD X12, X12
	MOVQ slow+24(FP), R8
	MOVQ n+32(FP), R9

rloop:
	// ga, gb; arrA = gb+flight reaches a, arrB = ga+flight reaches b
	MOVSD 0(SI), X0
	MOVHPD 0(SI)(BX*1), X0
	MOVSD 0(DI), X1
	MOVHPD 0(DI)(BX*1), X1
	MOVAPD X1, X2
	ADDPD X13, X2
	MOVAPD X0, X3
	ADDPD X13, X3
	// slow lanes: gb <= b.w, arrA > b.lim, ga <= a.w, arrB > a.lim
	MOVSD 16(DI), X5
	MOVHPD 16(DI)(BX*1), X5
	MOVAPD X1, X4
	CMPPD X5, X4, $2
	MOVSD 8(DI), X5
	MOVHPD 8(DI)(BX*1), X5
	CMPPD X2, X5, $1
	ORPD X5, X4
	MOVSD 16(SI), X5
	MOVHPD 16(SI)(BX*1), X5
	MOVAPD X0, X6
	CMPPD X5, X6, $2
	ORPD X6, X4
	MOVSD 8(SI), X5
	MOVHPD 8(SI)(BX*1), X5
	CMPPD X3, X5, $1
	ORPD X5, X4
	// na = min(ga, arrA), nb = min(gb, arrB)
	MINPD X2, X0
	MINPD X3, X1
	MOVMSKPD X4, R10
	TESTQ R10, R10
	JNZ rmixed
	MOVSD X0, 0(SI)
	MOVHPD X0, 0(SI)(BX*1)
	MOVSD X1, 0(DI)
	MOVHPD X1, 0(DI)(BX*1)
	MAXPD X0, X12
	MAXPD X1, X12

rnext:
	ADDQ AX, SI
	ADDQ AX, DI
	ADDQ R13, DX
	DECQ CX
	JNZ rloop
	MOVHLPS X12, X6
	MAXSD X6, X12
	MOVSD X12, ret+40(FP)
	MOVQ R9, ret1+48(FP)
	RET

rmixed:
	TESTQ $1, R10
	JNZ rslow0
	MOVSD X0, 0(SI)
	MOVSD X1, 0(DI)
	MAXSD X0, X12
	MAXSD X1, X12
	JMP rlane1

rslow0:
	MOVL DX, 0(R8)(R9*4)
	INCQ R9

rlane1:
	TESTQ $2, R10
	JNZ rslow1
	MOVHPD X0, 0(SI)(BX*1)
	MOVHPD X1, 0(DI)(BX*1)
	MOVHLPS X0, X6
	MAXSD X6, X12
	MOVHLPS X1, X6
	MAXSD X6, X12
	JMP rnext

rslow1:
	LEAQ 0(DX)(R12*1), R11
	MOVL R11, 0(R8)(R9*4)
	INCQ R9
	JMP rnext
