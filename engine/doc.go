// Package engine is the root of commlab's simulation models.
//
// Everything below engine/ is pure Go: no I/O, no clock, no browser,
// drawing or report libraries. Each model takes a validated parameter struct and a
// random source handed in by the caller and returns numbers (and, when asked,
// a trace.Trace for the animations). deps_test.go states and checks the
// import policy.
//
// Subpackages:
//
//	trace      the event record every model emits, its validator, Chrome-trace export
//	noise      OS jitter (periodic) and network noise (Poisson), counter-based
//	allreduce  butterfly allreduce with redundant exchanges (papers/000)
//	sweep      parameter grids over all cores, per-(point, trial) seeds, adaptive
//	           trials, shards split by cost
//	stats      95 % intervals (t, paired ratios, bootstrap, Wilson) that name their method
//	detmath    Log, Log1p, Exp with the same bits natively and in WebAssembly
package engine
