// Package mmdl is the multi-master divisible load model of papers/003
// (specs/mmdl.md): P processors on a crossbar, each starting with l_i unit
// tasks that can be split at will, moved between processors and computed
// anywhere; results are not collected.
//
// # Units
//
// The paper's scheduler takes a compute parameter and a communication
// parameter per unit task (Section 4.2, Table 3). Their units follow from
// the paper's own conversions, eq. (1) "compute time (s) × CPU (MHz)" and
// eq. (2) "transfer time (s) × throughput (MB/s)":
//
//   - Compute is in millions of clock cycles per task: 0.1 is the paper's
//     "100 K clocks", 0.294 its calibrated 294 K. Processor i computes one
//     task in γ_i = Compute·1e6 / (MHz_i·1e6) = Compute / MHz_i seconds.
//   - Comm is in megabytes (10^6 bytes) per task: 0.003 is "3 KB", 0.0034
//     is "3.4 KB" (the 400 + 20 doubles of one vector and its result are
//     3.36 KB). One task crosses the network in β = Comm·1e6·8 / Throughput
//     seconds, Throughput in bit/s: 800 Mbit/s = 100 MB/s gives β = 30 µs
//     for 3 KB. β is paid by the sender and the receiver at once.
//   - Latency α is in seconds, paid once per message on both ends.
//
// These reproduce the paper's Table 4 wherever no task moves: ProcSet 1,
// Load 1 is 75,000 × 0.1/2400 = 3.125 s before calibration and
// 75,000 × 0.294/2400 = 9.1875 s after, the paper's two simulated values.
//
// # Steady state
//
// SteadyState finds the flows x_ij that minimise T subject to every
// processor's busy time γ_i·f_i + β·(sent_i + received_i) ≤ T, f_i its final
// load. With one β an optimal solution has each processor only export or
// only import, so f_i is the largest load processor i can finish by T:
// (T + β·l_i)/(γ_i + β) for an importer (γ_i·l_i ≤ T), (T − β·l_i)/(γ_i − β)
// for an exporter, and T is the root of Σ f_i(T) = Σ l_i, a piecewise-linear
// increasing function solved exactly segment by segment (O(P log P)).
// Per-pair β_ij make it a linear programme, solved in engine/mmdl/lp (the
// only package of the module that imports gonum, so the browser build
// carrying this package stays small).
//
// # Rounds
//
// The paper splits the flows into R identical steady rounds and accounts
// T + T/R + α·R (FormulaTotal): the first round only communicates, the last
// only computes, α per round; minimal at R* = √(T/α) (OptimalRounds).
// Rounds builds an executable schedule and simulates it, one of two
// (Sched):
//
//   - Paper, the paper's schedule (the default). Each flow x_ij moves in R
//     messages of x_ij/R tasks; within a round the messages follow a greedy
//     edge colouring of the flow graph (largest first), so disjoint pairs
//     run in parallel, each as soon as both ends are free. One steady round
//     is that round's transfers with the processor's quota f_i/R computed
//     in the gaps and after; its length is the Period (T/R + D·α when the
//     gaps absorb every wait, D the most messages one processor handles per
//     round). Round k runs at k·Period and computes what arrived in round
//     k−1: round 0 only communicates, and round R, after the last
//     transfers, only computes, so the makespan is R·Period + max_i γ_i·f_i/R
//     (= T + max_i γ_i·f_i/R + D·α·R). This is the paper's Section 2.3 read
//     literally: its rounds are identical, so the first keeps its full
//     length though it only communicates, and its formula's last T/R is a
//     bound on the compute-only round. It reproduces Table 5's simulated
//     column for R = 2 … 20 to 0.03 % (TestPaperTable5). Two cases have no
//     pipeline: R = 1 is one round that is both first and last, so it
//     communicates, then computes (each processor computes its final load
//     after its last transfer: the paper's 11.996 s, against 2T + α from
//     the formula); and when no task moves there is nothing to
//     communicate, so the R rounds only compute (makespan T, Table 4's
//     ProcSet 1 / Load 1).
//   - Overlap, the paper's future work (Section 6: the first round
//     processes the initial load). Transfers run round after round in the
//     same colour order, each as soon as both ends have finished their
//     previous one (the order is global, so it can never deadlock), and
//     computation fills every gap between a processor's transfers and runs
//     on after its last one. Tasks are divisible, so a processor drops its
//     computation the instant its partner is ready. It computes only tasks
//     it holds and will not send: l_i + received so far − everything it
//     will send, so a processor computes its own load while it waits, and
//     an importer computes a received task only after it arrived. The
//     makespan lies between T (the steady state is optimal for the busy
//     times, whatever the order) and T + T/R + α·R·D.
//
// Compute operations carry the round whose tasks they work on (Op.Round):
// Overlap cuts them at multiples of f_i/R, Paper computes round k−1's
// quota in round k. The tests check both schedules' rules on the presets
// and on random instances. ChooseRounds simulates R over a grid around R*
// and keeps the best: the scheduler chooses its own round count. Execute
// runs a schedule planned with one set of parameters on a machine with
// another (the paper's Table 4 "before calibration" run).
//
// Everything here is + − × ÷ and comparisons on float64, so results are
// bit-identical natively and under js/wasm.
package mmdl
