package sweep

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"commlab/internal/errf"
)

// PartError is a problem with one of the parts given to MergePlan or
// Status: Part is its index in the slice given, so the caller can name
// the file it read it from.
type PartError struct {
	Part  int
	Shard Shard
	Err   error
}

func (e *PartError) Error() string { return fmt.Sprintf("shard %v: %v", e.Shard, e.Err) }
func (e *PartError) Unwrap() error { return e.Err }

// PartInfo is what Status needs of a part: its header and how many trials
// each of its points ran.
type PartInfo struct {
	Fingerprint string
	Shard       Shard
	Points      int
	Trials      map[int]int // point → trials
	Seconds     float64
}

// Info summarises a part for Status.
func (p Partial[R]) Info() PartInfo {
	in := PartInfo{Fingerprint: p.Fingerprint, Shard: p.Shard, Points: p.Points, Trials: make(map[int]int, len(p.Results)), Seconds: p.Seconds}
	for pt, r := range p.Results {
		in.Trials[pt] = len(r)
	}
	return in
}

// sharding is what checkParts learned: the shard count, which part holds
// each shard (−1: missing), and the plan's split.
type sharding struct {
	count  int
	part   []int // part index per shard index − 1
	owners []int
	pts    []pointPlan
}

// checkParts checks the parts' headers against each other and the plan,
// and each part's points against the plan's split. Missing shards are
// left for the caller to judge.
func checkParts(p Plan, parts []PartInfo) (*sharding, error) {
	if len(parts) == 0 {
		return nil, errf.Errorf("merge: no shard outputs")
	}
	pts, err := p.layout()
	if err != nil {
		return nil, err
	}
	shardOf := func(in PartInfo) Shard {
		if in.Shard == (Shard{}) { // an unsharded run is shard 1 of 1
			return Shard{1, 1}
		}
		return in.Shard
	}
	s := &sharding{pts: pts}
	for k, in := range parts {
		sh := shardOf(in)
		bad := func(format string, a ...any) error {
			return &PartError{Part: k, Shard: sh, Err: errf.Errorf(format, a...)}
		}
		if err := sh.check(); err != nil {
			return nil, bad("%v", err)
		}
		if k == 0 {
			s.count = sh.Count
			s.part = slices.Repeat([]int{-1}, s.count)
		}
		switch first := shardOf(parts[0]); {
		case in.Fingerprint != parts[0].Fingerprint:
			return nil, bad("is of grid %q, shard %v of %q: parts of different runs (versions or flags) cannot be merged", in.Fingerprint, first, parts[0].Fingerprint)
		case sh.Count != s.count:
			return nil, bad("is one of %d shards, shard %v one of %d", sh.Count, first, s.count)
		case in.Points != p.Points:
			return nil, bad("has %d points, the plan %d", in.Points, p.Points)
		case s.part[sh.Index-1] >= 0:
			return nil, bad("given twice (parts %d and %d)", s.part[sh.Index-1], k)
		}
		s.part[sh.Index-1] = k
	}
	if s.owners, err = assign(pts, s.count); err != nil {
		return nil, err
	}
	// Each part holds exactly the points the split gives its shard.
	held := make([]int, s.count)
	for _, o := range s.owners {
		held[o-1]++
	}
	for k, in := range parts {
		sh := shardOf(in)
		for _, pt := range slices.Sorted(maps.Keys(in.Trials)) {
			switch {
			case pt < 0 || pt >= p.Points:
				return nil, &PartError{k, sh, errf.Errorf("holds point %d, outside [0, %d)", pt, p.Points)}
			case s.owners[pt] != sh.Index:
				return nil, &PartError{k, sh, errf.Errorf("holds point %d, which the plan's split gives to shard %d/%d: was it run with another plan?", pt, s.owners[pt], s.count)}
			}
		}
		if len(in.Trials) != held[sh.Index-1] {
			for pt, o := range s.owners {
				if _, ok := in.Trials[pt]; o == sh.Index && !ok {
					return nil, &PartError{k, sh, errf.Errorf("lacks point %d, which the plan's split gives it (%d of its %d points are there)", pt, len(in.Trials), held[sh.Index-1])}
				}
			}
		}
	}
	return s, nil
}

