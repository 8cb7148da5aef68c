package scene

import "commlab/engine/progress"

// Progressive is a Scene whose Build can report how far it got and be
// stopped: the browser builds a heavy run in steps between frames, with a
// progress bar and a cancel button, and a newer request stops an older
// build. BuildProgress with a nil Func is Build; with one, the Run is the
// same (the numbers never depend on pr), and an error pr returns comes
// back from BuildProgress (errors.Is finds it).
type Progressive interface {
	BuildProgress(v Values, seed uint64, pr progress.Func) (Run, error)
}

// BuildProgress builds sc's run for v and seed, telling pr the fraction
// done when sc is Progressive. A scene that is not is built by Build in
// one step, and pr hears nothing: a long Build of one holds its caller up
// until done (and a browser build of it ends within its first slice, so
// setParams answers with its outcome).
func BuildProgress(sc Scene, v Values, seed uint64, pr progress.Func) (Run, error) {
	if p, ok := sc.(Progressive); ok {
		return p.BuildProgress(v, seed, pr)
	}
	return sc.Build(v, seed)
}

// BuildProgress is Build's budget check, then the scene's own
// BuildProgress.
func (s budgeted) BuildProgress(v Values, seed uint64, pr progress.Func) (Run, error) {
	if err := CheckBudget(s.Scene, v, s.b); err != nil {
		return nil, err
	}
	return BuildProgress(s.Scene, v, seed, pr)
}
