package scene

import (
	"math/bits"
	"strconv"
	"strings"
	"testing"
)

// depFields are the allreduce scenes' dependencies in miniature: T's
// default is K = log2 P and T ≤ K; duration < period.
func depFields() []Field {
	k := func(v Values) int { return bits.Len(uint(v.Int("P"))) - 1 }
	return []Field{
		{Key: "P", Label: "P", Kind: Int, Type: "int", Min: 2, Max: 64, Pow2: true, Default: "64"},
		{Key: "period", Label: "period", Unit: "s", Kind: Float, Type: "float", Min: 1e-7, Max: 1, Default: "0.001"},
		{Key: "duration", Label: "duration", Unit: "s", Kind: Float, Type: "float", Min: 1e-9, Max: 1, Default: "1e-05",
			DependsOn: []string{"period"}, RangeFor: func(v Values) Range {
				return Range{Lo: 0, Hi: v.Float("period"), OpenHi: true, Why: "duration < period"}
			}},
		{Key: "T", Label: "T", Kind: Int, Type: "int", Min: 0, Max: 6, Default: "6",
			DependsOn:  []string{"P"},
			DefaultFor: func(v Values) string { return strconv.Itoa(k(v)) },
			RangeFor: func(v Values) Range {
				return Range{Lo: 0, Hi: float64(k(v)), Why: "T ≤ K = " + strconv.Itoa(k(v))}
			}},
	}
}

type depScene struct{}

func (depScene) Info() Info                        { return Info{Name: "dep"} }
func (depScene) Fields() []Field                   { return depFields() }
func (depScene) Build(Values, uint64) (Run, error) { return fakeRun{}, nil }

func TestDependentFieldsCheck(t *testing.T) {
	if err := CheckFields(depFields()); err != nil {
		t.Fatal(err)
	}
	bad := depFields()
	bad[3].Default = "5" // DefaultFor gives 6 at the defaults
	if err := CheckFields(bad); err == nil || !strings.Contains(err.Error(), "DefaultFor") {
		t.Errorf("a Default that DefaultFor contradicts: %v", err)
	}
	cyc := depFields()
	cyc[1].DependsOn, cyc[1].RangeFor = []string{"duration"}, cyc[2].RangeFor
	if err := CheckFields(cyc); err == nil || !strings.Contains(err.Error(), "each other") {
		t.Errorf("a cycle: %v", err)
	}
}

// follow applies change to the defaults as setParams does.
func follow(t *testing.T, prev Values, change map[string]string) (Values, []Notice, []error) {
	t.Helper()
	next := prev.Clone()
	given := map[string]bool{}
	for k, v := range change {
		next[k], given[k] = v, true
	}
	n, errs := Follow(depFields(), prev, next, given)
	return next, n, errs
}

func TestFollowDefaultFollows(t *testing.T) {
	def := Defaults(depFields())
	// The case: P = 16 with T at its default (K = 6) is no error:
	// T follows to K = 4, silently.
	v, n, errs := follow(t, def, map[string]string{"P": "16"})
	if len(errs) > 0 || len(n) > 0 || v["T"] != "4" {
		t.Errorf("P = 16 from the defaults: T = %s, notices %v, errors %v; want T = 4 and neither", v["T"], n, errs)
	}
	// Back up: T still follows.
	v, _, _ = follow(t, v, map[string]string{"P": "32"})
	if v["T"] != "5" {
		t.Errorf("P = 32 after 16: T = %s, want 5", v["T"])
	}
}

func TestFollowClampsWithNotice(t *testing.T) {
	prev := Defaults(depFields())
	prev["T"] = "3" // chosen by the user, below K = 6
	v, n, errs := follow(t, prev, map[string]string{"P": "16"})
	if len(errs) > 0 || len(n) > 0 || v["T"] != "3" {
		t.Errorf("P = 16 with T = 3: T = %s, %v, %v; want T kept at 3, no notice", v["T"], n, errs)
	}
	v, n, errs = follow(t, prev, map[string]string{"P": "4"})
	if len(errs) > 0 || v["T"] != "2" || len(n) != 1 {
		t.Fatalf("P = 4 with T = 3: T = %s, notices %v, errors %v; want T = 2 with one notice", v["T"], n, errs)
	}
	// The notice names what the user changed and both fields.
	for _, w := range []string{"P = 4", "T = 3", "T is now 2", "K = 2"} {
		if !strings.Contains(n[0].Message, w) {
			t.Errorf("notice %q does not say %q", n[0].Message, w)
		}
	}
}

