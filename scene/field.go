package scene

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"commlab/internal/errf"
	"commlab/internal/shown"
)

// Kind is the type of a parameter's value.
type Kind uint8

const (
	Int    Kind = iota // a whole number in [Min, Max] (a power of two if Pow2)
	Float              // a finite number in [Min, Max] (or (Min, Max] if OpenMin)
	Bool               // on/off
	Choice             // one of Choices
)

func (k Kind) String() string {
	switch k {
	case Int:
		return "int"
	case Float:
		return "float"
	case Bool:
		return "bool"
	case Choice:
		return "choice"
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Field describes one parameter of a scene: what the control shows, the
// URL key, and the values allowed. The JSON form is what the page builds
// its controls from.
type Field struct {
	Key     string   `json:"key"`   // URL key and JS name; the engine's JSON name where there is one
	Label   string   `json:"label"` // short label for the control, in the paper's notation
	Unit    string   `json:"unit,omitempty"`
	Help    string   `json:"help,omitempty"`
	Kind    Kind     `json:"-"`
	Type    string   `json:"type"` // Kind as text, for the page
	Min     float64  `json:"min,omitempty"`
	Max     float64  `json:"max,omitempty"`
	OpenMin bool     `json:"open_min,omitempty"` // Min itself is not allowed
	Pow2    bool     `json:"pow2,omitempty"`     // Int: powers of two only
	Log     bool     `json:"log,omitempty"`      // a slider should move on a log scale
	Choices []string `json:"choices,omitempty"`
	Default string   `json:"default"` // canonical text of the default value

	// DependsOn names other fields whose values this field's default or
	// range follow: T depends on P, since T's default is K = log2 P and
	// T ≤ K. See Follow.
	DependsOn []string `json:"depends_on,omitempty"`
	// DefaultFor, when set, is the default given the other values (Default
	// is then its value at the other fields' defaults). A value equal to
	// its default keeps following it when a field it depends on changes.
	DefaultFor func(v Values) string `json:"-"`
	// RangeFor, when set, narrows [Min, Max] given the other values.
	RangeFor func(v Values) Range `json:"-"`
}

// Range is the values a field allows given the other fields' values.
type Range struct {
	Lo, Hi float64
	OpenHi bool   // Hi itself is not allowed (duration < period)
	Why    string // what sets the bound, in words: "T ≤ K = log2 P = 4"
}

// Contains reports whether x lies in the range.
func (r Range) Contains(x float64) bool {
	return x >= r.Lo && (x < r.Hi || !r.OpenHi && x == r.Hi)
}

// FieldError is a rejected value: which field, what was given, and what the
// field accepts. The page shows it beside the control.
type FieldError struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Want  string `json:"want"`
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("%s: %q is not allowed; want %s", CutKey(e.Key), Cut(e.Value), e.Want)
}

// CutKey is Cut for a key a message shows unquoted: a URL's key may hold
// anything (%0A is a newline), so one with a control character is quoted,
// and the message stays one line.
func CutKey(key string) string {
	if strings.ContainsFunc(key, unicode.IsControl) {
		return strconv.Quote(Cut(key))
	}
	return Cut(key)
}

// MaxShown is how many characters of a user's value a message repeats
// (shown.Max: the engine and the commands cut the same way).
const MaxShown = shown.Max

// Cut shortens s to MaxShown characters (runes), marking the cut with
// "…" and how long s was, for messages that quote user input.
//
//go:noinline
func Cut(s string) string { return shown.Cut(s) }

// Want says in words what the field accepts, e.g. "a power of two in [2, 64]".
func (f Field) Want() string {
	switch f.Kind {
	case Int:
		if f.Pow2 {
			return fmt.Sprintf("a power of two in [%s, %s]", fmtNum(f.Min), fmtNum(f.Max))
		}
		return fmt.Sprintf("a whole number in [%s, %s]", fmtNum(f.Min), fmtNum(f.Max))
	case Float:
		lo := "["
		if f.OpenMin {
			lo = "("
		}
		unit := ""
		if f.Unit != "" {
			unit = " " + f.Unit
		}
		return fmt.Sprintf("a number in %s%s, %s]%s", lo, fmtNum(f.Min), fmtNum(f.Max), unit)
	case Bool:
		return "1 or 0 (or true/false, on/off)"
	case Choice:
		return "one of " + strings.Join(f.Choices, ", ")
	}
	return "nothing (unknown field kind)"
}

func fmtNum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// Parse checks s against the field and returns its canonical text, the
// form State writes into URLs (so a parsed, written and re-parsed value is
// unchanged).
func (f Field) Parse(s string) (string, error) {
	bad := func() (string, error) { return "", &FieldError{Key: f.Key, Value: s, Want: f.Want()} }
	s = strings.TrimSpace(s)
	switch f.Kind {
	case Int:
		// Accept "64", "64.0" and "1e3" (a slider may write floats), but
		// only whole values.
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || x != math.Trunc(x) || x < f.Min || x > f.Max || math.Abs(x) > 1<<53 {
			return bad()
		}
		if f.Pow2 && (x < 1 || bits.OnesCount64(uint64(x)) != 1) {
			return bad()
		}
		return strconv.FormatInt(int64(x), 10), nil
	case Float:
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x < f.Min || x > f.Max || (f.OpenMin && x == f.Min) {
			return bad()
		}
		return fmtNum(x), nil
	case Bool:
		switch strings.ToLower(s) {
		case "1", "true", "on", "yes":
			return "1", nil
		case "0", "false", "off", "no":
			return "0", nil
		}
		return bad()
	case Choice:
		if slices.Contains(f.Choices, s) {
			return s, nil
		}
		return bad()
	}
	return bad()
}

// Values holds a scene's parameters as canonical text keyed by Field.Key.
// Build only ever sees Values whose every field parsed.
type Values map[string]string

// Float returns the value of key as a number (0 if absent).
//
//go:noinline
func (v Values) Float(key string) float64 {
	x, _ := strconv.ParseFloat(v[key], 64)
	return x
}

// Int returns the value of key as an int (0 if absent).
//
//go:noinline
func (v Values) Int(key string) int { return int(v.Float(key)) }

// Bool returns the value of key as a bool.
func (v Values) Bool(key string) bool { return v[key] == "1" }

// Clone returns a copy that can be changed independently.
func (v Values) Clone() Values {
	c := make(Values, len(v))
	for k, x := range v {
		c[k] = x
	}
	return c
}

// CheckValues reports the first of fields whose value is missing from v
// or does not parse, as a *FieldError naming it. Scenes' Build calls it, so
// a caller that skipped parsing still gets a field-named error, never a
// silently zero parameter.
func CheckValues(fields []Field, v Values) error {
	for _, f := range fields {
		raw, ok := v[f.Key]
		if !ok {
			return &FieldError{Key: f.Key, Value: "", Want: f.Want()}
		}
		if _, err := f.Parse(raw); err != nil {
			return err
		}
	}
	return nil
}

// Defaults returns the default Values of fields.
func Defaults(fields []Field) Values {
	v := make(Values, len(fields))
	for _, f := range fields {
		v[f.Key] = f.Default
	}
	return v
}

// CheckFields is for scene tests: every field has a key, a default that
// parses to itself, and a kind-appropriate range.
func CheckFields(fields []Field) error {
	seen := map[string]bool{}
	for _, f := range fields {
		if f.Key == "" || reserved[f.Key] || seen[f.Key] {
			return errf.Errorf("field %q: empty, reserved or duplicate key", f.Key)
		}
		seen[f.Key] = true
		if f.Type != f.Kind.String() {
			return errf.Errorf("field %q: Type %q, want %q", f.Key, f.Type, f.Kind.String())
		}
		got, err := f.Parse(f.Default)
		if err != nil || got != f.Default {
			return errf.Errorf("field %q: default %q is not canonical (%q, %v)", f.Key, f.Default, got, err)
		}
		if (f.Kind == Int || f.Kind == Float) && !(f.Min < f.Max) {
			return errf.Errorf("field %q: empty range [%v, %v]", f.Key, f.Min, f.Max)
		}
		for _, d := range f.DependsOn {
			if d == f.Key || !slices.ContainsFunc(fields, func(g Field) bool { return g.Key == d }) {
				return errf.Errorf("field %q depends on %q, which is not another field", f.Key, d)
			}
		}
		if (f.DefaultFor != nil || f.RangeFor != nil) && len(f.DependsOn) == 0 {
			return errf.Errorf("field %q: a default or range that follows other fields must name them in DependsOn", f.Key)
		}
		if (f.RangeFor != nil) && f.Kind != Int && f.Kind != Float {
			return errf.Errorf("field %q: RangeFor on a %s field", f.Key, f.Kind)
		}
	}
	order := dependencyOrder(fields)
	done := map[string]bool{}
	for _, f := range order {
		for _, d := range f.DependsOn {
			if !done[d] {
				return errf.Errorf("fields %q and %q depend on each other", f.Key, d)
			}
		}
		done[f.Key] = true
	}
	// At the defaults, every dependent default is the field's Default and
	// fits its range: a bare URL needs no notice.
	def := Defaults(fields)
	for _, f := range fields {
		if f.DefaultFor != nil {
			if got := f.DefaultFor(def); got != f.Default {
				return errf.Errorf("field %q: Default %q, but DefaultFor gives %q at the defaults", f.Key, f.Default, got)
			}
		}
		if f.RangeFor != nil {
			if r := f.RangeFor(def); !r.Contains(def.Float(f.Key)) {
				return errf.Errorf("field %q: default %s out of its range at the defaults (%s)", f.Key, f.Default, r.Why)
			}
		}
	}
	return nil
}
