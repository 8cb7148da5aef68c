package catalog

import (
	"errors"
	"math"
	"strconv"
	"testing"

	"commlab/scene"
)

// candidates are the values a person is likely to try for f: its ends,
// its default, and for numbers a few points between.
func candidates(f scene.Field) []string {
	var xs []float64
	switch f.Kind {
	case scene.Bool:
		return []string{"0", "1"}
	case scene.Choice:
		return f.Choices
	case scene.Int:
		if f.Pow2 {
			for p := math.Max(f.Min, 1); p <= f.Max; p *= 2 {
				xs = append(xs, p)
			}
		} else {
			xs = []float64{f.Min, math.Round((f.Min + f.Max) / 2), f.Max}
		}
	case scene.Float:
		lo := f.Min
		if f.OpenMin || lo <= 0 {
			lo = math.Max(f.Min, f.Max/1e6)
			if f.OpenMin && lo == f.Min {
				lo = f.Min + (f.Max-f.Min)*1e-3
			}
		}
		if f.Log && lo > 0 {
			for e := math.Log10(lo); e <= math.Log10(f.Max)+1e-9; e++ {
				xs = append(xs, math.Pow(10, e))
			}
		} else {
			xs = []float64{lo, (lo + f.Max) / 2, f.Max}
		}
	}
	out := []string{}
	for _, x := range xs {
		if s, err := f.Parse(strconv.FormatFloat(x, 'g', -1, 64)); err == nil {
			out = append(out, s)
		}
	}
	return out
}

// TestChangingOneFieldIsNeverRefusedForAnother is issue 14's rule: from a
// scene's defaults, setting any one field to any value in its range is
// either accepted (fields that depend on it follow, or are moved into range
// with a notice) or refused with the error on the field the user changed,
// never on another field the user did not touch.
func TestChangingOneFieldIsNeverRefusedForAnother(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every scene at its fields' ends")
	}
	for _, sc := range All() {
		fields := sc.Fields()
		def := scene.Defaults(fields)
		for _, f := range fields {
			for _, x := range candidates(f) {
				next := def.Clone()
				next[f.Key] = x
				notices, errs := scene.Follow(fields, def, next, map[string]bool{f.Key: true})
				for _, err := range errs {
					var fe *scene.FieldError
					if !errors.As(err, &fe) || fe.Key != f.Key {
						t.Errorf("%s: %s = %s is refused for another field: %v", sc.Info().Name, f.Key, x, err)
					}
				}
				if len(errs) > 0 {
					continue
				}
				for _, n := range notices {
					if n.Key == f.Key {
						t.Errorf("%s: %s = %s: a notice moves the field the user set: %s", sc.Info().Name, f.Key, x, n.Message)
					}
				}
				if heavy(sc.Info().Name, next) {
					continue
				}
				if _, err := sc.Build(next, scene.DefaultSeed); err != nil {
					var fe *scene.FieldError
					if !errors.As(err, &fe) || fe.Key != f.Key {
						t.Errorf("%s: %s = %s from the defaults does not build, blaming another field: %v", sc.Info().Name, f.Key, x, err)
					}
				}
			}
		}
	}
}

// heavy skips builds that take seconds natively (the largest allreduce
// runs with every trial): their fields are checked by Follow alone.
func heavy(name string, v scene.Values) bool {
	return (name == "butterfly" || name == "jitter") && (v.Int("P") > 1024 || v.Float("N") > 1e6 || v.Float("period") < 1e-5)
}
