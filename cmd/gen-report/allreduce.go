package main

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"commlab/cmd/gen-report/internal/report"
	"commlab/engine/allreduce"
	"commlab/engine/sweep"
)

// allreduceStudy is the paper-000 sweep: sets A, B, C1, C2 on one grid
// each, every feasible cell a sweep point.
type allreduceStudy struct {
	Full   bool   `json:"full"`
	Trials int    `json:"trials"`
	Seed   uint64 `json:"seed"`
	sets   []allreduce.Set
	points []cellRef // sweep point index -> cell
}

type cellRef struct{ set, xi, ki int }

func newAllreduceStudy(full bool, trials int, seed uint64) *allreduceStudy {
	s := &allreduceStudy{Full: full, Trials: trials, Seed: seed, sets: allreduce.PaperSets(full)}
	for si, set := range s.sets {
		for xi := range set.XExp {
			for ki, k := range set.K {
				if _, ok := set.Point(xi, k); ok {
					s.points = append(s.points, cellRef{si, xi, ki})
				}
			}
		}
	}
	return s
}

// fingerprint names the grid so that shards of different grids never merge.
func (s *allreduceStudy) fingerprint() string {
	return fmt.Sprintf("allreduce/v1 full=%t trials=%d seed=%d points=%d", s.Full, s.Trials, s.Seed, len(s.points))
}

func (s *allreduceStudy) params(pt int) allreduce.Params {
	c := s.points[pt]
	set := s.sets[c.set]
	p, _ := set.Point(c.xi, set.K[c.ki])
	return p
}

// run sweeps the shard's points; the result is [point][trial] ByT.
func (s *allreduceStudy) run(ctx context.Context, sh sweep.Shard, progress func(done, total float64)) ([][][]float64, error) {
	return sweep.Run(ctx, sweep.Plan{
		Points: len(s.points), Trials: s.Trials, Seed: s.Seed, Shard: sh, Progress: progress,
		Cost: func(pt int) float64 { return allreduce.Updates(s.params(pt)) },
	}, func() *allreduce.Simulator { return new(allreduce.Simulator) },
		func(sim *allreduce.Simulator, pt, _ int, rng *rand.Rand) ([]float64, error) {
			r, err := sim.Run(s.params(pt), rng, nil)
			return r.ByT, err
		})
}

// cells reduces the sweep to one Summary per grid cell: [set][xi][ki],
// nil where the cell is infeasible.
func (s *allreduceStudy) cells(results [][][]float64) ([][][]*allreduce.Summary, error) {
	out := make([][][]*allreduce.Summary, len(s.sets))
	for si, set := range s.sets {
		out[si] = make([][]*allreduce.Summary, len(set.XExp))
		for xi := range out[si] {
			out[si][xi] = make([]*allreduce.Summary, len(set.K))
		}
	}
	for pt, c := range s.points {
		sum, err := allreduce.Summarize(s.params(pt), results[pt])
		if err != nil {
			return nil, fmt.Errorf("point %d: %w", pt, err)
		}
		out[c.set][c.xi][c.ki] = &sum
	}
	return out, nil
}

// allreduceFigure is one figure of the paper.
type allreduceFigure struct {
	num        int
	set        string
	kind       string // influence, effect, optimalT, timeVsP
	zmin, zmax *float64
	atExp      float64 // timeVsP: the x axis value (a power of ten) of the cut
}

var allreduceFigures = []allreduceFigure{
	{num: 5, set: "A", kind: "influence"},
	{num: 6, set: "A", kind: "effect"},
	{num: 7, set: "A", kind: "optimalT"},
	{num: 8, set: "B", kind: "influence", zmin: report.Float(0), zmax: report.Float(120)},
	{num: 9, set: "B", kind: "influence", zmin: report.Float(1), zmax: report.Float(5)},
	{num: 10, set: "B", kind: "effect"},
	{num: 11, set: "B", kind: "optimalT"},
	{num: 12, set: "B", kind: "timeVsP", atExp: -2},
	{num: 13, set: "C1", kind: "influence", zmin: report.Float(1), zmax: report.Float(12)},
	{num: 14, set: "C1", kind: "influence", zmin: report.Float(1), zmax: report.Float(3)},
	{num: 15, set: "C1", kind: "effect"},
	{num: 16, set: "C1", kind: "optimalT"},
	{num: 17, set: "C2", kind: "influence", zmin: report.Float(0), zmax: report.Float(80)},
	{num: 18, set: "C2", kind: "influence", zmin: report.Float(1), zmax: report.Float(5)},
	{num: 19, set: "C2", kind: "effect"},
	{num: 20, set: "C2", kind: "optimalT"},
	{num: 21, set: "C1", kind: "timeVsP", atExp: -2},
}

