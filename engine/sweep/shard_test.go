package sweep

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestAssign(t *testing.T) {
	// Equal costs: LPT deals the points round-robin, as interleaving did.
	o, err := Assign([]float64{2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, 3)
	if err != nil || !reflect.DeepEqual(o, []int{1, 2, 3, 1, 2, 3, 1, 2, 3, 1}) {
		t.Fatalf("equal costs: %v %v", o, err)
	}
	// Heaviest first, each to the lightest shard, ties to the lower index.
	o, _ = Assign([]float64{1, 5, 2, 5, 3}, 2)
	// order 1(5), 3(5), 4(3), 2(2), 0(1): 1→s1, 3→s2, 4→s1 (5,5: tie),
	// 2→s2 (8,5), 0→s2 (8,7)
	if want := []int{2, 1, 2, 2, 1}; !reflect.DeepEqual(o, want) {
		t.Fatalf("got %v, want %v", o, want)
	}
	// Points of no cost are dealt round-robin too.
	if o, _ := Assign(make([]float64, 5), 2); !reflect.DeepEqual(o, []int{1, 2, 1, 2, 1}) {
		t.Fatalf("zero costs: %v", o)
	}
	if l := Loads([]float64{1, 5, 2, 5, 3}, o, 2); !reflect.DeepEqual(l, []float64{8, 8}) {
		t.Fatalf("loads %v", l)
	}
	// More shards than points: the rest are empty.
	if o, _ := Assign([]float64{3, 1}, 4); !reflect.DeepEqual(o, []int{1, 2}) {
		t.Fatalf("2 points on 4 shards: %v", o)
	}
	for _, c := range []struct {
		costs []float64
		n     int
		want  string
	}{
		{[]float64{1}, 0, "0 shards"},
		{[]float64{1}, MaxShards + 1, "65537 shards"},
		{[]float64{1, math.NaN()}, 2, "point 1 costs NaN"},
		{[]float64{-1}, 2, "point 0 costs -1"},
		{[]float64{math.Inf(1)}, 2, "point 0 costs +Inf"},
	} {
		if _, err := Assign(c.costs, c.n); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Assign(%v, %d): %v, want %q", c.costs, c.n, err, c.want)
		}
	}
}

// TestCostsCountExpectedTrials: an adaptive plan's cost estimate is the
// cost of a trial times the trials expected: the minimum (rounded to
// blocks) or the rule's Expect.
func TestCostsCountExpectedTrials(t *testing.T) {
	p := adaptivePlan()
	c, err := p.Costs()
	if err != nil {
		t.Fatal(err)
	}
	// point 7: min 300, cost 3; point 8: min 23 → 25, cost 4; point 9: 5 × 5.
	if c[7] != 900 || c[8] != 100 || c[9] != 25 {
		t.Fatalf("costs %v", c[7:10])
	}
	p.Until.Expect = func(pt int) float64 { return 100 }
	c, _ = p.Costs()
	if c[7] != 900 || c[9] != 500 { // the minimum still bounds it below
		t.Fatalf("with Expect: %v", c[7:10])
	}
	f := Plan{Points: 3, Trials: 8, Cost: func(pt int) float64 { return float64(pt) }}
	if c, _ := f.Costs(); !reflect.DeepEqual(c, []float64{0, 8, 16}) {
		t.Fatalf("fixed: %v", c)
	}
}

func fixedParts(t *testing.T, n int) (Plan, []Partial[float64]) {
	p := Plan{Points: 11, Trials: 8, Seed: 3, Cost: func(pt int) float64 { return float64(pt*pt%7 + 1) }}
	var parts []Partial[float64]
	for i := 1; i <= n; i++ {
		q := p
		q.Shard = Shard{i, n}
		r, err := Run(context.Background(), q, newW, drawTrial)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, NewPartial("fixed/v1 trials=8", q.Shard, r))
	}
	return p, parts
}

// clone copies parts deeply enough to edit one without touching the rest.
func clone(parts []Partial[float64]) []Partial[float64] {
	out := make([]Partial[float64], len(parts))
	for k, p := range parts {
		out[k] = p
		out[k].Results = map[int][]float64{}
		for pt, r := range p.Results {
			out[k].Results[pt] = append([]float64(nil), r...)
		}
	}
	return out
}

