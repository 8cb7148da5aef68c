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

// TestKeyWithNewline: a URL key holding a newline (%0A) or another control
// character is quoted in the message, which stays one line.
func TestKeyWithNewline(t *testing.T) {
	_, errs := ParseQuery("%0Ax=1&a%0D=1&a%0D=2", Registry{depScene{}})
	if len(errs) != 2 {
		t.Fatalf("%d errors, want 2: %v", len(errs), errs)
	}
	for _, err := range errs {
		if strings.ContainsAny(err.Error(), "\n\r") {
			t.Errorf("message over lines: %q", err)
		}
	}
	if !strings.HasPrefix(errs[0].Error(), `"\nx": "1" is not allowed`) && !strings.HasPrefix(errs[1].Error(), `"\nx": "1" is not allowed`) {
		t.Errorf("messages %q", errs)
	}
}
