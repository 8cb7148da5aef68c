package logp

import (
	"fmt"
	"math"
	"strconv"

	"commlab/engine/trace"
	"commlab/render"
	"commlab/render/font"
	"commlab/scene"
	"commlab/scene/chart"
)

// stallTint is how much of the warning colour fills a stall under its
// hatching (as in the jitter scene, so a stall reads alike in both).
const stallTint = 0.28

// box is an axis-aligned rectangle in canvas pixels.
type box = chart.Box

// panel is one Gantt chart: the plan or the replay.
type panel struct {
	g      *gantt
	header float64 // header baseline
	plot   box     // the lanes
	laneH  float64
}

// laneY is the centre of lane i.
func (pl *panel) laneY(i int) float64 { return pl.plot.Y0 + (float64(i)+0.5)*pl.laneH }

// painter lays out one frame.
type painter struct {
	chart.Gantt
	r      *run
	panels [2]panel
	// oOutline outlines the o spans where the theme's send or receive
	// colour is too close to its compute colour to read as another kind.
	oOutline bool
	mean     box // the running-mean plot's whole area
	plot     box // its axes
	shown    int // replays the running mean shows at this playhead
}

func (r *run) frame(t float64, v scene.View) render.List {
	l, _ := r.paint(t, v)
	return l
}

// paint lays out the frame and returns the painter too, whose geometry the
// layout tests check the list against.
func (r *run) paint(t float64, v scene.View) (render.List, *painter) {
	p := &painter{r: r}
	if !p.Begin(v.W, v.H, v.Theme, min(max(t, 0), r.End()), 600+r.nItems) {
		return *p.L, p
	}
	p.End = r.End()
	p.oOutline = chart.OutlineComm(p.Th)
	p.title()
	top := p.legend()
	p.arrange(top)
	for i := range p.panels {
		p.panel(&p.panels[i])
	}
	p.timeAxis()
	p.Playhead(p.panels[0].plot.Y0)
	p.meanPlot()
	return *p.L, p
}

