// Package goal reads, writes and runs schedules in GOAL, the text format of
// LogGOPSim (spcl/LogGOPSim), with LogGOPSim's LogGOPS semantics to the
// nanosecond.
//
// A GOAL file lists, per rank, labelled operations (send and recv of a
// number of bytes to or from a peer with a tag, calc of a number of
// nanoseconds, each on a CPU and a NIC index) and dependencies between
// them: "a requires b" (a starts after b is done) and "a irequires b" (a
// starts after b has started). Read streams such a file into a Schedule
// (bufio, rank by rank, never the whole text in memory); errors name the
// file, line and column, and a rank whose dependencies form a cycle is
// refused at its closing brace. Write and the streaming Writer produce the
// same text, so schedules built here (package goal/export writes commlab's
// own collectives) open in LogGOPSim and the two tools check each other.
//
// Run executes a Schedule as LogGOPSim's simulator does (its
// LogGOPSim.cpp, read rule by rule): one queue of operations ordered by
// time and insertion stamp; a send holds its CPU for o + (s-1)·O and its
// NIC for g + (s-1)·G, its message arrives o + L after the send starts; a
// receive costs o + max((s-1)·O, (s-1)·G) of CPU and g + (s-1)·G of NIC
// when its message is taken off the network; messages match posted
// receives by (source, tag) in posting order (and unexpected messages in
// arrival order), with -1 as any source or tag; a message of at most S
// bytes is eager (the send is done once issued), a larger one rendezvous
// (the send is done when the receive matches). Times are integer
// nanoseconds in uint64 arithmetic, as in LogGOPSim, so results agree to
// the nanosecond, including the order in which operations freed at the
// same instant enter the queue (libstdc++'s std::sort, reproduced).
//
// A Schedule keeps its operations by level inside blocks of ranks
// (places.go): a collective's stage, every rank's operations of one level,
// lies together, so a run beyond the caches streams it instead of missing
// a line per rank. Every index the package hands out or takes (Op,
// Label, Dependents, RankOps, Timeline.Ops, CritStep.Op, MsgRecord) is
// the file's order all the same.
//
// Noise stretches CPU work (o and calc) and messages: LogGOPSim's noise
// traces ("start<TAB>duration" lines, ns), each rank reading the trace at
// a seeded random offset or all at one offset (co-scheduled); commlab's
// periodic OS jitter; and commlab's Poisson network noise, which delays
// messages in flight (engine/noise draws both). Network noise needs a
// delay under its mean (each event delays a flight while more come, so a
// longer delay lets a flight grow without end: Noise.Validate refuses it).
//
// What a read or a run costs is bounded before it starts, for every
// input (docs/goal.md): EstimateRead from the text's size (Limits bound a
// stream's as it is read, refusing past them with a *LimitError),
// EstimateSchedule from the schedule read (EstimateRun and EstimateText
// from a count or a size alone), and EstimateNoise what noise adds,
// counted from the schedule: the trace events each CPU interval meets,
// the network-noise buckets and events each flight scans, a call per
// interval for the OS jitter (which skips whole periods at once, so a
// short period costs nothing more). Every part of a run is linear or n
// log n in the schedule: operations waiting for a busy CPU wait in
// groups (wait.go) instead of LogGOPSim's re-insertions, a long match
// walk indexes its rank's queues (match.go), a dependency cycle is found
// and named in linear time. EstimateNoise also bounds the noisy run's
// length (every operation's time in a row, each CPU interval stretched
// by 1/(1 - duration/period) plus a window and by the trace's durations,
// each flight delayed by its events' far tail) and refuses, naming the
// input and what fits, noise that could stretch it past MaxLength, where
// the int64 times would wrap; a schedule whose own times pass it stops
// the run with an *OverflowError (overflow.go) rather than wrap as
// LogGOPSim's unsigned times do.
//
// With Options.Record a Result carries the timeline a scene draws: every
// operation's CPU interval and noise stall, every message (sent, arrived,
// taken, matched), and the critical path, the chain of CPU occupancy, NIC
// gaps, messages and dependencies that ends at the maximum finishing time.
package goal
