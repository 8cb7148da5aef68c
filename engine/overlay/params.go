package overlay

import (
	"fmt"

	"commlab/engine/param"
	"commlab/internal/errf"
)

// Policy is how each process chooses its static connections (the paper's
// Section 4.2 compares three).
type Policy string

const (
	// Topology connects to every process on the same leaf switch and to one
	// process of every other leaf switch (Section 3.1); shortcuts are added
	// on demand (Section 3.2).
	Topology Policy = "topology"
	// All connects every pair of processes (Fig. 5's "all": 127 per process
	// for 128 processes), as MPI implementations of the day did.
	All Policy = "all"
	// Random connects each process to RandomDegree others chosen at random
	// (Fig. 5's "random": 64, half of the possible connections).
	Random Policy = "random"
)

// Policies lists the policies in the order of the paper's Fig. 5.
var Policies = []Policy{Topology, All, Random}

// policies are Policies' names, for Set and Validate.
var policies = param.Of(Policies)

// String returns the policy's name, which is also its CLI and URL value.
func (p Policy) String() string { return string(p) }

// Set parses a policy name; with String it makes *Policy a flag.Value.
func (p *Policy) Set(s string) error {
	i := policies.Index(s)
	if i < 0 {
		return errf.Errorf("unknown policy %q (want one of %s)", s, policies.List())
	}
	*p = Policies[i]
	return nil
}

// Pattern is the order in which a process sends the exchange's messages
// (the send counts' all-to-all and the keys' all-to-all-v): the order of
// destinations decides how soon a destination comes again, and so whether
// a shortcut cache of C can hold it until then (ReuseDistances).
type Pattern string

const (
	// PatternShift sends to i+1, i+2, … (mod P): every process starts
	// with a different partner, so no one is flooded first (MPICH's
	// alltoall(v) of the day posts its sends in this order).
	PatternShift Pattern = "shift"
	// PatternPairwise sends to i XOR k for k = 1 … P−1 when P is a power
	// of two (the pairwise exchange), else as shift.
	PatternPairwise Pattern = "pairwise"
	// PatternRandom sends in a random order, drawn anew for every process
	// and iteration.
	PatternRandom Pattern = "random"
)

// Patterns lists the patterns.
var Patterns = []Pattern{PatternShift, PatternPairwise, PatternRandom}

// patterns are Patterns' names, for Set and Validate.
var patterns = param.Of(Patterns)

// String returns the pattern's name, its CLI and URL value.
func (p Pattern) String() string { return string(p) }

// Set parses a pattern name; with String it makes *Pattern a flag.Value.
func (p *Pattern) Set(s string) error {
	i := patterns.Index(s)
	if i < 0 {
		return errf.Errorf("unknown pattern %q (want one of %s)", s, patterns.List())
	}
	*p = Patterns[i]
	return nil
}

// Handshake is who completes a shortcut's TCP handshake, and so when a
// message can first use it (Section 3.2 says only that the sender "tries
// to connect" to the destination and sends directly from then on).
type Handshake string

const (
	// HandshakeKernel: the handshake is the kernel's, as TCP does it. The
	// message layer issues a non-blocking connect() as it relays the
	// message that calls for the shortcut, and the SYN leaves then
	// (connect(2): EINPROGRESS, completion reported by select() for
	// writing). The far end's kernel answers with SYN-ACK without its
	// process (listen(2): since Linux 2.2 the backlog queues "completely
	// established sockets waiting to be accepted"; Stevens, Fenner and
	// Rudoff, UNIX Network Programming Vol. 1, 3rd ed., Section 4.5: the
	// incomplete and the completed connection queue). The opener can send
	// on the connection once the SYN-ACK is in (one round trip after its
	// connect), and its data waits in the far end's receive buffer until
	// the far end accept()s; the far end sends on it once it has accepted.
	// Each end still pays HandshakeCPU when its CPU gets to the connection,
	// behind the work already queued. The paper's reading: Phoenix runs on
	// unmodified TCP and OS (Section 1), and it is the reading under which
	// a shortcut can carry later chunks of the exchange that opened it.
	HandshakeKernel Handshake = "kernel"
	// HandshakeApplication: the application completes the handshake in
	// the order of its CPU queue: the opener's connect waits behind every
	// send already posted, the SYN leaves when it is done, the far end's
	// accept waits behind its queued work, and the reply makes the
	// shortcut ready at both ends. A message layer that serves one request
	// at a time with a blocking connect() and a hello exchange would behave
	// so; the paper's words do not exclude it. No send posted before the
	// shortcut opened can use it (the model before issue 22).
	HandshakeApplication Handshake = "application"
)

