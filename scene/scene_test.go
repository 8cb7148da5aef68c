package scene

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"commlab/engine/trace"
	"commlab/render"
)

// fake is a scene with one field of every kind.
type fake struct{ name string }

func (f fake) Info() Info { return Info{Name: f.name, Title: "Fake"} }
func (fake) Fields() []Field {
	return []Field{
		{Key: "P", Label: "P", Kind: Int, Type: "int", Min: 2, Max: 64, Pow2: true, Default: "8"},
		{Key: "alpha", Label: "α", Unit: "s", Kind: Float, Type: "float", Min: 0, Max: 1, OpenMin: true, Log: true, Default: "1e-06"},
		{Key: "co", Label: "co-scheduled", Kind: Bool, Type: "bool", Default: "0"},
		{Key: "view", Label: "view", Kind: Choice, Type: "choice", Choices: []string{"both", "conventional"}, Default: "both"},
	}
}
func (fake) Build(v Values, seed uint64) (Run, error) { return fakeRun{}, nil }

type fakeRun struct{}

func (fakeRun) End() float64                    { return 10 }
func (fakeRun) Steps() []float64                { return []float64{2, 5, 9} }
func (fakeRun) Frame(float64, View) render.List { return render.List{} }
func (fakeRun) Trace() *trace.Trace             { return &trace.Trace{} }
func (fakeRun) Numbers() map[string]float64     { return nil }

var reg = Registry{fake{"one"}, fake{"two"}}

func TestFieldsOfFake(t *testing.T) {
	if err := CheckFields(fake{}.Fields()); err != nil {
		t.Fatal(err)
	}
}

func TestParse(t *testing.T) {
	fs := fake{}.Fields()
	tests := []struct {
		field     int
		in, want  string
		wantError string
	}{
		{0, "16", "16", ""},
		{0, "16.0", "16", ""},
		{0, "3", "", "a power of two in [2, 64]"},
		{0, "128", "", "a power of two in [2, 64]"},
		{0, "1", "", "a power of two in [2, 64]"},
		{0, "x", "", "a power of two in [2, 64]"},
		{1, "1e-6", "1e-06", ""},
		{1, "0.5", "0.5", ""},
		{1, "0", "", "a number in (0, 1] s"},
		{1, "NaN", "", "a number in (0, 1] s"},
		{1, "2", "", "a number in (0, 1] s"},
		{2, "on", "1", ""},
		{2, "false", "0", ""},
		{2, "maybe", "", "1 or 0"},
		{3, "conventional", "conventional", ""},
		{3, "Both", "", "one of both, conventional"},
	}
	for _, tt := range tests {
		f := fs[tt.field]
		got, err := f.Parse(tt.in)
		if tt.wantError == "" {
			if err != nil || got != tt.want {
				t.Errorf("%s.Parse(%q) = %q, %v; want %q", f.Key, tt.in, got, err, tt.want)
			}
			continue
		}
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Key != f.Key || !strings.Contains(fe.Error(), tt.wantError) {
			t.Errorf("%s.Parse(%q) error = %v; want a FieldError for %s saying %q", f.Key, tt.in, err, f.Key, tt.wantError)
		}
	}
}

func TestQueryRoundTrip(t *testing.T) {
	st, errs := ParseQuery("scene=two&P=32&alpha=0.25&co=1&view=conventional&seed=42&t=3.5&speed=2&theme=dark&embed=1&loop=1", reg)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	want := "scene=two&P=32&alpha=0.25&co=1&view=conventional&seed=42&t=3.5&speed=2&theme=dark&embed=1&loop=1"
	sc, _ := reg.Lookup("two")
	if q := st.Query(sc); q != want {
		t.Fatalf("Query() = %q\nwant      %q", q, want)
	}
	again, errs := ParseQuery(st.Query(sc), reg)
	if len(errs) != 0 || again.Query(sc) != want {
		t.Fatalf("re-parse gave %q, %v", again.Query(sc), errs)
	}
}

func TestQueryBadValuesFallBack(t *testing.T) {
	st, errs := ParseQuery("scene=nope&P=3&alpha=0.5&seed=-1&t=-2&speed=3&theme=pink&embed=2&bogus=1", reg)
	want := map[string]bool{"scene": true, "P": true, "seed": true, "t": true, "speed": true, "theme": true, "embed": true, "bogus": true}
	for _, err := range errs {
		var fe *FieldError
		if !errors.As(err, &fe) || !want[fe.Key] {
			t.Errorf("unexpected error %v", err)
			continue
		}
		delete(want, fe.Key)
	}
	if len(want) != 0 {
		t.Errorf("no error for %v", want)
	}
	def := Default(reg[0])
	def.Values["alpha"] = "0.5" // the one good value is kept
	if st.Query(reg[0]) != def.Query(reg[0]) {
		t.Errorf("state %q, want the defaults with alpha=0.5: %q", st.Query(reg[0]), def.Query(reg[0]))
	}
}

