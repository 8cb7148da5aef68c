package study

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"commlab/engine/stats"
	"commlab/engine/sweep"
)

// adaptiveCase is a small adaptive study: 40 points whose trials are
// noisy (some hit a rare stall), with caps of four sizes and minimums
// that are sometimes above the cap.
func adaptiveCase() ([]float64, Rule) {
	costs := make([]float64, 40)
	for pt := range costs {
		costs[pt] = float64(1 + pt%7)
	}
	return costs, Rule{Block: 10, Precision: 0.02,
		Cap:       func(pt int) int { return []int{30, 100, 400, 1000, 4}[pt%5] },
		MinTrials: func(pt int) int { return []int{2, 25, 150, 1200, 60, 3}[pt%6] }}
}

type summary struct {
	N      int
	Mean   float64
	Capped bool
	Last   float64
}

func runAdaptive(t *testing.T, owned []bool) []summary {
	t.Helper()
	costs, rule := adaptiveCase()
	res, err := RunUntil(context.Background(), owned, costs, rule, 7, nil,
		func(_ int, rs []float64) (float64, float64, error) {
			iv, err := stats.MeanT(rs)
			if err != nil {
				return 0, math.Inf(1), nil
			}
			return iv.Mean, iv.HalfWidth(), nil
		},
		func() struct{} { return struct{}{} },
		func(_ struct{}, pt, _ int, rng *rand.Rand) (float64, error) {
			x := 10 + rng.Float64()
			if rng.Float64() < 0.01*float64(pt%3) {
				x += 50
			}
			return x, nil
		},
		func(pt int, rs []float64, st sweep.Stop) (summary, error) {
			if st.Trials != len(rs) {
				t.Errorf("point %d: stop at %d with %d trials", pt, st.Trials, len(rs))
			}
			if err := rule.CheckStop(pt, len(rs), st.Capped); err != nil {
				t.Errorf("point %d: the rule's own stop refused: %v", pt, err)
			}
			var s float64
			for _, r := range rs {
				s += r
			}
			return summary{len(rs), s / float64(len(rs)), st.Capped, rs[len(rs)-1]}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestRunUntilShards: the adaptive points give the same trials and
// summaries whichever points a run covers (the shards of gen-report), in
// groups of equal cap, and stop where the rule allows: a capped point at
// its cap or its minimum, whichever is later.
func TestRunUntilShards(t *testing.T) {
	whole := runAdaptive(t, nil)
	_, rule := adaptiveCase()
	capped := 0
	for pt, s := range whole {
		first, last := rule.Span(pt)
		if s.N < first || s.N > last {
			t.Errorf("point %d: %d trials outside [%d, %d]", pt, s.N, first, last)
		}
		if s.Capped {
			capped++
		}
	}
	if capped == 0 || capped == len(whole) {
		t.Errorf("%d of %d points capped: the case tests nothing", capped, len(whole))
	}
	for shard := range 3 {
		owned := make([]bool, len(whole))
		for pt := range owned {
			owned[pt] = (pt*7)%3 == shard
		}
		part := runAdaptive(t, owned)
		for pt := range part {
			if owned[pt] && !reflect.DeepEqual(part[pt], whole[pt]) {
				t.Errorf("shard %d, point %d: %+v, the whole run %+v", shard, pt, part[pt], whole[pt])
			}
			if !owned[pt] && part[pt] != (summary{}) {
				t.Errorf("shard %d ran point %d it does not own", shard, pt)
			}
		}
	}
}

func TestCheckStop(t *testing.T) {
	r := Rule{Block: 10, Precision: 0.02, Cap: func(pt int) int { return []int{95, 95, 4, 4}[pt] }, MinTrials: func(pt int) int { return []int{23, 200, 2, 9}[pt] }}
	for _, tc := range []struct {
		pt, trials int
		capped     bool
		want       string
	}{
		{0, 30, false, ""},
		{0, 90, false, ""},
		{0, 95, true, ""},
		{0, 95, false, ""},
		{1, 200, true, ""}, // the minimum above the cap wins
		{0, 20, false, "between 30 and 95"},
		{0, 100, false, "between 30 and 95"},
		{0, 45, false, "not a checkpoint"},
		{0, 90, true, "capped after 90 trials, but its cap is 95"},
		{1, 210, false, "between 200 and 200"},
		{2, 4, true, ""}, // a cap below the block: one block of the cap
		{2, 10, false, "between 4 and 4"},
		{3, 12, false, ""}, // the minimum rounded up to blocks of the cap
		{3, 10, false, "between 12 and 12"},
	} {
		err := r.CheckStop(tc.pt, tc.trials, tc.capped)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("point %d, %d trials, capped %t: %v, want %q", tc.pt, tc.trials, tc.capped, err, tc.want)
		}
	}
}
