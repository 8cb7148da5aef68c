package logp

import (
	"math"
	"strings"
	"testing"
)

// TestSlidesNumbers pins the slides' numbers to the last digit: they are
// the values cmd/gen-report's logp study held as slidesExcessP2,
// slidesOffsetP3 and slidesExcessP3 (and slidesSigmaP2, computed the same
// way), which it now reads from here.
func TestSlidesNumbers(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want float64
		words     string
		printed   string
	}{
		{"SlidesExcessP2", SlidesExcessP2, 0.7, SlidesWordsP2, "+0.7"},
		{"SlidesOffsetP3", SlidesOffsetP3, 0.76, SlidesWordsP3, "0.76 大きいとき最適"},
		{"SlidesExcessP3", SlidesExcessP3, 0.87, SlidesWordsP3, "0.87 大きい"},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
		if !strings.Contains(c.words, c.printed) {
			t.Errorf("%s: the slides' words %q do not say %q", c.name, c.words, c.printed)
		}
	}
	if got, want := SlidesSigmaP2(), 0.7*math.Sqrt(2*math.Pi); got != want {
		t.Errorf("SlidesSigmaP2() = %v, want %v", got, want)
	}
	// And it is the σ whose closed-form excess at L_s = μ is the slides'
	// +0.7, on the default machine.
	p := Default()
	p.P, p.Sigma = 2, SlidesSigmaP2()
	e, err := ExpectedP2(p, p.L)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Plan(p, p.L)
	if err != nil {
		t.Fatal(err)
	}
	if x := e - s.Planned(); math.Abs(x-SlidesExcessP2) > 1e-6 {
		t.Errorf("closed-form excess at σ = SlidesSigmaP2(): %v, want %v", x, SlidesExcessP2)
	}
}
