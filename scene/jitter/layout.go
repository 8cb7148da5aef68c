package jitter

import (
	"fmt"
	"image/color"
	"math"

	"commlab/engine/trace"
	"commlab/render"
	"commlab/render/font"
	"commlab/scene"
	"commlab/scene/chart"
)

// Fade levels: what a process did after it already held the result (the
// redundant panel), and copies nobody needed.
const (
	fadeMoot   = 0.28
	fadeUnused = 0.45
)

// stallTint is how much of the warning colour fills an OS-jitter window
// under its hatching, and redTint the fill of the redundant histogram bars.
const (
	stallTint = 0.28
	redTint   = 0.35
)

// box is an axis-aligned rectangle in canvas pixels.
type box = chart.Box

// panel is one Gantt chart: the conventional run or the redundant one.
type panel struct {
	redundant bool
	header    float64 // header baseline
	plot      box     // the lanes
	laneH     float64
}

// painter lays out one frame: the run, the playhead, the view's scale.
type painter struct {
	chart.Gantt
	r      *run
	panels []panel
	hist   box // the histogram's whole area
}

func (r *run) frame(t float64, v scene.View) render.List {
	l, _ := r.paint(t, v)
	return l
}

// paint lays out the frame and returns the painter too, whose geometry the
// layout tests check the list against.
func (r *run) paint(t float64, v scene.View) (render.List, *painter) {
	p := &painter{r: r}
	// Room for everything a finished frame draws, so the list never grows.
	if !p.Begin(v.W, v.H, v.Theme, min(max(t, 0), r.End()), 400+2*len(r.lanes)+2*r.nwork+3*len(r.msgs)) {
		return *p.L, p
	}
	p.End = r.End()
	p.TickX = p.tickX
	p.title()
	top := p.legend()
	p.arrange(top)
	for i := range p.panels {
		p.panel(&p.panels[i])
	}
	p.timeAxis()
	p.Playhead(p.panels[0].plot.Y0)
	p.histogram()
	return *p.L, p
}

func (p *painter) title() {
	r := p.r
	p.Title(fmt.Sprintf("P = %d · T = %d · t = %s", r.p.P, r.p.T, scene.Seconds(p.Now)),
		"Butterfly allreduce under OS and network jitter",
		"Allreduce under OS and network jitter",
		"Allreduce under jitter")
}

// legend draws the key to the Gantt charts under the title, wrapping onto a
// second row on narrow canvases, and returns the y where the body starts.
func (p *painter) legend() float64 {
	th, s := p.Th, p.S
	arrow := func(c color.RGBA) func(b box) {
		return func(b box) {
			p.L.Add(render.Arrow{From: render.Point{X: b.X0, Y: b.Y1}, To: render.Point{X: b.X1, Y: b.Y0}, Head: 5 * s, Style: render.Style{Stroke: c, Fill: c, Width: max(1, s)}})
		}
	}
	entries := []chart.LegendEntry{
		{Label: "reduce", Draw: p.Swatch(render.Style{Fill: th.Compute})},
		{Label: "wait for partner", Draw: p.Swatch(render.Style{Fill: th.Idle, Stroke: th.Rule})},
		{Label: "OS jitter", Draw: func(b box) { p.stall(b, false) }},
		{Label: "message", Draw: arrow(th.Butterfly)},
		{Label: "network noise", Draw: p.Stroke(render.Style{Stroke: th.Noise, Width: 3 * s})},
	}
	if p.r.view != ViewConventional {
		entries = append(entries,
			chart.LegendEntry{Label: "redundant copy", Draw: arrow(th.Redundant)},
			chart.LegendEntry{Label: "adopted copy", Draw: func(b box) {
				p.Line(b.X0, b.Y1, b.X1-4*s, b.Y0+4*s, render.Style{Stroke: th.Adopted, Width: 1.6 * max(1, s)})
				p.L.Add(render.Circle{Center: render.Point{X: b.X1 - 4*s, Y: b.Y0 + 4*s}, R: 4 * s, Style: render.Style{Fill: th.Adopted, Stroke: th.Panel, Width: s}})
			}},
		)
	}
	entries = append(entries, chart.LegendEntry{Label: "completion", Draw: p.Mark(render.Style{Stroke: th.Critical, Width: 2 * s})})
	return p.Legend(entries)
}

