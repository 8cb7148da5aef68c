package catalog

import (
	"commlab/engine/cost"
	"errors"
	"strings"
	"testing"
	"time"

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
		{"scene=jitter&P=4096&trials=1000&N=1e9", "trials", []string{"trials = 1000", "P = 4096", "N = 1e9", "lower N to at most"}},
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
