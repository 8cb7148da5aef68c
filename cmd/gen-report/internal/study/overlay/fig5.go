package overlay

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"commlab/cmd/gen-report/internal/report"
	engine "commlab/engine/overlay"
	"commlab/engine/stats"
)

// Fig. 5 (Section 4.2): Integer Sort under topology-aware connections with
// a shortcut cache of C, all-to-all connections ("all") and 64 random
// ones ("random"), regenerated for every reading of what a shortcut can
// carry (docs/overlay.md): whole key messages or chunks, the kernel's or
// the application's handshake. Every cell runs the same seeds, and every
// cell of one seed draws the same keys (common random numbers: trial t of
// every run draws from sweep.RNG(seed, ovlRNGIS, t)), so the differences
// between cells are paired by seed and their intervals are far narrower
// than the times'.

// ovlCell is one configuration of Fig. 5: a chunk size (0: whole key
// messages), a policy, a cache size C and a handshake reading (C = 0,
// "all" and "random" open no shortcut: their handshake is the default's,
// and the run is the same under either).
type ovlCell struct {
	Chunk     int
	Policy    engine.Policy
	Cache     int
	Handshake engine.Handshake
}

// shortcuts says whether the cell opens shortcuts, so that its handshake
// matters.
func (c ovlCell) shortcuts() bool { return c.Policy == engine.Topology && c.Cache > 0 }

// label is the cell's bar: its cache size, "all" or "random".
func (c ovlCell) label() string {
	if c.Policy == engine.Topology {
		return strconv.Itoa(c.Cache)
	}
	return string(c.Policy)
}

// name says the cell in words: "topology-aware, C = 4, kernel handshake".
func (c ovlCell) name() string {
	switch {
	case c.Policy != engine.Topology:
		return fmt.Sprintf("%q", string(c.Policy))
	case c.Cache == 0:
		return "topology-aware, C = 0"
	}
	return fmt.Sprintf("topology-aware, C = %d, %s handshake", c.Cache, c.Handshake)
}

// chunkName is a chunk size in words: "whole messages", "256 B chunks".
func chunkName(chunk int) string {
	if chunk == 0 {
		return "whole messages"
	}
	return fmt.Sprintf("%d B chunks", chunk)
}

// chunkShort is a chunk size for a table cell or a legend: "whole", "256 B".
func chunkShort(chunk int) string {
	if chunk == 0 {
		return "whole"
	}
	return fmt.Sprintf("%d B", chunk)
}

// fig5Cells are Fig. 5's cells in the order of the page: per chunk size,
// C = 0, then every C > 0 under the kernel's and the application's
// handshake, then "all" and "random".
func (s *overlayStudy) fig5Cells() []ovlCell {
	var cs []ovlCell
	for _, ch := range s.chunks {
		for _, c := range s.caches {
			for _, hs := range engine.Handshakes {
				if c == 0 && hs != engine.HandshakeKernel {
					continue
				}
				cs = append(cs, ovlCell{ch, engine.Topology, c, hs})
			}
		}
		cs = append(cs, ovlCell{ch, engine.All, 0, engine.HandshakeKernel}, ovlCell{ch, engine.Random, 0, engine.HandshakeKernel})
	}
	return cs
}

// cellParams are the engine's parameters of a Fig. 5 cell.
func (s *overlayStudy) cellParams(c ovlCell) engine.Params {
	p := s.is
	p.ChunkBytes, p.Policy, p.Cache, p.Handshake = c.Chunk, c.Policy, c.Cache, c.Handshake
	return p
}

// ovlBar is one cell's runs, one per seed.
type ovlBar struct {
	Cell ovlCell
	Runs []isResult
}

// times are the bar's times (s), one per seed.
func (b ovlBar) times() []float64 {
	xs := make([]float64, len(b.Runs))
	for i, r := range b.Runs {
		xs[i] = r.Time
	}
	return xs
}

// mean is the mean over the seeds of f.
func (b ovlBar) mean(f func(isResult) float64) float64 {
	var m float64
	for _, r := range b.Runs {
		m += f(r) / float64(len(b.Runs))
	}
	return m
}

// time is the bar's mean time with its 95 % t-interval (s).
func (b ovlBar) time() stats.Interval { return meanT(b.times()) }

