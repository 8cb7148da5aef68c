package nbc

import "commlab/engine/trace"

// Run simulates the experiment with p and returns its time, the parts of
// the time and the speedup against the method's baseline. It is
// deterministic. If rec is non-nil it receives rank 0's threads as lanes.
func Run(p Params, rec *trace.Trace) (Result, error) {
	if err := p.Validate(); err != nil {
		return Result{}, err
	}
	return run(p, rec)
}