// num formats a time in the model's units (one addition = 1) as the
// slides do, with two decimals ("43.00", "0.87"), fewer for large times.
func num(x float64) string {
	switch a := math.Abs(x); {
	case a >= 1000:
		return strconv.FormatFloat(x, 'f', 0, 64)
	case a >= 100:
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}

// tick formats a parameter's value as the page holds it: the shortest form.
func tick(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// The three completion marks, alike in the Gantt charts, the legend and
// the running-mean plot: the plan's T_s dashed and quiet, E[T](L_s) dashed
// in the highlight colour, this replay's T solid.
func (p *painter) plannedStyle() render.Style {
	return render.Style{Stroke: p.Th.Muted, Width: 1.5 * p.S, Dash: []float64{5 * p.S, 3 * p.S}}
}

func (p *painter) expectedStyle() render.Style {
	return render.Style{Stroke: p.Th.Adopted, Width: 2 * p.S, Dash: []float64{7 * p.S, 3 * p.S}}
}

func (p *painter) actualStyle() render.Style {
	return render.Style{Stroke: p.Th.Critical, Width: 2 * p.S}
}

func (p *painter) title() {
	r, t := p.r, p.Now
	p.Title(chart.Fit(p.L.W*0.55, p.FS, false,
		// The playhead with its unit, as the page's transport writes it.
		fmt.Sprintf("P = %d · n = %d · L ~ N(%s, %s²) · L_s = %s · t = %s additions", r.p.P, r.p.N, tick(r.p.L), tick(r.p.Sigma), tick(r.ls), num(t)),
		fmt.Sprintf("P = %d · n = %d · L_s = %s · t = %s additions", r.p.P, r.p.N, tick(r.ls), num(t)),
		fmt.Sprintf("t = %s additions", num(t)),
		fmt.Sprintf("t = %s", num(t))),
		"LogP summation under fluctuating latency",
		"LogP under fluctuating latency",
		"LogP summation")
}

// legend draws the key under the title, wrapping onto more rows on narrow
// canvases, and returns the y where the body starts.
func (p *painter) legend() float64 {
	th, s := p.Th, p.S
	entries := []chart.LegendEntry{
		{Label: "addition", Draw: p.Swatch(render.Style{Fill: th.Compute})},
		{Label: "send o", Draw: p.Swatch(p.Fill(th.Send, p.oOutline))},
		{Label: "receive o", Draw: p.Swatch(p.Fill(th.Receive, p.oOutline))},
		{Label: "stall: late message", Draw: func(b box) { p.stall(b) }},
		{Label: "partial sum in flight", Draw: func(b box) {
			c := render.Fade(th.Ink, 0.85)
			p.L.Add(render.Arrow{From: render.Point{X: b.X0, Y: b.Y1}, To: render.Point{X: b.X1, Y: b.Y0}, Head: 5 * s, Style: render.Style{Stroke: c, Fill: c, Width: max(1, 0.9*s)}})
		}},
		{Label: "latency beyond L_s", Draw: p.Stroke(render.Style{Stroke: th.Stall, Width: 3 * s})},
		{Label: "T_s planned", Draw: p.Mark(p.plannedStyle())},
		{Label: "T this replay", Draw: p.Mark(p.actualStyle())},
		{Label: "E[T](L_s)", Draw: p.Mark(p.expectedStyle())},
	}
	if p.r.waits {
		// Only some plans leave a processor waiting for its timetable.
		// Spliced by hand: slices.Insert would compile its own copy for
		// LegendEntry into the wasm.
		waiting := chart.LegendEntry{Label: "waiting", Draw: p.Swatch(render.Style{Fill: th.Idle, Stroke: th.Rule})}
		entries = append(entries[:3], append([]chart.LegendEntry{waiting}, entries[3:]...)...)
	}
	return p.Legend(entries)
}

// arrange splits the body into the Gantt column (plan over replay on one
// time axis) and the running-mean plot: beside it on landscape canvases,
// under it on tall ones.
func (p *painter) arrange(top float64) {
	col, mean := p.Split(p.Body(top), 0.3)
	p.mean = mean
	labelW := font.Width(fmt.Sprintf("P%d", p.r.p.P), p.FSSmall, true) + 6*p.S
	var buf [2]chart.Panel
	stack, ph := p.Stack(col, col.X0+labelW, len(p.panels), buf[:])
	for i := range p.panels {
		g := &p.r.panels[i]
		p.panels[i] = panel{g: g, header: stack[i].Header, plot: stack[i].Plot, laneH: ph / float64(len(g.spans))}
	}
}

// stall draws time lost to a late message: a light tint of the warning
// colour crossed by diagonal hatching in full strength, so it reads as a
// stall, not as work, even printed in grey. The hatch lines sit on a grid
// fixed to the canvas, so they stay put while the stall grows with the
// playhead.
func (p *painter) stall(b box) {
	p.Stalled(b, render.Mix(p.Th.Panel, p.Th.Stall, stallTint), p.Th.Stall, true)
}

func (p *painter) panel(pl *panel) {
	r, g := p.r, pl.g
	ticks, _ := p.timeTicks()
	p.Plot(pl.plot, ticks)
	finished := p.Now >= g.T

	// Header: which run, then its completion once the playhead gets there.
	var head []string
	if g.replay {
		lat := fmt.Sprintf("L ~ N(%s, %s²)", tick(r.p.L), tick(r.p.Sigma))
		head = []string{"Replay 1 with drawn latencies " + lat, "Replay 1, " + lat, "Replay 1"}
		if finished {
			late := ""
			if r.res.Late > 0 {
				late = fmt.Sprintf(", %d late message", r.res.Late)
				if r.res.Late > 1 {
					late += "s"
				}
			}
			res := fmt.Sprintf("T = %s, %s after T_s", num(g.T), num(r.res.Stall))
			head = []string{
				"Replay 1 with drawn latencies: " + res + late,
				"Replay 1: " + res + late,
				"Replay 1: " + res,
				"Replay 1: T = " + num(g.T),
			}
		}
	} else {
		used := ""
		if u := r.sched.Used; u < r.p.P {
			used = fmt.Sprintf(" (%d of %d processors pay)", u, r.p.P)
		}
		name := fmt.Sprintf("Planned with L_s = %s", tick(r.ls))
		head = []string{name + used, name, "Planned"}
		if finished {
			res := ": T_s = " + num(g.T)
			head = []string{name + res + used, name + res, "Planned" + res}
		}
	}
	p.Header(pl.plot.X0, pl.header, pl.plot.W(), head...)

	bh := p.barH(pl)
	for li, spans := range g.spans {
		yc := pl.laneY(li)
		for _, sp := range spans {
			a, b := sp.Start, min(sp.End, p.Now)
			if b <= a {
				break // spans are in time order
			}
			p.span(sp.Kind, a, b, yc, bh)
		}
	}
	p.messages(pl)
	p.laneLabels(pl)

	// Completion marks, once the playhead reaches them: T_s in both
	// panels, so the replay's lag reads against it; E[T] and T in the
	// replay's.
	ts := r.sched.Planned()
	if p.Now >= ts {
		p.VLine(p.X(ts), pl.plot.Y0, pl.plot.Y1, p.plannedStyle())
	}
	if !g.replay {
		return
	}
	if p.Now >= r.expected {
		p.VLine(p.X(r.expected), pl.plot.Y0, pl.plot.Y1, p.expectedStyle())
	}
	if finished {
		p.VLine(p.X(g.T), pl.plot.Y0, pl.plot.Y1, p.actualStyle())
	}
}

// barH is the height of a lane's bars: most of the lane, all of it when
// lanes are a couple of pixels, and no more than a thick bar when there are
// only a few lanes (so the arrows between them have room).
func (p *painter) barH(pl *panel) float64 { return chart.BarH(pl.laneH, 26*p.S) }

// span draws part [a, b] of a span on a lane. An addition (and an o) gets
// at least a pixel, so short work stays visible on a long axis.
func (p *painter) span(k trace.Kind, a, b, yc, bh float64) {
	bx := box{X0: p.X(a), Y0: yc - bh/2, X1: p.X(b), Y1: yc + bh/2}
	switch k {
	case trace.Stall:
		p.stall(bx)
		return
	case trace.Idle:
		p.Rect(bx, render.Style{Fill: p.Th.Idle})
		return
	}
	bx.X1 = max(bx.X1, bx.X0+1)
	p.Rect(bx, p.Fill(p.Th.Kind(k), k != trace.Compute && p.oOutline))
}

// messages draws each partial sum sent by the playhead as an arrow from
// its sender's bar, when it leaves (after o), toward its receiver's bar at
// the arrival, moving while in flight. In the replay the part of the
// flight beyond L_s, the message's lateness, is drawn thick in the stall
// colour: that is what stalls the receiver.
func (p *painter) messages(pl *panel) {
	th, s := p.Th, p.S
	w := max(1, 0.9*s)
	head := min(max(pl.laneH*0.5, 4*s), 7*s)
	c := render.Fade(th.Ink, 0.85)
	half := p.barH(pl) / 2
	for _, m := range pl.g.msgs {
		if m.Send > p.Now {
			continue
		}
		upto := min(m.Arrive, p.Now)
		// From bar edge to bar edge, so the head never sits on a bar.
		dir := 1.0
		if m.To < m.From {
			dir = -1
		}
		a := render.Point{X: p.X(m.Send), Y: pl.laneY(m.From) + dir*half}
		b := render.Point{X: p.X(m.Arrive), Y: pl.laneY(m.To) - dir*half}
		at := func(t float64) render.Point {
			if m.Arrive == m.Send {
				return b
			}
			f := (t - m.Send) / (m.Arrive - m.Send)
			return render.Point{X: a.X + (b.X-a.X)*f, Y: a.Y + (b.Y-a.Y)*f}
		}
		tip := at(upto)
		p.L.Add(render.Arrow{From: a, To: tip, Head: head, Style: render.Style{Stroke: c, Fill: c, Width: w}})
		if m.Delay > 0 {
			if due := m.Arrive - m.Delay; upto > due {
				p.L.Add(render.Line{From: at(max(due, m.Send)), To: tip, Style: render.Style{Stroke: th.Stall, Width: 3 * w}})
			}
		}
	}
}

// laneLabels names every lane that has room; P1, the root that holds the
// sum, always.
func (p *painter) laneLabels(pl *panel) {
	stride := p.LaneStride(pl.laneH, len(pl.g.names))
	for li, name := range pl.g.names {
		if li%stride != 0 {
			continue
		}
		c := p.Th.Muted
		if pl.g.finish[li] == 0 && li > 0 {
			// A processor the plan leaves out: it never adds or sends.
			c = render.Fade(c, 0.5)
		}
		p.LaneLabel(pl.laneY(li), name, li == 0, c)
	}
}

// timeTicks are the time axis ticks for this canvas: about one every two
// labels' widths.
func (p *painter) timeTicks() (ticks []float64, step float64) { return p.TimeTicks("888.8", 2) }

func (p *painter) timeAxis() {
	ticks, step := p.timeTicks()
	p.TimeAxis(ticks, func(t float64) string { return chart.AxisLabel(t, step) },
		"time, in units of one addition (o, g and L in the same units)", "time (one addition = 1)", "time")
}

// meanPlot draws the running mean of T over the replays, revealed with
// the playhead (replay k of N shows at t = k/N of the run, so playing the
// scene plays the replays too), against E[T](L_s) and T_s(L_s).
func (p *painter) meanPlot() {
	r, th, s := p.r, p.Th, p.S
	mb := p.mean
	n := len(r.mean)
	p.shown = min(n, max(1, int(math.Ceil(float64(n)*p.Now/r.End()-1e-9))))
	k := p.shown
	rowH := p.FS * 1.6
	p.Text(mb.X0, chart.Baseline(mb.Y0, rowH, p.FS), chart.Fit(mb.W(), p.FS, true,
		fmt.Sprintf("Running mean of T, %d of %d replays", k, n),
		fmt.Sprintf("Mean of T, %d/%d replays", k, n),
		fmt.Sprintf("%d/%d replays", k, n)), p.FS, render.AlignLeft, true, th.Ink)

	// The key, one row each: the curve's value now and the references.
	y := mb.Y0 + rowH
	krow := p.FSSmall * 1.5
	sw := 14 * s
	meanStyle := render.Style{Stroke: th.Redundant, Width: 2 * s}
	key := func(label string, st render.Style) {
		mid := y + krow/2
		p.HLine(mb.X0, mb.X0+sw, mid, st)
		p.Text(mb.X0+sw+5*s, chart.Baseline(y, krow, p.FSSmall), label, p.FSSmall, render.AlignLeft, false, th.Ink)
		y += krow
	}
	room := mb.W() - sw - 5*s
	key(chart.Fit(room, p.FSSmall, false, "mean of T so far = "+num(r.mean[k-1]), "mean = "+num(r.mean[k-1])), meanStyle)
	se := strconv.FormatFloat(r.stderr, 'g', 2, 64)
	exp := fmt.Sprintf("E[T](L_s) = %s ± %s (%d trials)", num(r.expected), se, r.trials)
	key(chart.Fit(room, p.FSSmall, false, exp, fmt.Sprintf("E[T](L_s) = %s ± %s", num(r.expected), se), "E[T] = "+num(r.expected)), p.expectedStyle())
	key(chart.Fit(room, p.FSSmall, false, "T_s(L_s) = "+num(r.sched.Planned())+", no fluctuation", "T_s(L_s) = "+num(r.sched.Planned()), "T_s = "+num(r.sched.Planned())), p.plannedStyle())
	y += 2 * s

	// The axes: T up, replays across.
	lo, hi := math.Min(r.expected, r.sched.Planned()), math.Max(r.expected, r.sched.Planned())
	for _, m := range r.mean {
		lo, hi = min(lo, m), max(hi, m)
	}
	if !(hi > lo) {
		w := max(math.Abs(lo)*0.05, 0.5)
		lo, hi = lo-w, hi+w
	}
	padY := (hi - lo) * 0.08
	lo, hi = lo-padY, hi+padY
	plot := box{X0: mb.X0, Y0: y + p.FSSmall*0.6, X1: mb.X1 - 2*s, Y1: mb.Y1 - 4*s - p.FSSmall*1.4 - p.FSSmall*1.5}
	if plot.H() < 10 {
		return
	}
	yt, ystep := chart.NiceTicks(lo, hi, max(int(plot.H()/(p.FSSmall*2.2)), 1))
	labelW := 0.0
	for _, v := range yt {
		labelW = max(labelW, font.Width(chart.AxisLabel(v, ystep), p.FSSmall, false))
	}
	plot.X0 += labelW + 6*s
	p.plot = plot
	if plot.W() < 10 {
		return
	}
	p.Rect(plot, render.Style{Fill: th.Panel, Stroke: th.Rule, Width: 1})
	yOf := func(v float64) float64 { return plot.Y1 - (v-lo)/(hi-lo)*plot.H() }
	xOf := func(i float64) float64 { // i = replay count, 1..n
		if n == 1 {
			return (plot.X0 + plot.X1) / 2
		}
		return plot.X0 + (i-1)/float64(n-1)*plot.W()
	}
	for _, v := range yt {
		yy := yOf(v)
		p.HLine(plot.X0, plot.X1, yy, render.Style{Stroke: th.Rule, Width: 1})
		p.ValueLabel(plot.X0-4*s, yy, chart.AxisLabel(v, ystep))
	}
	// References across the whole plot, then the curve so far.
	for _, ref := range []struct {
		v  float64
		st render.Style
	}{{r.sched.Planned(), p.plannedStyle()}, {r.expected, p.expectedStyle()}} {
		yy := yOf(ref.v)
		p.HLine(plot.X0, plot.X1, yy, ref.st)
	}
	// At most about two points per pixel column: 2000 replays on a
	// 250-pixel plot need no more.
	stride := max(1, int(math.Ceil(float64(k)/(2*plot.W()))))
	pts := make([]render.Point, 0, k/stride+2)
	for i := 0; i < k; i += stride {
		pts = append(pts, render.Point{X: xOf(float64(i + 1)), Y: yOf(r.mean[i])})
	}
	if last := (render.Point{X: xOf(float64(k)), Y: yOf(r.mean[k-1])}); pts[len(pts)-1] != last {
		pts = append(pts, last)
	}
	if len(pts) > 1 {
		p.L.Add(render.Polyline{Points: pts, Style: meanStyle})
	}
	cur := pts[len(pts)-1]
	p.L.Add(render.Circle{Center: cur, R: 4 * s, Style: render.Style{Fill: th.Redundant, Stroke: th.Panel, Width: max(1, s)}})

	// Replay ticks.
	lw := font.Width("8888", p.FSSmall, false)
	xt, xstep := chart.NiceTicks(1, float64(n), max(int(plot.W()/(lw*1.8)), 1))
	if n == 1 {
		xt = []float64{1}
	}
	xstep = max(xstep, 1)
	for _, v := range xt {
		xx := xOf(v)
		p.VLine(xx, plot.Y1, plot.Y1+4*s, render.Style{Stroke: th.Muted, Width: 1})
		p.TickLabel(xx, plot.Y1+4*s+font.Ascent(p.FSSmall)+2*s, chart.AxisLabel(v, xstep), plot.X0, mb.X1)
	}
	p.Text(plot.X0, plot.Y1+4*s+p.FSSmall*1.4+font.Ascent(p.FSSmall)+2*s, chart.Fit(mb.X1-plot.X0, p.FSSmall, false,
		"replays (revealed as the playhead moves)", "replays"), p.FSSmall, render.AlignLeft, false, th.Muted)
}
