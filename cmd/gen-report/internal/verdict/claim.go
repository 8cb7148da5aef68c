package verdict

import (
	"fmt"
	"math"
	"strings"

	"commlab/cmd/gen-report/internal/report"
	"commlab/engine/stats"
)

// A Claim is one number of a paper as its words allow it: our number
// reproduces it when it lies in [Lo, Hi]. The range is taken from the
// paper's own wording, quoted in Words: "about 10x" allows what "about"
// allows (say [5, 20]), "beyond 2^14" is [2^14, +Inf), "nearly equal" a
// few percent. A claim without a number of its own (a trend, a sign) is
// a range too: a correlation "clearly positive" is [0.5, 1].
type Claim struct {
	What   string  // what is compared, "the largest speedup"
	Paper  string  // the paper's number as it gives it, "about 10x (abstract)"
	Lo, Hi float64 // the range its words allow; ±Inf for a one-sided claim
	Words  string  // the paper's words the range comes from, and how: `"約10倍" (about 10x): within a factor 2`
}

// Check is a claim set against our interval.
type Check struct {
	Claim   Claim
	Ours    stats.Interval
	Verdict report.Verdict // Reproduced, NotReproduced or Inconclusive
	// Trials is, for an inconclusive check of a Monte Carlo number, about
	// how many trials would decide it: the interval's half-width shrinks
	// as 1/√n, and it decides once it no longer reaches across the
	// nearest bound. 0 when decided or when more trials cannot decide it
	// (the estimate sits on the bound).
	Trials int
}

// Compare sets our interval against the claim. Reproduced: the whole
// interval lies in [Lo, Hi]. Not reproduced: none of it does.
// Inconclusive: it reaches across a bound, so the data cannot tell. The
// verdict depends on the interval alone, never on the estimate inside it:
// moving our estimate anywhere within its interval cannot turn a decided
// verdict into the opposite one (verdict_test.go holds every study to it).
func Compare(c Claim, ours stats.Interval) Check {
	if shift != nil {
		ours = shift(ours)
	}
	ch := Check{Claim: c, Ours: ours}
	switch {
	case ours.Lo >= c.Lo && ours.Hi <= c.Hi:
		ch.Verdict = report.Reproduced
	case ours.Hi < c.Lo || ours.Lo > c.Hi:
		ch.Verdict = report.NotReproduced
	default:
		ch.Verdict = report.Inconclusive
		ch.Trials = trialsToDecide(c, ours)
	}
	return ch
}

// trialsToDecide is n·(h/d)², with h the interval's half-width and d the
// distance from the estimate to the nearest bound it reaches across: the
// trials at which a half-width of d would keep the interval on one side.
func trialsToDecide(c Claim, ours stats.Interval) int {
	if ours.N < 2 || ours.Method == stats.MethodExact {
		return 0
	}
	d := math.Inf(1)
	for _, b := range []float64{c.Lo, c.Hi} {
		if !math.IsInf(b, 0) && ours.Lo < b && b < ours.Hi {
			d = min(d, math.Abs(ours.Mean-b))
		}
	}
	h := ours.HalfWidth()
	if !(d > 0) || math.IsInf(d, 1) || !(h > 0) {
		return 0
	}
	n := float64(ours.N) * (h / d) * (h / d)
	if n > 1e12 {
		return 0
	}
	return int(math.Ceil(n))
}

// String says the check in one line: "the largest speedup 8.7 [7.9, 9.6]
// against about 10x, allowed [5, 20]: reproduced".
func (ch Check) String() string {
	s := fmt.Sprintf("%s %s against %s, allowed %s: %s", ch.Claim.What, Number(ch.Ours), ch.Claim.Paper, Range(ch.Claim.Lo, ch.Claim.Hi), ch.Verdict)
	if ch.Trials > 0 {
		s += fmt.Sprintf(" (about %d trials would decide it)", ch.Trials)
	}
	return s
}

// Number prints an interval for a finding: "8.72 [7.91, 9.60]", or the
// value alone for an exact one.
func Number(iv stats.Interval) string {
	if iv.Method == stats.MethodExact || iv.Lo == iv.Hi {
		return fmt.Sprintf("%.4g", iv.Mean)
	}
	return fmt.Sprintf("%.4g [%.4g, %.4g]", iv.Mean, iv.Lo, iv.Hi)
}

