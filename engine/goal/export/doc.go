// Package export writes commlab's own schedules as GOAL text, so that
// LogGOPSim runs them and the two simulators check each other: the
// butterfly allreduce with T redundant exchanges (engine/allreduce), the
// optimal LogP summation plan (engine/logp) and the alltoall of the
// non-blocking collectives model (engine/nbc). Each writer streams rank
// by rank (goal.Writer), so P = 2^20 costs no memory; each has a Params
// function giving the LogGOPS machine that matches the model's.
//
// What GOAL cannot say is dropped and documented at each writer: it has
// no "first of" dependency, so the redundant exchanges' adoption of the
// earliest copy is not expressible (their traffic is); it has no start
// times, so the summation plan's fixed timetable becomes greedy
// execution; its times are integer nanoseconds, so per-byte costs round.
package export