// missing lists the shards no part holds.
func (s *sharding) missing() []int {
	var m []int
	for i, k := range s.part {
		if k < 0 {
			m = append(m, i+1)
		}
	}
	return m
}

// MergePlan puts the parts of a sharded run of plan p back together, in
// any order, and checks them against the plan: one fingerprint and one
// shard count for all, every shard once, each holding exactly the points
// the plan's split gives it, each point with the trials the plan runs
// (p.Trials; under a rule, the trials the rule stops at, replayed with
// stat, which must be the run's); valid, if not nil, checks every result
// (finite, in range). A problem with a part is a *PartError naming it.
// The result is the one an unsharded RunUntil (or Run, in Results) gives.
func MergePlan[R any](p Plan, stat Statistic[R], parts []Partial[R], valid func(point, trial int, r R) error) (Result[R], error) {
	switch {
	case p.Until != nil && stat == nil:
		return Result[R]{}, errf.Errorf("merge: the plan is adaptive: give the statistic its run used")
	case p.Until == nil && stat != nil:
		return Result[R]{}, errf.Errorf("merge: the plan has fixed trials: it takes no statistic")
	}
	infos := make([]PartInfo, len(parts))
	for k, part := range parts {
		infos[k] = part.Info()
	}
	s, err := checkParts(p, infos)
	if err != nil {
		return Result[R]{}, err
	}
	if m := s.missing(); len(m) > 0 {
		return Result[R]{}, errf.Errorf("merge: %d of %d shards missing: %s", len(m), s.count, ranges(m, s.count))
	}
	out := Result[R]{Results: make([][]R, p.Points), Stops: make([]Stop, p.Points)}
	for pt, o := range s.owners {
		k := s.part[o-1]
		rs := parts[k].Results[pt]
		bad := func(err error) error { return &PartError{k, parts[k].Shard, err} }
		if valid != nil {
			for t, r := range rs {
				if err := valid(pt, t, r); err != nil {
					return Result[R]{}, bad(errf.Errorf("point %d, trial %d: %w", pt, t, err))
				}
			}
		}
		pp := s.pts[pt]
		if p.Until == nil {
			if len(rs) != p.Trials {
				return Result[R]{}, bad(errf.Errorf("point %d has %d trials, the plan runs %d", pt, len(rs), p.Trials))
			}
			out.Stops[pt] = Stop{Trials: p.Trials, Min: p.Trials}
		} else {
			st, err := replay(p.Until, stat, pt, pp, rs)
			if err != nil {
				return Result[R]{}, bad(err)
			}
			out.Stops[pt] = st
		}
		out.Results[pt] = rs
	}
	return out, nil
}

// replay walks a point's checkpoints as RunUntil did and checks that the
// trials held are the ones the rule stops at.
func replay[R any](r *Rule, stat Statistic[R], pt int, pp pointPlan, rs []R) (Stop, error) {
	for c := pp.first; ; c = min(c+r.Block, pp.last) {
		if len(rs) < c {
			return Stop{}, errf.Errorf("point %d has %d trials, but the rule runs it to %d at least (checkpoints %d, %d, … up to %d)", pt, len(rs), c, pp.first, min(pp.first+r.Block, pp.last), pp.last)
		}
		est, hw, err := stat(pt, rs[:c:c])
		if err != nil {
			return Stop{}, errf.Errorf("point %d after %d trials: statistic: %w", pt, c, err)
		}
		precise := r.precise(est, hw)
		if precise || c >= pp.last {
			if len(rs) != c {
				return Stop{}, errf.Errorf("point %d has %d trials, but the rule stops it at %d", pt, len(rs), c)
			}
			return Stop{Trials: c, Min: pp.min, Capped: !precise}, nil
		}
	}
}

// ranges prints shard indices as "2, 5-7 of 8".
func ranges(idx []int, count int) string {
	var b strings.Builder
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		if j > i {
			fmt.Fprintf(&b, "%d-%d", idx[i], idx[j])
		} else {
			fmt.Fprintf(&b, "%d", idx[i])
		}
		i = j + 1
	}
	fmt.Fprintf(&b, " of %d", count)
	return b.String()
}
