package topology

import (
	"math"
	"math/rand/v2"

	"commlab/engine/detmath"
	"commlab/internal/errf"
)

// Net is the network model behind the simulated measurements. Times are in
// microseconds, bandwidth in bytes per microsecond (= MB/s).
type Net struct {
	// Base is the RTT's part outside the network (the hosts' stacks), µs.
	Base float64 `json:"base" help:"RTT outside the network (host stacks), µs"`
	// HopLatency is what one link adds to the RTT (both directions), µs.
	HopLatency float64 `json:"hop_latency" help:"RTT added per link on the path, µs"`
	// Bandwidth is every link's bandwidth, bytes/µs (125 = 1 Gbit/s).
	Bandwidth float64 `json:"bandwidth" help:"link bandwidth, bytes/µs (125 = 1 Gbit/s)"`
	// Noise is the mean of the extra delay of one ping, µs: exponential,
	// since queueing and scheduling only ever add delay.
	Noise float64 `json:"noise" help:"mean extra delay of one ping (exponential), µs"`
	// Pings is how many pings one RTT measurement sends; it keeps the
	// minimum (paper 2.1 (1)).
	Pings int `json:"pings" help:"pings per RTT measurement (the minimum is kept)"`
	// Probe is how long one throughput measurement transfers, µs.
	Probe float64 `json:"probe" help:"duration of one throughput measurement, µs"`
}

// DefaultNet is Gigabit Ethernet of the paper's day: an RTT of 50 µs
// through the hosts plus 5 µs per link (store-and-forward of a small packet
// both ways plus switch latency), pings delayed by 2 µs on average, 5 pings
// per measurement, 10 ms throughput probes (1.25 MB at full speed, long
// against the RTT so halving is clear).
func DefaultNet() Net {
	return Net{Base: 50, HopLatency: 5, Bandwidth: 125, Noise: 2, Pings: 5, Probe: 10000}
}

// Validate checks every field's range; the error names the field.
func (n Net) Validate() error {
	for _, e := range []error{
		checkNet("base", n.Base, 0, 1e6),
		checkNet("hop_latency", n.HopLatency, 0, 1e6),
		checkNet("bandwidth", n.Bandwidth, 1e-6, 1e9),
		checkNet("noise", n.Noise, 0, 1e6),
		checkNet("probe", n.Probe, 1e-3, 1e9),
	} {
		if e != nil {
			return e
		}
	}
	if n.Pings < 1 || n.Pings > 1000 {
		return errf.Errorf("topology: net pings = %d, want 1 … 1000", n.Pings)
	}
	return nil
}

// RTT is the noise-free RTT between nodes u and v, µs.
func (n Net) RTT(t *Tree, u, v int) float64 {
	if u == v {
		return 0
	}
	return n.Base + float64(n.HopLatency*float64(t.Hops(u, v)))
}

// MeasureRTT simulates every node measuring its RTT to every other node
// (paper 2.1 (1)): rtt[u][v] is u's measurement, the minimum over Pings
// pings of RTT(u, v) plus an exponential delay of mean Noise; u's and v's
// measurements of each other are independent. The diagonal is 0. Draws go
// row by row, ping by ping.
func MeasureRTT(t *Tree, n Net, rng *rand.Rand) [][]float64 {
	N := len(t.Nodes)
	rtt := make([][]float64, N)
	for u := range rtt {
		rtt[u] = make([]float64, N)
		for v := range rtt[u] {
			if u == v {
				continue
			}
			base := n.RTT(t, u, v)
			best := math.Inf(1)
			for range max(n.Pings, 1) {
				best = min(best, base+expDelay(rng, n.Noise))
			}
			rtt[u][v] = best
		}
	}
	return rtt
}

// Interferes says whether transfers between a and b and between c and d at
// the same time share a link (paper 2.2): a link between switches on both
// paths, or a node's own link when the pairs share a node.
func Interferes(t *Tree, a, b, c, d int) bool {
	if a == b || c == d {
		return false
	}
	if a == c || a == d || b == c || b == d {
		return true
	}
	ix := t.index()
	// The paths in buffers on the stack: the interference phase asks
	// millions of these on a tree of thousands of nodes.
	var pb, qb [32]Link
	p := ix.appendPath(pb[:0], ix.leafOf[a], ix.leafOf[b])
	if len(p) == 0 {
		return false
	}
	q := ix.appendPath(qb[:0], ix.leafOf[c], ix.leafOf[d])
	for _, l := range p {
		for _, m := range q {
			if l == m {
				return true
			}
		}
	}
	return false
}

// Throughput is what each of two concurrent transfers (a↔b and c↔d) gets,
// bytes/µs: the full link bandwidth, or half of it when their paths share a
// link (paper 2.2's 100 → 50 Mbit/s).
func Throughput(t *Tree, n Net, a, b, c, d int) (ab, cd float64) {
	if Interferes(t, a, b, c, d) {
		return n.Bandwidth / 2, n.Bandwidth / 2
	}
	return n.Bandwidth, n.Bandwidth
}

// expDelay draws an exponential delay of the given mean; mean 0 draws
// nothing. The logarithm is engine/detmath's, not math.Log (whose amd64
// assembly differs from its pure-Go code in the last bit), so a seed
// gives the same delays natively and in the browser.
func expDelay(rng *rand.Rand, mean float64) float64 {
	if mean == 0 {
		return 0
	}
	return -float64(mean * detmath.Log(1-rng.Float64()))
}

// checkNet is nil when lo ≤ v ≤ hi, else the error that names the field.
// Not inlined: Validate calls it for every field, and each copy is wasm
// the page pays for (docs/visualizer.md).
//
//go:noinline
func checkNet(name string, v, lo, hi float64) error {
	if math.IsNaN(v) || v < lo || v > hi {
		return errf.Errorf("topology: net %s = %v, want %g … %g", name, v, lo, hi)
	}
	return nil
}