func TestFollowRefusesWhatTheUserGave(t *testing.T) {
	def := Defaults(depFields())
	_, _, errs := follow(t, def, map[string]string{"P": "16", "T": "6"})
	if len(errs) != 1 || errs[0].(*FieldError).Key != "T" || !strings.Contains(errs[0].Error(), "[0, 4]") {
		t.Errorf("P = 16 with T = 6 given together: %v; want one error on T naming [0, 4]", errs)
	}
	// An open end has no nearest value: the error names period, the
	// field the user changed, and duration.
	_, _, errs = follow(t, def, map[string]string{"period": "1e-06"})
	if len(errs) != 1 || errs[0].(*FieldError).Key != "period" || !strings.Contains(errs[0].Error(), "duration") {
		t.Errorf("period below duration: %v; want one error on period naming duration", errs)
	}
}

func TestParseQueryDependent(t *testing.T) {
	dreg := Registry{depScene{}}
	st, n, errs := ParseQueryNotices("P=16", dreg)
	if len(errs) > 0 || len(n) > 0 || st.Values["T"] != "4" {
		t.Errorf("?P=16: T = %s, %v, %v; want 4 and no message", st.Values["T"], n, errs)
	}
	st, _, errs = ParseQueryNotices("P=16&T=6", dreg)
	if len(errs) != 1 || st.Values["T"] != "4" || !strings.Contains(errs[0].Error(), "T ≤ K = 4") {
		t.Errorf("?P=16&T=6: T = %s, %v; want one error on T and T = 4", st.Values["T"], errs)
	}
	// A bad T is not given: it follows P, with one error only.
	st, _, errs = ParseQueryNotices("P=8&T=x", dreg)
	if len(errs) != 1 || st.Values["T"] != "3" {
		t.Errorf("?P=8&T=x: T = %s, %v; want T = 3 with one error", st.Values["T"], errs)
	}
}

func TestParseQueryRepeatedKeys(t *testing.T) {
	st, errs := ParseQuery("scene=one&P=16&P=32&seed=3&seed=4", reg)
	if st.Values["P"] != "8" || st.Seed != DefaultSeed {
		t.Errorf("repeated keys resolved to P = %s, seed = %d; want the defaults", st.Values["P"], st.Seed)
	}
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	msg := strings.Join(got, "\n")
	if len(errs) != 2 || !strings.Contains(msg, `P: "16, 32" is not allowed; want one value; the URL gives P 2 times`) || !strings.Contains(msg, "seed") {
		t.Errorf("repeated keys: %q", msg)
	}
}

func TestLongValueCut(t *testing.T) {
	long := strings.Repeat("9", 5000)
	_, errs := ParseQuery("P="+long+"&"+strings.Repeat("k", 3000)+"=1", reg)
	if len(errs) != 2 {
		t.Fatalf("errors %v", errs)
	}
	for _, e := range errs {
		if m := e.Error(); len(m) > 300 || !strings.Contains(m, "characters)") {
			t.Errorf("message of %d bytes, not cut: %.120q", len(m), m)
		}
	}
	if Cut("short") != "short" {
		t.Error("Cut changed a short value")
	}
	if got := Cut(strings.Repeat("é", 50)); got != strings.Repeat("é", MaxShown)+"… (50 characters)" {
		t.Errorf("Cut cuts runes: %q", got)
	}
}

func TestNumberText(t *testing.T) {
	secs, adds := Info{}, Info{TimeUnit: "additions"}
	for _, c := range []struct {
		n    Number
		info Info
		want string
	}{
		{Number{Value: 1.38, Unit: UnitRatio}, secs, "1.38×"},
		{Number{Value: 0.00123, Unit: UnitTime}, secs, "1.23 ms"},
		{Number{Value: 47.36, Unit: UnitTime}, adds, "47.36 additions"},
		{Number{Value: 96800, Unit: UnitCount}, secs, "96800"},
		{Number{Value: 500e3, Unit: UnitBytes}, secs, "500 kB"},
		{Number{Value: 12, Unit: UnitProcess}, secs, "P12"},
		{Number{Value: 0.425, Unit: UnitPercent}, secs, "42.5 %"},
		{Number{Value: 2.5, Unit: UnitPlain}, secs, "2.5"},
	} {
		if got := c.n.Text(c.info); got != c.want {
			t.Errorf("%v %v: %q, want %q", c.n.Value, c.n.Unit, got, c.want)
		}
	}
}

type momentRun struct{ fakeRun }

func (momentRun) Moment() float64 { return 4 }

func TestInitialTMoment(t *testing.T) {
	st := Default(fake{"one"})
	if got := InitialT("scene=one", st, momentRun{}); got != 4 {
		t.Errorf("a run with a Moment opens at %v, want 4", got)
	}
	if got := InitialT("scene=one", st, fakeRun{}); got != 10 {
		t.Errorf("a run without opens at %v, want its end 10", got)
	}
	st.T = 2
	if got := InitialT("scene=one&t=2", st, momentRun{}); got != 2 {
		t.Errorf("a link with t opens at %v, want 2", got)
	}
}
