package butterfly

import (
	"testing"
	"time"

	"commlab/engine/cost"
	"commlab/scene"
)

// TestEstimateBoundsBuild holds the scene's Estimate to what Build
// allocates (cost.Holds: measured ≤ estimate ≤ 2·measured + 1 MB) over
// shapes chosen to stress each term: many processes, long messages, OS
// windows met by every reduction, duration close to period, network noise
// alone, no jitter at all.
func TestEstimateBoundsBuild(t *testing.T) {
	for _, q := range []string{
		"",
		"P=4096&N=2.9e7",
		"P=64&N=1e7&period=2.2e-6&duration=1e-9",
		"P=64&N=1e9&period=1e-3",
		"P=64&N=2e7&period=1e-6&duration=1e-7",
		"P=16&N=1e7&period=1e-6&duration=9e-7",
		"P=256&N=1e8&os_jitter=0",
		"P=1024&os_jitter=0&net_noise=0",
		"P=64&N=2e7&period=1e-6&duration=1e-7&T=0",
	} {
		v := queryValues(t, q)
		p, err := Params(v)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		est := Estimate(p)
		var took time.Duration
		got := cost.Allocated(func() {
			t0 := time.Now()
			if _, err := (Scene{}).Build(v, 1); err != nil {
				t.Fatal(err)
			}
			took = time.Since(t0)
		})
		t.Logf("%-45s est %9.3g B got %9.3g B ratio %.2f  est %7.3g s took %7.3g s", q, est.Bytes, got, est.Bytes/got, est.Seconds, took.Seconds())
		if !cost.Holds(est.Bytes, got, 1<<20) {
			t.Errorf("%q: estimate %s, allocated %s: want within [1, 2]x", q, cost.Bytes(est.Bytes), cost.Bytes(got))
		}
	}
}

func queryValues(t *testing.T, q string) scene.Values {
	t.Helper()
	st, errs := scene.ParseQuery("scene=butterfly&"+q, scene.Registry{Scene{}})
	if len(errs) > 0 {
		t.Fatalf("%q: %v", q, errs)
	}
	return st.Values
}
