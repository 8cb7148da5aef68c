// Package nbc is the TCC queue scene of paper 001 (model settled in
// specs/nbc-tcc.md, engine in engine/nbc): rank 0 of a hybrid MPI +
// OpenMP program issues several non-blocking alltoalls and then computes
// its rows of a matrix-vector product, the collectives progressing
// meanwhile.
//
// The view "tcc" draws the paper's Threaded Collective Communication
// (Section III) at the playhead: the main thread's box, hatched while an
// I<collective> call waits for a slot; the ring HandleQueue unrolled into
// a row of slots with the handles in them and its head (the slot the
// progress thread dequeues next) and tail (the slot the next enqueue
// fills) pointers; the progress thread's box with the handle whose
// blocking MPI_Alltoall it runs; every handle as a chip in issue order
// with its done flag, which fills when the engine's Done event has
// happened; and beside them one bar per compute thread, filled with the
// share of its rows done. Below, a Gantt chart of rank 0's threads (main,
// progress, compute, and a row for the data on the wire) grows with the
// playhead; nothing after it is drawn. The view "nbcf" draws LibNBC's
// progress-function run (NBCF-ovlp-test) of the same workload instead:
// no queue and no progress thread, every compute thread calling NBC_Test
// between its outer-loop iterations (engine/nbc's TestThreads = "all", the
// paper's reading; the main thread's calls ticked on its lane), and the
// network row showing rendezvous data moving only around them; "both" stacks the two
// timelines on one time axis.
//
// Every picture is built from the engine's handle events (Issue, Block,
// Enqueue, Dequeue, Start, Done, WaitCall, WaitReturn, Progress,
// Finalize) and its trace; Build runs both methods whatever the view, so
// Numbers (TCC's total, baseline and speedup, its parts, the blocked
// enqueues, and LibNBC's total and speedup) do not depend on the view.
// The model is deterministic: the seed is not used. Times are in seconds.
//
// The engine's package has this package's name; it is imported as enbc,
// so that enbc.Params is the engine's parameters and Params this scene's
// reading of them from the page's values.
package nbc
