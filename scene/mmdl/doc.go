// Package mmdl is the steady-rounds scene of paper 003 (model settled in
// specs/mmdl.md, engine in engine/mmdl): eight processors on a crossbar
// hold a divisible load (600,000 matrix-vector tasks in the paper's
// presets) spread unevenly, and the asymptotically optimal schedule moves
// tasks from exporters to importers in R identical steady rounds, so that
// every processor finishes near the steady-state makespan T.
//
// The frame has three parts. A Gantt chart with one lane per processor
// draws the executable schedule's send, receive and compute operations and
// the idle time between them, with a rule at each round boundary; it grows
// with the playhead, and nothing after the playhead is drawn. Beside each
// lane a load bar shows the tasks the processor holds at the playhead (its
// initial load, less what it has sent, plus what it has received; the bars
// always add up to the whole load) with the part already computed filled
// solid and the steady state's final load ticked, so the bars rebalance
// round by round. Under them the paper's accounting of rounds (Section
// 2.3) is plotted against R on log–log axes: the first round's cost T/R
// shrinks, the latency α·R grows, their sum T/R + α·R (the formula
// T + T/R + α·R less T) is least at R* = √(T/α), and the current R is
// marked with the formula's value and the simulated makespan.
//
// R = 0 lets the scheduler choose the round count itself (the paper's
// future work). The model is deterministic: the seed is not used. Times
// are in seconds.
package mmdl
