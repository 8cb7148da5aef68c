// Package progress lets a long model run say how far it got and be
// stopped, without knowing who listens: the browser's visualizer yields to
// the page and shows a progress bar through it, the CLI passes nothing.
//
// A model calls its Func at coarse points (between trials, stages, blocks
// of processes, every few thousand events), never in an inner loop, so a
// nil Func costs one comparison per point. What the Func does (sleep,
// count, look at a clock) is the caller's affair: the model's numbers
// never depend on it, so a run with a Func gives the same numbers as one
// without.
package progress