// TestMergePlanRefuses: every way a set of parts can disagree with the
// plan or with each other is refused, naming the part.
func TestMergePlanRefuses(t *testing.T) {
	p, parts := fixedParts(t, 4)
	full, err := Run(context.Background(), p, newW, drawTrial)
	if err != nil {
		t.Fatal(err)
	}
	got, err := MergePlan(p, nil, []Partial[float64]{parts[2], parts[0], parts[3], parts[1]}, nil)
	if err != nil || !reflect.DeepEqual(got.Results, full) {
		t.Fatalf("a good merge in another order: %v", err)
	}
	owner1 := -1 // a point of shard 1
	for pt := range parts[0].Results {
		owner1 = max(owner1, pt)
	}
	cases := []struct {
		name string
		edit func(ps []Partial[float64]) []Partial[float64]
		part int // the part the error must name; −1: none
		want string
	}{
		{"duplicate", func(ps []Partial[float64]) []Partial[float64] { return append(ps, ps[1]) }, 4, "shard 2/4: given twice (parts 1 and 4)"},
		{"gap", func(ps []Partial[float64]) []Partial[float64] { return append(ps[:1], ps[2:]...) }, -1, "1 of 4 shards missing: 2 of 4"},
		{"gaps", func(ps []Partial[float64]) []Partial[float64] { return ps[3:] }, -1, "3 of 4 shards missing: 1-3 of 4"},
		{"fingerprint", func(ps []Partial[float64]) []Partial[float64] { ps[2].Fingerprint = "fixed/v2 trials=8"; return ps }, 2,
			`shard 3/4: is of grid "fixed/v2 trials=8", shard 1/4 of "fixed/v1 trials=8"`},
		{"counts", func(ps []Partial[float64]) []Partial[float64] { ps[1].Shard = Shard{2, 5}; return ps }, 1, "shard 2/5: is one of 5 shards, shard 1/4 one of 4"},
		{"count 0", func(ps []Partial[float64]) []Partial[float64] { ps[1].Shard = Shard{2, 0}; return ps }, 1, "shard 2/0: want i/n with n in [1, 65536]"},
		{"index 0", func(ps []Partial[float64]) []Partial[float64] { ps[1].Shard = Shard{0, 4}; return ps }, 1, "shard 0/4: want i/n"},
		{"index 5", func(ps []Partial[float64]) []Partial[float64] { ps[1].Shard = Shard{5, 4}; return ps }, 1, "shard 5/4: want i/n"},
		{"points", func(ps []Partial[float64]) []Partial[float64] { ps[3].Points = 12; return ps }, 3, "shard 4/4: has 12 points, the plan 11"},
		{"trials", func(ps []Partial[float64]) []Partial[float64] {
			ps[0].Results[owner1] = make([]float64, 8000)
			return ps
		}, 0, fmt.Sprintf("shard 1/4: point %d has 8000 trials, the plan runs 8", owner1)},
		{"foreign point", func(ps []Partial[float64]) []Partial[float64] {
			for pt, r := range ps[1].Results {
				ps[0].Results[pt] = r
				break
			}
			return ps
		}, 0, "which the plan's split gives to shard 2/4"},
		{"lacks a point", func(ps []Partial[float64]) []Partial[float64] { delete(ps[0].Results, owner1); return ps }, 0, fmt.Sprintf("shard 1/4: lacks point %d", owner1)},
		{"out of range", func(ps []Partial[float64]) []Partial[float64] { ps[2].Results[-1] = []float64{1}; return ps }, 2, "holds point -1, outside [0, 11)"},
		{"not finite", func(ps []Partial[float64]) []Partial[float64] { ps[0].Results[owner1][3] = math.NaN(); return ps }, 0,
			fmt.Sprintf("shard 1/4: point %d, trial 3: NaN", owner1)},
	}
	finite := func(_, _ int, r float64) error {
		if math.IsNaN(r) || math.IsInf(r, 0) {
			return fmt.Errorf("%v", r)
		}
		return nil
	}
	for _, c := range cases {
		_, err := MergePlan(p, nil, c.edit(clone(parts)), finite)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
			continue
		}
		var pe *PartError
		if errors.As(err, &pe) != (c.part >= 0) || c.part >= 0 && pe.Part != c.part {
			t.Errorf("%s: %v: PartError %+v, want part %d", c.name, err, pe, c.part)
		}
	}
	// Another plan's split: the same parts against a plan whose costs
	// differ are refused (a shard holds points the new split moves).
	q := p
	q.Cost = nil
	if _, err := MergePlan(q, nil, parts, nil); err == nil || !strings.Contains(err.Error(), "split gives") {
		t.Errorf("another split: %v", err)
	}
	// An unsharded run merges as shard 1/1.
	one, _ := Run(context.Background(), p, newW, drawTrial)
	if got, err := MergePlan(p, nil, []Partial[float64]{NewPartial("f", Shard{}, one)}, nil); err != nil || !reflect.DeepEqual(got.Results, one) {
		t.Errorf("unsharded part: %v", err)
	}
	if _, err := MergePlan(p, meanStat, parts, nil); err == nil || !strings.Contains(err.Error(), "takes no statistic") {
		t.Errorf("statistic for a fixed plan: %v", err)
	}
}

