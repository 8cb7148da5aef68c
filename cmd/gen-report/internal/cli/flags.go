package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"

	"commlab/engine/param"
	"commlab/internal/shown"
)

// Flags is a flag set that reports a bad flag as one line (the caller
// prints it) and prints the usage only when asked with -h.
type Flags struct {
	*flag.FlagSet
	stderr io.Writer
	usage  string
}

// NewFlagSet returns the flag set of one command: name prefixes its
// errors ("eval nbc"), usage is printed with -h.
func NewFlagSet(name string, stderr io.Writer, usage string) *Flags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {} // ParseArgs prints it, for -h only
	return &Flags{fs, stderr, usage}
}

// ParseArgs parses args; with allowArgs false, leftover arguments are errors.
func (f *Flags) ParseArgs(args []string, allowArgs bool) error {
	err := f.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(f.stderr, "usage: %s\n", f.usage)
		f.SetOutput(f.stderr)
		f.PrintDefaults()
		f.SetOutput(io.Discard)
		return err
	}
	if err != nil {
		return fmt.Errorf("%s: %s (see -h)", f.Name(), CutLong(err.Error()))
	}
	if !allowArgs && f.NArg() > 0 {
		return fmt.Errorf("%s: unexpected argument %q (see -h)", f.Name(), shown.Cut(f.Arg(0)))
	}
	return nil
}

// Given lists the flags the user set, as "-name value", in name order.
func (f *Flags) Given() string {
	var s []string
	f.Visit(func(fl *flag.Flag) {
		if b, ok := fl.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() && fl.Value.String() == "true" {
			s = append(s, "-"+fl.Name)
			return
		}
		s = append(s, "-"+fl.Name+" "+shown.Cut(fl.Value.String()))
	})
	return strings.Join(s, " ")
}

// IsSet reports whether the user gave flag name.
func (f *Flags) IsSet(name string) bool {
	set := false
	f.Visit(func(fl *flag.Flag) { set = set || fl.Name == name })
	return set
}

// ParamError is the message for a model's Validate error, an engine
// *param.Error (found by errors.As: the field is never read back from the
// message). The field is a flag; when the user did not give it, its value
// is the default (or one taken from the flags the user gave, as -load
// gives -tasks), and the range is usually one that follows another flag
// (-switches in [1, nodes]): the message says so and names the flags the
// user gave, so that it never blames a value as if it were theirs. An
// element (mhz[3]) is its flag's (-mhz).
func (f *Flags) ParamError(err error) error {
	var pe *param.Error
	if !errors.As(err, &pe) {
		return fmt.Errorf("%s: -%w", f.Name(), err)
	}
	name := pe.Field
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	if f.Lookup(name) == nil || f.IsSet(name) {
		return fmt.Errorf("%s: -%w", f.Name(), err)
	}
	note := "not given, so its default"
	if g := f.Given(); g != "" {
		note += "; you gave " + g
	}
	return fmt.Errorf("%s: -%s = %s (%s) is out of range: want %s", f.Name(), pe.Field, pe.Value, note, pe.Want)
}

// WriteJSON prints an eval's result as indented JSON. A result that is not
// finite (a time that overflows float64, a ratio of zeros) cannot be JSON;
// the message names the result and the flags the user gave instead of
// encoding/json's "unsupported value".
func (f *Flags) WriteJSON(w io.Writer, v any) error {
	out, err := json.MarshalIndent(v, "", "  ")
	var uv *json.UnsupportedValueError
	if errors.As(err, &uv) {
		path, x := nonFinite(reflect.ValueOf(v), "")
		g := f.Given()
		if g == "" {
			g = "the defaults"
		}
		return fmt.Errorf("%s: the result %s is %v, not a number JSON can hold: the inputs (%s) take it beyond float64; bring the sizes and rates closer to each other", f.Name(), path, x, g)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", f.Name(), err)
	}
	_, err = fmt.Fprintf(w, "%s\n", out)
	return err
}

// nonFinite finds the first NaN or infinite float in v, with its JSON path.
func nonFinite(v reflect.Value, path string) (string, float64) {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if x := v.Float(); math.IsNaN(x) || math.IsInf(x, 0) {
			return path, x
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return nonFinite(v.Elem(), path)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if p, x := nonFinite(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p, x
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if p, x := nonFinite(it.Value(), fmt.Sprintf("%s[%v]", path, it.Key())); p != "" {
				return p, x
			}
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			sf := t.Field(i)
			if !sf.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			p := path
			if !sf.Anonymous || name != "" {
				if name == "" {
					name = sf.Name
				}
				if p != "" {
					p += "."
				}
				p += name
			}
			if p, x := nonFinite(v.Field(i), p); p != "" {
				return p, x
			}
		}
	}
	return "", 0
}

// CutLong shortens the long words of a flag package message: quoted
// values (cutQuoted) and unquoted ones ("flag provided but not defined:
// -NAME", "bad flag syntax: ARG").
func CutLong(msg string) string {
	msg = shown.Quoted(msg)
	if len(msg) <= 200 {
		return msg
	}
	words := strings.Split(msg, " ")
	for i, w := range words {
		if !strings.Contains(w, `"`) {
			words[i] = shown.Cut(w)
		}
	}
	return strings.Join(words, " ")
}