// Handshakes lists the handshake readings, the default first.
var Handshakes = []Handshake{HandshakeKernel, HandshakeApplication}

// handshakes are Handshakes' names, for Set and Validate.
var handshakes = param.Of(Handshakes)

// String returns the reading's name, its CLI and URL value.
func (h Handshake) String() string { return string(h) }

// Set parses a reading's name; with String it makes *Handshake a
// flag.Value.
func (h *Handshake) Set(s string) error {
	i := handshakes.Index(s)
	if i < 0 {
		return errf.Errorf("unknown handshake %q (want kernel or application)", s)
	}
	*h = Handshakes[i]
	return nil
}

// Limits of the parameters.
const (
	// MaxProcs bounds the processes: an IS run sends Iterations × P²
	// messages, 10 million at 1,024.
	MaxProcs = 1024
	// MaxKeys is NPB IS class C's 2^27 keys.
	MaxKeys       = 1 << 27
	MaxMaxKey     = 1 << 30
	MaxBuckets    = 1 << 14
	MaxIterations = 100
	maxTime       = 1.0 // s: bound of every time constant
	// minRate bounds the bandwidths below: 1 B/s is slower than any link,
	// and keeps every time finite (1.3e8 keys of 1024 B at 1 B/s are 1.4e11
	// s; at 1e-300 B/s they overflow float64).
	minRate = 1
	maxRate = 1e15
)