// TestMergePlanAdaptive: an adaptive part's trial counts are replayed
// against the rule; a point cut short or run on past its stop is refused.
func TestMergePlanAdaptive(t *testing.T) {
	p := adaptivePlan()
	var parts []Partial[float64]
	for i := 1; i <= 2; i++ {
		q := adaptivePlan()
		q.Shard = Shard{i, 2}
		r, err := RunUntil(context.Background(), q, meanStat, newW, drawTrial)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, NewPartial("a", q.Shard, r.Results))
	}
	if _, err := MergePlan(p, nil, parts, nil); err == nil || !strings.Contains(err.Error(), "give the statistic") {
		t.Errorf("no statistic: %v", err)
	}
	owners, _ := p.Owners(2)
	k := owners[10] - 1 // point 10 stops early (at 95 trials)
	for _, c := range []struct {
		n    int
		want string
	}{
		{100, "point 10 has 100 trials, but the rule stops it at 95"},
		{90, "point 10 has 90 trials, but the rule runs it to 95 at least"},
		{3, "point 10 has 3 trials, but the rule runs it to 5 at least"},
		{8000, "point 10 has 8000 trials, but the rule stops it at 95"},
	} {
		ps := clone(parts)
		rs := ps[k].Results[10]
		for len(rs) < c.n {
			rs = append(rs, 10)
		}
		ps[k].Results[10] = rs[:c.n]
		_, err := MergePlan(p, meanStat, ps, nil)
		var pe *PartError
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &pe) || pe.Part != k {
			t.Errorf("%d trials: %v, want %q", c.n, err, c.want)
		}
	}
}

func TestPlanStatus(t *testing.T) {
	p, parts := fixedParts(t, 4)
	costs, _ := p.Costs()
	owners, _ := p.Owners(4)
	loads := Loads(costs, owners, 4)
	infos := []PartInfo{parts[3].Info(), parts[0].Info()}
	infos[0].Seconds, infos[1].Seconds = 30, 10
	st, err := PlanStatus(p, infos)
	if err != nil {
		t.Fatal(err)
	}
	rate := 40 / (loads[0] + loads[3])
	want := Status{Shards: 4, Done: []int{1, 4}, Missing: []int{2, 3},
		Points: len(parts[0].Results) + len(parts[3].Results), Trials: 8 * (len(parts[0].Results) + len(parts[3].Results)),
		CostDone: loads[0] + loads[3], CostLeft: loads[1] + loads[2], Seconds: 40, Estimated: true,
		SecondsLeft: rate * (loads[1] + loads[2]), LongestLeft: rate * max(loads[1], loads[2])}
	if !reflect.DeepEqual(st, want) {
		t.Fatalf("got  %+v\nwant %+v", st, want)
	}
	s := st.String()
	for _, w := range []string{"shards: 2 of 4 done; missing: 2-3 of 4", "points: 5 done, 40 trials", "time left: about 40 s one after another, 20 s if the 2 missing run at once (from 2 shards' 40 s)"} {
		if !strings.Contains(s, w) {
			t.Errorf("%q lacks %q", s, w)
		}
	}
	// No times: unknown; all done: none left.
	infos[0].Seconds, infos[1].Seconds = 0, 0
	if st, _ := PlanStatus(p, infos); st.Estimated || !strings.Contains(st.String(), "unknown") {
		t.Errorf("untimed: %v", st)
	}
	var all []PartInfo
	for _, part := range parts {
		all = append(all, part.Info())
	}
	if st, _ := PlanStatus(p, all); len(st.Missing) != 0 || !strings.Contains(st.String(), "every shard is done") || st.Trials != 88 {
		t.Errorf("all done: %v", st)
	}
	// The parts are checked as for a merge.
	infos = append(infos, parts[0].Info())
	if _, err := PlanStatus(p, infos); err == nil || !strings.Contains(err.Error(), "given twice") {
		t.Errorf("duplicate: %v", err)
	}
	if duration(3725) != "1 h 02 min" || duration(59.6) != "1 min 00 s" || thousands(1234567) != "1,234,567" || thousands(-1234) != "-1,234" {
		t.Error("duration or thousands")
	}
}