// arrange splits the body into the Gantt column (panels stacked on one
// time axis) and the histogram: beside it on landscape canvases, under it
// on tall ones.
func (p *painter) arrange(top float64) {
	col, hist := p.Split(p.Body(top), 0.29)
	p.hist = hist
	// Lane labels: as wide as the widest rank.
	labelW := font.Width(fmt.Sprintf("P%d", p.r.p.P-1), p.FSSmall, true) + 6*p.S
	kinds := []bool{false, true}
	switch p.r.view {
	case ViewConventional:
		kinds = []bool{false}
	case ViewRedundant:
		kinds = []bool{true}
	}
	stack, ph := p.Stack(col, col.X0+labelW, len(kinds), nil)
	p.panels = p.panels[:0]
	for i, red := range kinds {
		p.panels = append(p.panels, panel{redundant: red, header: stack[i].Header, plot: stack[i].Plot, laneH: ph / float64(len(p.r.lanes))})
	}
}

// stall draws an OS-jitter window: a light tint of the warning colour
// crossed by diagonal hatching in full strength, so that it reads as a
// stall, not as work, even printed in grey. The hatch lines sit on a grid
// fixed to the canvas, so they stay put while the window grows with the
// playhead.
func (p *painter) stall(b box, faded bool) {
	c := p.Th.Stall
	tint := render.Mix(p.Th.Panel, c, stallTint)
	if faded {
		c, tint = render.Fade(c, fadeMoot), render.Fade(tint, fadeMoot)
	}
	p.Stalled(b, tint, c, true)
}

// laneY is the centre of lane i in a panel.
func (pl *panel) laneY(i int) float64 { return pl.plot.Y0 + (float64(i)+0.5)*pl.laneH }

// done is the time the panel's run holds the result on process proc, and
// the completion of the whole run with the process that set it.
func (p *painter) done(pl *panel, proc int) float64 {
	if pl.redundant {
		return p.r.finRed[proc]
	}
	return p.r.finConv[proc]
}

func (p *painter) completion(pl *panel) (float64, int) {
	if pl.redundant {
		return p.r.red, p.r.critRed
	}
	return p.r.conv, p.r.critConv
}

func (p *painter) panel(pl *panel) {
	r, th, s := p.r, p.Th, p.S
	p.Plot(pl.plot, p.timeTicks())
	end, crit := p.completion(pl)
	finished := p.Now >= end

	// Header: which run, then its completion once the playhead gets there.
	var name, short string
	if pl.redundant {
		name = fmt.Sprintf("With T = %d redundant exchanges", r.p.T)
		short = fmt.Sprintf("T = %d redundant", r.p.T)
		if r.p.T == 0 {
			name, short = "T = 0: no redundant exchanges", "T = 0"
		}
	} else {
		name = fmt.Sprintf("Conventional butterfly, K = %d stages", r.k)
		short = "Conventional"
	}
	head := []string{name, short}
	if finished {
		res := fmt.Sprintf(": completion %s, set by P%d", scene.Seconds(end), crit)
		res2 := fmt.Sprintf(": %s (P%d)", scene.Seconds(end), crit)
		head = []string{name + res, short + res, short + res2, short}
	}
	p.Header(pl.plot.X0, pl.header, pl.plot.W(), head...)

	// Bars fill most of a lane, all of it when lanes are a couple of pixels.
	bh := chart.BarH(pl.laneH, math.Inf(1))
	for li, proc := range r.lanes {
		yc := pl.laneY(li)
		moot := math.Inf(1)
		if pl.redundant {
			moot = r.finRed[proc]
		}
		// Waiting for a partner fills the lane up to f_i^(K); the work
		// is drawn over it.
		if b := min(r.finConv[proc], p.Now); b > 0 {
			if moot < b {
				p.span(trace.Idle, 0, moot, yc, bh, false)
				p.span(trace.Idle, moot, b, yc, bh, true)
			} else {
				p.span(trace.Idle, 0, b, yc, bh, false)
			}
		}
		for _, sp := range r.work[li] {
			a, b := sp.Start, min(sp.End, p.Now)
			if b <= a {
				continue
			}
			if a < moot && moot < b {
				p.span(sp.Kind, a, moot, yc, bh, false)
				p.span(sp.Kind, moot, b, yc, bh, true)
			} else {
				p.span(sp.Kind, a, b, yc, bh, a >= moot)
			}
		}
	}
	p.messages(pl)
	p.laneLabels(pl, crit, finished)

	// Each adoption: where a process took a copy over its own result.
	if pl.redundant {
		rr := min(max(pl.laneH*0.6, 2.5*s), 5*s)
		for li, proc := range r.lanes {
			g := r.finRed[proc]
			if r.adopt[proc].exchange == 0 || g > p.Now {
				continue
			}
			p.L.Add(render.Circle{Center: render.Point{X: p.X(g), Y: pl.laneY(li)}, R: rr, Style: render.Style{Fill: th.Adopted, Stroke: th.Panel, Width: max(1, 0.8*s)}})
		}
	}
	if pl.redundant && r.view == ViewBoth && p.Now >= r.conv && r.red < r.conv {
		// The gain: where the conventional run ended, in the same panel.
		x := p.X(r.conv)
		p.VLine(x, pl.plot.Y0, pl.plot.Y1, render.Style{Stroke: th.Muted, Width: 1.5 * s, Dash: []float64{4 * s, 3 * s}})
	}
	if finished {
		x := p.X(end)
		p.VLine(x, pl.plot.Y0, pl.plot.Y1, render.Style{Stroke: th.Critical, Width: 2 * s, Dash: []float64{6 * s, 3 * s}})
		li := r.slot[crit]
		p.L.Add(render.Circle{Center: render.Point{X: p.X(p.done(pl, crit)), Y: pl.laneY(li)}, R: min(max(pl.laneH*0.9, 4*s), 8*s), Style: render.Style{Stroke: th.Critical, Width: 2 * s}})
		if pl.redundant && r.view == ViewBoth && p.Now >= r.conv && r.red < r.conv {
			label := fmt.Sprintf("%.2g× faster", r.conv/r.red)
			w := font.Width(label, p.FSSmall, true)
			if xm := (x + p.X(r.conv)) / 2; p.X(r.conv)-x > w+8*s {
				y := pl.plot.Y0 + p.FSSmall*1.3
				p.Rect(box{X0: xm - w/2 - 3*s, Y0: y - font.Ascent(p.FSSmall) - 2*s, X1: xm + w/2 + 3*s, Y1: y + font.Descent(p.FSSmall) + 2*s}, render.Style{Fill: th.Panel})
				p.Text(xm, y, label, p.FSSmall, render.AlignCenter, true, th.Ink)
			}
		}
	}
}