func (s *allreduceStudy) setIndex(name string) int {
	return slices.IndexFunc(s.sets, func(x allreduce.Set) bool { return x.Name == name })
}

// setCaption states a set's fixed parameters.
func setCaption(set allreduce.Set) string {
	b := set.Base
	fixed := fmt.Sprintf("α = %g s, period = %g s", b.Alpha, b.Period)
	if set.X == allreduce.TcommOverDuration {
		fixed += fmt.Sprintf(", duration = %g s; x varies N", b.Duration)
	} else {
		fixed += fmt.Sprintf(", N = %g B; x varies duration", b.N)
	}
	return fmt.Sprintf("Set %s: %s; β = %g s/B, γ = %g s/B, both jitters on.", set.Name, fixed, b.Beta, b.Gamma)
}

func kLabel(k int) string { return fmt.Sprintf("2^%d", k) }

// page builds the allreduce report page from the cell summaries.
func (s *allreduceStudy) page(cells [][][]*allreduce.Summary) report.Page {
	mode := "full sweeps"
	if !s.Full {
		mode = "quick grid (make report regenerates the full sweeps)"
	}
	p := report.Page{
		File:     "allreduce.html",
		Title:    "Butterfly allreduce under jitter, with redundant exchanges",
		Subtitle: "Paper 000 (Matsumoto, Suda): Fig. 5-21 regenerated, " + mode,
		Intro: strings.Join([]string{
			"The butterfly (recursive-doubling) allreduce runs K = log2 P stages; process i exchanges with i XOR 2^(k-1) and reduces (eq. 1, 2). The proposed method adds T redundant exchanges after stage K along the partner patterns of stages 1..T: every process forwards the earliest copy of the final result it holds and adopts the earliest copy it sees. OS jitter is periodic (phase uniform per process), network noise is Poisson per port; both as in specs/allreduce-jitter.md.",
			fmt.Sprintf("Each cell is the mean of %d trials (seed %d; every trial's seed derives from the seed, the cell and the trial only). Influence = conventional time with jitter / without (K·(Tcomm + γN)). Effect = proposed / conventional, where proposed is the least mean over T = 1..K (the paper's choice). Optimal T is the smallest T whose mean is within %g %% of the best (settled in the spec). Empty cells are infeasible: the x value would need N < 0.", s.Trials, s.Seed, 100*allreduce.OptimalTol),
			"Axes are logarithmic as in the paper: x in thirds of a decade (10^-1.67 is about 0.0215), y as P = 2^K. Every chart links to its data as CSV and JSON.",
		}, "\n\n"),
	}
	bySet := map[string]*report.Section{}
	var order []string
	for _, f := range allreduceFigures {
		si := s.setIndex(f.set)
		set := s.sets[si]
		sec, ok := bySet[f.set]
		if !ok {
			sec = &report.Section{Title: "Set " + f.set, Intro: setCaption(set)}
			bySet[f.set] = sec
			order = append(order, f.set)
		}
		sec.Items = append(sec.Items, s.figure(f, set, cells[si]))
	}
	for _, name := range order {
		p.Sections = append(p.Sections, *bySet[name])
	}
	p.Sections = append(p.Sections, report.Section{
		Title: "Findings",
		Intro: "Each of the paper's six findings, checked against the data above. The thresholds are stated in each piece of evidence; the verdicts are computed, not written by hand.",
		Items: []any{report.Findings{Title: "The paper's findings against this simulation", Items: s.findings(cells)}},
	})
	return p
}

