package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"testing"

	"commlab/engine/param"
)

// testParams has one field of every kind BindParams binds.
type testParams struct {
	N     int     `json:"n" help:"an int"`
	Big   int64   `json:"big" help:"an int64"`
	X     float64 `json:"x" help:"a float"`
	On    bool    `json:"on" help:"a bool"`
	Name  string  `json:"name" help:"a string"`
	Size  float64 `json:"size" help:"a size, bound as a Custom value"`
	Skip  int     `json:"-"`
	NoTag int
}

// doubled is a Custom flag.Value: it stores twice what it is given.
type doubled float64

func (d *doubled) String() string { return strconv.FormatFloat(float64(*d), 'g', -1, 64) }
func (d *doubled) Set(s string) error {
	x, err := strconv.ParseFloat(s, 64)
	*d = doubled(2 * x)
	return err
}

// TestBindParams: every field with a JSON name is a flag of that name,
// its help tag the usage and its value the default; a Custom value
// replaces a field's plain binding; json:"-" and untagged fields are not
// flags.
func TestBindParams(t *testing.T) {
	p := testParams{N: 3, Big: 1 << 40, X: 0.5, Name: "a"}
	fs := NewFlagSet("eval test", io.Discard, "gen-report eval test")
	BindParams(fs.FlagSet, &p, Custom{Name: "size", Value: (*doubled)(&p.Size)})
	for name, def := range map[string]string{"n": "3", "big": "1099511627776", "x": "0.5", "on": "false", "name": "a", "size": "0"} {
		f := fs.Lookup(name)
		if f == nil || f.DefValue != def {
			t.Errorf("flag -%s: %+v, want default %s", name, f, def)
		}
	}
	if f := fs.Lookup("n"); f == nil || f.Usage != "an int" {
		t.Errorf("-n's usage is not its help tag: %+v", f)
	}
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n != 6 {
		t.Errorf("%d flags, want 6 (json:\"-\" and untagged fields are none)", n)
	}
	if err := fs.ParseArgs([]string{"-n", "7", "-big", "9", "-x", "2", "-on", "-name", "b", "-size", "4"}, false); err != nil {
		t.Fatal(err)
	}
	if want := (testParams{N: 7, Big: 9, X: 2, On: true, Name: "b", Size: 8}); p != want {
		t.Errorf("parsed %+v, want %+v", p, want)
	}
}

// TestParamError: the field comes from the *param.Error itself (errors.As,
// so a wrapped one is found too), a flag the user did not give says so,
// one they gave (or an element of it, mhz[1]) and any other error keep
// the error's own words.
func TestParamError(t *testing.T) {
	fs := NewFlagSet("eval test", io.Discard, "gen-report eval test")
	fs.Int("switches", 6, "")
	fs.Int("fill", 0, "")
	fs.String("mhz", "", "")
	if err := fs.ParseArgs([]string{"-fill", "3", "-mhz", "1,0"}, false); err != nil {
		t.Fatal(err)
	}
	pe := &param.Error{Field: "switches", Value: "6", Want: "22: with fill = 3"}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{pe, "eval test: -switches = 6 (not given, so its default; you gave -fill 3 -mhz 1,0) is out of range: want 22: with fill = 3"},
		{fmt.Errorf("run: %w", pe), "eval test: -switches = 6 (not given, so its default; you gave -fill 3 -mhz 1,0) is out of range: want 22: with fill = 3"},
		{&param.Error{Field: "fill", Value: "3", Want: "at most 2"}, "eval test: -fill = 3 is out of range: want at most 2"},
		{&param.Error{Field: "mhz[1]", Value: "0", Want: "a clock rate"}, "eval test: -mhz[1] = 0 is out of range: want a clock rate"},
		{errors.New("x = 1 is out of range: want 2"), "eval test: -x = 1 is out of range: want 2"},
	} {
		if got := fs.ParamError(tc.err).Error(); got != tc.want {
			t.Errorf("ParamError(%v)\n got %s\nwant %s", tc.err, got, tc.want)
		}
	}
}
