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
	c.Fit = func(over float64) string {
		it := int(float64(p.Iterations) / cost.Scale(over, 1))
		procs := int(float64(p.Procs) / cost.Scale(over, 2))
		if it >= 1 {
			return fmt.Sprintf("lower iterations to at most %d or procs to at most %d", it, procs)
		}
		return fmt.Sprintf("lower procs to at most %d", procs)
	}
	return c
}
