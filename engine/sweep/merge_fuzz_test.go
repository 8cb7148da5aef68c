package sweep

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// FuzzMerge: shard outputs read from JSON (as gen-report merge reads its
// files) merge or fail with a message, never a panic or an allocation the
// files do not pay for; a merged grid has every point.
func FuzzMerge(f *testing.F) {
	f.Add(`[{"fingerprint":"g","shard":{"index":1,"count":2},"points":3,"results":{"0":[1,2],"2":[3]}},{"fingerprint":"g","shard":{"index":2,"count":2},"points":3,"results":{"1":[4]}}]`)
	f.Add(`[{"fingerprint":"g","points":-1,"results":{}}]`)
	f.Add(`[{"fingerprint":"g","points":1000000000000000,"results":{"0":[1]}}]`)
	f.Add(`[{"fingerprint":"g","points":2,"results":{"0":[1],"5":[2]}}]`)
	f.Fuzz(func(t *testing.T, in string) {
		var parts []Partial[float64]
		if json.NewDecoder(strings.NewReader(in)).Decode(&parts) != nil {
			return
		}
		out, err := Merge(parts)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("message over lines: %q", err)
			}
			return
		}
		held := 0
		for _, p := range parts {
			held += len(p.Results)
		}
		if len(out) != parts[0].Points || len(out) > held {
			t.Fatalf("%d points merged, the files say %d and hold %d", len(out), parts[0].Points, held)
		}
		for pt, r := range out {
			if r == nil {
				t.Fatalf("point %d missing from a merged grid", pt)
			}
		}
	})
}

// TestMergeRefusesBadSizes: a grid size the files cannot back is an
// error, not a panic or a huge allocation.
func TestMergeRefusesBadSizes(t *testing.T) {
	for _, c := range []struct {
		points int
		want   string
	}{
		{-1, "has -1 points, want at least 1"},
		{0, "has 0 points"},
		{1 << 50, "1125899906842623 of 1125899906842624 points missing: the shard outputs hold 1"},
	} {
		_, err := Merge([]Partial[float64]{{Fingerprint: "g", Points: c.points, Results: map[int][]float64{0: {1}}}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("points %d: got %v, want %q", c.points, err, c.want)
		}
	}
}

// fuzzPlans are the plans FuzzMergePlan checks parts against: fixed
// trials, and a rule whose replay the parts must pass.
func fuzzPlans() [2]Plan {
	return [2]Plan{
		{Points: 5, Trials: 2, Seed: 1, Cost: func(pt int) float64 { return float64(pt + 1) }},
		{Points: 5, Seed: 1, Cost: func(pt int) float64 { return float64(5 - pt) },
			Until: &Rule{Block: 2, Cap: 6, Precision: 0.05, MinTrials: func(pt int) int { return pt%2 + 1 }}},
	}
}

// FuzzMergePlan: parts read from JSON merge against a plan or fail with a
// one-line message (a PartError naming one of the parts given); a merge
// that succeeds has every point with the trials the plan runs, and the
// same parts in the reverse order give the same result.
func FuzzMergePlan(f *testing.F) {
	for mode, p := range fuzzPlans() {
		for _, n := range []int{1, 2, 3} {
			var parts []Partial[float64]
			for i := 1; i <= n; i++ {
				q := p
				q.Shard = Shard{i, n}
				r, err := runFuzzPlan(q, fuzzStat(mode))
				if err != nil {
					f.Fatal(err)
				}
				parts = append(parts, NewPartial("g", q.Shard, r))
			}
			b, _ := json.Marshal(parts)
			f.Add(mode == 1, string(b))
		}
	}
	f.Add(false, `[{"fingerprint":"g","shard":{"index":1,"count":1},"points":5,"results":{"0":[1,2],"1":[1,2],"2":[1,2],"3":[1,2],"4":[1,2]}}]`)
	f.Add(true, `[{"fingerprint":"g","shard":{"index":1,"count":70000},"points":5,"results":{}}]`)
	f.Fuzz(func(t *testing.T, adaptive bool, in string) {
		var parts []Partial[float64]
		if json.NewDecoder(strings.NewReader(in)).Decode(&parts) != nil {
			return
		}
		mode := 0
		if adaptive {
			mode = 1
		}
		p := fuzzPlans()[mode]
		out, err := MergePlan(p, fuzzStat(mode), parts, nil)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("message over lines: %q", err)
			}
			var pe *PartError
			if errors.As(err, &pe) && (pe.Part < 0 || pe.Part >= len(parts)) {
				t.Fatalf("%v names part %d of %d", err, pe.Part, len(parts))
			}
			return
		}
		for pt, rs := range out.Results {
			if rs == nil || len(rs) != out.Stops[pt].Trials || !adaptive && len(rs) != p.Trials {
				t.Fatalf("point %d: %d trials, stop %+v", pt, len(rs), out.Stops[pt])
			}
		}
		slices.Reverse(parts)
		again, err := MergePlan(p, fuzzStat(mode), parts, nil)
		if err != nil || !reflect.DeepEqual(again, out) {
			t.Fatalf("the reverse order: %v", err)
		}
	})
}

// fuzzStat is the adaptive plan's statistic (nil for the fixed one): the
// mean and a crude half-width, the range over √n.
func fuzzStat(mode int) Statistic[float64] {
	if mode == 0 {
		return nil
	}
	return func(_ int, rs []float64) (float64, float64, error) {
		var s float64
		for _, r := range rs {
			s += r
		}
		return s / float64(len(rs)), (slices.Max(rs) - slices.Min(rs)) / math.Sqrt(float64(len(rs))), nil
	}
}

// runFuzzPlan runs a fuzz plan with its rule or without.
func runFuzzPlan(p Plan, stat Statistic[float64]) ([][]float64, error) {
	if stat == nil {
		return Run(context.Background(), p, newW, drawTrial)
	}
	r, err := RunUntil(context.Background(), p, stat, newW, drawTrial)
	return r.Results, err
}