// meanT is MeanT of values that Decode has vetted (finite, at least two
// seeds): it cannot fail.
func meanT(xs []float64) stats.Interval {
	iv, err := stats.MeanT(xs)
	if err != nil {
		panic(fmt.Sprintf("overlay: an interval of vetted times: %v", err))
	}
	return iv
}

// vs is the paired difference of bar a against bar b in percent,
// 100 · (mean a / mean b − 1), with Fieller's 95 % interval of the ratio of
// the paired means (the pairs share their keys: common random numbers).
// Negative: a is faster.
func vs(a, b ovlBar) (stats.Interval, error) {
	iv, err := stats.Fieller(a.times(), b.times())
	if err != nil {
		return stats.Interval{}, fmt.Errorf("overlay: %s against %s (%s): %w", a.Cell.name(), b.Cell.name(), chunkName(a.Cell.Chunk), err)
	}
	return pct(iv), nil
}

// pct turns an interval of a ratio into one of the difference in percent.
func pct(iv stats.Interval) stats.Interval {
	iv.Mean, iv.Lo, iv.Hi = 100*(iv.Mean-1), 100*(iv.Lo-1), 100*(iv.Hi-1)
	return iv
}

// fmtPct writes a difference in percent with its interval: "−6.6 [−7.6, −5.6] %".
func fmtPct(iv stats.Interval) string {
	return fmt.Sprintf("%+.1f [%+.1f, %+.1f] %%", iv.Mean, iv.Lo, iv.Hi)
}

// fmtMsIv writes a time interval in ms: "483 [470, 496] ms".
func fmtMsIv(iv stats.Interval) string { return msIv(iv) + " ms" }

// msIv writes a time interval in ms without the unit: "483 [470, 496]".
func msIv(iv stats.Interval) string {
	return fmt.Sprintf("%.4g [%.4g, %.4g]", ms(iv.Mean), ms(iv.Lo), ms(iv.Hi))
}

// ovlFig5 is Fig. 5's bars with the paired differences the findings and
// the charts read.
type ovlFig5 struct {
	Bars []ovlBar
	// Diffs[i] are bar i's differences (%, paired by seed) against C = 0,
	// "all" and "random" of its chunk size; NaN-free, zero Interval where
	// it has none (C = 0 against itself, "all" against itself).
	Diffs []ovlDiffs
}

// ovlDiffs are one bar's paired differences; Has says which it has.
type ovlDiffs struct {
	VsC0, VsAll, VsRandom    stats.Interval
	HasC0, HasAll, HasRandom bool
}

// newFig5 computes the differences of every bar.
func newFig5(bars []ovlBar) (ovlFig5, error) {
	f := ovlFig5{Bars: bars, Diffs: make([]ovlDiffs, len(bars))}
	for i, b := range bars {
		c0, all, random := f.find(b.Cell.Chunk, engine.Topology, 0, engine.HandshakeKernel), f.find(b.Cell.Chunk, engine.All, 0, engine.HandshakeKernel), f.find(b.Cell.Chunk, engine.Random, 0, engine.HandshakeKernel)
		d := &f.Diffs[i]
		var err error
		if b.Cell.shortcuts() && c0 >= 0 {
			if d.VsC0, err = vs(b, bars[c0]); err != nil {
				return f, err
			}
			d.HasC0 = true
		}
		if b.Cell.Policy != engine.All && all >= 0 {
			if d.VsAll, err = vs(b, bars[all]); err != nil {
				return f, err
			}
			d.HasAll = true
		}
		if b.Cell.Policy != engine.Random && random >= 0 {
			if d.VsRandom, err = vs(b, bars[random]); err != nil {
				return f, err
			}
			d.HasRandom = true
		}
	}
	return f, nil
}

// find is the index of the bar with that configuration, or −1.
func (f ovlFig5) find(chunk int, pol engine.Policy, cache int, hs engine.Handshake) int {
	for i, b := range f.Bars {
		if b.Cell == (ovlCell{chunk, pol, cache, hs}) {
			return i
		}
	}
	return -1
}

// reading is one reading of the paper's mechanism: a chunk size and a
// handshake.
type reading struct {
	Chunk     int
	Handshake engine.Handshake
}

func (r reading) String() string {
	return fmt.Sprintf("%s, %s handshake", chunkName(r.Chunk), r.Handshake)
}

// readings are the Fig. 5 readings, the default's handshake first per
// chunk size.
func (s *overlayStudy) readings() []reading {
	var out []reading
	for _, ch := range s.chunks {
		for _, hs := range engine.Handshakes {
			out = append(out, reading{ch, hs})
		}
	}
	return out
}

