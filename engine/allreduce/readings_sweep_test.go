package allreduce

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	enginesweep "commlab/engine/sweep"
)

// The measurement behind docs/allreduce.md's table of readings: every
// reading over the paper's full sets (outside the two cuts, the x values on
// whole decades) with adaptive trials. It takes an hour or more of CPU, so
// it runs only when asked:
//
//	go test -run '^TestReadingsSweep$' -timeout 0 ./engine/allreduce/ -readings.out /tmp/readings.jsonl
//
// It writes one JSON line per cell and reading, then the summary tables
// (Markdown) to the same path with .md appended. -readings.in reads such a
// file instead of sweeping, to print the tables again. The study's
// adaptive sweep (issue 22) will take this over; until then this is where
// the numbers come from.
var (
	readingsOut       = flag.String("readings.out", "", "TestReadingsSweep: sweep the readings and write JSON lines here")
	readingsIn        = flag.String("readings.in", "", "TestReadingsSweep: summarise this file of JSON lines instead of sweeping")
	readingsQuick     = flag.Bool("readings.quick", false, "TestReadingsSweep: the quick grids (P ≤ 2^12, whole decades)")
	readingsCap       = flag.Int("readings.cap", 1000, "TestReadingsSweep: most trials a cell runs, unless MinTrials asks for more and the budget allows them")
	readingsBudget    = flag.Float64("readings.budget", 1e8, "TestReadingsSweep: most process-stage updates a cell spends (at least 10 trials)")
	readingsDecades   = flag.Bool("readings.decades", true, "TestReadingsSweep: outside the cuts of Fig. 12 and 21, only the x values on whole decades")
	readingsCutBudget = flag.Float64("readings.cutbudget", 2e9, "TestReadingsSweep: the same for the cells of Fig. 12's and Fig. 21's cuts")
	readingsTol       = flag.Float64("readings.tol", 0.02, "TestReadingsSweep: stop at this relative 95 % half-width of the conventional and the proposed mean")
	readingsWaive     = flag.Float64("readings.waive", 0.005, "TestReadingsSweep: the tolerance passed to MinTrials")
	readingsWorkers   = flag.Int("readings.workers", 2, "TestReadingsSweep: goroutines")
	readingsSeed      = flag.Uint64("readings.seed", 1, "TestReadingsSweep: seed; trial t of cell c draws from sweep.RNG(seed, c, t) under every reading")
)

// sweepReadings are the readings swept: the four of the issue and the
// combination that stands behind the audit's crude stand-in (OS jitter only
// while reducing, network noise all but gone).
var sweepReadings = append(slices.Clone(readings), struct {
	name string
	edit func(*Params)
}{"os_hits=compute+net_wait=inverse", func(p *Params) { p.OSHits, p.NetWait = HitsCompute, WaitInverse }})

// readingCell is one cell under one reading.
type readingCell struct {
	Set       string    `json:"set"`
	X         float64   `json:"x"` // the x axis value's power of ten
	K         int       `json:"K"`
	Reading   string    `json:"reading"`
	Trials    int       `json:"n"`
	MinTrials int       `json:"min_trials"`
	Capped    bool      `json:"capped"` // stopped at the cap or the budget before the precision or the minimum
	NoJitter  float64   `json:"no_jitter"`
	Conv      float64   `json:"conv"`
	ConvHW    float64   `json:"conv_hw"` // 95 % t-interval half-width
	Prop      float64   `json:"prop"`    // least mean over T = 1..K
	PropHW    float64   `json:"prop_hw"`
	BestT     int       `json:"best_T"`
	OptimalT  int       `json:"opt_T"`
	Effect    float64   `json:"effect"` // Prop/Conv
	EffectHW  float64   `json:"effect_hw"`
	HitConv   float64   `json:"hit_conv_model"` // Params.Hits
	HitProp   float64   `json:"hit_prop_model"`
	LateConv  int       `json:"late_conv"` // trials late by more than duration/2
	LateProp  int       `json:"late_prop"`
	MeanByT   []float64 `json:"mean_by_T"`
}

