package sweep

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"commlab/internal/errf"
	"commlab/internal/permsort"
)

// MaxShards bounds a shard count: each shard is a file to merge.
const MaxShards = 1 << 16

// Shard is one of Count slices of a grid (Plan.Owners says which points).
// The zero Shard is the whole grid.
type Shard struct {
	Index int `json:"index"` // 1..Count
	Count int `json:"count"`
}

// ParseShard reads "i/n" with 1 ≤ i ≤ n ≤ MaxShards.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, errf.Errorf("shard %q: want i/n, e.g. 2/8", s)
	}
	sh := Shard{i, n}
	if n < 1 { // 0/0 would read as the zero Shard, the whole grid
		return Shard{}, errf.Errorf("shard %s: want i/n with n in [1, %d] and i in [1, n]", s, MaxShards)
	}
	return sh, sh.check()
}

func (s Shard) check() error {
	if s == (Shard{}) {
		return nil
	}
	if s.Count < 1 || s.Count > MaxShards || s.Index < 1 || s.Index > s.Count {
		return errf.Errorf("shard %d/%d: want i/n with n in [1, %d] and i in [1, n]", s.Index, s.Count, MaxShards)
	}
	return nil
}

func (s Shard) String() string {
	if s.Count == 0 {
		return "all"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Costs is the plan's estimate of each point's whole cost: Cost(point)
// times the trials it is expected to run (Trials; under a rule, its
// Expect or else its first checkpoint, which is at least its minimum).
func (p Plan) Costs() ([]float64, error) {
	pts, err := p.layout()
	if err != nil {
		return nil, err
	}
	return pointCosts(pts), nil
}

func pointCosts(pts []pointPlan) []float64 {
	c := make([]float64, len(pts))
	for pt, pp := range pts {
		c[pt] = pp.cost * max(pp.expect, float64(pp.first))
	}
	return c
}

// Owners splits the plan's points over count shards by their estimated
// cost (Costs, Assign): owners[point] is the shard index, 1..count. It
// depends only on the plan, so every shard computes the same split.
func (p Plan) Owners(count int) ([]int, error) {
	pts, err := p.layout()
	if err != nil {
		return nil, err
	}
	return assign(pts, count)
}

func assign(pts []pointPlan, count int) ([]int, error) {
	return Assign(pointCosts(pts), count)
}

// Assign splits points of the given costs over count shards so that the
// shards' sums come out about equal: longest processing time first
// (Graham 1969) — points by cost, heaviest first and ties by index, each
// to the shard with the least cost so far (ties: the fewest points, then
// the lowest index). Its
// longest shard is within 4/3 of the best possible split, and close to
// the mean when no point dominates. The result, owners[point] in
// 1..count, is a function of (costs, count) alone.
func Assign(costs []float64, count int) ([]int, error) {
	if count < 1 || count > MaxShards {
		return nil, errf.Errorf("sweep: %d shards: want a count in [1, %d]", count, MaxShards)
	}
	for pt, c := range costs {
		if !(c >= 0 && c < 1e300) {
			return nil, errf.Errorf("sweep: point %d costs %v: want a finite cost ≥ 0", pt, c)
		}
	}
	order := make([]int, len(costs))
	for i := range order {
		order[i] = i
	}
	permsort.SortFunc(order, func(a, b int) int { // a total order: no ties
		switch {
		case costs[a] > costs[b]:
			return -1
		case costs[a] < costs[b]:
			return 1
		}
		return a - b
	})
	// A min-heap of shards by (load, points, index): points of no cost
	// are dealt round-robin rather than all to shard 1.
	loads := make([]float64, count)
	held := make([]int, count)
	heap := make([]int, count)
	for i := range heap {
		heap[i] = i // all empty: index order is a heap
	}
	less := func(a, b int) bool {
		if loads[a] != loads[b] {
			return loads[a] < loads[b]
		}
		if held[a] != held[b] {
			return held[a] < held[b]
		}
		return a < b
	}
	owners := make([]int, len(costs))
	for _, pt := range order {
		s := heap[0]
		owners[pt] = s + 1
		loads[s] += costs[pt]
		held[s]++
		for i := 0; ; { // sift the root down
			l, r, m := 2*i+1, 2*i+2, i
			if l < count && less(heap[l], heap[m]) {
				m = l
			}
			if r < count && less(heap[r], heap[m]) {
				m = r
			}
			if m == i {
				break
			}
			heap[i], heap[m] = heap[m], heap[i]
			i = m
		}
	}
	return owners, nil
}

// Loads sums the costs of each shard's points: loads[i−1] is shard i's.
// max(loads)/mean(loads) is the split's balance, 1 at best.
func Loads(costs []float64, owners []int, count int) []float64 {
	loads := make([]float64, count)
	for pt, o := range owners {
		loads[o-1] += costs[pt]
	}
	return loads
}

// Partial is one shard's output: the results of the points it owns.
// Fingerprint names the grid (model, axes, trials or rule, seed, version)
// so that shards of different grids are never merged.
type Partial[R any] struct {
	Fingerprint string `json:"fingerprint"`
	Shard       Shard  `json:"shard"`
	Points      int    `json:"points"`
	// Results maps point index to its trials' results, for owned points.
	Results map[int][]R `json:"results"`
	// Seconds is how long the shard took, if the caller measured it
	// (the engine has no clock): Status estimates the time left from it.
	Seconds float64 `json:"seconds,omitempty"`
}

// NewPartial collects a sharded Run's (or RunUntil's) results.
func NewPartial[R any](fingerprint string, sh Shard, results [][]R) Partial[R] {
	p := Partial[R]{Fingerprint: fingerprint, Shard: sh, Points: len(results), Results: map[int][]R{}}
	for pt, r := range results {
		if r != nil {
			p.Results[pt] = r
		}
	}
	return p
}

// Merge puts shard outputs back into one [point][trial] grid. It checks
// only that they agree on the grid and cover it exactly once; MergePlan
// checks them against the plan as well.
func Merge[R any](parts []Partial[R]) ([][]R, error) {
	if len(parts) == 0 {
		return nil, errf.Errorf("merge: no shard outputs")
	}
	fp, n := parts[0].Fingerprint, parts[0].Points
	// The parts come from files: a grid's size is checked against the
	// results they hold before anything that size is made (a "points" of
	// -1 or 1e15 would panic or exhaust memory).
	held := 0
	for _, p := range parts {
		if p.Fingerprint != fp || p.Points != n {
			return nil, errf.Errorf("merge: shard %v is of another grid (%q, %d points) than shard %v (%q, %d points)",
				p.Shard, p.Fingerprint, p.Points, parts[0].Shard, fp, n)
		}
		held += len(p.Results)
	}
	if n < 1 {
		return nil, errf.Errorf("merge: shard %v has %d points, want at least 1", parts[0].Shard, n)
	}
	if n > held {
		return nil, errf.Errorf("merge: %d of %d points missing: the shard outputs hold %d; is a shard's output absent?", n-held, n, held)
	}
	out := make([][]R, n)
	from := make([]Shard, n)
	for _, p := range parts {
		for _, pt := range slices.Sorted(maps.Keys(p.Results)) { // in order: stable messages
			r := p.Results[pt]
			if pt < 0 || pt >= n {
				return nil, errf.Errorf("merge: shard %v has point %d outside [0, %d)", p.Shard, pt, n)
			}
			if out[pt] != nil {
				return nil, errf.Errorf("merge: point %d is in shard %v and in shard %v", pt, from[pt], p.Shard)
			}
			out[pt], from[pt] = r, p.Shard
		}
	}
	var missing []int
	for pt, r := range out {
		if r == nil {
			missing = append(missing, pt)
		}
	}
	if len(missing) > 0 {
		return nil, errf.Errorf("merge: %d of %d points missing (first: %v); is a shard's output absent?", len(missing), n, missing[:min(5, len(missing))])
	}
	return out, nil
}