// Params are the model's inputs (specs/connections.md). Times are in
// seconds, sizes in bytes, bandwidths in bytes per second.
//
// The cost constants' defaults come from the hardware the paper names
// (Section 4.2: Xeon 2.4 GHz, 2 GB, Linux 2.4) on the Gigabit Ethernet of a
// cluster of its day; none is fitted to Fig. 5.
type Params struct {
	// The cluster: Nodes nodes spread evenly over Switches leaf switches,
	// which hang off one core switch (not counted); Procs processes placed
	// in blocks (ranks 2i and 2i+1 on node i when Procs = 2·Nodes).
	Nodes    int `json:"nodes" help:"nodes, an integer in [1, 1024]"`
	Procs    int `json:"procs" help:"processes, an integer in [2, 1024], at least nodes"`
	Switches int `json:"switches" help:"leaf switches the nodes are spread over, an integer in [1, nodes]"`
	// Fill, when not 0, fills the leaf switches in order with Fill nodes
	// each (the last takes the rest) instead of spreading them evenly;
	// Switches must then be ceil(Nodes / Fill). The paper's "6 switches"
	// read as 5 leaf switches of the cluster's 14 nodes under one upper
	// switch is Nodes 64, Switches 5, Fill 14: exactly its 31 static
	// connections (27 on the switch, 4 others).
	Fill int `json:"fill" help:"nodes per leaf switch, switches filled in order (0: spread evenly), an integer in [0, nodes]"`
	// Policy picks the static connections; Cache is C, the most shortcuts
	// one process may have open (0: never open one).
	Policy Policy `json:"policy" help:"static connections: topology, all or random"`
	Cache  int    `json:"cache" help:"shortcut cache size C per process, an integer in [0, procs-1]"`
	// RandomDegree is the random policy's connections per process.
	RandomDegree int `json:"random_degree" help:"random policy only: connections per process, an even integer in [2, procs-1]"`
	// Pattern is the exchange's order of destinations; ChunkBytes, when
	// not 0, splits every key message into chunks of at most that many
	// bytes sent one after another (a message layer with a maximum
	// message size does that), which brings a destination back at once.
	Pattern    Pattern `json:"pattern" help:"order of the exchange's destinations: shift, pairwise or random"`
	ChunkBytes int     `json:"chunk_bytes" help:"split key messages into chunks of at most this many bytes (0: whole messages), an integer in [0, 1073741824]"`
	// Handshake is who completes a shortcut's handshake: the kernel (TCP,
	// the default) or the application, in the order of its CPU queue.
	Handshake Handshake `json:"handshake" help:"who completes a shortcut's handshake: kernel (TCP: usable once the SYN-ACK is in) or application (after the queued work at both ends)"`

	// The Integer Sort (NAS Parallel Benchmarks IS; class A by default:
	// 2^23 keys in [0, 2^19), 2^10 buckets, 10 timed iterations).
	Keys       int     `json:"keys" help:"keys to sort in all, an integer in [procs, 134217728]"`
	MaxKey     int     `json:"max_key" help:"keys are drawn in [0, max_key), an integer in [procs, 1073741824]"`
	Buckets    int     `json:"buckets" help:"buckets whose sizes are allreduced each iteration, an integer in [1, 16384]"`
	Iterations int     `json:"iterations" help:"timed sort iterations, an integer in [1, 100]"`
	KeyBytes   float64 `json:"key_bytes" help:"bytes per key on the wire, in (0, 1024]"`
	// KeyTime is the CPU time per key of the local bucketing before the
	// exchange and of the ranking after it: ~50 cycles of a 2.4 GHz Xeon,
	// most of them cache misses into the bucket arrays.
	KeyTime float64 `json:"key_time" help:"CPU time per key of local bucketing and ranking in s, in [0, 1]"`

	// The network: every message crosses the real path in the switch tree.
	//
	// Latency is the one-way host-to-host latency without switches: the
	// Linux 2.4 TCP stack and a Gigabit Ethernet NIC on each side, ~25 µs.
	Latency float64 `json:"latency" help:"one-way latency of a message outside the switches in s, in [0, 1]"`
	// HopLatency is added per switch a message crosses: store-and-forward
	// of a frame plus the switch's own latency, ~5 µs.
	HopLatency float64 `json:"hop_latency" help:"latency per switch crossed in s, in [0, 1]"`
	// Bandwidth is every link's, in each direction: Gigabit Ethernet carries
	// ~117 MB/s of TCP payload. Links between switches are shared by every
	// message crossing them (they contend), as are the nodes' own links by
	// a node's processes.
	Bandwidth float64 `json:"bandwidth" help:"bandwidth of every link, each direction, in B/s, in [1, 1e15]"`

	// Host costs (CPU time of the process; one CPU per process).
	//
	// MsgCPU is the fixed CPU time to send or to receive one message: a
	// write() or read() system call and the message layer's header work,
	// ~10 µs on Linux 2.4.
	MsgCPU float64 `json:"msg_cpu" help:"CPU time to send or receive one message in s, in [0, 1]"`
	// PollPerConn is the per-message cost of each open connection: the
	// event loop's select() scans every open descriptor for every message
	// it handles (Linux 2.4's do_select calls each socket's poll method),
	// 0.5 µs per descriptor: 4 ms per call over about 8,000 idle sockets,
	// as measured on Linux in 2003 (CostSources). The paper names the
	// cost (Section 1: select() slows down as connections grow) but not
	// its size.
	PollPerConn float64 `json:"poll_per_conn" help:"CPU time per message per open connection (select() scan) in s, in [0, 1]"`
	// RelayCPU is the extra CPU time a relay spends on a message it
	// forwards: looking up the route and queueing it again, ~10 µs.
	RelayCPU float64 `json:"relay_cpu" help:"extra CPU time per relayed message at the relay in s, in [0, 1]"`
	// RelayBandwidth is the rate a relay copies a forwarded message's bytes
	// in and out of user space: ~1 GB/s for the Xeon's memory copies.
	RelayBandwidth float64 `json:"relay_bandwidth" help:"bytes per second a relay copies forwarded data at, in [1, 1e15]"`
	// HandshakeCPU is each end's CPU time to set up a connection (socket,
	// connect/accept, the message layer's hello), 60 µs: Linux 2.4.16's
	// lmbench ratio of a connection to a TCP round trip on one machine
	// (430 µs against 119 µs) applied to this model's MsgCPU (CostSources).
	// The set-up also takes time on the path: TCP's three-way handshake
	// (SYN, SYN-ACK, ACK), each a one-way latency (Handshake says when
	// each end may use the connection).
	HandshakeCPU float64 `json:"handshake_cpu" help:"CPU time per end to set up a connection in s, in [0, 1]"`
	// TeardownCPU is each end's CPU time to close a connection, ~10 µs.
	TeardownCPU float64 `json:"teardown_cpu" help:"CPU time per end to close a connection in s, in [0, 1]"`
}

