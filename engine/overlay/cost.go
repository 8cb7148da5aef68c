package overlay

import (
	"fmt"
	"math/bits"

	"commlab/engine/cost"
)

// Engine times and sizes, fitted to what TestEstimateBoundsRun measures
// (go test -run EstimateBounds -v ./engine/overlay/ logs them): per message
// about 225 bytes allocated (its events in the simulator's queue, its job,
// its ConnEvents: the run reserves three per message up front with a
// shortcut cache) and 3.3-9 µs under a load of 17 on 2 cores; per process
// pair 1,200-1,700 bytes (routes, the first exchange's queue); a traced
// message adds about 2,200 bytes (its hops and spans, grown by appending)
// and 15 µs more.
const (
	nsMessage       = 5000
	nsTracedMessage = 15000
	nsKey           = 12
	messageBytes    = 240
	pairBytes       = 1700
	tracedBytes     = 2400
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
	c := cost.Cost{
		Events:  msgs + float64(p.Keys),
		Bytes:   messageBytes*msgs + pairBytes*P*P + 4*P*float64(p.Buckets) + 64<<10,
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
