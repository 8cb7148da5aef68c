package scene

import (
	"commlab/engine/trace"
	"commlab/render"
)

// Info says what a scene is, for the index page and the page title.
type Info struct {
	Name    string `json:"name"`    // URL name, e.g. "butterfly"
	Title   string `json:"title"`   // e.g. "Butterfly allreduce"
	Paper   string `json:"paper"`   // which paper and figures it comes from
	Summary string `json:"summary"` // one paragraph: what it shows
	// TimeUnit names the unit of the run's times (End, Steps, the playhead,
	// Numbers) when it is not the second, e.g. "additions" for the LogP
	// model, whose time unit is one addition. Empty means seconds, which
	// the page writes with SI prefixes.
	TimeUnit string `json:"time_unit,omitempty"`
	// Seed is the seed of a link that names none, chosen so that the
	// default view shows the model's effect (a test in the scene's package
	// says why); 0 means DefaultSeed.
	Seed uint64 `json:"seed,omitempty"`
}

// Scene is one animated view of a model.
type Scene interface {
	Info() Info
	// Fields lists the parameters in the order the controls show them.
	Fields() []Field
	// Build runs the model for v (every field parsed) and seed. Constraints
	// between fields (duration < period) come back as *FieldError, so
	// the page can show them beside a control.
	Build(v Values, seed uint64) (Run, error)
}

// View is what a frame is laid out for.
type View struct {
	W, H  float64 // canvas size in CSS pixels
	Theme render.Theme
}

// Run is one recorded run of a scene's model, ready to draw.
type Run interface {
	// End is the simulated time the animation spans, from 0, in seconds
	// (or in Info.TimeUnit).
	End() float64
	// Steps are the sorted instants (in [0, End]) the step keys move
	// between, e.g. the end of each butterfly stage.
	Steps() []float64
	// Frame lays out the picture at playhead t in [0, End].
	Frame(t float64, v View) render.List
	// Trace is the recorded run, for export.
	Trace() *trace.Trace
	// Numbers are the run's results the page reports (and the browser tests
	// compare with the native engine), e.g. "conventional" completion time.
	Numbers() map[string]float64
}

// Registry is the scenes a binary offers, the default first.
type Registry []Scene

// Lookup finds a scene by name.
func (r Registry) Lookup(name string) (Scene, bool) {
	for _, s := range r {
		if s.Info().Name == name {
			return s, true
		}
	}
	return nil, false
}

// Names lists the scenes' names.
func (r Registry) Names() []string {
	n := make([]string, len(r))
	for i, s := range r {
		n[i] = s.Info().Name
	}
	return n
}

// Reporter is a Run that says what its Numbers are: each with a label in
// words and a unit, in the order the page lists them. Every scene of the
// catalog implements it (a test checks that Report and Numbers agree);
// Report falls back to bare keys for a Run that does not.
type Reporter interface {
	Report() []Number
}

// Report is r's numbers as the page shows them: r's own Report if it has
// one, else its Numbers by key, unlabelled, with no unit.
func Report(r Run) []Number {
	if rep, ok := r.(Reporter); ok {
		return rep.Report()
	}
	m := r.Numbers()
	out := make([]Number, 0, len(m))
	for k, x := range m {
		out = append(out, Number{Key: k, Label: k, Value: x, Unit: UnitPlain})
	}
	sortByKey(out)
	return out
}

// Moment is a Run with a most telling moment: the playhead a link without
// t opens on, where the run's point shows (a full queue, the stage where
// the redundant copies win), rather than its end.
type Moment interface {
	Moment() float64
}
