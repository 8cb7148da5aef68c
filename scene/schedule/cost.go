package schedule

import (
	"errors"

	"commlab/engine/cost"
	"commlab/engine/goal"
	"commlab/scene"
)

// The page holds a build to cost.WasmSlowdown (4) times this estimate's
// time. The GOAL scene's build runs 3.3-6.1 times slower under node than
// natively (CPU time, BenchmarkPageShapes on the adversarial shapes at
// the largest sizes the page accepts, 2026-11-27, load 20), but its
// estimate is 3-8 times above the native time, so the page's bound holds
// with room: those builds took 350-660 ms of CPU in the wasm against the
// 2 s allowed (TestPageShapes lists the sizes).
//
// What the scene adds per operation beside the recorded run (its bar, its
// share of the gaps and heat strips): measured natively on butterfly
// schedules of 4,096 to 32,768 ranks (0.3 to 3 M operations), whose builds
// took 1.2-1.7 µs and allocated 113-118 bytes per operation in all; and,
// per side, its layout's fixed part. TestEstimateBoundsBuild holds them to
// what Build allocates: with 10 bytes and no fixed part the estimate came
// out 15-27 % under (the default 0.30 MB against 0.41 MB; a 1024-rank
// dissemination 5.4 MB against 6.4 MB).
const (
	barBytes  = 40
	sideBytes = 64 << 10
	nsBar     = 800
	// With noise on, the stalls' hatching and the delayed messages' noise
	// segments: measured +430 kB on a 2048-rank dissemination (45,056
	// operations) under os+net at the defaults.
	noiseBarBytes = 10
)

// Estimate is what Build will take for v (parsed): each side's recorded
// run of its schedule (goal.EstimateSchedule: a bound for any schedule,
// the adversarial ones included) and its bars, and what its noise
// adds (goal.EstimateNoise: noise traces and network noise can take far
// longer than the run itself). A file the page does not know is Build's
// error, not the estimate's; noise whose run could outlast the engine's
// times is a *scene.FieldError on the field that drives it.
func (Scene) Estimate(v scene.Values) (cost.Cost, error) {
	type side struct{ file, suffix string }
	sides := []side{{v[KeyFile], ""}}
	switch v[KeyCompare] {
	case CompareParams:
		sides = append(sides, side{v[KeyFile], "2"})
	case CompareFile:
		sides = append(sides, side{v[KeyFile2], ""})
	}
	nz, err := noiseConfig(v)
	if err != nil {
		return cost.Cost{}, err
	}
	var c cost.Cost
	for _, sd := range sides {
		s, err := lookup(sd.file)
		if err != nil {
			continue
		}
		e := goal.EstimateSchedule(s, true)
		e.Bytes += barBytes*float64(s.NumOps()) + sideBytes
		e.Seconds += nsBar * float64(s.NumOps()) * 1e-9
		if nz.on() {
			p, err := Params(v, sd.suffix)
			if err != nil {
				return cost.Cost{}, err
			}
			n, err := noiseCost(s, p, nz, v, sd.suffix)
			if err != nil {
				return cost.Cost{}, err
			}
			e = goal.AddNoise(e, n)
			e.Bytes += noiseBarBytes * float64(s.NumOps())
		}
		if c.Why == "" {
			c = e
			continue
		}
		c.Events += e.Events
		c.Spans += e.Spans
		c.Bytes += e.Bytes
		if e.Seconds > c.Seconds {
			// side B takes longer (set B's L under network noise, or
			// file 2): its explanation
			c.Key, c.Why, c.Fit = e.Key, e.Why, e.Fit
		}
		c.Seconds += e.Seconds
	}
	return c, nil
}

// noiseCost is goal.EstimateNoise for one side under the scene's names,
// its range errors as *scene.FieldError.
func noiseCost(s *goal.Schedule, p goal.Params, nz noiseSet, v scene.Values, suffix string) (cost.Cost, error) {
	names := goal.NoiseNames{OSPeriod: KeyPeriod, OSDuration: KeyDuration, NetMean: KeyNetMean, NetDelay: KeyNetDelay,
		Trace: KeyTrace, L: "L" + suffix, TraceFile: traceName(v[KeyTrace])}
	c, err := goal.EstimateNoise(s, p, goal.Noise{OS: nz.os, Net: nz.net, Trace: nz.trace, CoScheduled: nz.traceCo}, names)
	var re *goal.RangeError
	if errors.As(err, &re) {
		return c, &scene.FieldError{Key: re.Field, Value: v[re.Field], Want: re.Want}
	}
	return c, err
}