// Default returns the paper's experiment (Section 4.2): 128 processes on 64
// nodes over 6 switches, topology-aware connections with a cache of 8.
func Default() Params {
	return Params{
		Nodes: 64, Procs: 128, Switches: 6,
		Policy: Topology, Cache: 8, RandomDegree: 64, Pattern: PatternShift, Handshake: HandshakeKernel,
		Keys: 1 << 23, MaxKey: 1 << 19, Buckets: 1 << 10, Iterations: 10,
		KeyBytes: 4, KeyTime: 20e-9,
		Latency: 25e-6, HopLatency: 5e-6, Bandwidth: 117e6,
		MsgCPU: 10e-6, PollPerConn: 0.5e-6, RelayCPU: 10e-6, RelayBandwidth: 1e9,
		HandshakeCPU: 60e-6, TeardownCPU: 10e-6,
	}
}

// CostSource is where the default of a cost parameter comes from: Field
// is its JSON name, Value the default in words, Source the reference and
// Says what that reference says, in its own numbers.
type CostSource struct {
	Field, Value, Source, Says string
}

// CostSources cite the defaults of the costs the paper's Fig. 5 turns on
// (the select() scan and the connection set-up; issue 13), for the
// hardware of its Section 4.2: Intel Xeon 2.4 GHz nodes, 2 GB, Linux 2.4.
var CostSources = []CostSource{
	{
		Field: "poll_per_conn", Value: "0.5 µs per open descriptor per message",
		Source: "Linux kernel mailing list, \"Re: [Patch][RFC] epoll and half closed TCP connections\", 13 July 2003: Eric Varsanyi's measurement, quoted in Jamie Lokier's reply (archived at https://www.cs.helsinki.fi/linux/linux-kernel/2003-28/0073.html)",
		Says:   "Level-triggered poll, select and epoll \"call every driver and poll status for every call into the kernel\"; with \"around 8000 completely idle fd's the cost is 4ms per syscall\": 4 ms / 8,000 = 0.5 µs per descriptor, on Linux of the paper's time (the message does not name the CPU). The paper itself (Section 1) says only that select() slows down as the connections grow.",
	},
	{
		Field: "handshake_cpu", Value: "60 µs per end, derived from a measured ratio",
		Source: "Linux kernel mailing list, \"Re: [PATCH][RFC 2] cleaning up struct sock\", 18 December 2001, Arnaldo Carvalho de Melo (Message-ID <20011218185200.A1211@conectiva.com.br>): lmbench on Linux 2.4.16",
		Says: "On one machine (not named), \"TCP/IP connection cost to 127.0.0.1\" 429.7-435.5 µs (lat_connect: socket, connect, the server's accept, and close at both ends) against \"TCP latency using 127.0.0.1\" 118.5-119.3 µs (lat_tcp: a one-byte round trip, two sends and two receives). " +
			"No measurement on the paper's Xeon 2.4 GHz was found, so the ratio carries over: a round trip costs this model 4 × msg_cpu = 40 µs, a connection 431.5/119 × 40 = 145 µs, less both ends' teardown (2 × 10 µs), shared by the two ends: 62.5 µs per end, 60 µs rounded. The cost sweep on the report page runs 0, 60 and 200 µs.",
	},
}

