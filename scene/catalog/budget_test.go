package catalog

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"commlab/engine/cost"
	"commlab/scene"
)

// TestPageBudgetRefuses holds the page to issue 16's cases: links whose
// values are all in range but whose runs need gigabytes or minutes are
// refused by Build at once, with a *scene.FieldError on the parameter that
// drives the cost whose message names the parameters and what would fit.
func TestPageBudgetRefuses(t *testing.T) {
	for _, c := range []struct {
		query string
		key   string   // the field the refusal sits beside
		names []string // what the message must name
	}{
		// 3.6 GB in the browser: trace spans per jitter window.
		{"scene=butterfly&P=64&N=1e9&period=1e-6&duration=1e-7", "period", []string{"P = 64", "N = 1e9", "period = 1e-6", "jitter windows", "GB", "raise period to at least", "lower N to at most"}},
		// Minutes in the browser: 1000 trials of long, noisy runs.
		// (No one parameter alone brings it in but P at its floor: the
		// trials and N together do.)
		{"scene=jitter&P=4096&trials=1000&N=1e9", "trials", []string{"trials = 1000", "P = 4096", "N = 1e9", "lower trials to at most", "and N to at most"}},
		// 31 s in the browser.
		{"scene=butterfly&P=4096&N=1e9", "", []string{"P = 4096", "N = 1e9", "over the page's"}},
	} {
		st, _, errs := scene.ParseQueryNotices(c.query, All())
		if len(errs) > 0 {
			t.Fatalf("%s: %v (every value is in range)", c.query, errs)
		}
		sc, _ := All().Lookup(st.Scene)
		t0 := time.Now()
		_, err := sc.Build(st.Values, st.Seed)
		took := time.Since(t0)
		var fe *scene.FieldError
		if !errors.As(err, &fe) {
			t.Errorf("%s: Build = %v, want a *scene.FieldError", c.query, err)
			continue
		}
		if c.key != "" && fe.Key != c.key {
			t.Errorf("%s: refusal on %q, want %q: %v", c.query, fe.Key, c.key, fe)
		}
		for _, n := range c.names {
			if !strings.Contains(fe.Error(), n) {
				t.Errorf("%s: message %q does not name %q", c.query, fe.Error(), n)
			}
		}
		if took > 100*time.Millisecond {
			t.Errorf("%s: refusing took %v: the estimate must run nothing", c.query, took)
		}
		t.Logf("%s: %v", c.query, fe)
	}
}

// TestDefaultsFitThePage checks that every scene's defaults fit the page
// with room to spare: a budget that refused the defaults would leave the
// page without a picture.
func TestDefaultsFitThePage(t *testing.T) {
	for _, sc := range Unchecked() {
		est, ok := sc.(scene.Estimator)
		if !ok {
			t.Errorf("%s: no Estimate: the page cannot refuse a run too large for it", sc.Info().Name)
			continue
		}
		st := scene.Default(sc)
		c, err := est.Estimate(st.Values)
		if err != nil {
			t.Errorf("%s: Estimate(defaults): %v", sc.Info().Name, err)
			continue
		}
		half := cost.Page
		half.Bytes, half.Seconds = half.Bytes/4, half.Seconds/4
		if err := c.Check(half); err != nil {
			t.Errorf("%s: defaults use more than a quarter of the page's budget: %v", sc.Info().Name, err)
		}
	}
}

// advice reads a refusal's "lower K to at most V", "raise K to at least
// V", "and K to at most V" and "(and T to V)".
var advice = regexp.MustCompile(`(?:lower|raise|and) (\w+) to (?:at most |at least )?([0-9.e+-]+)`)

// TestPageAdviceFits: every way out a page refusal names (one parameter,
// or two together) gives a run the page accepts: values its controls take
// and a build within the budget. Issue 26 found "lower P to at most 2"
// where P = 2 was still refused.
func TestPageAdviceFits(t *testing.T) {
	for _, q := range []string{
		"scene=butterfly&P=64&N=1e9&period=1e-6&duration=1e-7",
		"scene=butterfly&P=64&N=1e5&period=1e-3&duration=0.000999999999999",
		"scene=butterfly&P=4096&N=1e9",
		"scene=butterfly&P=4096&N=1e9&T=3",
		"scene=butterfly&P=2&N=1e9&period=1e-7&duration=9.9e-8",
		"scene=jitter&P=4096&trials=1000&N=1e9",
		"scene=jitter&P=1024&trials=1000&N=1e8&period=2e-5",
		"scene=overlay&procs=48&nodes=24&iterations=4",
		"scene=mmdl&rounds=100",
	} {
		st, _, errs := scene.ParseQueryNotices(q, All())
		if len(errs) > 0 {
			t.Fatalf("%s: %v", q, errs)
		}
		sc, _ := All().Lookup(st.Scene)
		err := scene.CheckBudget(sc, st.Values, cost.Page)
		if err == nil {
			t.Logf("%s fits the page", q)
			continue
		}
		msg := err.Error()
		_, ways, _ := strings.Cut(msg, "); ")
		if ways == "" {
			t.Errorf("%s: no advice: %s", q, msg)
			continue
		}
		for _, way := range strings.Split(ways, " or ") {
			v := scene.Values{}
			for k, x := range st.Values {
				v[k] = x
			}
			for _, m := range advice.FindAllStringSubmatch(way, -1) {
				v[m[1]] = m[2]
			}
			if err := scene.CheckBudget(sc, v, cost.Page); err != nil {
				t.Errorf("%s: the advice %q is refused: %v", q, way, err)
			}
			for _, f := range sc.Fields() {
				if _, err := f.Parse(v[f.Key]); err != nil {
					t.Errorf("%s: the advice %q gives a value the page refuses: %v", q, way, err)
				}
			}
		}
		t.Logf("%s: %s", q, msg)
	}
}
