// Package jitter is the jitter scene of paper 000 (§4): a Gantt chart of one
// butterfly allreduce under OS jitter and network noise, the conventional
// butterfly against the same run with T redundant exchanges, and a
// histogram of completion times over many trials of the same parameters.
//
// Each process is a lane. Its reductions are drawn in the compute colour
// (they take nanoseconds, so each gets at least a pixel), its waits for a
// partner as a quiet bar, and the OS-jitter windows that stall a reduction
// hatched in the warning colour, so a stall reads as one even in grey.
// Messages are thin arrows from the sender's lane at the send time to the
// receiver's at the arrival, moving while in flight; the part of a flight
// that network noise added is drawn thick in the noise colour.
//
// The run with T redundant exchanges contains the conventional one (the
// exchanges start after stage K), so both panels draw one trace on one time
// axis: the conventional panel stops at stage K and marks its completion
// max_i f_i^(K) and the process that set it; the redundant panel adds the
// exchanges' copies (the adopted ones highlighted), marks where each
// process adopts a copy, fades a lane once its process holds the result,
// and marks the redundant completion max_i g_i^(T), so the gain is the gap
// between the two marks. Nothing after the playhead is drawn.
//
// Up to MaxLanes processes every one has a lane; larger runs show
// SubsetLanes of them (the critical processes, their partners, evenly
// spaced ranks) and say so on the canvas.
//
// Build records trial 0 of the seed (butterfly.Record, the run both
// allreduce scenes draw) and runs trials 0..trials-1 with scene.RNG(seed, i)
// on one Simulator without a trace for the histogram, so every number the
// page shows is reproducible natively from the parameters and the seed.
// Everything that does not depend on the playhead is worked out there; a
// frame only maps it to the canvas.
package jitter
