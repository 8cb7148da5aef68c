package overlay

import (
	"fmt"
	"math/bits"

	"commlab/engine/cost"
)

// Engine times and sizes, fitted to what TestEstimateBoundsRun measures
// (go test -run EstimateBounds -v ./engine/overlay/ logs them): with a
// shortcut cache, per message about 90 bytes allocated (the three
// ConnEvents the run reserves per message up front: open, ready, eviction)
// and per process pair 1,100-1,300 bytes (routes, the cache's records, the
// first exchange's queue); without one (C = 0 or the "all" policy) 24
// bytes per message and 640-700 per pair. The simulator's event queue no
// longer grows with the run (des compacts its runs). Time: 3.3-9 µs per
// message under a load of 17 on 2 cores; a traced message adds about
// 2,200 bytes (its hops and spans, grown by appending) and 15 µs more.
const (
	nsMessage       = 5000
	nsTracedMessage = 15000
	nsKey           = 12
	messageBytes    = 240
	pairBytes       = 1700
	// Without shortcuts: measured 24 and 640-700, with room for larger P.
	messageBytesNoCache = 48
	pairBytesNoCache    = 1000
	tracedBytes         = 2400
)

// Messages is how many messages an Integer Sort run of p sends: per
// iteration the send counts' all-to-all (P(P−1)), the keys' all-to-all-v
// (P(P−1) messages, or the chunks of ChunkBytes they split into) and the
// allreduce's P·⌈log2 P⌉.
func Messages(p Params) float64 {
	P := float64(p.Procs)
	pairs := P * (P - 1)
	keyMsgs := pairs
	if p.ChunkBytes > 0 {
		keyMsgs = max(pairs, float64(p.Keys)*p.KeyBytes/float64(p.ChunkBytes)+pairs)
	}
	rounds := float64(bits.Len(uint(p.Procs - 1)))
	return float64(p.Iterations) * (pairs + keyMsgs + P*rounds)
}

// Estimate is the cost of RunIS for p (valid), recording a trace when
// traced: per message and per process pair (see the constants) and the
// keys drawn. It counts every allocation, freed or not, so it bounds the
// peak from above.
func Estimate(p Params, traced bool) cost.Cost {
	P := float64(p.Procs)
	msgs := Messages(p)
	msgB, pairB := float64(messageBytes), float64(pairBytes)
	if p.Cache == 0 || p.Policy == All {
		msgB, pairB = messageBytesNoCache, pairBytesNoCache
	}
	c := cost.Cost{
		Events:  msgs + float64(p.Keys),
		Bytes:   msgB*msgs + pairB*P*P + 4*P*float64(p.Buckets) + 64<<10,
		Seconds: (nsMessage*msgs + nsKey*float64(p.Keys)) * 1e-9,
		Key:     "iterations",
	}
	if traced {
		c.Spans = 3 * msgs
		c.Bytes += tracedBytes * msgs
		c.Seconds += nsTracedMessage * msgs * 1e-9
	}
	c.Why = fmt.Sprintf("procs = %d with iterations = %d sends about %s messages", p.Procs, p.Iterations, cost.Num(msgs))
	if p.ChunkBytes > 0 {
		c.Why = fmt.Sprintf("procs = %d with iterations = %d, keys = %d and chunk_bytes = %d sends about %s messages", p.Procs, p.Iterations, p.Keys, p.ChunkBytes, cost.Num(msgs))
	}
	// With chunking, the chunks can outnumber everything else: then it is
	// chunk_bytes (and keys × key_bytes) that drive the run.
	if p.ChunkBytes > 0 && float64(p.Keys)*p.KeyBytes/float64(p.ChunkBytes) > 2*P*(P-1) {
		c.Key = "chunk_bytes"
	}
	c.Knobs = func() cost.Knobs { return knobs(p, traced) }
	return c
}

// knobs are the parameters a refusal may advise moving: iterations, procs (down to what cache and keys allow, taking nodes and
// switches down with it: a process per node at least), keys, key_bytes
// and, when keys are chunked, chunk_bytes (up); each checked with Validate
// at the values advised.
func knobs(p Params, traced bool) cost.Knobs {
	minProcs := max(2, p.Cache+1)
	if p.Policy == Random {
		minProcs = max(minProcs, p.RandomDegree+1)
	}
	if p.Fill > 0 {
		minProcs = max(minProcs, p.Nodes) // nodes fixed by fill and switches
	}
	procs := cost.Knob{Key: "procs", Now: float64(p.Procs), Down: true, Min: float64(minProcs), Max: MaxProcs, Int: true,
		With: func(v float64) string {
			if n := int(v); n < p.Nodes {
				if n < p.Switches {
					return fmt.Sprintf("and nodes and switches to %d", n)
				}
				return fmt.Sprintf("and nodes to %d", n)
			}
			return ""
		}}
	ks := []cost.Knob{
		{Key: "iterations", Now: float64(p.Iterations), Down: true, Min: 1, Max: MaxIterations, Int: true},
		procs,
		{Key: "keys", Now: float64(p.Keys), Down: true, Min: float64(p.Procs), Max: MaxKeys, Int: true},
		{Key: "key_bytes", Now: p.KeyBytes, Down: true, Min: 1e-300, Max: 1024},
	}
	if p.ChunkBytes > 0 {
		ks = append(ks, cost.Knob{Key: "chunk_bytes", Now: float64(p.ChunkBytes), Min: 1, Max: 1 << 30, Int: true})
	}
	return cost.Knobs{List: ks, Cost: func(at []float64) (cost.Cost, bool) {
		q := p
		q.Iterations, q.Procs, q.Keys, q.KeyBytes = int(at[0]), int(at[1]), int(at[2]), at[3]
		q.Nodes = min(q.Nodes, q.Procs)
		q.Switches = min(q.Switches, q.Nodes)
		if len(at) > 4 {
			q.ChunkBytes = int(at[4])
		}
		if q.Validate() != nil {
			return cost.Cost{}, false
		}
		return Estimate(q, traced), true
	}}
}
