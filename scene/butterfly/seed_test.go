package butterfly

import (
	"testing"

	"commlab/scene"
)

// TestDefaultSeedShowsTheEffect: at the default seed, for a small P with
// everything else at its defaults (T following K), jitter delays the
// conventional butterfly by more than 5 % of its jitter-free time, and the
// redundant exchanges finish at least 3 % earlier: the effect the scene is
// about is on screen without touching a control.
func TestDefaultSeedShowsTheEffect(t *testing.T) {
	sc := New()
	if sc.Info().Seed != DefaultSeed || scene.Default(sc).Seed != DefaultSeed {
		t.Fatalf("the scene's default seed is %d, want DefaultSeed %d", scene.Default(sc).Seed, DefaultSeed)
	}
	for _, p := range []string{"8", "16", "64"} {
		st, errs := scene.ParseQuery("P="+p, scene.Registry{sc})
		if len(errs) > 0 {
			t.Fatalf("P=%s: %v", p, errs)
		}
		r, err := sc.Build(st.Values, st.Seed)
		if err != nil {
			t.Fatal(err)
		}
		n := r.Numbers()
		if !(n["conventional"] > 1.05*n["no_jitter"]) {
			t.Errorf("P = %s, seed %d: conventional %g, without jitter %g: no visible jitter", p, st.Seed, n["conventional"], n["no_jitter"])
		}
		if !(n["redundant"] < 0.97*n["conventional"]) {
			t.Errorf("P = %s, seed %d: redundant %g against conventional %g: the redundant exchanges do not show", p, st.Seed, n["redundant"], n["conventional"])
		}
	}
}
