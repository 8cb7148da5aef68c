package sweep_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"commlab/engine/stats"
	"commlab/engine/sweep"
)

// pair is one trial of a comparison under common random numbers: both
// variants see the same draws.
type pair struct{ Conventional, Proposed float64 }

// A study's adaptive sweep: each point runs blocks of 10 trials until the
// ratio proposed/conventional is known to ±2 %, at least as many trials as
// it takes to see its rare stall about 5 times, and at most 400 unless
// that minimum asks for more. The same code runs one shard of a cluster
// job: set Plan.Shard, write NewPartial(...) with Seconds, and merge with
// MergePlan (the statistic included) once every shard is there.
func ExampleRunUntil() {
	hit := func(pt int) float64 { return 0.02 * float64(pt+1) } // a stall's chance per trial
	plan := sweep.Plan{
		Points: 4, Seed: 1,
		Cost: func(pt int) float64 { return float64(pt + 1) }, // one trial's cost
		Until: &sweep.Rule{
			Block: 10, Precision: 0.02, Cap: 400,
			MinTrials: func(pt int) int { return int(math.Ceil(5 / hit(pt))) },
		},
	}
	trial := func(_ struct{}, pt, _ int, rng *rand.Rand) (pair, error) {
		base := 10 + rng.Float64()
		stall := 0.0
		if rng.Float64() < hit(pt) {
			stall = 20 * rng.Float64()
		}
		// The proposed variant sheds most of the stall.
		return pair{Conventional: base + stall, Proposed: 0.8*base + 0.1*stall}, nil
	}
	ratio := func(_ int, rs []pair) (float64, float64, error) {
		var p stats.Paired
		for _, r := range rs {
			p.Add(r.Proposed, r.Conventional)
		}
		iv, err := p.Ratio()
		return iv.Mean, iv.HalfWidth(), err
	}
	res, err := sweep.RunUntil(context.Background(), plan, ratio, func() struct{} { return struct{}{} }, trial)
	if err != nil {
		fmt.Println(err)
		return
	}
	for pt, rs := range res.Results {
		var p stats.Paired
		for _, r := range rs {
			p.Add(r.Proposed, r.Conventional)
		}
		iv, _ := p.Ratio()
		fmt.Printf("point %d: %v, minimum %d, capped %t\n", pt, iv, res.Stops[pt].Min, res.Stops[pt].Capped)
	}
	// Output:
	// point 0: 0.7846 [0.7698, 0.7995] (95 % ratio-delta-t, n = 250), minimum 250, capped false
	// point 1: 0.7731 [0.7578, 0.7883] (95 % ratio-delta-t, n = 340), minimum 125, capped false
	// point 2: 0.7644 [0.7495, 0.7794] (95 % ratio-delta-t, n = 390), minimum 84, capped false
	// point 3: 0.7411 [0.7219, 0.7603] (95 % ratio-delta-t, n = 400), minimum 63, capped true
}

// Splitting a plan over 3 shards by cost, and what the status of a
// half-finished run says.
func ExamplePlanStatus() {
	plan := sweep.Plan{Points: 9, Trials: 30, Cost: func(pt int) float64 { return float64(int(1) << pt) }}
	owners, _ := plan.Owners(3)
	costs, _ := plan.Costs()
	fmt.Println("owners:", owners)
	fmt.Println("loads:", sweep.Loads(costs, owners, 3))
	// Shard 1 is written (it took 120 s), shards 2 and 3 are running.
	part := sweep.PartInfo{Fingerprint: "demo/v1", Shard: sweep.Shard{Index: 1, Count: 3}, Points: 9, Trials: map[int]int{}, Seconds: 120}
	for pt, o := range owners {
		if o == 1 {
			part.Trials[pt] = 30
		}
	}
	st, err := sweep.PlanStatus(plan, []sweep.PartInfo{part})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(st)
	// Output:
	// owners: [3 3 3 3 3 3 3 2 1]
	// loads: [7680 3840 3810]
	// shards: 1 of 3 done; missing: 2-3 of 3
	// points: 1 done, 30 trials
	// time left: about 2 min 00 s one after another, 1 min 00 s if the 2 missing run at once (from 1 shard's 2 min 00 s)
}