// span draws part [a, b] of a span on a lane. Reductions take
// nanoseconds against microseconds of waiting, so they get at least a
// pixel: the viewer should see that the work is there and tiny.
func (p *painter) span(k trace.Kind, a, b, yc, bh float64, faded bool) {
	x0, x1 := p.X(a), p.X(b)
	bx := box{X0: x0, Y0: yc - bh/2, X1: x1, Y1: yc + bh/2}
	switch k {
	case trace.Stall:
		p.stall(bx, faded)
		return
	case trace.Compute:
		bx.X1 = max(bx.X1, bx.X0+1)
	}
	c := p.Th.Kind(k)
	if faded {
		c = render.Fade(c, fadeMoot)
	}
	p.Rect(bx, render.Style{Fill: c})
}

// messages draws each message sent by the playhead as an arrow from its
// sender's lane at the send time toward its receiver's lane at the arrival,
// moving while in flight; the part of a flight that network noise added
// (the last Delay seconds) is drawn thick in the noise colour.
func (p *painter) messages(pl *panel) {
	r, th, s := p.r, p.Th, p.S
	w := max(1, 0.8*s)
	head := min(max(pl.laneH*1.6, 3.5*s), 6*s)
	end := r.End()
	for _, m := range r.msgs {
		if m.redundant && !pl.redundant {
			break // conventional messages come first
		}
		if m.send > p.Now || m.send >= end {
			continue
		}
		upto := min(m.arr, p.Now, end)
		a := render.Point{X: p.X(m.send), Y: pl.laneY(m.from)}
		b := render.Point{X: p.X(m.arr), Y: pl.laneY(m.to)}
		at := func(t float64) render.Point {
			f := (t - m.send) / (m.arr - m.send)
			return render.Point{X: a.X + (b.X-a.X)*f, Y: a.Y + (b.Y-a.Y)*f}
		}
		c, width := th.Butterfly, w
		switch {
		case m.redundant && m.used:
			c, width = th.Adopted, 1.6*w
		case m.redundant:
			c = render.Fade(th.Redundant, fadeUnused)
		case pl.redundant && m.arr > r.finRed[r.lanes[m.to]]:
			c = render.Fade(c, fadeMoot)
		default:
			c = render.Fade(c, 0.8)
		}
		tip := at(upto)
		st := render.Style{Stroke: c, Fill: c, Width: width}
		if upto < end || m.arr <= end {
			p.L.Add(render.Arrow{From: a, To: tip, Head: head, Style: st})
		} else {
			// Cut off by the end of the time axis: no head, it never lands
			// inside the picture (and nobody needed it).
			p.L.Add(render.Line{From: a, To: tip, Style: st})
		}
		if m.delay > 0 {
			if n0 := m.arr - m.delay; upto > n0 {
				p.L.Add(render.Line{From: at(max(n0, m.send)), To: tip, Style: render.Style{Stroke: th.Noise, Width: 2.6 * w}})
			}
		}
	}
}

