package verdict

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"commlab/cmd/gen-report/internal/report"
	"commlab/engine/stats"
)

func iv(mean, lo, hi float64, n int) stats.Interval {
	return stats.Interval{Mean: mean, N: n, Lo: lo, Hi: hi, Level: stats.Level, Method: stats.MethodT}
}

func TestCompare(t *testing.T) {
	about10 := Claim{What: "the largest speedup", Paper: "about 10x", Lo: 5, Hi: 20, Words: `"about 10x": within a factor 2`}
	for _, tc := range []struct {
		ours   stats.Interval
		want   report.Verdict
		trials int
	}{
		{iv(8.7, 7.9, 9.6, 30), report.Reproduced, 0},
		{iv(3, 2.5, 3.5, 30), report.NotReproduced, 0},
		{iv(22, 21, 23, 30), report.NotReproduced, 0},
		// Reaches across 5: d = 0.5 from the bound, h = 1: 4·30 trials.
		{iv(5.5, 4.5, 6.5, 30), report.Inconclusive, 120},
		// Exactly on a bound: more trials cannot move it off.
		{iv(5, 4, 6, 30), report.Inconclusive, 0},
		{Exact(5), report.Reproduced, 0},
		{Exact(4.999), report.NotReproduced, 0},
	} {
		ch := Compare(about10, tc.ours)
		if ch.Verdict != tc.want || ch.Trials != tc.trials {
			t.Errorf("%v: %s with %d trials, want %s with %d", tc.ours, ch.Verdict, ch.Trials, tc.want, tc.trials)
		}
	}
	open := Claim{What: "the onset", Paper: "beyond 2^14", Lo: 14, Hi: math.Inf(1)}
	if ch := Compare(open, Exact(15)); ch.Verdict != report.Reproduced || !strings.Contains(ch.String(), "allowed ≥ 14") {
		t.Errorf("one-sided: %s", ch)
	}
}

// TestCompareIgnoresTheEstimate: the verdict is a function of the
// interval, so an estimate moved anywhere inside it changes nothing, and
// an interval moved by up to its half-width never turns a decided verdict
// into the opposite one (it may become inconclusive).
func TestCompareIgnoresTheEstimate(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	opposite := map[report.Verdict]report.Verdict{report.Reproduced: report.NotReproduced, report.NotReproduced: report.Reproduced}
	for range 20000 {
		lo := rng.Float64()*10 - 5
		c := Claim{Lo: lo, Hi: lo + rng.Float64()*5}
		if rng.IntN(4) == 0 {
			c.Hi = math.Inf(1)
		}
		m := rng.Float64()*20 - 10
		h := rng.Float64() * 3
		base := iv(m, m-h, m+h, 30)
		v := Compare(c, base).Verdict
		moved := base
		moved.Mean = base.Lo + rng.Float64()*(base.Hi-base.Lo)
		if got := Compare(c, moved).Verdict; got != v {
			t.Fatalf("%+v: estimate %g → %g turned %s into %s", c, base.Mean, moved.Mean, v, got)
		}
		d := (2*rng.Float64() - 1) * h
		shifted := iv(m+d, m+d-h, m+d+h, 30)
		if got := Compare(c, shifted).Verdict; got == opposite[v] {
			t.Fatalf("%+v: interval %v moved by %g turned %s into %s", c, base, d, v, got)
		}
	}
}

func TestCombine(t *testing.T) {
	r, n, i := Check{Verdict: report.Reproduced}, Check{Verdict: report.NotReproduced}, Check{Verdict: report.Inconclusive}
	for _, tc := range []struct {
		checks []Check
		want   report.Verdict
	}{
		{[]Check{r, r}, report.Reproduced},
		{[]Check{n, n}, report.NotReproduced},
		{[]Check{r, n}, report.PartlyReproduced},
		{[]Check{r, n, i}, report.PartlyReproduced}, // partly whatever the open one says
		{[]Check{r, r, i}, report.Inconclusive},
		{[]Check{n, i}, report.Inconclusive},
		{[]Check{i}, report.Inconclusive},
	} {
		if got := Combine(tc.checks...); got != tc.want {
			t.Errorf("%v: %s, want %s", tc.checks, got, tc.want)
		}
	}
}

// TestPerturbed: a shift by a whole half-width turns an interval just
// inside the range inconclusive, never not reproduced.
func TestPerturbed(t *testing.T) {
	c := Claim{Lo: 5, Hi: 20}
	ours := iv(5.8, 5.3, 6.3, 30)
	if v := Compare(c, ours).Verdict; v != report.Reproduced {
		t.Fatalf("unshifted: %s", v)
	}
	var got report.Verdict
	Perturbed(-1, func() { got = Compare(c, ours).Verdict })
	if got != report.Inconclusive {
		t.Errorf("shifted down by its half-width: %s, want inconclusive", got)
	}
	if Compare(c, ours).Verdict != report.Reproduced {
		t.Error("the shift outlived Perturbed")
	}
	if !Opposite(report.Reproduced, report.PartlyReproduced) || Opposite(report.Reproduced, report.Inconclusive) {
		t.Error("Opposite")
	}
}
