// Package schedule is the "schedule" scene: a LogGOPSim GOAL schedule
// (engine/goal) run under LogGOPS parameters and noise and drawn as a
// Gantt chart per rank (send and receive overheads o, computation, the
// NIC gap g, noise stalls hatched, messages in flight with their network
// noise), with the critical path, the chain of work and messages that sets
// the maximum finishing time, drawn over it. Two parameter sets on one
// file, or two files on one parameter set, stack one above the other on a
// shared time axis. Above a few hundred ranks each side becomes a
// heat-strip (colour = how busy a group of ranks' CPUs were in a time
// slice), like the butterfly's, so that a 4096-rank schedule still reads.
//
// The shipped examples (examples/) are embedded; a page adds its own files
// with AddFile (the browser's commlab.loadGOAL: file picker, drag and drop
// or a same-origin URL), which makes them choices of the file fields.
//
// Its estimate (Estimate) adds what the noise costs to each side's run
// (goal.EstimateNoise): a dense noise trace met by long CPU work, or
// network noise with a delay near its mean, is refused on the page before
// it runs, on noise_trace or net_mean, with what would fit; net_delay must
// be less than net_mean.
package schedule
