package main

import (
	"context"
	"testing"

	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/study"
	"commlab/cmd/gen-report/internal/verdict"
)

// TestVerdictsHoldWithinIntervals is issue 22's test of earned verdicts:
// every study's quick sweep runs once, then its page is built again with
// every interval the findings compare moved by up to its half-width either
// way (the data could have come out anywhere in it). A decided verdict
// (reproduced, partly, not reproduced) may become inconclusive, never
// another decided one.
func TestVerdictsHoldWithinIntervals(t *testing.T) {
	sweeps, err := layOut(study.Config{Full: false, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, ls := range sweeps {
		t.Run(ls.name, func(t *testing.T) {
			raw, err := ls.Run(context.Background(), nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			verdicts := func(frac float64) []findingsRecord {
				var page report.Page
				var err error
				if frac == 0 {
					page, err = ls.Page(raw)
				} else {
					verdict.Perturbed(frac, func() { page, err = ls.Page(raw) })
				}
				if err != nil {
					t.Fatal(err)
				}
				return pageFindings(page)
			}
			base := verdicts(0)
			for _, frac := range []float64{-1, -0.5, 0.5, 1} {
				for i, f := range verdicts(frac) {
					if b := base[i]; verdict.Opposite(report.Verdict(b.Verdict), report.Verdict(f.Verdict)) {
						t.Errorf("finding %d (%.60s…): %s, but %s with the intervals moved by %+g of their half-width", i+1, b.Claim, b.Verdict, f.Verdict, frac)
					}
				}
			}
		})
	}
}
