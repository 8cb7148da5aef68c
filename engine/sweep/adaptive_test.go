package sweep

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"commlab/engine/stats"
)

// draw is a stand-in model: a trial's value at a point, with a spread that
// depends on the point (tight, moderate, wide) and, at every fifth point,
// a rare jump that a small sample misses. Only +, −, × on uniforms, so the
// values are the same natively and in wasm.
func draw(pt int, rng *rand.Rand) float64 {
	sd := [3]float64{0.01, 1, 5}[pt%3]
	u := rng.Float64() + rng.Float64() + rng.Float64() - 1.5 // sd ½
	v := 10 + 2*sd*u
	if pt%5 == 4 && rng.Float64() < 0.02 {
		v += 100
	}
	return v
}

func drawTrial(_ struct{}, pt, _ int, rng *rand.Rand) (float64, error) { return draw(pt, rng), nil }

// meanStat drives the rule by the mean's t interval; with fewer than two
// trials there is no interval, which counts as not precise.
func meanStat(_ int, rs []float64) (float64, float64, error) {
	iv, err := stats.MeanT(rs)
	if err != nil {
		return math.NaN(), math.NaN(), nil
	}
	return iv.Mean, iv.HalfWidth(), nil
}

func adaptivePlan() Plan {
	return Plan{
		Points: 30, Seed: 9,
		Cost: func(pt int) float64 { return float64(pt%5 + 1) },
		Until: &Rule{
			Block: 5, Precision: 0.02, Cap: 200,
			MinTrials: func(pt int) int {
				switch {
				case pt == 7:
					return 300 // above the cap: the minimum wins
				case pt%4 == 0:
					return 23 // rounded up to 25
				}
				return 2
			},
		},
	}
}

// reference is RunUntil's rule spelled out on one goroutine, point by
// point: trials in order, the statistic after each block.
func reference(p Plan, stat Statistic[float64]) Result[float64] {
	r := p.Until
	out := Result[float64]{Results: make([][]float64, p.Points), Stops: make([]Stop, p.Points)}
	for pt := range p.Points {
		m := r.Block
		if r.MinTrials != nil {
			m = r.MinTrials(pt)
		}
		first := (m + r.Block - 1) / r.Block * r.Block
		last := max(r.Cap, first)
		var rs []float64
		for c := first; ; c = min(c+r.Block, last) {
			for len(rs) < c {
				rs = append(rs, draw(pt, RNG(p.Seed, pt, len(rs))))
			}
			est, hw, _ := stat(pt, rs)
			ok := hw <= r.Precision*math.Abs(est)
			if ok || c == last {
				out.Results[pt], out.Stops[pt] = rs, Stop{Trials: c, Min: m, Capped: !ok}
				break
			}
		}
	}
	return out
}

// TestAdaptiveSameEverywhere runs one adaptive plan with 1 and 4 workers,
// with trials that finish in a scrambled order, and as 3 shards merged,
// and compares every result and stop with the rule spelled out serially.
func TestAdaptiveSameEverywhere(t *testing.T) {
	want := reference(adaptivePlan(), meanStat)
	// The plan exercises every ending: stopped early, capped, and a
	// minimum above the cap.
	var early, capped, overCap int
	for pt, s := range want.Stops {
		switch {
		case s.Trials > 200:
			overCap++
		case s.Capped:
			capped++
		case s.Trials < 200:
			early++
		}
		if s.Trials%5 != 0 || s.Trials < s.Min || (pt%4 == 0 && s.Trials < 25) {
			t.Fatalf("point %d: %+v", pt, s)
		}
	}
	t.Logf("%d early, %d capped, %d over the cap: %v", early, capped, overCap, want.Stops)
	if early == 0 || capped == 0 || overCap != 1 {
		t.Fatalf("the plan does not exercise the rule: %d early, %d capped, %d over the cap", early, capped, overCap)
	}

	check := func(name string, got Result[float64]) {
		t.Helper()
		if !reflect.DeepEqual(got.Stops, want.Stops) {
			t.Errorf("%s: stops differ from the rule's:\n got %v\nwant %v", name, got.Stops, want.Stops)
		}
		if !reflect.DeepEqual(got.Results, want.Results) {
			t.Errorf("%s: results differ from the rule's", name)
		}
	}
	for _, w := range []int{1, 4} {
		p := adaptivePlan()
		p.Workers = w
		got, err := RunUntil(context.Background(), p, meanStat, newW, drawTrial)
		if err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("%d workers", w), got)
	}

	// Scrambled completion: each trial yields a pseudo-random number of
	// times, so trials of one block finish out of order.
	p := adaptivePlan()
	p.Workers = 4
	got, err := RunUntil(context.Background(), p, meanStat, newW, func(_ struct{}, pt, tr int, rng *rand.Rand) (float64, error) {
		for range splitmix(uint64(pt*1000+tr)) % 50 {
			runtime.Gosched()
		}
		return draw(pt, rng), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	check("scrambled completion", got)

	// 3 shards, merged in another order than written.
	var parts []Partial[float64]
	for _, i := range []int{3, 1, 2} {
		q := adaptivePlan()
		q.Workers = 2
		q.Shard = Shard{i, 3}
		r, err := RunUntil(context.Background(), q, meanStat, newW, drawTrial)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, NewPartial("adaptive/v1", q.Shard, r.Results))
	}
	merged, err := MergePlan(adaptivePlan(), meanStat, parts, nil)
	if err != nil {
		t.Fatal(err)
	}
	check("3 shards merged", merged)
}

