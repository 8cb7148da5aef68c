package logp

import (
	"math"

	"commlab/engine/logp"
	"commlab/scene"
)

// sigmaSlack is how far σ may be from the slides' implied σ
// (logp.SlidesSigmaP2, 1.75464…) and still be it: σ written to three
// decimals, 1.755, is.
const sigmaSlack = 5e-4

// PaperPoint shows the slides' excess E[T] − T_s(μ) beside the run's when
// the values are one of the slides' two plots at its optimum: P = 2 with
// L_s = μ (+0.7), or P = 3 with L_s = μ + 0.76 (+0.87). The slides give
// neither σ nor the machine, so the point is the report's machine (μ =
// 10, o = 1, g = 1, no gap fluctuation; logp.Default) at σ =
// logp.SlidesSigmaP2, the one σ the slides imply; n may be any for which
// the plan is a star on all P processors at μ and at L_s, where the excess
// does not depend on n. Ours is the run's Monte Carlo E[T](L_s), with its
// standard error, less T_s(μ), the plan's planned time with the mean
// latency (scene.PaperPointer).
func (Scene) PaperPoint(v scene.Values, numbers map[string]float64) []scene.PaperNumber {
	p, ls, err := Params(v)
	if err != nil {
		return nil
	}
	d := logp.Default()
	if p.L != d.L || p.O != d.O || p.G != d.G || p.GapSigma != 0 || math.Abs(p.Sigma-logp.SlidesSigmaP2()) > sigmaSlack {
		return nil
	}
	var n scene.PaperNumber
	switch {
	case p.P == 2 && ls == p.L:
		n = scene.PaperNumber{
			What:  "P = 2: E[T](L_s) − T_s(μ) at L_s = μ, the slides' optimum",
			Paper: logp.SlidesExcessP2, Digits: 1, By: "slides",
			Source: "the slides' P = 2 plot",
			Note:   "σ = 0.7·√(2π) ≈ 1.755, the σ the slides' +0.7 implies (they give none): the closed form σ/√(2π) is +0.7 by construction, the run's Monte Carlo checks it",
		}
	case p.P == 3 && math.Abs(ls-(p.L+logp.SlidesOffsetP3)) <= 1e-9:
		n = scene.PaperNumber{
			What:  "P = 3: E[T](L_s) − T_s(μ) at L_s = μ + 0.76, the slides' optimum",
			Paper: logp.SlidesExcessP3, Digits: 2, By: "slides",
			Source: "the slides' P = 3 plot",
			Note:   "σ ≈ 1.755, the one the slides' P = 2 plot implies, carried over (the slides give none); the report's section \"Which σ did the slides use?\" finds that no single σ gives both of the P = 3 numbers",
		}
	default:
		return nil
	}
	expected, ok1 := numbers["expected"]
	se, ok2 := numbers["expected_stderr"]
	if !ok1 || !ok2 {
		return nil
	}
	atMu, err := logp.Plan(p, p.L)
	if err != nil || !allStar(atMu) {
		return nil
	}
	if atLs, err := logp.Plan(p, ls); err != nil || !allStar(atLs) {
		return nil
	}
	n.Ours, n.OursSE, n.Unit = expected-atMu.Planned(), se, scene.UnitTime
	return []scene.PaperNumber{n}
}

// allStar says whether the plan uses every processor and each sends
// straight to the root.
func allStar(s *logp.Schedule) bool {
	if s.Used != s.Params.P {
		return false
	}
	for q := 1; q < s.Used; q++ {
		if s.Parent[q] != 0 {
			return false
		}
	}
	return true
}
