package mmdl

import (
	"context"
	"math"

	engine "commlab/engine/mmdl"
)

// UseStandIn puts a deterministic stand-in for the live calibration loop
// in place, for tests: a page compared byte for byte with its golden must
// not depend on this machine's measured times. gen-report's own tests call
// it too, since their quick report holds the MMDL page.
func UseStandIn() { mmdlCalibration = standInCalibration }

// UseLive puts the live loop back in place, for the test that runs the
// report twice and holds every file but the live ones to the same bytes.
func UseLive() { mmdlCalibration = mmdlLiveCalibration }

// standInCompute and standInComm are the stand-in machine's "true" parameters.
const standInCompute, standInComm = 0.05, 0.0032

// standInCalibration pretends this machine computes a task in standInCompute
// million clocks and moves standInComm MB per task: the first pass
// predicts with the guess and "measures" the schedule of the true
// parameters, refits exactly; the second predicts and measures the same.
func standInCalibration(_ context.Context, cfg mmdlCalibConfig) (*mmdlCalibResult, error) {
	in, err := engine.Preset(cfg.Case.ProcSet, cfg.Case.Load, false)
	if err != nil {
		return nil, err
	}
	for i := range in.Tasks {
		in.Tasks[i] = math.Round(in.Tasks[i] * cfg.Scale)
	}
	truth := in
	truth.Compute, truth.Comm = standInCompute, standInComm
	// The live loop runs the overlapped schedule (internal/calibrate).
	overlapped := func(in engine.Instance) (*engine.Schedule, error) {
		st, err := engine.SteadyState(in)
		if err != nil {
			return nil, err
		}
		return engine.Rounds(in, st, cfg.Rounds, engine.Overlap)
	}
	guess, err := overlapped(in)
	if err != nil {
		return nil, err
	}
	real, err := overlapped(truth)
	if err != nil {
		return nil, err
	}
	return &mmdlCalibResult{Instance: in, Rounds: cfg.Rounds,
		Before: mmdlCalibPass{Compute: in.Compute, Comm: in.Comm, Predicted: guess.Makespan, Measured: real.Makespan * 1.01,
			FitCompute: standInCompute, FitComm: standInComm, Simulated: guess.Trace(), Executed: real.Trace()},
		After: mmdlCalibPass{Compute: standInCompute, Comm: standInComm, Predicted: real.Makespan, Measured: real.Makespan * 1.01,
			FitCompute: standInCompute, FitComm: standInComm, Simulated: real.Trace(), Executed: real.Trace()},
	}, nil
}