func TestReadingsSweep(t *testing.T) {
	var cells []readingCell
	switch {
	case *readingsIn != "":
		f, err := os.Open(*readingsIn)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var c readingCell
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				t.Fatal(err)
			}
			cells = append(cells, c)
		}
	case *readingsOut != "":
		cells = sweepTheReadings(t, *readingsOut)
	default:
		t.Skip("a long measurement: run it with -readings.out FILE (see readings_sweep_test.go)")
	}
	md := summariseReadings(cells)
	t.Log("\n" + md)
	if *readingsOut != "" {
		if err := os.WriteFile(*readingsOut+".md", []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// sweepTheReadings runs every feasible cell of PaperSets under every
// reading, heaviest first, writing each cell as it completes.
func sweepTheReadings(t *testing.T, path string) []readingCell {
	type job struct {
		set     Set
		cell, k int
		xi      int
		reading int
		p       Params
		cut     bool
	}
	var jobs []job
	cell := 0
	for _, set := range PaperSets(!*readingsQuick) {
		for xi := range set.XExp {
			for _, k := range set.K {
				p, ok := set.Point(xi, k)
				if !ok {
					continue
				}
				cut := (set.Name == "B" || set.Name == "C1") && set.XExp[xi] == -2
				if *readingsDecades && !cut && set.XExp[xi] != math.Round(set.XExp[xi]) {
					cell++
					continue
				}
				for ri, r := range sweepReadings {
					q := p
					r.edit(&q)
					jobs = append(jobs, job{set, cell, k, xi, ri, q, cut})
				}
				cell++
			}
		}
	}
	slices.SortStableFunc(jobs, func(a, b job) int {
		if a.cut != b.cut {
			if a.cut {
				return -1
			}
			return 1
		}
		return b.k - a.k
	})
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var (
		mu    sync.Mutex
		out   []readingCell
		wg    sync.WaitGroup
		queue = make(chan job)
	)
	for range *readingsWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var sim Simulator
			for j := range queue {
				budget := *readingsBudget
				if j.cut {
					budget = *readingsCutBudget
				}
				// The cap gives way to MinTrials as far as the budget allows.
				afford := max(10, int(budget/Updates(j.p)))
				c := adaptiveCell(t, &sim, j.p, j.cell, min(max(*readingsCap, j.p.MinTrials(*readingsWaive)), afford))
				c.Set, c.X, c.K, c.Reading = j.set.Name, j.set.XExp[j.xi], j.k, sweepReadings[j.reading].name
				b, _ := json.Marshal(c)
				mu.Lock()
				out = append(out, c)
				f.Write(append(b, '\n'))
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		queue <- j
	}
	close(queue)
	wg.Wait()
	return out
}

// adaptiveCell runs trials of p (trial t from sweep.RNG(seed, cell, t)) in
// blocks until both the conventional and the proposed mean have a 95 %
// t-interval within tol of themselves and MinTrials are done, or capN.
// The first block is MinTrials (at least 10), each next a quarter more.
func adaptiveCell(t *testing.T, sim *Simulator, p Params, cell, capN int) readingCell {
	k := p.K()
	minT := p.MinTrials(*readingsWaive)
	sum, ss, sx := make([]float64, k+1), make([]float64, k+1), make([]float64, k+1)
	m0 := p.NoJitterTime()
	c := readingCell{MinTrials: minT, NoJitter: m0}
	n, need := 0, min(max(minT, 10), capN)
	for {
		for ; n < need; n++ {
			r, err := sim.Run(p, enginesweep.RNG(*readingsSeed, cell, n), nil)
			if err != nil {
				t.Error(err)
				return c
			}
			for i, v := range r.ByT {
				sum[i] += v
				ss[i] += v * v
				sx[i] += v * r.ByT[0]
			}
			if r.ByT[0] > m0+p.Duration/2 {
				c.LateConv++
			}
			if r.ByT[k] > m0+p.Duration/2 {
				c.LateProp++
			}
		}
		nf := float64(n)
		mean := func(i int) float64 { return sum[i] / nf }
		variance := func(i int) float64 { return max(0, (ss[i]-nf*mean(i)*mean(i))/(nf-1)) }
		best := 1
		for i := 2; i <= k; i++ {
			if mean(i) < mean(best) {
				best = i
			}
		}
		tq := tQuantile975(n - 1)
		c.Trials, c.BestT = n, best
		c.Conv, c.Prop = mean(0), mean(best)
		c.ConvHW, c.PropHW = tq*math.Sqrt(variance(0)/nf), tq*math.Sqrt(variance(best)/nf)
		// The ratio of paired means: delta method, Var(Y − R·X)/X̄².
		c.Effect = c.Prop / c.Conv
		cov := (sx[best] - nf*c.Conv*c.Prop) / (nf - 1)
		c.EffectHW = tq * math.Sqrt(max(0, variance(best)-2*c.Effect*cov+c.Effect*c.Effect*variance(0))/nf) / c.Conv
		precise := c.ConvHW <= *readingsTol*c.Conv && c.PropHW <= *readingsTol*c.Prop
		if precise || n >= capN {
			c.Capped = !precise || n < minT
			c.MeanByT = make([]float64, k+1)
			for i := range c.MeanByT {
				c.MeanByT[i] = mean(i)
			}
			least := slices.Min(c.MeanByT)
			for i, m := range c.MeanByT {
				if m <= least*(1+OptimalTol) {
					c.OptimalT = i
					break
				}
			}
			h := p.Hits()
			c.HitConv, c.HitProp = h.Conventional, h.Proposed
			return c
		}
		need = min(n+max(10, n/4), capN)
	}
}

// summariseReadings prints, per reading, what docs/allreduce.md compares
// with the paper: the largest influence of each set (Fig. 8, 13, 17's z
// ranges), and along the cuts of Fig. 12 and 21 the largest speedup, where
// it is at least 2, and the proposed time's steepest climb.
func summariseReadings(cells []readingCell) string {
	var b strings.Builder
	by := map[string][]readingCell{}
	for _, c := range cells {
		by[c.Reading] = append(by[c.Reading], c)
	}
	fmt.Fprintf(&b, "| reading | trials | cells capped | largest influence: set B (Fig. 8, z ≤ 120) | set C1 (Fig. 13, z ≤ 12) | set C2 (Fig. 17, z ≤ 80) |\n|---|---|---|---|---|---|\n")
	for _, r := range sweepReadings {
		cs := by[r.name]
		if len(cs) == 0 {
			continue
		}
		trials, capped := 0, 0
		for _, c := range cs {
			trials += c.Trials
			if c.Capped {
				capped++
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %d of %d |", r.name, trials, capped, len(cs))
		for _, set := range []string{"B", "C1", "C2"} {
			var top *readingCell
			for i := range cs {
				c := &cs[i]
				if c.Set == set && (top == nil || c.Conv/c.NoJitter > top.Conv/top.NoJitter) {
					top = c
				}
			}
			if top == nil {
				fmt.Fprintf(&b, " – |")
				continue
			}
			fmt.Fprintf(&b, " %.3g [%.3g, %.3g] at x = %s, P = 2^%d (n = %d) |", top.Conv/top.NoJitter,
				(top.Conv-top.ConvHW)/top.NoJitter, (top.Conv+top.ConvHW)/top.NoJitter, ExpLabel(top.X), top.K, top.Trials)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "\n| reading | largest speedup conventional/proposed: set A | set B | set C1 | set C2 |\n|---|---|---|---|---|\n")
	for _, r := range sweepReadings {
		cs := by[r.name]
		if len(cs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "| %s |", r.name)
		for _, set := range []string{"A", "B", "C1", "C2"} {
			var top *readingCell
			for i := range cs {
				c := &cs[i]
				if c.Set == set && (top == nil || c.Effect < top.Effect) {
					top = c
				}
			}
			if top == nil {
				fmt.Fprintf(&b, " – |")
				continue
			}
			fmt.Fprintf(&b, " %.3g [%.3g, %.3g] at x = %s, P = 2^%d |", 1/top.Effect, 1/(top.Effect+top.EffectHW),
				1/max(top.Effect-top.EffectHW, 1e-300), ExpLabel(top.X), top.K)
		}
		b.WriteString("\n")
	}
	for _, cut := range []struct {
		fig int
		set string
	}{{12, "B"}, {21, "C1"}} {
		cols := map[string][]readingCell{}
		var names []string
		for _, r := range sweepReadings {
			for _, c := range by[r.name] {
				if c.Set == cut.set && c.X == -2 {
					cols[r.name] = append(cols[r.name], c)
				}
			}
			if len(cols[r.name]) > 0 {
				names = append(names, r.name)
				slices.SortFunc(cols[r.name], func(a, b readingCell) int { return a.K - b.K })
			}
		}
		if len(names) == 0 {
			continue
		}
		speed := func(c readingCell) (s, lo, hi float64) {
			return 1 / c.Effect, 1 / (c.Effect + c.EffectHW), 1 / max(c.Effect-c.EffectHW, 1e-300)
		}
		fmt.Fprintf(&b, "\nFig. %d's cut (set %s at x = 10^-2): speedup conventional/proposed with its 95 %% interval (delta method on the paired means)\n\n", cut.fig, cut.set)
		fmt.Fprintf(&b, "| reading | largest speedup | interval above 2 at P | steepest climb of the proposed time (P ≥ 2^8) |\n|---|---|---|---|\n")
		for _, name := range names {
			col := cols[name]
			var peak readingCell
			var above []int
			var climb float64
			climbK := 0
			for i, c := range col {
				s, lo, _ := speed(c)
				if ps, _, _ := speed(peak); peak.Trials == 0 || s > ps {
					peak = c
				}
				if lo >= 2 {
					above = append(above, c.K)
				}
				if i > 0 && c.K >= 8 && c.Prop/col[i-1].Prop > climb {
					climb, climbK = c.Prop/col[i-1].Prop, c.K
				}
			}
			ps, plo, phi := speed(peak)
			fmt.Fprintf(&b, "| %s | %.3g [%.3g, %.3g] at 2^%d | %s | %.2fx from 2^%d to 2^%d |\n", name, ps, plo, phi, peak.K,
				kRanges(above), climb, climbK-1, climbK)
		}
		fmt.Fprintf(&b, "\n| P | %s |\n|---|%s\n", strings.Join(names, " | "), strings.Repeat("---|", len(names)))
		for _, k := range PaperSets(true)[0].K {
			fmt.Fprintf(&b, "| 2^%d |", k)
			for _, name := range names {
				i := slices.IndexFunc(cols[name], func(c readingCell) bool { return c.K == k })
				if i < 0 {
					b.WriteString(" – |")
					continue
				}
				c := cols[name][i]
				s, lo, hi := speed(c)
				mark := ""
				if c.Capped {
					mark = "*"
				}
				fmt.Fprintf(&b, " %.2f [%.2f, %.2f] %d%s |", s, lo, hi, c.Trials, mark)
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("\nCells: speedup [95 % interval] trials; * the cell stopped at its cap or budget before the precision or MinTrials.\n")
	return b.String()
}

// kRanges writes sorted exponents as runs: "2^7..2^14, 2^16".
func kRanges(ks []int) string {
	if len(ks) == 0 {
		return "nowhere"
	}
	var parts []string
	for i := 0; i < len(ks); {
		j := i
		for j+1 < len(ks) && ks[j+1] == ks[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, fmt.Sprintf("2^%d", ks[i]))
		} else {
			parts = append(parts, fmt.Sprintf("2^%d..2^%d", ks[i], ks[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}
