package overlay

import (
	"fmt"
	"math"
	"math/bits"

	"commlab/engine/cost"
)

// Engine times and sizes, fitted to what TestEstimateBoundsRun and
// TestEstimateBoundsWorstShapes measure (go test -run EstimateBounds -v
// ./engine/overlay/ logs them), as upper bounds. Memory: with a shortcut
// cache, per message about 90 bytes allocated (the three ConnEvents the
// run reserves per message up front: open, ready, eviction) and per
// process pair 1,100-1,300 bytes (routes, the cache's records, the first
// exchange's queue); without one (C = 0 or the "all" policy) 24 bytes per
// message and 640-700 per pair. A chunked exchange posts all its chunks at
// once, so one exchange's chunks are held together, each as a message and
// a queued job (96 bytes, their slices grown by appending) and, while it
// waits for a link, an event: 100 bytes a chunk where the CPU paces them
// (16 processes, 1 B chunks) to 590 where the links queue them (128
// processes, 128 B chunks). Time (CPU, load 13-16 on 2 cores): 4.2-7.9 µs
// per whole message, 130 ns-2.7 µs per further chunk, 12 ns per key. A
// chunk costs more where it waits at links (an event per link it waits
// for, in a larger event queue): linkLoad says how much, so the chunks'
// bytes and time go from chunkBytesFree and nsChunkFree where the CPUs
// pace the chunks to the sums with chunkBytesQueued and nsChunkQueued
// where the links queue them. A traced message
// adds about 2,200 bytes (its hops and spans, grown by appending) and
// 15 µs more.
const (
	nsMessage       = 8000
	nsChunkFree     = 300
	nsChunkQueued   = 2700
	nsTracedMessage = 15000
	nsKey           = 12
	messageBytes    = 240
	pairBytes       = 1700
	// Without shortcuts: measured 24 and 640-700, with room for larger P.
	messageBytesNoCache = 48
	pairBytesNoCache    = 1000
	// A chunk of the exchange in flight: its message, its job, its event,
	// with the slices' growth.
	chunkBytesFree   = 100
	chunkBytesQueued = 500
	tracedBytes      = 2400
)

// Messages is how many messages an Integer Sort run of p sends: per
// iteration the send counts' all-to-all (P(P−1)), the keys' all-to-all-v
// (P(P−1) messages, or the chunks of ChunkBytes they split into) and the
// allreduce's P·⌈log2 P⌉.
func Messages(p Params) float64 {
	P := float64(p.Procs)
	rounds := float64(bits.Len(uint(p.Procs - 1)))
	return float64(p.Iterations)*(2*P*(P-1)+P*rounds) + chunkMessages(p)
}

// chunkMessages is how many messages chunking adds to a run: per
// iteration, at most keys × key_bytes / chunk_bytes beyond the P(P−1) key
// messages (a message of b bytes goes in ⌈b / chunk_bytes⌉ ≤ b /
// chunk_bytes + 1 chunks).
func chunkMessages(p Params) float64 {
	if p.ChunkBytes <= 0 {
		return 0
	}
	return float64(p.Iterations) * float64(p.Keys) * p.KeyBytes / float64(p.ChunkBytes)
}

// linkLoad is how far the links queue chunks, in [0, 1]: the chunks a
// leaf switch's processes can post in one send's CPU time, each holding
// the switch's link for ChunkBytes / Bandwidth, capped at 1 (a saturated
// link). It leaves out the select() scan and the relays, which lengthen
// a send and so only lower the load: an upper bound.
func linkLoad(p Params) float64 {
	if p.ChunkBytes <= 0 || !(p.MsgCPU > 0) {
		return 1
	}
	perSwitch := math.Ceil(float64(p.Procs) / float64(p.Switches))
	if p.Fill > 0 {
		perSwitch = math.Ceil(float64(p.Procs) / float64(p.Nodes) * float64(p.Fill))
	}
	return min(1, perSwitch*float64(p.ChunkBytes)/p.Bandwidth/p.MsgCPU)
}

// Estimate is the cost of RunIS for p (valid), recording a trace when
// traced: per message and per process pair (see the constants) and the
// keys drawn. It counts every allocation, freed or not, so it bounds the
// peak from above.
func Estimate(p Params, traced bool) cost.Cost {
	P := float64(p.Procs)
	msgs, chunked, q := Messages(p), chunkMessages(p), linkLoad(p)
	msgB, pairB := float64(messageBytes), float64(pairBytes)
	if p.Cache == 0 || p.Policy == All {
		msgB, pairB = messageBytesNoCache, pairBytesNoCache
	}
	c := cost.Cost{
		Events:  msgs + float64(p.Keys),
		Bytes:   msgB*msgs + pairB*P*P + 4*P*float64(p.Buckets) + 64<<10 + (chunkBytesFree+chunkBytesQueued*q)*chunked/float64(p.Iterations),
		Seconds: (nsMessage*(msgs-chunked) + (nsChunkFree+nsChunkQueued*q)*chunked + nsKey*float64(p.Keys)) * 1e-9,
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
