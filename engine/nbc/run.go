package nbc

import (
	"commlab/engine/progress"
	"commlab/engine/trace"
)

// Run simulates the experiment with p and returns its time, the parts of
// the time and the speedup against the method's baseline. It is
// deterministic. If rec is non-nil it receives rank 0's threads as lanes.
func Run(p Params, rec *trace.Trace) (Result, error) {
	return RunProgress(p, rec, nil)
}

// RunProgress is Run telling pr the share of the ranks' programs done (the
// run itself, then the runs of its communication alone and of its
// baseline); an error pr returns stops it and comes back. The numbers do
// not depend on pr.
func RunProgress(p Params, rec *trace.Trace, pr progress.Func) (Result, error) {
	if err := p.Validate(); err != nil {
		return Result{}, err
	}
	return run(p, rec, pr)
}
