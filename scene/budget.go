package scene

import (
	"errors"

	"commlab/engine/cost"
)

// Estimator is a Scene that knows what a build will cost before it runs:
// Estimate takes parsed values (Build's) and runs nothing. Every scene of
// the catalog is one.
type Estimator interface {
	Estimate(v Values) (cost.Cost, error)
}

// Within returns sc with its Build refusing a run whose estimate is over b:
// a *FieldError on the parameter that drives the cost, whose Want says what
// the run would take and what would fit. A scene that is no Estimator is
// returned as is. Within of a scene already Within another budget replaces
// that budget.
func Within(sc Scene, b cost.Budget) Scene {
	if w, ok := sc.(budgeted); ok {
		sc = w.Scene
	}
	if _, ok := sc.(Estimator); !ok {
		return sc
	}
	return budgeted{sc, b}
}

// Within applies Within to every scene of r.
func (r Registry) Within(b cost.Budget) Registry {
	out := make(Registry, len(r))
	for i, sc := range r {
		out[i] = Within(sc, b)
	}
	return out
}

type budgeted struct {
	Scene
	b cost.Budget
}

func (s budgeted) Estimate(v Values) (cost.Cost, error) { return s.Scene.(Estimator).Estimate(v) }

func (s budgeted) Build(v Values, seed uint64) (Run, error) {
	if err := CheckBudget(s.Scene, v, s.b); err != nil {
		return nil, err
	}
	return s.Scene.Build(v, seed)
}

// CheckBudget estimates sc's build for v and checks it against b: nil when
// it fits (or sc is no Estimator), else a *FieldError as Within describes.
// Values that do not parse come back as their own *FieldError.
func CheckBudget(sc Scene, v Values, b cost.Budget) error {
	est, ok := sc.(Estimator)
	if !ok {
		return nil
	}
	for _, f := range sc.Fields() {
		if _, err := f.Parse(v[f.Key]); err != nil {
			return err
		}
	}
	c, err := est.Estimate(v)
	if err != nil {
		return err
	}
	err = c.Check(b)
	var ce *cost.Error
	if !errors.As(err, &ce) {
		return err
	}
	key := c.Key
	if _, known := fieldByKey(sc.Fields(), key); !known {
		key = "run"
	}
	return &FieldError{Key: key, Value: v[key], Want: "a smaller run: " + ce.Error()}
}

func fieldByKey(fs []Field, key string) (Field, bool) {
	for _, f := range fs {
		if f.Key == key {
			return f, true
		}
	}
	return Field{}, false
}
