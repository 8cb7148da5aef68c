package scene

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Notice is a change made on the user's behalf, shown beside the errors
// but not one: a value that no longer fitted after a field it depends on
// changed, and was moved to the nearest value that does.
type Notice struct {
	Key     string `json:"key"`     // the field that was moved
	Message string `json:"message"` // names what the user changed and both fields
}

// Follow brings the fields that depend on others (Field.DependsOn) in line
// with next, the values after a change, each after the fields it depends
// on, so that chains settle. prev holds the values before the change (nil for a fresh URL)
// and given the keys the user set in this change.
//
// The rules, so that changing one field is never refused because of
// another field's default:
//   - A dependent default follows: a field the user did not set, whose
//     value was its default for prev (or that a fresh URL leaves out),
//     takes its default for next. P = 16 on a page at P = 64, T = 6 = K
//     gives T = 4 = K, silently.
//   - A value the user did not set that no longer fits its range is moved
//     to the nearest end, with a Notice naming what the user changed and
//     both fields. If the range's end is open (duration < period), there
//     is no nearest value: the change is refused, with the error on the
//     field the user changed.
//   - A value the user set that does not fit is an error on that field,
//     naming the range and what sets it. For a fresh URL the field then
//     falls back to its default, as for any bad value.
//
// next is changed in place.
func Follow(fields []Field, prev, next Values, given map[string]bool) (notices []Notice, errs []error) {
	for _, f := range dependencyOrder(fields) {
		if f.DefaultFor != nil && !given[f.Key] {
			if prev == nil || prev[f.Key] == f.DefaultFor(prev) {
				next[f.Key] = f.DefaultFor(next)
			}
		}
		if f.RangeFor == nil {
			continue
		}
		r := f.RangeFor(next)
		x := next.Float(f.Key)
		if r.Contains(x) {
			continue
		}
		if given[f.Key] {
			errs = append(errs, &FieldError{Key: f.Key, Value: next[f.Key], Want: f.wantIn(r)})
			if prev == nil {
				next[f.Key] = f.fallback(next, r)
			}
			continue
		}
		changed := f.changedDeps(given)
		if r.OpenHi && x >= r.Hi {
			// No nearest value below an open end: refuse, blaming what
			// the user changed (or this field, if nothing it depends on
			// was given, as for a URL's defaults).
			key := f.Key
			if len(changed) > 0 {
				key = changed[0]
			}
			errs = append(errs, &FieldError{Key: key, Value: next[key], Want: fmt.Sprintf(
				"a value that keeps %s = %s in range (%s); change %s first", f.Key, next[f.Key], r.Why, f.Key)})
			continue
		}
		old := next[f.Key]
		c, err := f.Parse(fmtNum(math.Min(math.Max(x, r.Lo), r.Hi)))
		if err != nil {
			errs = append(errs, &FieldError{Key: f.Key, Value: old, Want: f.wantIn(r)})
			continue
		}
		next[f.Key] = c
		cause := "the defaults"
		if len(changed) > 0 {
			parts := make([]string, len(changed))
			for i, k := range changed {
				parts[i] = k + " = " + next[k]
			}
			cause = strings.Join(parts, " and ")
		}
		notices = append(notices, Notice{Key: f.Key, Message: fmt.Sprintf(
			"%s leaves %s = %s out of range (%s): %s is now %s", cause, f.Key, old, r.Why, f.Key, c)})
	}
	return notices, errs
}

// changedDeps lists the fields f depends on that the user set.
func (f Field) changedDeps(given map[string]bool) []string {
	var ks []string
	for _, d := range f.DependsOn {
		if given[d] {
			ks = append(ks, d)
		}
	}
	return ks
}

// fallback is the value a fresh URL's bad value gives way to: the
// dependent default if it fits, else the static one moved into r.
func (f Field) fallback(v Values, r Range) string {
	if f.DefaultFor != nil {
		if d := f.DefaultFor(v); r.Contains(number(d)) {
			return d
		}
	}
	x := number(f.Default)
	if r.Contains(x) {
		return f.Default
	}
	if c, err := f.Parse(fmtNum(math.Min(math.Max(x, r.Lo), r.Hi))); err == nil {
		return c
	}
	return f.Default
}

// number reads a canonical value as a float (0 if it is not a number).
func number(s string) float64 {
	x, _ := strconv.ParseFloat(s, 64)
	return x
}

// wantIn says what f accepts within r, and why.
func (f Field) wantIn(r Range) string {
	hi := "]"
	if r.OpenHi {
		hi = ")"
	}
	what := "a number"
	if f.Kind == Int {
		what = "a whole number"
		if f.Pow2 {
			what = "a power of two"
		}
	}
	unit := ""
	if f.Unit != "" {
		unit = " " + f.Unit
	}
	return fmt.Sprintf("%s in [%s, %s%s%s (%s)", what, fmtNum(r.Lo), fmtNum(r.Hi), hi, unit, r.Why)
}

// Current is the range f allows at values v: RangeFor's within [Min, Max],
// or [Min, Max] itself.
func (f Field) Current(v Values) Range {
	r := Range{Lo: f.Min, Hi: f.Max}
	if f.RangeFor != nil {
		c := f.RangeFor(v)
		r.Lo, r.Hi, r.OpenHi, r.Why = math.Max(r.Lo, c.Lo), math.Min(r.Hi, c.Hi), c.OpenHi, c.Why
	}
	return r
}

// dependencyOrder is fields with each after the fields it depends on, and
// otherwise in control order. CheckFields rejects cycles; a cycle here
// keeps the remaining fields in control order.
func dependencyOrder(fields []Field) []Field {
	out := make([]Field, 0, len(fields))
	done := make(map[string]bool, len(fields))
	for len(out) < len(fields) {
		progress := false
		for _, f := range fields {
			if done[f.Key] {
				continue
			}
			ready := true
			for _, d := range f.DependsOn {
				if !done[d] {
					ready = false
					break
				}
			}
			if ready {
				out, done[f.Key], progress = append(out, f), true, true
			}
		}
		if !progress {
			for _, f := range fields {
				if !done[f.Key] {
					out, done[f.Key] = append(out, f), true
				}
			}
		}
	}
	return out
}