// TestAdaptiveStatisticSeesPrefix: the statistic gets the point's first c
// trials in trial order, c the checkpoint, and cannot write past them.
func TestAdaptiveStatisticSeesPrefix(t *testing.T) {
	p := adaptivePlan()
	p.Workers = 3
	_, err := RunUntil(context.Background(), p, func(pt int, rs []float64) (float64, float64, error) {
		if len(rs)%5 != 0 || cap(rs) != len(rs) {
			return 0, 0, fmt.Errorf("statistic called with %d trials, capacity %d", len(rs), cap(rs))
		}
		for i, v := range rs {
			if w := draw(pt, RNG(9, pt, i)); v != w {
				return 0, 0, fmt.Errorf("trial %d is %v, want %v", i, v, w)
			}
		}
		return meanStat(pt, rs)
	}, newW, drawTrial)
	if err != nil {
		t.Fatal(err)
	}
}

func TestAdaptiveErrors(t *testing.T) {
	ctx := context.Background()
	bad := func(edit func(*Plan), want string) {
		t.Helper()
		p := adaptivePlan()
		edit(&p)
		if _, err := RunUntil(ctx, p, meanStat, newW, drawTrial); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want %q", err, want)
		}
	}
	bad(func(p *Plan) { p.Until.Block = 0 }, "Block = 0 is out of range")
	bad(func(p *Plan) { p.Until.Precision = 0 }, "Precision = 0 is out of range")
	bad(func(p *Plan) { p.Until.Precision = math.NaN() }, "Precision = NaN")
	bad(func(p *Plan) { p.Until.Cap = MaxTrials + 1 }, "Cap = 16777217 is out of range")
	bad(func(p *Plan) { p.Until.MinTrials = func(pt int) int { return pt - 3 } }, "MinTrials(0) = -3 is out of range")
	bad(func(p *Plan) { p.Until.Expect = func(int) float64 { return math.Inf(1) } }, "Expect(0) = +Inf")
	bad(func(p *Plan) { p.Trials = 8 }, "leave Trials 0")
	bad(func(p *Plan) { p.Cost = func(int) float64 { return -1 } }, "Cost(0) = -1")
	bad(func(p *Plan) { p.Until = nil }, "needs a rule")
	if _, err := Run(ctx, adaptivePlan(), newW, drawTrial); err == nil || !strings.Contains(err.Error(), "use RunUntil") {
		t.Errorf("Run of an adaptive plan: %v", err)
	}
	boom := errors.New("boom")
	_, err := RunUntil(ctx, adaptivePlan(), func(pt int, rs []float64) (float64, float64, error) {
		if pt == 11 && len(rs) == 10 {
			return 0, 0, boom
		}
		return meanStat(pt, rs)
	}, newW, drawTrial)
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "point 11 after 10 trials") {
		t.Errorf("statistic error: %v", err)
	}
	_, err = RunUntil(ctx, adaptivePlan(), meanStat, newW, func(_ struct{}, pt, tr int, rng *rand.Rand) (float64, error) {
		if pt == 2 && tr == 40 {
			return 0, boom
		}
		return draw(pt, rng), nil
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "point 2, trial 40") {
		t.Errorf("trial error: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := RunUntil(cctx, adaptivePlan(), meanStat, newW, drawTrial); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestAdaptiveProgress: progress ends at done = total, the cost of the
// trials actually run, though the total moved as points stopped early or
// asked for more.
func TestAdaptiveProgress(t *testing.T) {
	p := adaptivePlan()
	var last, total float64
	calls := 0
	p.Progress = func(d, tot float64) { last, total = d, tot; calls++ }
	res, err := RunUntil(context.Background(), p, meanStat, newW, drawTrial)
	if err != nil {
		t.Fatal(err)
	}
	var want float64
	trials := 0
	for pt, s := range res.Stops {
		want += float64(pt%5+1) * float64(s.Trials)
		trials += s.Trials
	}
	if calls != trials || last != want || total != want {
		t.Fatalf("%d calls for %d trials; ended at %v of %v, want %v", calls, trials, last, total, want)
	}
}