// laneLabels names every lane that has room, and the critical process in
// bold once it has set the completion time.
func (p *painter) laneLabels(pl *panel, crit int, finished bool) {
	r := p.r
	need := p.FSSmall * 1.05
	stride := p.LaneStride(pl.laneH, len(r.lanes))
	critLane := r.slot[crit]
	for li, proc := range r.lanes {
		y := pl.laneY(li)
		if finished && li == critLane {
			p.LaneLabel(y, fmt.Sprintf("P%d", proc), true, p.Th.Critical)
			continue
		}
		if li%stride != 0 || (finished && math.Abs(y-pl.laneY(critLane)) < need) {
			continue
		}
		p.LaneLabel(y, fmt.Sprintf("P%d", proc), false, p.Th.Muted)
	}
}

// timeTicks are the time axis ticks for this canvas: about one every 1.8
// labels' widths.
func (p *painter) timeTicks() []float64 {
	ticks, _ := p.TimeTicks("88.8 µs", 1.8)
	return ticks
}

func (p *painter) timeAxis() {
	capY := p.TimeAxis(p.timeTicks(), scene.Seconds, "time since the allreduce began")
	if n := len(p.r.lanes); n < p.r.p.P {
		p.Text(p.Lanes.X1, capY, fmt.Sprintf("showing %d of %d processes", n, p.r.p.P), p.FSSmall, render.AlignRight, true, p.Th.Ink)
	}
}

// tickX places an axis label of width w under its tick at x, shifted
// inward where it would run off the canvas (the first time tick, 0 s,
// sits on the lanes' left edge; the last may sit on the canvas's right
// margin).
func (p *painter) tickX(x, w float64) float64 {
	x = min(max(x, w/2+2), p.L.W-w/2-2)
	if x-w/2 < p.Lanes.X0-2*p.S && x > p.Lanes.X0-w {
		// Under the Gantt charts nothing may reach left into the lane
		// labels' column.
		x = p.Lanes.X0 - 2*p.S + w/2
	}
	return x
}

// tickLabel writes an axis label under its tick at x, placed by tickX.
func (p *painter) tickLabel(x, y float64, label string) {
	p.Text(p.tickX(x, font.Width(label, p.FSSmall, false)), y, label, p.FSSmall, render.AlignCenter, false, p.Th.Muted)
}

