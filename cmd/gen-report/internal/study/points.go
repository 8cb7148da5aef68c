package study

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"commlab/cmd/gen-report/internal/cli"
	"commlab/engine/sweep"
)

// Owned lists the points a run covers: those with owned[point] set, or
// all n when owned is nil.
func Owned(owned []bool, n int) []int {
	var pts []int
	for pt := range n {
		if owned == nil || owned[pt] {
			pts = append(pts, pt)
		}
	}
	return pts
}

// RunTrials runs trials Monte Carlo trials of every owned point over the
// cores and returns each point's results, in trial order (nil for the
// points it does not own). Trial t of point pt draws from
// sweep.RNG(seed, pt, t) whichever points the run covers, so a point's
// results are the same in every shard. costs are the points' whole costs
// (Sweep.Costs).
func RunTrials[W, R any](ctx context.Context, owned []bool, costs []float64, trials int, seed uint64,
	progress func(done, total float64), newWorker func() W,
	trial func(w W, point, trial int, rng *rand.Rand) (R, error)) ([][]R, error) {
	pts := Owned(owned, len(costs))
	out := make([][]R, len(costs))
	if len(pts) == 0 {
		return out, nil
	}
	res, err := sweep.Run(ctx, sweep.Plan{
		Points: len(pts), Trials: trials, Progress: progress,
		Cost: func(i int) float64 { return costs[pts[i]] / float64(trials) },
	}, newWorker, func(w W, i, t int, _ *rand.Rand) (R, error) {
		return trial(w, pts[i], t, sweep.RNG(seed, pts[i], t))
	})
	if err != nil {
		return nil, err
	}
	for i, pt := range pts {
		out[pt] = res[i]
	}
	return out, nil
}

// Encode writes each point's result as JSON; a point without one (nil,
// not owned) stays nil.
func Encode[R any](results []R, has func(point int) bool) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(results))
	for pt, r := range results {
		if !has(pt) {
			continue
		}
		b, err := json.Marshal(r)
		if err != nil {
			return nil, fmt.Errorf("point %d: %w", pt, err)
		}
		out[pt] = b
	}
	return out, nil
}

// RunPoints runs fn once for every owned point over the cores and returns
// each point's result as JSON.
func RunPoints[R any](ctx context.Context, owned []bool, costs []float64, progress func(done, total float64),
	fn func(point int) (R, error)) ([]json.RawMessage, error) {
	res, err := RunTrials(ctx, owned, costs, 1, 0, progress, func() struct{} { return struct{}{} },
		func(_ struct{}, pt, _ int, _ *rand.Rand) (R, error) { return fn(pt) })
	if err != nil {
		return nil, err
	}
	one := make([]R, len(res))
	for pt, r := range res {
		if r != nil {
			one[pt] = r[0]
		}
	}
	return Encode(one, func(pt int) bool { return res[pt] != nil })
}

// Decode reads every point's result into R, strictly (cli.DecodeStrict),
// and refuses a missing one; check, if set, vets each decoded result. Its
// errors are *PointError.
func Decode[R any](results []json.RawMessage, check func(point int, r R) error) ([]R, error) {
	out := make([]R, len(results))
	for pt, raw := range results {
		if raw == nil {
			return nil, &PointError{pt, fmt.Errorf("no result")}
		}
		if err := cli.DecodeStrict(raw, &out[pt]); err != nil {
			return nil, &PointError{pt, err}
		}
		if check != nil {
			if err := check(pt, out[pt]); err != nil {
				return nil, &PointError{pt, err}
			}
		}
	}
	return out, nil
}

// Float is a float64 whose JSON carries NaN and the infinities: NaN as
// null, ±Inf as the strings "+Inf" and "-Inf", so that a result with a
// "not defined here" NaN survives a shard file exactly.
type Float float64

func (f Float) MarshalJSON() ([]byte, error) {
	v := float64(f)
	switch {
	case math.IsNaN(v):
		return []byte("null"), nil
	case math.IsInf(v, 1):
		return []byte(`"+Inf"`), nil
	case math.IsInf(v, -1):
		return []byte(`"-Inf"`), nil
	}
	return json.Marshal(v)
}

func (f *Float) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case "null":
		*f = Float(math.NaN())
		return nil
	case `"+Inf"`:
		*f = Float(math.Inf(1))
		return nil
	case `"-Inf"`:
		*f = Float(math.Inf(-1))
		return nil
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("%s is not a number", cutJSON(b))
	}
	*f = Float(v)
	return nil
}

// cutJSON shortens a JSON value for a message.
func cutJSON(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

// Finite refuses NaN and the infinities, naming what the value is.
func Finite(what string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%s is %v, want a finite number", what, v)
	}
	return nil
}

// NonNegative refuses a value below 0 or not finite.
func NonNegative(what string, v float64) error {
	if err := Finite(what, v); err != nil {
		return err
	}
	if v < 0 {
		return fmt.Errorf("%s is %v, want ≥ 0", what, v)
	}
	return nil
}
