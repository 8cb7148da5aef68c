package overlay

import (
	"math/bits"
	"math/rand/v2"

	"commlab/internal/errf"
)

// Reuse is the reuse-distance distribution of the destinations a process
// sends to without a static connection (the messages a shortcut would
// carry), in the order the Integer Sort sends them: per iteration the
// allreduce partners, the send counts and the key messages (chunks) in the
// pattern's order.
//
// A send's reuse distance is the number of distinct other such
// destinations the process sent to since its last send to this one (the
// LRU stack distance): with a cache of C shortcuts the send finds its
// shortcut still open exactly when the distance is below C, counting only
// the sender's own sends (the model's LRU also counts receives and the far
// end's cache, which can only evict sooner). Cold sends are first sends to
// a destination.
type Reuse struct {
	Sends int   `json:"sends"` // sends to destinations without a static connection
	Cold  int   `json:"cold"`  // of them first sends
	Dist  []int `json:"dist"`  // Dist[d]: sends at distance d, d = 0 … procs−2
}

// Hits is the share of Sends a cache of c shortcuts can serve (distance <
// c), the first sends counted as misses.
func (r Reuse) Hits(c int) float64 {
	if r.Sends == 0 {
		return 0
	}
	n := 0
	for d := 0; d < min(c, len(r.Dist)); d++ {
		n += r.Dist[d]
	}
	return float64(n) / float64(r.Sends)
}

// ReuseDistances computes Reuse for p (its policy, pattern, chunks and
// keys drawn from rng exactly as RunIS draws them, so the same seed gives
// the run's own messages). Under "all" nothing is sent without a static
// connection.
func ReuseDistances(p Params, rng *rand.Rand) (Reuse, error) {
	if err := p.Validate(); err != nil {
		return Reuse{}, err
	}
	if rng == nil {
		return Reuse{}, errf.Errorf("overlay: ReuseDistances needs a random source")
	}
	t, err := Cluster(p)
	if err != nil {
		return Reuse{}, err
	}
	cl, err := fromTree(t, p.Procs)
	if err != nil {
		return Reuse{}, err
	}
	P := p.Procs
	adj, counts, perm := draw(p, cl, rng)
	static := make([]bool, P)
	r := Reuse{Dist: make([]int, max(P-1, 1))}
	rounds := bits.Len(uint(P - 1))
	s := &is{p: p}
	for i := range P {
		clear(static)
		for _, j := range adj[i] {
			static[j] = true
		}
		var stack []int // LRU stack of destinations, most recent last
		send := func(dst int) {
			if static[dst] {
				return
			}
			r.Sends++
			for k := len(stack) - 1; k >= 0; k-- {
				if stack[k] == dst {
					r.Dist[len(stack)-1-k]++
					copy(stack[k:], stack[k+1:])
					stack[len(stack)-1] = dst
					return
				}
			}
			r.Cold++
			stack = append(stack, dst)
		}
		for it := range p.Iterations {
			for rd := range rounds {
				to, _ := s.allreducePeers(i, rd)
				send(to)
			}
			for k := 1; k < P; k++ {
				send(patternDest(p, perm, i, it, k))
			}
			for k := 1; k < P; k++ {
				dst := patternDest(p, perm, i, it, k)
				for range chunks(p, counts[i*P+dst]) {
					send(dst)
				}
			}
		}
	}
	return r, nil
}
