package scene

import (
	"strings"
	"testing"
)

// TestParseQueryRefusedFallsBack: a URL's period below duration's default
// is refused (there is no nearest duration below an open end) and, like
// any bad value, falls back to its default: the state never keeps a pair
// its own fields refuse. With duration given too, both are kept.
func TestParseQueryRefusedFallsBack(t *testing.T) {
	dreg := Registry{depScene{}}
	st, _, errs := ParseQueryNotices("period=1e-6", dreg)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `period: "1e-06" is not allowed`) {
		t.Errorf("?period=1e-6: %v, want one error on period", errs)
	}
	if st.Values["period"] != "0.001" || st.Values["duration"] != "1e-05" {
		t.Errorf("?period=1e-6: period %s, duration %s; want the defaults 0.001, 1e-05", st.Values["period"], st.Values["duration"])
	}
	if err := CheckValues(depFields(), st.Values); err != nil {
		t.Error(err)
	}
	if _, _, errs := ParseQueryNotices(st.Query(depScene{}), dreg); len(errs) > 0 {
		t.Errorf("the state's own query: %v", errs)
	}
	st, _, errs = ParseQueryNotices("period=1e-6&duration=1e-7", dreg)
	if len(errs) > 0 || st.Values["period"] != "1e-06" || st.Values["duration"] != "1e-07" {
		t.Errorf("?period=1e-6&duration=1e-7: %v %v", st.Values, errs)
	}
}