// topology lists the reading's topology-aware bars, by cache size: C = 0
// (the same run under either handshake) and every C > 0 under its
// handshake.
func (f ovlFig5) topology(rd reading, caches []int) []int {
	var out []int
	for _, c := range caches {
		hs := rd.Handshake
		if c == 0 {
			hs = engine.HandshakeKernel
		}
		if i := f.find(rd.Chunk, engine.Topology, c, hs); i >= 0 {
			out = append(out, i)
		}
	}
	return out
}

// fig5Chart is Fig. 5 at one chunk size: a bar per cache size under each
// handshake, "all" and "random"; the time is the mean over the seeds (the
// table gives its interval, the charts below the paired differences).
func (s *overlayStudy) fig5Chart(f ovlFig5, chunk int) *report.BarChart {
	x := report.Axis{Name: "connections: cache size C (topology-aware), all or random"}
	for _, c := range s.caches {
		x.Labels = append(x.Labels, strconv.Itoa(c))
	}
	x.Labels = append(x.Labels, "all", "random")
	var series []report.BarSeries
	for _, hs := range engine.Handshakes {
		ser := report.BarSeries{Name: string(hs) + " handshake", Values: make([]float64, len(x.Labels)), Links: make([]*report.Link, len(x.Labels))}
		for k, lab := range x.Labels {
			ser.Values[k] = math.NaN()
			for i, b := range f.Bars {
				c := b.Cell
				if c.Chunk != chunk || c.label() != lab || c.shortcuts() && c.Handshake != hs || !c.shortcuts() && hs != engine.HandshakeKernel {
					continue
				}
				ser.Values[k] = ms(b.time().Mean)
				ser.Links[k] = s.sceneLink(c, fmt.Sprintf("Fig. 5's bar %s, %s (mean %s over %d seeds)", c.name(), chunkName(chunk), fmtMsIv(f.Bars[i].time()), len(b.Runs)))
			}
		}
		series = append(series, ser)
	}
	id := "overlay-fig5"
	if chunk > 0 {
		id = fmt.Sprintf("overlay-fig5-c%d", chunk)
	}
	return &report.BarChart{
		ID: id, Title: "Fig. 5: Integer Sort execution time, " + chunkName(chunk),
		Caption: fmt.Sprintf("%d processes on %d nodes over %d switches, NPB IS class A, %d iteration(s)%s, %s. 0 … %d: topology-aware static connections and a shortcut cache of that size, under the kernel's and the application's handshake (C = 0 opens no shortcut: one bar); all: every pair connected; random: %d random connections per process. Mean over %d seeds; the table below gives each bar's interval, the charts after it the differences paired by seed. A click on a bar opens the overlay scene with that configuration.",
			s.is.Procs, s.is.Nodes, s.is.Switches, s.is.Iterations, s.itersNote(), chunkName(chunk), s.caches[len(s.caches)-1], s.is.RandomDegree, s.seeds),
		X: x, YName: "execution time (ms)", Digits: 4, Series: series,
	}
}

// diffChart draws one kind of paired difference (against C = 0, "all" or
// "random") per reading over the cache sizes, with its interval as error
// bars.
func (s *overlayStudy) diffChart(f ovlFig5, id, title, against string, caches []int, pick func(ovlDiffs) (stats.Interval, bool)) *report.LineChart {
	x := report.Axis{Name: "shortcut cache size C"}
	for _, c := range caches {
		x.Labels = append(x.Labels, strconv.Itoa(c))
		x.Values = append(x.Values, float64(c))
	}
	var series []report.Series
	for _, rd := range s.readings() {
		ser := report.Series{Name: fmt.Sprintf("%s, %s", chunkShort(rd.Chunk), rd.Handshake), Values: make([]float64, len(caches)),
			Lo: make([]float64, len(caches)), Hi: make([]float64, len(caches)), Links: make([]*report.Link, len(caches))}
		for k, c := range caches {
			ser.Values[k], ser.Lo[k], ser.Hi[k] = math.NaN(), math.NaN(), math.NaN()
			if c == 0 && rd.Handshake != engine.HandshakeKernel {
				continue // no shortcut, no handshake: the kernel's series has the bar
			}
			i := f.find(rd.Chunk, engine.Topology, c, rd.Handshake)
			if c == 0 {
				i = f.find(rd.Chunk, engine.Topology, 0, engine.HandshakeKernel)
			}
			if i < 0 {
				continue
			}
			iv, ok := pick(f.Diffs[i])
			if !ok {
				continue
			}
			ser.Values[k], ser.Lo[k], ser.Hi[k] = iv.Mean, iv.Lo, iv.Hi
			ser.Links[k] = s.sceneLink(f.Bars[i].Cell, fmt.Sprintf("%s, %s: %s against %s", f.Bars[i].Cell.name(), chunkName(rd.Chunk), fmtPct(iv), against))
		}
		series = append(series, ser)
	}
	return &report.LineChart{
		ID: id, Title: title,
		Caption: fmt.Sprintf("Topology-aware connections with C shortcuts against %s of the same chunk size, per chunk size and handshake: 100 · (mean time / mean time of %s − 1), the means over %d seeds paired by seed (every cell of a seed sorts the same keys), with Fieller's 95 %% interval of the ratio as error bars. Below 0: faster. A click on a point opens the overlay scene with that configuration.",
			against, against, s.seeds),
		X: x, YName: "time difference (%)", Digits: 3, Series: series,
	}
}

