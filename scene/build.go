package scene

import (
	"errors"

	"commlab/engine/cost"
	"commlab/engine/param"
	"commlab/engine/progress"
)

// Checked is the build a scene's Build, BuildProgress and Estimate share,
// so that every scene checks its input, prices its run and reports its
// errors alike. Build checks v against the scene's fields first
// (CheckValues: a caller that skipped parsing still gets a field-named
// error, never a silently zero parameter), reads the model's parameters
// from v, and only then runs the model; Estimate prices the same
// parameters without running anything, which is what Within checks a
// build against a budget with. Every error on the way passes through
// Errors, so an engine's range error comes back as a *FieldError on the
// field to change wherever it arose; any other error comes back as it is,
// with no prefix naming the scene (its caller names it: the page shows it
// on the scene's own page, gen-anim writes "scene NAME: ...").
//
// A scene's methods delegate to its Checked:
//
//	var checked = scene.Checked{Fields: Fields, Model: readModel, Errors: scene.EngineError}
//
//	func (Scene) Build(v scene.Values, seed uint64) (scene.Run, error) { return checked.Build(v, seed) }
type Checked struct {
	// Fields are the scene's parameters.
	Fields func() []Field
	// Model reads the model's parameters from parsed values and checks
	// them against the model (constraints between fields included).
	Model func(v Values) (Model, error)
	// Errors maps the model's errors onto the page's: EngineError for an
	// engine's *param.Error.
	Errors func(err error, v Values) error
}

// Model is a scene's parameters, read from the page's values: what a build
// prices and runs. (An interface, not a type parameter of Checked, so that
// the wasm holds one Checked for every scene.)
type Model interface {
	// Cost is what Run will take: its engine time and memory.
	Cost(v Values) (cost.Cost, error)
	// Run runs the model for seed, records what the scene draws and works
	// out what every frame needs, telling pr the fraction done (see
	// Progressive; pr may be nil).
	Run(v Values, seed uint64, pr progress.Func) (Run, error)
}

// Build is BuildProgress with no one to tell.
//
//go:noinline
func (c Checked) Build(v Values, seed uint64) (Run, error) { return c.BuildProgress(v, seed, nil) }

// BuildProgress checks v, reads the model's parameters and runs the model,
// telling pr the fraction done; an error pr returns comes back unchanged
// (errors.Is finds it).
func (c Checked) BuildProgress(v Values, seed uint64, pr progress.Func) (Run, error) {
	if err := CheckValues(c.Fields(), v); err != nil {
		return nil, err
	}
	m, err := c.Model(v)
	if err != nil {
		return nil, c.Errors(err, v)
	}
	r, err := m.Run(v, seed, pr)
	if err != nil {
		return nil, c.Errors(err, v)
	}
	return r, nil
}

// Estimate is what a build for v (parsed) will take, worked out from the
// model's parameters without running it.
func (c Checked) Estimate(v Values) (cost.Cost, error) {
	m, err := c.Model(v)
	if err != nil {
		return cost.Cost{}, c.Errors(err, v)
	}
	est, err := m.Cost(v)
	if err != nil {
		return cost.Cost{}, c.Errors(err, v)
	}
	return est, nil
}

// EngineError maps err, when it is (or wraps) an engine's *param.Error,
// onto the page's *FieldError on the same key: a scene's keys are the
// engine's names. The value shown is v's for that key, or the engine's
// where the scene has no such field (a preset's constant keeps the
// engine's name and value). Any other error, nil included, comes back as
// it is.
func EngineError(err error, v Values) error {
	var pe *param.Error
	if !errors.As(err, &pe) {
		return err
	}
	val, ok := v[pe.Field]
	if !ok {
		val = pe.Value
	}
	return &FieldError{Key: pe.Field, Value: val, Want: pe.Want}
}