func (s *allreduceStudy) figure(f allreduceFigure, set allreduce.Set, cells [][]*allreduce.Summary) any {
	id := fmt.Sprintf("fig%02d", f.num)
	yAxis := report.Axis{Name: "P"}
	for _, k := range set.K {
		yAxis.Labels = append(yAxis.Labels, kLabel(k))
		yAxis.Values = append(yAxis.Values, float64(int(1)<<k))
	}
	if f.kind == "timeVsP" {
		xi := slices.Index(set.XExp, f.atExp)
		lc := &report.LineChart{
			ID:    id,
			Title: fmt.Sprintf("Fig. %d  Allreduce time vs P at %s = %s", f.num, set.X, allreduce.ExpLabel(f.atExp)),
			Caption: fmt.Sprintf("Paper Fig. %d. %s Conventional butterfly with jitter, the proposed method (least mean over T = 1..K) and the jitter-free time, mean of %d trials.",
				f.num, setCaption(set), s.Trials),
			X: yAxis, YName: "allreduce time (s)", YLog: true, Digits: 4,
		}
		if f.num == 12 {
			lc.Caption += " The paper's caption of Fig. 12 names period = 1e-3 s and duration = 1e-5 s, but its text places the figure in experiment B (period 1e-2 s, duration 1e-4 s, α = 1e-7 s); the spec follows the text."
		}
		conv, prop, none := make([]float64, len(set.K)), make([]float64, len(set.K)), make([]float64, len(set.K))
		for ki := range set.K {
			conv[ki], prop[ki], none[ki] = math.NaN(), math.NaN(), math.NaN()
			if xi >= 0 && cells[xi][ki] != nil {
				c := cells[xi][ki]
				conv[ki], prop[ki], none[ki] = c.Conventional, c.Proposed, c.NoJitter
			}
		}
		lc.Series = []report.Series{{Name: "conventional", Values: conv}, {Name: "proposed (best T)", Values: prop}, {Name: "no jitter", Values: none}}
		return lc
	}
	xAxis := report.Axis{Name: set.X.String()}
	for xi, e := range set.XExp {
		xAxis.Labels = append(xAxis.Labels, set.Label(xi))
		xAxis.Values = append(xAxis.Values, math.Pow(10, e))
	}
	z := make([][]float64, len(set.K))
	for ki := range set.K {
		z[ki] = make([]float64, len(set.XExp))
		for xi := range set.XExp {
			z[ki][xi] = math.NaN()
			if c := cells[xi][ki]; c != nil {
				switch f.kind {
				case "influence":
					z[ki][xi] = c.Influence
				case "effect":
					z[ki][xi] = c.Effect
				case "optimalT":
					z[ki][xi] = float64(c.OptimalT)
				}
			}
		}
	}
	h := &report.HeatMap{ID: id, X: xAxis, Y: yAxis, Z: z, ZMin: f.zmin, ZMax: f.zmax, Digits: 3}
	rangeNote := ""
	if f.zmax != nil {
		rangeNote = fmt.Sprintf(" z range [%g, %g] as in the paper; values beyond it take the end colours.", *f.zmin, *f.zmax)
	}
	switch f.kind {
	case "influence":
		h.Title = fmt.Sprintf("Fig. %d  Influence of jitter", f.num)
		h.ZName = "influence (with / without jitter)"
		h.Caption = fmt.Sprintf("Paper Fig. %d: conventional time with jitter / without. %s%s", f.num, setCaption(set), rangeNote)
	case "effect":
		h.Title = fmt.Sprintf("Fig. %d  Effect of the proposed method", f.num)
		h.ZName = "effect (proposed / conventional)"
		h.ZMin, h.ZMax = report.Float(0), report.Float(1)
		h.Caption = fmt.Sprintf("Paper Fig. %d: proposed time (best T) / conventional time, both with jitter; below 1 the redundant exchanges help. %s", f.num, setCaption(set))
	case "optimalT":
		h.Title = fmt.Sprintf("Fig. %d  Optimal number of redundant exchanges", f.num)
		h.ZName = "optimal T"
		h.ZMin, h.ZMax = report.Float(0), report.Float(float64(set.K[len(set.K)-1]))
		h.Digits = 2
		h.Caption = fmt.Sprintf("Paper Fig. %d: the smallest T within %g %% of the best mean time (0: no redundant exchange is worth it). %s", f.num, 100*allreduce.OptimalTol, setCaption(set))
	}
	return h
}