// fig5Conns draws the connections per process of the kernel's bars.
func (s *overlayStudy) fig5Conns(f ovlFig5) *report.BarChart {
	x := report.Axis{Name: "connections: cache size C (topology-aware), all or random"}
	var cells []ovlCell
	for _, b := range f.Bars {
		if b.Cell.Chunk == s.chunks[0] && b.Cell.Handshake == engine.HandshakeKernel {
			x.Labels = append(x.Labels, b.Cell.label())
			cells = append(cells, b.Cell)
		}
	}
	var series []report.BarSeries
	for _, ch := range s.chunks {
		mean, mx := make([]float64, len(cells)), make([]float64, len(cells))
		for k, c := range cells {
			c.Chunk = ch
			b := f.Bars[f.find(c.Chunk, c.Policy, c.Cache, c.Handshake)]
			mean[k], mx[k] = b.mean(func(r isResult) float64 { return r.ConnMean }), b.mean(func(r isResult) float64 { return r.ConnMax })
		}
		series = append(series, report.BarSeries{Name: "mean, " + chunkShort(ch), Values: mean}, report.BarSeries{Name: "max, " + chunkShort(ch), Values: mx})
	}
	return &report.BarChart{
		ID: "overlay-fig5-conns", Title: "Connections per process in Fig. 5's runs",
		Caption: fmt.Sprintf("Each process's peak number of open connections (static and shortcuts, either end), mean and maximum over the processes, mean over %d seeds, kernel handshake. The paper: at most 31 static connections with the topology, 127 with all, 64 random.", s.seeds),
		X:       x, YName: "connections per process", Digits: 4, Series: series,
	}
}

// fig5Table lists every cell: time with its interval, the paired
// differences, the connections, relays, shortcuts and buffers.
func (s *overlayStudy) fig5Table(f ovlFig5) *report.Table {
	t := &report.Table{
		ID: "overlay-fig5-table", Title: "Fig. 5's runs in numbers",
		Caption: fmt.Sprintf("Per cell: the mean time over %d seeds with its 95 %% t-interval; the differences against C = 0, \"all\" and \"random\" of the same chunk size, paired by seed (Fieller's 95 %% interval of the ratio of the means; negative: faster); and, mean over the seeds, the connections, messages relayed, shortcuts opened and evicted by LRU, and the buffer memory connections hold (each its path's bandwidth-delay product). A click on a row opens the overlay scene with that configuration.", s.seeds),
		Header:  []string{"key messages", "connections", "handshake", "time (ms)", "vs C = 0", "vs all", "vs random", "conn. mean", "conn. max", "static max", "relayed", "shortcuts opened", "evicted", "buffer max (KiB)"},
	}
	opt := func(iv stats.Interval, ok bool) string {
		if !ok {
			return "—"
		}
		return fmtPct(iv)
	}
	for i, b := range f.Bars {
		c, d := b.Cell, f.Diffs[i]
		hs := "—"
		if c.shortcuts() {
			hs = string(c.Handshake)
		}
		conns := c.label()
		if c.Policy == engine.Topology {
			conns = "topology-aware, C = " + conns
		}
		t.Rows = append(t.Rows, []string{chunkShort(c.Chunk), conns, hs, msIv(b.time()),
			opt(d.VsC0, d.HasC0), opt(d.VsAll, d.HasAll), opt(d.VsRandom, d.HasRandom),
			fmt.Sprintf("%.1f", b.mean(func(r isResult) float64 { return r.ConnMean })), fmt.Sprintf("%.0f", b.mean(func(r isResult) float64 { return r.ConnMax })),
			fmt.Sprintf("%.0f", b.mean(func(r isResult) float64 { return r.StaticMax })), fmt.Sprintf("%.0f", b.mean(func(r isResult) float64 { return float64(r.Relayed) })),
			fmt.Sprintf("%.0f", b.mean(func(r isResult) float64 { return float64(r.ShortcutsOpened) })), fmt.Sprintf("%.0f", b.mean(func(r isResult) float64 { return float64(r.Evicted) })),
			fmt.Sprintf("%.1f", b.mean(func(r isResult) float64 { return r.BufferBytes })/1024)})
		t.RowLinks = append(t.RowLinks, s.sceneLink(c, fmt.Sprintf("%s, %s (%s over %d seeds)", c.name(), chunkName(c.Chunk), fmtMsIv(b.time()), len(b.Runs))))
	}
	return t
}

