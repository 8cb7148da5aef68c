// Package calibrate makes the calibration loop of paper 003 (Section 3,
// Fig. 2) real: it executes an engine/mmdl round schedule on this machine
// with the paper's task, records the start and end of every send, receive
// and compute, refits the compute and communication parameters with the
// paper's eq. (1) and (2), reschedules with them and executes again.
//
// It lives under cmd/gen-report, not engine/, because it runs real work with
// goroutines and a clock; engine/ stays pure.
//
// # API (stable; the report page calls Run)
//
//	res, err := calibrate.Run(ctx, in, 5, calibrate.Options{Scale: 0.01})
//	res.Before.Params     // the guessed parameters the first schedule used (in's)
//	res.Before.Predicted  // that schedule's simulated makespan (s)
//	res.Before.Measured   // its makespan executed on this machine (s)
//	res.Before.Fitted     // eq. (1), (2) refitted from res.Before.Ops
//	res.After.Params      // == res.Before.Fitted: the rescheduled run's parameters
//	res.After.Predicted, res.After.Measured, res.After.Fitted (a second refit)
//	res.Before.Ops        // every operation: the schedule's op, the vectors it
//	                      // really handled, its measured duration and its
//	                      // start and end on the executed timeline
//	res.Before.Schedule   // the simulated schedule (Fig. 4, 6: .Trace())
//	res.Before.Executed() // the same operations at their executed times, an
//	                      // *mmdl.Schedule for Gantt charts (Fig. 5, 7)
//	res.Instance          // the scaled instance, guessed parameters
//	calibrate.Refit(in, ops) (Fit, error) // eq. (1), (2) alone
//
// rounds = 0 lets the scheduler choose R (mmdl.ChooseRounds) on each pass.
// Both passes use the overlapped schedule (mmdl.Overlap): its simulation
// follows the executor's own rule below, where the paper's schedule keeps
// a fixed round length that an as-soon-as-possible executor would not.
//
// # The task
//
// The paper's unit task: one 400-element float64 vector multiplied by a
// 20 x 400 matrix that every processor holds. A processor's tasks are real
// vectors in its own memory. Every send packs the vectors' bytes into a wire
// buffer, hands the buffer to the receiving worker through a channel, and
// the receiver unpacks them into its own memory: 3200 bytes per task really
// move between goroutines (the paper counts 3360 bytes, adding the 20-element
// result vector; the model collects no results, so only the data vector moves
// here). Each computed result is folded into a checksum keyed by the vector's
// identity, so the run's checksum equals a serial computation's only if every
// vector was computed exactly once, whichever processor computed it.
//
// # Emulated hardware, measured software
//
// The paper holds the hardware parameters fixed (clock rates, latency,
// throughput) and refits the software ones (clocks and bytes per task).
// This package does the same: the hardware parameters of in are emulated,
// the software ones are measured.
//
//   - Clock rate. This machine's core stands for the fastest processor of
//     the instance (HostMHz = max MHz). A processor of f MHz does
//     HostMHz/f times the work per task: after the real matrix-vector product
//     it repeats (HostMHz/f - 1) x 20 rows of it (carrying the fraction from
//     one vector to the next, so the extra work is exact on average). A
//     2000 MHz processor beside 2400 MHz ones thus does 4 extra rows per
//     vector. The repeated rows are real arithmetic, not a sleep, so the
//     measured time stays subject to the machine's caches and noise.
//   - Network. A transfer of n tasks takes the sender's real packing copy,
//     the wire, and the receiver's real unpacking copy. The wire's time is
//     added, not waited for: latency + n x 3200 x 8 / throughput, from the
//     vectors that really moved (Record.Wire), with in's latency and
//     throughput. Waiting would only burn a core the other processors'
//     operations need, and would add nothing the measurement could see.
//
// Eq. (1) then measures the clocks per task of this core (compute time x MHz
// is the same on every emulated processor), and eq. (2) (transfer time minus
// the emulated latency, times throughput in MB/s, per task) measures the
// megabytes per task, which comes out a little above 0.0032 (the copies cost
// time too), as the paper's 0.0034 lies a little above its 3.36 KB. The
// faster the emulated network, the more the copies weigh in it.
//
// This machine's core does a task in about 18 K clocks at a nominal
// 2400 MHz, where the paper's took 294 K. At the paper's 800 Mbit/s a moved
// task then costs about four times a computed one, and the refitted
// schedule moves nothing: the honest answer for that machine. To keep the
// paper's balance of network and CPU (β/γ ≈ 0.28 after its calibration),
// give in a network faster by the same factor, about 12 Gbit/s.
//
// # Two cores, eight processors: how the measurement stays honest
//
// This machine has 2 cores (shared with other work) and the instance has
// 8 processors. Running the 8 workers freely would time-share the cores and
// make every operation look 4 times slower than it is. So each processor is
// a worker goroutine that owns its vectors, but a dispatcher lets exactly
// one operation run at a time (a transfer involves its two workers), in the
// schedule's global time order: among the processors' next operations, the
// ready one (a compute, or a send whose receiver is next to receive it)
// with the earliest scheduled start. Each operation times only its own
// work, from inside the worker.
//
// Each operation is timed by its worker's thread CPU clock (Linux's
// CLOCK_THREAD_CPUTIME_ID; every worker is locked to its OS thread): the
// time the operation's own work took, with the time the OS gave the thread's
// core to anything else (other programs, the other workers, the garbage
// collector) left out, which is what the operation would cost on a
// dedicated processor. Options.WallClock times by the wall clock instead
// (and elsewhere than Linux it is the only clock); then the machine's other
// load shows in the numbers.
//
// The executed timeline is then built from those measured durations by the
// rule the paper's executor follows on dedicated processors: each processor
// runs its operations in the schedule's order as soon as it can, a
// transfer starts when both ends are free and occupies both. That timeline
// is what 8 dedicated processors running the same operations for the
// measured times would do; its makespan is Pass.Measured. It leaves out
// what dedicated machines would not share anyway (cores, caches) and keeps
// every wait the measured durations cause, including those the schedule did
// not predict.
//
// # Scale
//
// The paper's 600,000 tasks take about 5 s of single-core compute here per
// pass, and 8 emulated processors run one operation at a time; Options.Scale
// (default DefaultScale = 1/100) runs that fraction of every processor's
// initial load, rounded to whole vectors. The scaled instance is in
// Result.Instance. Rounding the schedule's fractional task counts to whole
// vectors is cumulative per processor (computes) and per link (transfers),
// so no count is off by more than one vector and none drift; a compute that
// finds fewer vectors than its rounded count computes what it has and the
// last compute of each processor computes all it still holds. Records carry
// the vectors really handled, and the refit uses those.
//
// Measured numbers depend on this machine and its load; they are not
// byte-stable, so a report page must keep them out of golden files.
package calibrate
