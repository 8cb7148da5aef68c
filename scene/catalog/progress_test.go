package catalog

import (
	"errors"
	"maps"
	"testing"

	"commlab/engine/progress"
	"commlab/scene"
)

// TestBuildProgress checks scene.BuildProgress on every scene of the page
// (budget included): the numbers equal Build's, the fraction heard rises,
// and a Func that cancels stops a Progressive scene's build with
// progress.ErrCanceled.
func TestBuildProgress(t *testing.T) {
	for _, sc := range All() {
		name := sc.Info().Name
		t.Run(name, func(t *testing.T) {
			st := scene.Default(sc)
			switch name {
			case "jitter":
				st.Values["P"], st.Values["T"], st.Values["trials"] = "256", "4", "20"
			case "mmdl":
				st.Values["rounds"] = "0" // the scheduler's search, the long build
			}
			want, err := sc.Build(st.Values, st.Seed)
			if err != nil {
				t.Fatal(err)
			}
			var seen []float64
			got, err := scene.BuildProgress(sc, st.Values, st.Seed, func(done float64) error {
				seen = append(seen, done)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(got.Numbers(), want.Numbers()) {
				t.Errorf("BuildProgress numbers %v, Build's %v", got.Numbers(), want.Numbers())
			}
			for i := 1; i < len(seen); i++ {
				if seen[i] < seen[i-1] {
					t.Fatalf("fraction %v after %v, want nondecreasing", seen[i], seen[i-1])
				}
			}
			if _, ok := Unchecked()[indexOf(name)].(scene.Progressive); !ok {
				if len(seen) > 0 {
					t.Errorf("a scene that is not Progressive reported %d times, want none", len(seen))
				}
				return
			}
			if len(seen) == 0 {
				t.Error("a Progressive scene reported nothing")
			}
			_, err = scene.BuildProgress(sc, st.Values, st.Seed, func(float64) error {
				return progress.ErrCanceled
			})
			if !errors.Is(err, progress.ErrCanceled) {
				t.Errorf("canceled build returned %v, want progress.ErrCanceled", err)
			}
		})
	}
}

func indexOf(name string) int {
	for i, n := range Unchecked().Names() {
		if n == name {
			return i
		}
	}
	return -1
}