// Range prints [lo, hi] with open ends as ≥ lo or ≤ hi.
func Range(lo, hi float64) string {
	switch {
	case math.IsInf(lo, -1) && math.IsInf(hi, 1):
		return "any value"
	case math.IsInf(hi, 1):
		return fmt.Sprintf("≥ %.4g", lo)
	case math.IsInf(lo, -1):
		return fmt.Sprintf("≤ %.4g", hi)
	}
	return fmt.Sprintf("[%.4g, %.4g]", lo, hi)
}

// Exact is the interval of a number without sampling error: a
// deterministic model's output, or a count. Its verdicts decide at once.
func Exact(v float64) stats.Interval {
	return stats.Interval{Mean: v, N: 1, Lo: v, Hi: v, Level: stats.Level, Method: stats.MethodExact}
}

// Combine is the verdict of a finding made of several checks: reproduced
// when all are, not reproduced when none is, partly when some are and
// some are not. An inconclusive check leaves the finding inconclusive
// unless every way it could come out gives the same verdict (one check
// reproduced and one not make "partly" whatever a third says).
func Combine(checks ...Check) report.Verdict {
	var rep, not, open int
	for _, c := range checks {
		switch c.Verdict {
		case report.Reproduced:
			rep++
		case report.NotReproduced:
			not++
		default:
			open++
		}
	}
	outcome := func(r, n int) report.Verdict {
		switch {
		case n == 0:
			return report.Reproduced
		case r == 0:
			return report.NotReproduced
		}
		return report.PartlyReproduced
	}
	// The outcomes when the open checks all come out one way or all the
	// other bound every mix of them.
	a, b := outcome(rep+open, not), outcome(rep, not+open)
	if a != b {
		return report.Inconclusive
	}
	return a
}

// Evidence lists the checks, one sentence each, for a finding's evidence.
func Evidence(checks ...Check) string {
	var s []string
	for _, c := range checks {
		line := c.String()
		if c.Claim.Words != "" {
			line += "; the range from the paper's words " + c.Claim.Words
		}
		s = append(s, line)
	}
	return strings.Join(s, ". ") + "."
}

// EvidenceFrom lists the checks, one sentence each, and then the words
// behind their ranges, each once (a finding's checks often share them),
// introduced as "The ranges from SOURCE words: " (source "the paper's",
// "the slides'").
func EvidenceFrom(source string, checks ...Check) string {
	var out, words []string
	seen := map[string]bool{}
	for _, c := range checks {
		out = append(out, c.String())
		if w := c.Claim.Words; w != "" && !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	s := strings.Join(out, ". ") + "."
	if len(words) > 0 {
		s += " The ranges from " + source + " words: " + strings.Join(words, "; ") + "."
	}
	return s
}

// shift, when set, moves every interval Compare sees: Perturbed's way of
// testing that no verdict hangs on where an estimate sits in its interval.
var shift func(stats.Interval) stats.Interval

// Perturbed runs f with every interval Compare sees moved by a fraction
// of its half-width, frac in [-1, 1] (the estimate and both ends move
// together: the data could have come out anywhere in the interval). A
// verdict Compare decides must not turn into the opposite under any frac;
// it may become inconclusive. Tests only: it is not safe to call while
// another goroutine compares.
func Perturbed(frac float64, f func()) {
	shift = func(iv stats.Interval) stats.Interval {
		d := frac * iv.HalfWidth()
		iv.Mean, iv.Lo, iv.Hi = iv.Mean+d, iv.Lo+d, iv.Hi+d
		return iv
	}
	defer func() { shift = nil }()
	f()
}

// Opposite says whether a and b are decided verdicts that contradict each
// other: reproduced, partly and not reproduced are each the opposite of
// the other two; inconclusive and not checkable contradict nothing.
func Opposite(a, b report.Verdict) bool {
	decided := func(v report.Verdict) bool {
		return v == report.Reproduced || v == report.PartlyReproduced || v == report.NotReproduced
	}
	return decided(a) && decided(b) && a != b
}
