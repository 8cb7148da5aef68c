package butterfly

import (
	"fmt"
	"strings"

	"commlab/engine/allreduce"
	"commlab/engine/progress"
	"commlab/engine/trace"
	"commlab/scene"
)

// MaxTraceP is the largest P the allreduce scenes accept: the engine's
// trace limit, and about where a heat-strip stops resolving processes.
const MaxTraceP = allreduce.MaxTraceP

// Fields are the allreduce model's parameters as scene controls, with the
// paper's defaults (Table 1) and P = 64 so that every process is drawn.
// The jitter scene shows the same run and uses the same fields.
func Fields() []scene.Field {
	d := allreduce.Default()
	g := func(x float64) string { return fmt.Sprint(x) }
	return []scene.Field{
		{Key: "P", Label: "P", Help: "processes P = 2^K", Kind: scene.Int, Type: "int", Min: 2, Max: MaxTraceP, Pow2: true, Log: true, Default: "64"},
		{Key: "N", Label: "N", Unit: "B", Help: "message size", Kind: scene.Float, Type: "float", Min: 0, Max: 1e9, Default: g(d.N)},
		{Key: "alpha", Label: "α", Unit: "s", Help: "network latency", Kind: scene.Float, Type: "float", Min: 1e-9, Max: 1e-2, Log: true, Default: g(d.Alpha)},
		{Key: "period", Label: "period", Unit: "s", Help: "OS-jitter period and mean time between network-noise events", Kind: scene.Float, Type: "float", Min: 1e-7, Max: 10, Log: true, Default: g(d.Period)},
		{Key: "duration", Label: "duration", Unit: "s", Help: "OS-jitter window and network-noise delay (less than period)", Kind: scene.Float, Type: "float", Min: 1e-9, Max: 1, Log: true, Default: g(d.Duration),
			DependsOn: []string{"period"}, RangeFor: rangeDuration},
		{Key: "T", Label: "T", Help: "redundant exchanges after the K stages, at most K = log2 P", Kind: scene.Int, Type: "int", Min: 0, Max: 12, Default: "6",
			DependsOn: []string{"P"}, DefaultFor: defaultT, RangeFor: rangeT},
		{Key: "os_jitter", Label: "OS jitter", Help: "periodic OS-jitter windows stall reductions", Kind: scene.Bool, Type: "bool", Default: "1"},
		{Key: "net_noise", Label: "network noise", Help: "Poisson noise events delay messages in flight", Kind: scene.Bool, Type: "bool", Default: "1"},
		{Key: "co_scheduled", Label: "co-scheduled", Help: "all processes share one OS-jitter phase", Kind: scene.Bool, Type: "bool", Default: "0"},
		{Key: "os_phase", Label: "OS phase", Help: "first: each process's first OS window starts at a random time in [0, period), none runs at t = 0 (the paper); stationary: a window may already be running at t = 0", Kind: scene.Choice, Type: "choice", Choices: allreduce.OSPhases(), Default: d.OSPhase.String()},
		{Key: "net_wait", Label: "network wait", Help: "mean time between network-noise events: period, or inverse = 1/period (the paper's words taken literally: noise all but vanishes)", Kind: scene.Choice, Type: "choice", Choices: allreduce.NetWaits(), Default: d.NetWait.String()},
		{Key: "os_hits", Label: "OS hits", Help: "which OS windows delay a reduction: wall, any window that runs when it is ready or begins during it; compute, only one that begins during it (eq. 2 adds OS jitter to the computation's time), one that begins while the process waits for its partner passes in the wait", Kind: scene.Choice, Type: "choice", Choices: allreduce.OSHitsNames(), Default: d.OSHits.String()},
	}
}

// Params turns validated field values into the engine's parameters (β and γ
// at the paper's 1 GB/s and 10 GB/s). A constraint between fields that the
// engine rejects (duration ≥ period, T > K) comes back as a
// *scene.FieldError on the field to change.
func Params(v scene.Values) (allreduce.Params, error) {
	p := allreduce.Default()
	p.P = v.Int("P")
	p.N = v.Float("N")
	p.Alpha = v.Float("alpha")
	p.Period = v.Float("period")
	p.Duration = v.Float("duration")
	p.T = v.Int("T")
	p.OSJitter = v.Bool("os_jitter")
	p.NetNoise = v.Bool("net_noise")
	p.CoScheduled = v.Bool("co_scheduled")
	// The fields' choices are the engine's names, so Set fails only on a
	// value that skipped parsing; that comes back as a FieldError below.
	if err := p.OSPhase.Set(v["os_phase"]); err != nil {
		return p, &scene.FieldError{Key: "os_phase", Value: v["os_phase"], Want: "one of " + strings.Join(allreduce.OSPhases(), ", ")}
	}
	if err := p.NetWait.Set(v["net_wait"]); err != nil {
		return p, &scene.FieldError{Key: "net_wait", Value: v["net_wait"], Want: "one of " + strings.Join(allreduce.NetWaits(), ", ")}
	}
	if err := p.OSHits.Set(v["os_hits"]); err != nil {
		return p, &scene.FieldError{Key: "os_hits", Value: v["os_hits"], Want: "one of " + strings.Join(allreduce.OSHitsNames(), ", ")}
	}
	return p, scene.EngineError[allreduce.RangeError](p.Validate(), v)
}

// Record runs trial 0 of seed with a trace: the run both allreduce scenes
// draw. Its numbers equal a native allreduce.Simulator run with
// scene.RNG(seed, 0), trace or not.
func Record(p allreduce.Params, seed uint64) (allreduce.Result, *trace.Trace, error) {
	return RecordProgress(p, seed, nil)
}

// RecordProgress is Record telling pr how far the trial got (see
// allreduce.Simulator.Progress); an error pr returns stops it.
func RecordProgress(p allreduce.Params, seed uint64, pr progress.Func) (allreduce.Result, *trace.Trace, error) {
	sim := allreduce.Simulator{Progress: pr}
	tr := new(trace.Trace)
	res, err := sim.Run(p, scene.RNG(seed, 0), tr)
	if err != nil {
		return res, nil, err
	}
	return res, tr, nil
}