func TestPlayer(t *testing.T) {
	p := NewPlayer(fakeRun{})
	p.Play()
	p.Tick(PlaySeconds / 2)
	if p.T != 5 || !p.Playing {
		t.Fatalf("after half the play time: T = %v, playing %v; want 5, true", p.T, p.Playing)
	}
	p.Tick(PlaySeconds)
	if p.T != 10 || p.Playing {
		t.Fatalf("after the end: T = %v, playing %v; want 10, false", p.T, p.Playing)
	}
	p.Loop = true
	p.Play() // from the end: restarts
	if p.T != 0 {
		t.Fatalf("Play at the end: T = %v, want 0", p.T)
	}
	p.Tick(PlaySeconds * 2)
	p.Tick(LoopHold / 2)
	if p.T != 10 || !p.Playing {
		t.Fatalf("looping, resting: T = %v playing %v", p.T, p.Playing)
	}
	p.Tick(LoopHold)
	if p.T != 0 || !p.Playing {
		t.Fatalf("looping, after the rest: T = %v playing %v; want 0, true", p.T, p.Playing)
	}
	p.Faster()
	if p.Speed != 2 {
		t.Errorf("Faster from 1 = %v", p.Speed)
	}
	for range 10 {
		p.Slower()
	}
	if p.Speed != Speeds[0] {
		t.Errorf("Slower stops at %v, got %v", Speeds[0], p.Speed)
	}
}

func TestPlayerStepAndSeek(t *testing.T) {
	p := NewPlayer(fakeRun{})
	var got []float64
	for range 5 {
		p.Step(+1)
		got = append(got, p.T)
	}
	if want := []float64{2, 5, 9, 10, 10}; !slices.Equal(got, want) {
		t.Errorf("stepping forward visits %v, want %v", got, want)
	}
	got = got[:0]
	for range 5 {
		p.Step(-1)
		got = append(got, p.T)
	}
	if want := []float64{9, 5, 2, 0, 0}; !slices.Equal(got, want) {
		t.Errorf("stepping back visits %v, want %v", got, want)
	}
	if err := p.Seek(11); err == nil || !strings.Contains(err.Error(), "[0, 10]") {
		t.Errorf("Seek past the end: %v, want an error naming [0, 10]", err)
	}
	if err := p.Seek(4); err != nil || p.T != 4 {
		t.Errorf("Seek(4): %v, T = %v", err, p.T)
	}
}

func TestSeconds(t *testing.T) {
	for in, want := range map[float64]string{
		0: "0 s", 1.5: "1.5 s", 1.2345e-3: "1.23 ms", 12.34e-6: "12.3 µs", 5e-9: "5 ns", 999.99e-6: "1 ms", -2e-6: "-2 µs",
	} {
		if got := Seconds(in); got != want {
			t.Errorf("Seconds(%v) = %q, want %q", in, got, want)
		}
	}
}

func TestInitialT(t *testing.T) {
	for _, tt := range []struct {
		query string
		want  float64
	}{
		{"scene=one", 10},           // a bare link shows the outcome
		{"scene=one&t=0", 0},        // an explicit t wins
		{"scene=one&t=4.5", 4.5},    //
		{"scene=one&autoplay=1", 0}, // autoplay starts from the beginning
		{"scene=one&autoplay=1&t=3", 3},
	} {
		st, errs := ParseQuery(tt.query, reg)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		if got := InitialT(tt.query, st, fakeRun{}); got != tt.want {
			t.Errorf("InitialT(%q) = %v, want %v", tt.query, got, tt.want)
		}
	}
}

func TestTime(t *testing.T) {
	if got := Time(Info{}, 12.34e-6); got != "12.3 µs" {
		t.Errorf("Time in seconds = %q", got)
	}
	if got := Time(Info{TimeUnit: "additions"}, 47.3612); got != "47.36 additions" {
		t.Errorf("Time in additions = %q", got)
	}
	if got := Time(Info{TimeUnit: "ns"}, 55684); got != "55684 ns" {
		t.Errorf("Time in whole ns = %q", got)
	}
}

func TestCheckValues(t *testing.T) {
	fs := fake{}.Fields()
	v := Defaults(fs)
	if err := CheckValues(fs, v); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	bad := v.Clone()
	bad["P"] = "3"
	var fe *FieldError
	if err := CheckValues(fs, bad); !errors.As(err, &fe) || fe.Key != "P" {
		t.Errorf("P=3: %v, want a FieldError on P", err)
	}
	missing := v.Clone()
	delete(missing, "alpha")
	if err := CheckValues(fs, missing); !errors.As(err, &fe) || fe.Key != "alpha" {
		t.Errorf("no alpha: %v, want a FieldError on alpha", err)
	}
}