// Validate reports the first parameter outside its range, naming it.
func (p Params) Validate() error {
	if err := intRange("nodes", p.Nodes, 1, MaxProcs); err != nil {
		return err
	}
	if p.Procs < max(2, p.Nodes) || p.Procs > MaxProcs {
		return &param.Error{Field: "procs", Value: fmt.Sprint(p.Procs), Want: fmt.Sprintf("an integer in [%d, %d] (at least nodes)", max(2, p.Nodes), MaxProcs)}
	}
	if err := intRange("switches", p.Switches, 1, p.Nodes); err != nil {
		return err
	}
	if err := intRange("fill", p.Fill, 0, p.Nodes); err != nil {
		return err
	}
	if p.Fill > 0 && p.Switches != (p.Nodes+p.Fill-1)/p.Fill {
		return &param.Error{Field: "switches", Value: fmt.Sprint(p.Switches), Want: fmt.Sprintf("%d: with fill = %d, ceil(nodes / fill)", (p.Nodes+p.Fill-1)/p.Fill, p.Fill)}
	}
	if patterns.Index(string(p.Pattern)) < 0 {
		return patterns.Error("pattern", string(p.Pattern))
	}
	if err := intRange("chunk_bytes", p.ChunkBytes, 0, 1<<30); err != nil {
		return err
	}
	if handshakes.Index(string(p.Handshake)) < 0 {
		return handshakes.Error("handshake", string(p.Handshake))
	}
	if policies.Index(string(p.Policy)) < 0 {
		return policies.Error("policy", string(p.Policy))
	}
	if err := intRange("cache", p.Cache, 0, p.Procs-1); err != nil {
		return err
	}
	// Checked under the random policy only: the others do not use it, and
	// its default (64) must not stop a smaller cluster.
	if p.Policy == Random && p.RandomDegree < 2 || p.Policy == Random && (p.RandomDegree > p.Procs-1 || p.RandomDegree%2 != 0) {
		return &param.Error{Field: "random_degree", Value: fmt.Sprint(p.RandomDegree), Want: fmt.Sprintf("an even integer in [2, %d]", p.Procs-1)}
	}
	for _, c := range []struct {
		field     string
		v, lo, hi int
	}{
		{"keys", p.Keys, p.Procs, MaxKeys},
		{"max_key", p.MaxKey, p.Procs, MaxMaxKey},
		{"buckets", p.Buckets, 1, MaxBuckets},
		{"iterations", p.Iterations, 1, MaxIterations},
	} {
		if err := intRange(c.field, c.v, c.lo, c.hi); err != nil {
			return err
		}
	}
	for _, c := range []struct {
		field string
		v     float64
	}{
		{"key_time", p.KeyTime}, {"latency", p.Latency}, {"hop_latency", p.HopLatency},
		{"msg_cpu", p.MsgCPU}, {"poll_per_conn", p.PollPerConn}, {"relay_cpu", p.RelayCPU},
		{"handshake_cpu", p.HandshakeCPU}, {"teardown_cpu", p.TeardownCPU},
	} {
		if !(c.v >= 0 && c.v <= maxTime) {
			return &param.Error{Field: c.field, Value: fmt.Sprint(c.v), Want: fmt.Sprintf("a time in [0, %g] s", maxTime)}
		}
	}
	if !(p.KeyBytes > 0 && p.KeyBytes <= 1024) {
		return &param.Error{Field: "key_bytes", Value: fmt.Sprint(p.KeyBytes), Want: "a size in (0, 1024] bytes"}
	}
	for _, c := range []struct {
		field string
		v     float64
	}{{"bandwidth", p.Bandwidth}, {"relay_bandwidth", p.RelayBandwidth}} {
		if !(c.v >= minRate && c.v <= maxRate) {
			return &param.Error{Field: c.field, Value: fmt.Sprint(c.v), Want: fmt.Sprintf("a rate in [%g, %g] B/s", float64(minRate), maxRate)}
		}
	}
	return nil
}

// intRange is nil when lo ≤ v ≤ hi, else the error that names field and
// the range. Not inlined: Validate calls it at several places, and each
// copy is wasm the page pays for (docs/visualizer.md).
//
//go:noinline
func intRange(field string, v, lo, hi int) error {
	if v < lo || v > hi {
		return &param.Error{Field: field, Value: fmt.Sprint(v), Want: fmt.Sprintf("an integer in [%d, %d]", lo, hi)}
	}
	return nil
}
