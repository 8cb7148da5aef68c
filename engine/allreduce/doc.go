// Package allreduce simulates the butterfly (recursive-doubling) allreduce
// and the redundant-exchange variant of papers/000 under OS and network
// jitter, as settled in specs/allreduce-jitter.md.
//
// The model is a recurrence over arrays, not an event simulation: stage k of
// the Butterfly pairs process i with i XOR 2^(k-1) (eq. 1 and 2 of the
// paper); after K = log2 P stages come the RedundantExchanges, in which
// every process forwards the earliest copy of the final result it holds
// along the partner pattern of stage j and adopts the earliest copy it sees.
// One pass computes the allreduce time for every T = 0..K at once, because
// exchange j only reads the state left by exchange j-1.
//
// Simulator.Run is the single code path: the sweeps call it with a nil
// trace, the animation with a trace to fill. For speed at P = 2^20 and
// beyond it visits the butterfly in cache-sized blocks (stages 1..13 inside
// blocks of 2^13 consecutive processes, the later stages inside blocks that
// fix the middle bits), the way cache-blocked FFTs do; every pair update
// reads only the pair's previous state and noise that is a pure function of
// (process, time), so the visiting order cannot change a result.
//
// PaperSets gives the paper's four sweeps (sets A, B, C1, C2) and
// Summarize reduces a grid point's trials to the quantities the paper
// plots: influence of jitter, effect of the proposed method, optimal T.
package allreduce
