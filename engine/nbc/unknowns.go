package nbc

import "fmt"

// Unknown is a magnitude the model needs and the paper does not give: a
// mechanism it names without a number (thread creation, mutual exclusion,
// the synchronisation between the progress thread and the compute
// threads, NBC_Test once per outer-loop iteration), or a hardware figure
// the named machine leaves open. Its plausible range comes from a source
// outside the paper (kernel source and documentation, the C library's,
// the processor's); a calibration searches inside it and nowhere else, so
// a fit that needs a value outside says a mechanism is missing.
type Unknown struct {
	Field     string  // the Params JSON name, which is also the CLI flag and URL key
	Mechanism string  // what it is, in the paper's words where it has them
	Unit      string  // the unit it is shown in
	Scale     float64 // one display unit in SI units (1e-6 for µs)
	Lo, Hi    float64 // the plausible range, SI units
	Default   float64 // the hardware estimate Default() uses, SI units
	Source    string  // where the range comes from
	// Needs names the Params switch without which the value does nothing
	// ("memory_share"), or is empty.
	Needs string
}

// Unknowns are the magnitudes the paper-001 study calibrates on the
// 2-node figure (docs/nbc.md has the table with the reasoning). Mutual
// exclusion is mutex_handoff: every hand-off through TCC's queue mutex and
// condition variables, LibNBC's handle hand-off to its thread and the wake
// of a Wait blocked on the done flag is one futex wake-up of a sleeping
// thread.
var Unknowns = []Unknown{
	{
		Field:     "progress_call",
		Mechanism: "NBC_Test once per outer-loop iteration (Section IV-C): one MPI_Testall and a progress-engine pass under MPI_THREAD_MULTIPLE's global lock",
		Unit:      "µs", Scale: 1e-6, Lo: 0.1e-6, Hi: 2e-6, Default: 0.5e-6,
		Source: "lower end: an uncontended pthread mutex lock and unlock are two atomic instructions in user space (futex(7), Drepper, \"Futexes Are Tricky\", 2011) plus an empty completion-queue poll, about 0.1 µs at 2.7 GHz; upper end: a progress pass that handles a few completions, about 2 µs; no published measurement of Intel MPI 4.0's MPI_Testall on the paper's machine is known to us, so the range is this order-of-magnitude bracket",
	},
	{
		Field:     "thread_create",
		Mechanism: "thread creation (Section IV-C): the progress thread is created inside the timed run (TCC's Init, LibNBC's first call)",
		Unit:      "µs", Scale: 1e-6, Lo: 10e-6, Hi: 130e-6, Default: 30e-6,
		Source: "pthread_create with NPTL: 100,000 threads created and destroyed in about 2 s on a 2003 IA-32 machine (Drepper and Molnar, \"The Native POSIX Thread Library for Linux\", Red Hat, 2003), some 20 µs each; plus the new thread's first run on an idle core, whose wake-up from C6 takes up to 104 µs on Sandy Bridge (Linux drivers/idle/intel_idle.c, snb_cstates, exit_latency of C6-SNB)",
	},
	{
		Field:     "mutex_handoff",
		Mechanism: "mutual exclusion (Section IV-C): the hand-off to a thread blocked on a mutex, condition variable or semaphore (TCC's handle queue, LibNBC's handle, Wait)",
		Unit:      "µs", Scale: 1e-6, Lo: 2e-6, Hi: 110e-6, Default: 5e-6,
		Source: "a futex wake-up (futex(2)) and the switch to the woken thread on an idle core: a few µs when the core idles in C1 (exit latency 2 µs), up to the C6 exit latency of 104 µs plus the wake-up itself on Sandy Bridge (Linux drivers/idle/intel_idle.c, snb_cstates; RHEL 6's 2.6.32 kernel uses intel_idle)",
	},
	{
		Field:     "poll_interference",
		Mechanism: "synchronisation between the progress thread and the compute threads (Section V): each compute row is this much slower while a progress thread polls",
		Unit:      "%", Scale: 0.01, Lo: 0, Hi: 0.05, Default: 0,
		Source: "a thread polling on a core of its own shares only the socket's last-level cache and memory controller with the compute threads; its working set is a few cache lines (the completion queue, the library's lock, the requests), well under 1 GB/s of memory traffic against the socket's 51.2 GB/s peak (Intel ARK, Xeon E5-2680: four DDR3-1600 channels), so a few per cent at most; 5 % is a generous bound",
	},
	{
		Field:     "dma_traffic",
		Mechanism: "memory bandwidth shared by the NIC's DMA and the matrix-vector product (with memory_share)",
		Unit:      "B/B", Scale: 1, Lo: 0, Hi: 1, Default: 1,
		Source: "an RDMA send reads its buffer from memory and a receive writes its buffer, 1 B of memory traffic per B on the wire each way; Intel Data Direct I/O (Xeon E5-2600) writes incoming DMA into the last-level cache instead, in at most 10 % of its ways (Intel, \"Intel Data Direct I/O Technology (Intel DDIO): A Primer\", 2012), 2 MB of the E5-2680's 20 MB, which 500 KB-5 MB messages on a socket streaming a matrix overflow; 0 bounds the case where none reaches memory",
		Needs:  "memory_share",
	},
}

// UnknownByField returns the Unknown named field.
func UnknownByField(field string) (Unknown, bool) {
	for _, u := range Unknowns {
		if u.Field == field {
			return u, true
		}
	}
	return Unknown{}, false
}

// Get reads the unknown's value from p (SI units).
func (u Unknown) Get(p Params) float64 { return *u.field(&p) }

// Set writes v (SI units) into p.
func (u Unknown) Set(p *Params, v float64) { *u.field(p) = v }

// Plausible reports whether v lies in the unknown's plausible range.
func (u Unknown) Plausible(v float64) bool { return v >= u.Lo && v <= u.Hi }

func (u Unknown) field(p *Params) *float64 {
	switch u.Field {
	case "progress_call":
		return &p.ProgressCall
	case "thread_create":
		return &p.ThreadCreate
	case "mutex_handoff":
		return &p.MutexHandoff
	case "poll_interference":
		return &p.PollInterference
	case "dma_traffic":
		return &p.DMATraffic
	}
	panic(fmt.Sprintf("nbc: Unknown %q has no field", u.Field))
}
