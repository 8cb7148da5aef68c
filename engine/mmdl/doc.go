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
// Rounds builds an executable schedule and simulates it:
//
//   - transfers: round by round, each flow x_ij moves in R messages of
//     x_ij/R tasks; within a round the messages follow a greedy edge colouring
//     of the flow graph (largest first), so disjoint pairs run in parallel.
//     Every processor takes part in one transfer at a time, and a transfer
//     starts as soon as both ends have finished their previous one, in that
//     global order (which can never deadlock);
//   - computation fills every gap between a processor's transfers and runs
//     on after its last one. Tasks are divisible, so a processor drops its
//     computation the instant its partner is ready. It computes only tasks
//     it holds and will not send: l_i + received so far − everything it
//     will send. So a processor with enough initial load computes while it
//     waits, the improvement the paper's Section 6 asks for, and an
//     importer computes a received task only after it arrived.
//
// Compute operations are cut at multiples of f_i/R so that each belongs to
// one round's quota (Op.Round). The makespan lies between T (the steady
// state is optimal for the busy times, whatever the order) and
// T + T/R + α·R·D, D the most messages one processor handles per round
// (D = 1 is the paper's accounting); the tests check both bounds on the
// presets and on random instances. ChooseRounds simulates R over a grid
// around R* and keeps the best: the scheduler chooses its own round count.
//
// Everything here is + − × ÷ and comparisons on float64, so results are
// bit-identical natively and under js/wasm.
package mmdl