// readingsTable sets the readings side by side: per chunk size and
// handshake, the verdict of each of the paper's Fig. 5 claims and where
// it holds.
func (s *overlayStudy) readingsTable(f ovlFig5) (*report.Table, string) {
	t := &report.Table{
		ID: "overlay-fig5-readings", Title: "Fig. 5's claims under each reading, side by side",
		Caption: "Per reading of what a shortcut can carry (the chunk size of the key messages and who completes the handshake): the verdict of each of the paper's three Fig. 5 claims at every cache size of the grid, the cache sizes where each holds (our interval on the paper's side of its threshold), how many of the claims' checks (one per cache size and reference) are reproduced, and how many claims. The reading that fits best has the most claims reproduced (a partly reproduced one counts half), ties going to the most checks reproduced. The findings below give each check with its interval.",
		Header:  []string{"reading", "beats all and random (4.2, \"良い性能\")", "where", "nearly equal to all or better (abstract, \"同程度以上\")", "where", "shortcuts improve (4.2, \"性能が向上\")", "where", "checks reproduced", "claims reproduced"},
	}
	best, bestScore := "", -1.0
	for _, rd := range s.readings() {
		a, b, c := s.claimChecks(f, rd)
		va, vb, vc := verdict3(a), verdict3(b), verdict3(c)
		score := 0.0
		for _, v := range []report.Verdict{va, vb, vc} {
			switch v {
			case report.Reproduced:
				score++
			case report.PartlyReproduced:
				score += 0.5
			}
		}
		n := 0
		for _, v := range []report.Verdict{va, vb, vc} {
			if v == report.Reproduced {
				n++
			}
		}
		// Ties go to the reading with more of its checks holding.
		score += float64(holding(a)+holding(b)+holding(c)) / 1000
		if score > bestScore {
			best, bestScore = rd.String(), score
		}
		t.Rows = append(t.Rows, []string{rd.String(), string(va), where(a), string(vb), where(b), string(vc), where(c),
			fmt.Sprintf("%d of %d", holding(a)+holding(b)+holding(c), len(a)+len(b)+len(c)), fmt.Sprintf("%d of 3", n)})
	}
	return t, best
}

// verdict3 is a claim's verdict from its checks, NotCheckable for none.
func verdict3(checks []claimCheck) report.Verdict {
	if len(checks) == 0 {
		return report.NotCheckable
	}
	return combine(checks)
}

// holding counts the checks reproduced.
func holding(checks []claimCheck) int {
	n := 0
	for _, c := range checks {
		if c.check.Verdict == report.Reproduced {
			n++
		}
	}
	return n
}

// where lists the cache sizes whose checks all hold: "C = 4, 8".
func where(checks []claimCheck) string {
	var ok []string
	failed := map[int]bool{}
	for _, c := range checks {
		if c.check.Verdict != report.Reproduced {
			failed[c.cache] = true
		}
	}
	seen := map[int]bool{}
	for _, c := range checks {
		if !failed[c.cache] && !seen[c.cache] {
			seen[c.cache] = true
			ok = append(ok, strconv.Itoa(c.cache))
		}
	}
	if len(ok) == 0 {
		return "none"
	}
	return "C = " + strings.Join(ok, ", ")
}
