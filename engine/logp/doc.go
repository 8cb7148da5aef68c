// Package logp runs LogP/LogGP schedules and models the slides of
// papers/002 (LogP under fluctuating latency and gap), as settled in
// specs/logp-fluctuation.md.
//
// The Executor runs a Program: send, receive and compute operations with
// dependencies on P processors (the kind of schedule LogGOPSim runs),
// honouring o, g and L per message and one operation at a time per CPU,
// on the discrete-event core of engine/des. BinomialBroadcast and
// DisseminationBarrier are standard programs with closed forms to check
// it against.
//
// Plan builds the optimal LogP summation schedule for n numbers on P
// processors (Karp, Sahay, Santos, Schauser 1993) for a planning latency
// L_s, as a Program whose operations carry their planned start times.
// Replay runs that fixed timetable with per-message latencies drawn from
// Normal(μ, σ²) truncated at 0 and gaps max(g, g + N(0, σ_g²)): an early
// message does not help (its receiver is busy with planned additions), a
// late one stalls the receiver and everything after it.
//
// Expected estimates E[T](L_s) by Monte Carlo (trial t draws from
// sweep.RNG(seed, 0, t)); ExpectedP2 is the spec's closed form for two
// processors and ExpectedStar its extension to any star-shaped plan (P = 3
// in the slides' setting); Optimal and OptimalStar find the planning
// latency that minimises E[T]. Normal draws use only exactly rounded
// arithmetic so results are bit-identical natively and under js/wasm.
package logp
