// Package goalshape writes GOAL schedules of the shapes that cost LogGOPSim
// (and a literal port of it) the most for their size: one rank sending to
// all others with nothing in between (a linear broadcast), one operation
// with many dependents (fan-out) or many dependencies (fan-in), long
// chains, floods of messages that arrive before their receives are
// posted, receives matched in the reverse of their posting order, the
// same with wildcards, and a dependency cycle through a whole rank. The
// engine's cost tests and benchmarks hold its estimates to the runs of
// these shapes (engine/goal), and the schedule scene's tests find the
// largest of each that fits the page's budget (scene/schedule).
//
// It writes GOAL text with nothing but the standard library, so that
// engine/goal's own tests can import it.
package goalshape