// histogram draws the completion times of all trials, the two series side
// by side in each bin: conventional solid, redundant as an outlined tint,
// so they differ in shape as well as hue. Dashed lines mark the means and
// dots on the axis this run's times.
func (p *painter) histogram() {
	r, th, s := p.r, p.Th, p.S
	h := &r.hist
	hb := p.hist
	rowH := p.FS * 1.6
	p.Text(hb.X0, chart.Baseline(hb.Y0, rowH, p.FS), chart.Fit(hb.W(), p.FS, true,
		fmt.Sprintf("Completion time, %d trials", h.n), fmt.Sprintf("%d trials", h.n)), p.FS, render.AlignLeft, true, th.Ink)

	// The series key, two rows.
	y := hb.Y0 + rowH
	krow := p.FSSmall * 1.5
	sw := 14 * s
	key := func(x, y float64, label string, draw func(b box)) float64 {
		sh := p.FSSmall * 0.8
		draw(box{X0: x, Y0: y + (krow-sh)/2, X1: x + sw, Y1: y + (krow+sh)/2})
		p.Text(x+sw+4*s, chart.Baseline(y, krow, p.FSSmall), label, p.FSSmall, render.AlignLeft, false, th.Ink)
		return x + sw + 4*s + font.Width(label, p.FSSmall, false) + 12*s
	}
	convStyle := render.Style{Fill: th.Butterfly}
	redStyle := render.Style{Fill: render.Mix(th.Panel, th.Redundant, redTint), Stroke: th.Redundant, Width: max(1, 1.2*s)}
	x := key(hb.X0, y, "conventional", func(b box) { p.Rect(b, convStyle) })
	redLabel := fmt.Sprintf("T = %d redundant", r.p.T)
	if x+sw+font.Width(redLabel, p.FSSmall, false) > hb.X1 {
		x, y = hb.X0, y+krow
	}
	key(x, y, redLabel, func(b box) { p.Rect(b, redStyle) })
	y += krow
	x = key(hb.X0, y, "mean", func(b box) {
		p.VLine(b.X0+sw/2, b.Y0-2*s, b.Y1+2*s, render.Style{Stroke: th.Ink, Width: 1.5 * s, Dash: []float64{3 * s, 2 * s}})
	})
	key(x, y, "this run", func(b box) {
		p.L.Add(render.Circle{Center: render.Point{X: b.X0 + sw/2, Y: (b.Y0 + b.Y1) / 2}, R: 4 * s, Style: render.Style{Fill: th.Ink, Stroke: th.Panel, Width: s}})
	})
	y += krow + 4*s

	// The plot: counts up, time across.
	countW := font.Width(fmt.Sprint(h.max), p.FSSmall, false) + 6*s
	plot := box{X0: hb.X0 + countW, Y0: y + p.FSSmall*0.6, X1: hb.X1 - 2*s, Y1: hb.Y1 - p.FSSmall*1.4 - 4*s - p.FSSmall*1.5}
	if plot.H() < 10 || plot.W() < 10 {
		return
	}
	p.Rect(plot, render.Style{Fill: th.Panel, Stroke: th.Rule, Width: 1})
	// Counts: whole-number ticks, the top one at or above the tallest bar.
	cticks, step := chart.NiceTicks(0, float64(max(h.max, 1)), max(int(plot.H()/(p.FSSmall*2.2)), 1))
	if step < 1 {
		step, cticks = 1, cticks[:0]
		for c := 0; c <= max(h.max, 1); c++ {
			cticks = append(cticks, float64(c))
		}
	}
	ymax := cticks[len(cticks)-1]
	if ymax < float64(h.max) {
		ymax += step
		cticks = append(cticks, ymax)
	}
	yOf := func(c float64) float64 { return plot.Y1 - c/ymax*plot.H() }
	for _, c := range cticks {
		yy := yOf(c)
		if c > 0 {
			p.HLine(plot.X0, plot.X1, yy, render.Style{Stroke: th.Rule, Width: 1})
		}
		p.ValueLabel(plot.X0-4*s, yy, fmt.Sprint(c))
	}
	xOf := func(t float64) float64 { return plot.X0 + (t-h.lo)/(h.hi-h.lo)*plot.W() }
	bw := plot.W() / Bins
	gap := min(1, bw*0.1)
	for b := range Bins {
		x0 := plot.X0 + float64(b)*bw
		mid := x0 + bw/2
		if c := h.counts[seriesConventional][b]; c > 0 {
			p.Rect(box{X0: x0 + gap, Y0: yOf(float64(c)), X1: mid, Y1: plot.Y1}, convStyle)
		}
		if c := h.counts[seriesRedundant][b]; c > 0 {
			p.Rect(box{X0: mid, Y0: yOf(float64(c)), X1: x0 + bw - gap, Y1: plot.Y1}, redStyle)
		}
	}
	// Means: dashed lines in each series' colour.
	for sr, c := range []color.RGBA{th.Butterfly, th.Redundant} {
		mx := xOf(h.mean[sr])
		p.VLine(mx, plot.Y0, plot.Y1, render.Style{Stroke: c, Width: 1.5 * s, Dash: []float64{5 * s, 3 * s}})
	}
	// This run: a dot per series on the axis.
	for sr, v := range []float64{r.conv, r.red} {
		c := []color.RGBA{th.Butterfly, th.Redundant}[sr]
		p.L.Add(render.Circle{Center: render.Point{X: xOf(v), Y: plot.Y1}, R: 4.5 * s, Style: render.Style{Fill: c, Stroke: th.Ink, Width: max(1, s)}})
	}
	// Time ticks.
	lw := font.Width("88.8 µs", p.FSSmall, false)
	tticks, _ := chart.NiceTicks(h.lo, h.hi, max(int(plot.W()/(lw*1.25)), 1))
	for _, tk := range tticks {
		xx := xOf(tk)
		p.VLine(xx, plot.Y1, plot.Y1+4*s, render.Style{Stroke: th.Muted, Width: 1})
		p.tickLabel(xx, plot.Y1+4*s+font.Ascent(p.FSSmall)+3*s, scene.Seconds(tk))
	}
	p.Text(plot.X0, plot.Y1+4*s+p.FSSmall*1.4+font.Ascent(p.FSSmall)+3*s, "completion time · bars: trials per bin", p.FSSmall, render.AlignLeft, false, th.Muted)
}
