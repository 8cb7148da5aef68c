package logp

import (
	"fmt"
	"image/color"
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
	r  *run
	th render.Theme
	l  *render.List
	t  float64
	s  float64 // scale against a 960x540 canvas

	z                    chart.Sizes // the sizes below, for the shared helpers
	fs, fsSmall, fsTitle float64
	pad                  float64

	gantt  box // the Gantt charts' horizontal extent
	labelX float64
	panels [2]panel
	axisY  float64 // the time axis, under the replay panel
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
	p := &painter{r: r, th: v.Theme, t: min(max(t, 0), r.End())}
	p.l = &render.List{W: v.W, H: v.H, Background: v.Theme.Background}
	if !(v.W > 0 && v.H > 0) {
		return *p.l, p
	}
	p.l.Items = make([]render.Item, 0, 600+r.nItems)
	p.layout(v.W, v.H)
	p.title()
	top := p.legend()
	p.arrange(top)
	for i := range p.panels {
		p.panel(&p.panels[i])
	}
	p.timeAxis()
	p.playhead()
	p.meanPlot()
	return *p.l, p
}

// layout picks sizes from the canvas: text scales with it (14 px at
// 960x540), with a floor for small embeds.
func (p *painter) layout(w, h float64) {
	p.z = chart.SizesFor(w, h)
	p.s, p.fs, p.fsSmall, p.fsTitle, p.pad = p.z.S, p.z.FS, p.z.FSSmall, p.z.FSTitle, p.z.Pad
	p.oOutline = chart.CloseColours(p.th.Compute, p.th.Send) || chart.CloseColours(p.th.Compute, p.th.Receive)
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

func (p *painter) text(x, y float64, s string, size float64, align render.Align, bold bool, c color.RGBA) {
	p.l.Add(render.Text{At: render.Point{X: x, Y: y}, S: s, Size: size, Align: align, Bold: bold, Color: c})
}

func (p *painter) rect(b box, st render.Style) { chart.Rect(p.l, b, st) }

func (p *painter) vline(x, y0, y1 float64, st render.Style) {
	p.l.Add(render.Line{From: render.Point{X: x, Y: y0}, To: render.Point{X: x, Y: y1}, Style: st})
}

// The three completion marks, alike in the Gantt charts, the legend and
// the running-mean plot: the plan's T_s dashed and quiet, E[T](L_s) dashed
// in the highlight colour, this replay's T solid.
func (p *painter) plannedStyle() render.Style {
	return render.Style{Stroke: p.th.Muted, Width: 1.5 * p.s, Dash: []float64{5 * p.s, 3 * p.s}}
}

func (p *painter) expectedStyle() render.Style {
	return render.Style{Stroke: p.th.Adopted, Width: 2 * p.s, Dash: []float64{7 * p.s, 3 * p.s}}
}

func (p *painter) actualStyle() render.Style {
	return render.Style{Stroke: p.th.Critical, Width: 2 * p.s}
}

func (p *painter) title() {
	r := p.r
	rowH := p.fsTitle * 1.5
	y := chart.Baseline(p.pad*0.6, rowH, p.fsTitle)
	right := chart.Fit(p.l.W*0.55, p.fs, false,
		// The playhead with its unit, as the page's transport writes it.
		fmt.Sprintf("P = %d · n = %d · L ~ N(%s, %s²) · L_s = %s · t = %s additions", r.p.P, r.p.N, tick(r.p.L), tick(r.p.Sigma), tick(r.ls), num(p.t)),
		fmt.Sprintf("P = %d · n = %d · L_s = %s · t = %s additions", r.p.P, r.p.N, tick(r.ls), num(p.t)),
		fmt.Sprintf("t = %s additions", num(p.t)),
		fmt.Sprintf("t = %s", num(p.t)))
	rw := font.Width(right, p.fs, false)
	p.text(p.l.W-p.pad, y, right, p.fs, render.AlignRight, false, p.th.Muted)
	room := p.l.W - 2*p.pad - rw - 2*p.fs
	p.text(p.pad, y, chart.Fit(room, p.fsTitle, true,
		"LogP summation under fluctuating latency",
		"LogP under fluctuating latency",
		"LogP summation"), p.fsTitle, render.AlignLeft, true, p.th.Ink)
}

// legend draws the key under the title, wrapping onto more rows on narrow
// canvases, and returns the y where the body starts.
func (p *painter) legend() float64 {
	th, s := p.th, p.s
	bar := func(c color.RGBA) func(b box) { return func(b box) { p.rect(b, render.Style{Fill: c}) } }
	oBar := func(c color.RGBA) func(b box) {
		return func(b box) {
			st := render.Style{Fill: c}
			if p.oOutline {
				st.Stroke, st.Width = th.Ink, max(1, 0.8*s)
			}
			p.rect(b, st)
		}
	}
	mark := func(st render.Style) func(b box) {
		return func(b box) { p.vline((b.X0+b.X1)/2, b.Y0-2*s, b.Y1+2*s, st) }
	}
	entries := []chart.LegendEntry{
		{Label: "addition", Draw: bar(th.Compute)},
		{Label: "send o", Draw: oBar(th.Send)},
		{Label: "receive o", Draw: oBar(th.Receive)},
		{Label: "stall: late message", Draw: func(b box) { p.stall(b) }},
		{Label: "partial sum in flight", Draw: func(b box) {
			c := render.Fade(th.Ink, 0.85)
			p.l.Add(render.Arrow{From: render.Point{X: b.X0, Y: b.Y1}, To: render.Point{X: b.X1, Y: b.Y0}, Head: 5 * s, Style: render.Style{Stroke: c, Fill: c, Width: max(1, 0.9*s)}})
		}},
		{Label: "latency beyond L_s", Draw: func(b box) {
			y := (b.Y0 + b.Y1) / 2
			p.l.Add(render.Line{From: render.Point{X: b.X0, Y: y}, To: render.Point{X: b.X1, Y: y}, Style: render.Style{Stroke: th.Stall, Width: 3 * s}})
		}},
		{Label: "T_s planned", Draw: mark(p.plannedStyle())},
		{Label: "T this replay", Draw: mark(p.actualStyle())},
		{Label: "E[T](L_s)", Draw: mark(p.expectedStyle())},
	}
	if p.r.waits {
		// Only some plans leave a processor waiting for its timetable.
		// Spliced by hand: slices.Insert would compile its own copy for
		// LegendEntry into the wasm.
		waiting := chart.LegendEntry{Label: "waiting", Draw: func(b box) { p.rect(b, render.Style{Fill: th.Idle, Stroke: th.Rule}) }}
		entries = append(entries[:3], append([]chart.LegendEntry{waiting}, entries[3:]...)...)
	}
	return chart.Legend(p.l, p.z, th.Ink, entries)
}

// arrange splits the body into the Gantt column (plan over replay on one
// time axis) and the running-mean plot: beside it on landscape canvases,
// under it on tall ones.
func (p *painter) arrange(top float64) {
	W, H := p.l.W, p.l.H
	body := box{X0: p.pad, Y0: top, X1: W - p.pad, Y1: H - p.pad}
	col := body
	if W >= 1.3*H {
		mw := math.Round(0.3 * body.W())
		col.X1 = body.X1 - mw - 2*p.pad
		p.mean = box{X0: col.X1 + 2*p.pad, Y0: body.Y0, X1: body.X1, Y1: body.Y1}
	} else {
		mh := math.Round(0.34 * body.H())
		col.Y1 = body.Y1 - mh - 2*p.pad
		p.mean = box{X0: body.X0, Y0: col.Y1 + 2*p.pad, X1: body.X1, Y1: body.Y1}
	}
	labelW := font.Width(fmt.Sprintf("P%d", p.r.p.P), p.fsSmall, true) + 6*p.s
	p.gantt = box{X0: col.X0 + labelW, Y0: col.Y0, X1: col.X1 - 4*p.s, Y1: col.Y1}
	p.labelX = p.gantt.X0 - 4*p.s

	// Under the replay: tick marks, tick labels and a caption row.
	axisH := 4*p.s + p.fsSmall*1.4 + p.fsSmall*1.5
	headerH := p.fs * 1.6
	gap := 6 * p.s
	ph := max((col.H()-axisH-2*headerH-gap)/2, 1)
	y := col.Y0
	for i := range p.panels {
		g := &p.r.panels[i]
		pl := panel{g: g, header: chart.Baseline(y, headerH, p.fs)}
		pl.plot = box{X0: p.gantt.X0, Y0: y + headerH, X1: p.gantt.X1, Y1: y + headerH + ph}
		pl.laneH = ph / float64(len(g.spans))
		p.panels[i] = pl
		y = pl.plot.Y1 + gap
	}
	p.axisY = p.panels[1].plot.Y1
}

// x maps a time onto the Gantt charts' shared axis [0, End].
func (p *painter) x(t float64) float64 {
	return p.gantt.X0 + t/p.r.End()*p.gantt.W()
}

// stall draws time lost to a late message: a light tint of the warning
// colour crossed by diagonal hatching in full strength, so it reads as a
// stall, not as work, even printed in grey. The hatch lines sit on a grid
// fixed to the canvas, so they stay put while the stall grows with the
// playhead.
func (p *painter) stall(b box) {
	c := p.th.Stall
	p.rect(b, render.Style{Fill: render.Mix(p.th.Panel, c, stallTint)})
	chart.Hatch(p.l, b, p.s, c)
	if b.H() >= 7*p.s {
		p.rect(b, render.Style{Stroke: c, Width: max(1, p.s)})
	}
}

func (p *painter) panel(pl *panel) {
	r, th, g := p.r, p.th, pl.g
	p.rect(pl.plot, render.Style{Fill: th.Panel, Stroke: th.Rule, Width: 1})
	ticks, _ := p.timeTicks()
	for _, tk := range ticks {
		if tk > 0 && tk < r.End() {
			p.vline(p.x(tk), pl.plot.Y0, pl.plot.Y1, render.Style{Stroke: th.Rule, Width: 1})
		}
	}
	finished := p.t >= g.T

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
	p.text(pl.plot.X0, pl.header, chart.Fit(pl.plot.W(), p.fs, true, head...), p.fs, render.AlignLeft, true, th.Ink)

	bh := p.barH(pl)
	for li, spans := range g.spans {
		yc := pl.laneY(li)
		for _, sp := range spans {
			a, b := sp.Start, min(sp.End, p.t)
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
	if p.t >= ts {
		p.vline(p.x(ts), pl.plot.Y0, pl.plot.Y1, p.plannedStyle())
	}
	if !g.replay {
		return
	}
	if p.t >= r.expected {
		p.vline(p.x(r.expected), pl.plot.Y0, pl.plot.Y1, p.expectedStyle())
	}
	if finished {
		p.vline(p.x(g.T), pl.plot.Y0, pl.plot.Y1, p.actualStyle())
	}
}

// barH is the height of a lane's bars: most of the lane, all of it when
// lanes are a couple of pixels, and no more than a thick bar when there are
// only a few lanes (so the arrows between them have room).
func (p *painter) barH(pl *panel) float64 {
	if pl.laneH < 3 {
		return pl.laneH
	}
	return min(pl.laneH*0.72, 26*p.s)
}

// span draws part [a, b] of a span on a lane. An addition (and an o) gets
// at least a pixel, so short work stays visible on a long axis.
func (p *painter) span(k trace.Kind, a, b, yc, bh float64) {
	bx := box{X0: p.x(a), Y0: yc - bh/2, X1: p.x(b), Y1: yc + bh/2}
	switch k {
	case trace.Stall:
		p.stall(bx)
		return
	case trace.Idle:
		p.rect(bx, render.Style{Fill: p.th.Idle})
		return
	}
	bx.X1 = max(bx.X1, bx.X0+1)
	st := render.Style{Fill: p.th.Kind(k)}
	if k != trace.Compute && p.oOutline {
		st.Stroke, st.Width = p.th.Ink, max(1, 0.8*p.s)
	}
	p.rect(bx, st)
}

// messages draws each partial sum sent by the playhead as an arrow from
// its sender's bar, when it leaves (after o), toward its receiver's bar at
// the arrival, moving while in flight. In the replay the part of the
// flight beyond L_s, the message's lateness, is drawn thick in the stall
// colour: that is what stalls the receiver.
func (p *painter) messages(pl *panel) {
	th, s := p.th, p.s
	w := max(1, 0.9*s)
	head := min(max(pl.laneH*0.5, 4*s), 7*s)
	c := render.Fade(th.Ink, 0.85)
	half := p.barH(pl) / 2
	for _, m := range pl.g.msgs {
		if m.Send > p.t {
			continue
		}
		upto := min(m.Arrive, p.t)
		// From bar edge to bar edge, so the head never sits on a bar.
		dir := 1.0
		if m.To < m.From {
			dir = -1
		}
		a := render.Point{X: p.x(m.Send), Y: pl.laneY(m.From) + dir*half}
		b := render.Point{X: p.x(m.Arrive), Y: pl.laneY(m.To) - dir*half}
		at := func(t float64) render.Point {
			if m.Arrive == m.Send {
				return b
			}
			f := (t - m.Send) / (m.Arrive - m.Send)
			return render.Point{X: a.X + (b.X-a.X)*f, Y: a.Y + (b.Y-a.Y)*f}
		}
		tip := at(upto)
		p.l.Add(render.Arrow{From: a, To: tip, Head: head, Style: render.Style{Stroke: c, Fill: c, Width: w}})
		if m.Delay > 0 {
			if due := m.Arrive - m.Delay; upto > due {
				p.l.Add(render.Line{From: at(max(due, m.Send)), To: tip, Style: render.Style{Stroke: th.Stall, Width: 3 * w}})
			}
		}
	}
}

// laneLabels names every lane that has room; P1, the root that holds the
// sum, always.
func (p *painter) laneLabels(pl *panel) {
	need := p.fsSmall * 1.05
	stride := 1
	for float64(stride)*pl.laneH < need && stride < len(pl.g.names) {
		stride *= 2
	}
	for li, name := range pl.g.names {
		if li%stride != 0 {
			continue
		}
		c := p.th.Muted
		if pl.g.finish[li] == 0 && li > 0 {
			// A processor the plan leaves out: it never adds or sends.
			c = render.Fade(c, 0.5)
		}
		p.text(p.labelX, pl.laneY(li)+font.Ascent(p.fsSmall)/2-1, name, p.fsSmall, render.AlignRight, li == 0, c)
	}
}

// timeTicks are the time axis ticks for this canvas: about one per
// label's width and a half.
func (p *painter) timeTicks() (ticks []float64, step float64) {
	lw := font.Width("888.8", p.fsSmall, false)
	n := int(p.gantt.W() / (lw * 2))
	return chart.NiceTicks(0, p.r.End(), max(n, 1))
}

func (p *painter) timeAxis() {
	th, s := p.th, p.s
	y := p.axisY
	ticks, step := p.timeTicks()
	for _, tk := range ticks {
		x := p.x(tk)
		p.vline(x, y, y+4*s, render.Style{Stroke: th.Muted, Width: 1})
		p.tickLabel(x, y+4*s+font.Ascent(p.fsSmall)+2*s, chart.AxisLabel(tk, step), p.gantt.X0, p.gantt.X1)
	}
	capY := y + 4*s + p.fsSmall*1.4 + font.Ascent(p.fsSmall) + 2*s
	p.text(p.gantt.X0, capY, chart.Fit(p.gantt.W(), p.fsSmall, false,
		"time, in units of one addition (o, g and L in the same units)", "time (one addition = 1)", "time"),
		p.fsSmall, render.AlignLeft, false, th.Muted)
}

// tickLabel centres an axis label under its tick, shifted inward where it
// would leave the axis' extent [x0, x1] by more than a few pixels (the
// first tick sits on the axis' left edge, next to the lane labels).
func (p *painter) tickLabel(x, y float64, label string, x0, x1 float64) {
	w := font.Width(label, p.fsSmall, false)
	x = min(max(x, x0-2*p.s+w/2), x1+2*p.s-w/2)
	p.text(x, y, label, p.fsSmall, render.AlignCenter, false, p.th.Muted)
}

func (p *painter) playhead() {
	x := p.x(p.t)
	p.vline(x, p.panels[0].plot.Y0, p.axisY+4*p.s, render.Style{Stroke: p.th.Playhead, Width: 2 * p.s})
}

// meanPlot draws the running mean of T over the replays, revealed with
// the playhead (replay k of N shows at t = k/N of the run, so playing the
// scene plays the replays too), against E[T](L_s) and T_s(L_s).
func (p *painter) meanPlot() {
	r, th, s := p.r, p.th, p.s
	mb := p.mean
	n := len(r.mean)
	p.shown = min(n, max(1, int(math.Ceil(float64(n)*p.t/r.End()-1e-9))))
	k := p.shown
	rowH := p.fs * 1.6
	p.text(mb.X0, chart.Baseline(mb.Y0, rowH, p.fs), chart.Fit(mb.W(), p.fs, true,
		fmt.Sprintf("Running mean of T, %d of %d replays", k, n),
		fmt.Sprintf("Mean of T, %d/%d replays", k, n),
		fmt.Sprintf("%d/%d replays", k, n)), p.fs, render.AlignLeft, true, th.Ink)

	// The key, one row each: the curve's value now and the references.
	y := mb.Y0 + rowH
	krow := p.fsSmall * 1.5
	sw := 14 * s
	meanStyle := render.Style{Stroke: th.Redundant, Width: 2 * s}
	key := func(label string, st render.Style) {
		mid := y + krow/2
		p.l.Add(render.Line{From: render.Point{X: mb.X0, Y: mid}, To: render.Point{X: mb.X0 + sw, Y: mid}, Style: st})
		p.text(mb.X0+sw+5*s, chart.Baseline(y, krow, p.fsSmall), label, p.fsSmall, render.AlignLeft, false, th.Ink)
		y += krow
	}
	room := mb.W() - sw - 5*s
	key(chart.Fit(room, p.fsSmall, false, "mean of T so far = "+num(r.mean[k-1]), "mean = "+num(r.mean[k-1])), meanStyle)
	se := strconv.FormatFloat(r.stderr, 'g', 2, 64)
	exp := fmt.Sprintf("E[T](L_s) = %s ± %s (%d trials)", num(r.expected), se, r.trials)
	key(chart.Fit(room, p.fsSmall, false, exp, fmt.Sprintf("E[T](L_s) = %s ± %s", num(r.expected), se), "E[T] = "+num(r.expected)), p.expectedStyle())
	key(chart.Fit(room, p.fsSmall, false, "T_s(L_s) = "+num(r.sched.Planned())+", no fluctuation", "T_s(L_s) = "+num(r.sched.Planned()), "T_s = "+num(r.sched.Planned())), p.plannedStyle())
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
	plot := box{X0: mb.X0, Y0: y + p.fsSmall*0.6, X1: mb.X1 - 2*s, Y1: mb.Y1 - 4*s - p.fsSmall*1.4 - p.fsSmall*1.5}
	if plot.H() < 10 {
		return
	}
	yt, ystep := chart.NiceTicks(lo, hi, max(int(plot.H()/(p.fsSmall*2.2)), 1))
	labelW := 0.0
	for _, v := range yt {
		labelW = max(labelW, font.Width(chart.AxisLabel(v, ystep), p.fsSmall, false))
	}
	plot.X0 += labelW + 6*s
	p.plot = plot
	if plot.W() < 10 {
		return
	}
	p.rect(plot, render.Style{Fill: th.Panel, Stroke: th.Rule, Width: 1})
	yOf := func(v float64) float64 { return plot.Y1 - (v-lo)/(hi-lo)*plot.H() }
	xOf := func(i float64) float64 { // i = replay count, 1..n
		if n == 1 {
			return (plot.X0 + plot.X1) / 2
		}
		return plot.X0 + (i-1)/float64(n-1)*plot.W()
	}
	for _, v := range yt {
		yy := yOf(v)
		p.l.Add(render.Line{From: render.Point{X: plot.X0, Y: yy}, To: render.Point{X: plot.X1, Y: yy}, Style: render.Style{Stroke: th.Rule, Width: 1}})
		p.text(plot.X0-4*s, yy+font.Ascent(p.fsSmall)/2-1, chart.AxisLabel(v, ystep), p.fsSmall, render.AlignRight, false, th.Muted)
	}
	// References across the whole plot, then the curve so far.
	for _, ref := range []struct {
		v  float64
		st render.Style
	}{{r.sched.Planned(), p.plannedStyle()}, {r.expected, p.expectedStyle()}} {
		yy := yOf(ref.v)
		p.l.Add(render.Line{From: render.Point{X: plot.X0, Y: yy}, To: render.Point{X: plot.X1, Y: yy}, Style: ref.st})
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
		p.l.Add(render.Polyline{Points: pts, Style: meanStyle})
	}
	cur := pts[len(pts)-1]
	p.l.Add(render.Circle{Center: cur, R: 4 * s, Style: render.Style{Fill: th.Redundant, Stroke: th.Panel, Width: max(1, s)}})

	// Replay ticks.
	lw := font.Width("8888", p.fsSmall, false)
	xt, xstep := chart.NiceTicks(1, float64(n), max(int(plot.W()/(lw*1.8)), 1))
	if n == 1 {
		xt = []float64{1}
	}
	xstep = max(xstep, 1)
	for _, v := range xt {
		xx := xOf(v)
		p.vline(xx, plot.Y1, plot.Y1+4*s, render.Style{Stroke: th.Muted, Width: 1})
		p.tickLabel(xx, plot.Y1+4*s+font.Ascent(p.fsSmall)+2*s, chart.AxisLabel(v, xstep), plot.X0, mb.X1)
	}
	p.text(plot.X0, plot.Y1+4*s+p.fsSmall*1.4+font.Ascent(p.fsSmall)+2*s, chart.Fit(mb.X1-plot.X0, p.fsSmall, false,
		"replays (revealed as the playhead moves)", "replays"), p.fsSmall, render.AlignLeft, false, th.Muted)
}
