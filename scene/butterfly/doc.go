// Package butterfly is the scene of paper 000's Fig. 1–4: the butterfly
// allreduce drawn as the paper draws it, processes as columns and stages as
// rows, with the T redundant exchanges of the proposed method below the K
// butterfly stages.
//
// Build records one trial (Record, trial 0 of the seed) and derives from
// its trace everything that does not depend on the playhead: when each
// process holds each row's partial result, which stage windows OS jitter
// stalled, each message's path, which redundant copy each process adopted
// and which process set each completion time. Frame then only decides, for
// a playhead t, what is pending, in progress, stalled or finished and how
// far each message has flown; the geometry and the text that fits each box
// are laid out once per canvas size and cached.
//
// Up to 64 processes every box and every message is drawn. Beyond that
// (up to MaxTraceP = 4096) a box would be narrower than a pixel, so the
// rows become a heat-strip: one render.Grid whose cells are processes (or
// bins of processes, showing the latest finish in the bin), coloured by the
// time the stage finished on the same heat ramp the boxes use. Either way
// the ramp spans [0, conventional completion time] and a colour bar with
// time ticks doubles as the playhead's timeline.
package butterfly
