package scene

import (
	"errors"
	"math"

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
	if knobs := c.Knobs; knobs != nil {
		c.Knobs = func() cost.Knobs { return withinFields(knobs(), sc.Fields(), v) }
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

// withinFields keeps the knobs that are fields of the scene, each within
// the range its field takes given the other values (which can be narrower
// than the engine's: P ≤ 4096 on the page), so that the page never advises
// a value its control refuses.
func withinFields(ks cost.Knobs, fields []Field, v Values) cost.Knobs {
	var keep []int
	var list []cost.Knob
	for i, k := range ks.List {
		f, ok := fieldByKey(fields, k.Key)
		if !ok || f.Kind != Int && f.Kind != Float {
			continue
		}
		lo, hi := f.Min, f.Max
		if f.OpenMin {
			lo = math.Nextafter(lo, math.Inf(1))
		}
		if f.RangeFor != nil {
			r := f.RangeFor(v)
			lo, hi = max(lo, r.Lo), min(hi, r.Hi)
			if r.OpenHi {
				hi = math.Nextafter(hi, math.Inf(-1))
			}
		}
		k.Min, k.Max = max(k.Min, lo), min(k.Max, hi)
		k.Int = k.Int || f.Kind == Int
		k.Pow2 = k.Pow2 || f.Pow2
		keep, list = append(keep, i), append(list, k)
	}
	// The knobs left out stay at their values.
	return cost.Knobs{List: list, Cost: func(at []float64) (cost.Cost, bool) {
		all := make([]float64, len(ks.List))
		for i, k := range ks.List {
			all[i] = k.Now
		}
		for j, i := range keep {
			all[i] = at[j]
		}
		return ks.Cost(all)
	}}
}

func fieldByKey(fs []Field, key string) (Field, bool) {
	for _, f := range fs {
		if f.Key == key {
			return f, true
		}
	}
	return Field{}, false
}
