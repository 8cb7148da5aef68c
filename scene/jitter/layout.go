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
	r  *run
	th render.Theme
	l  *render.List
	t  float64
	s  float64 // scale against a 960x540 canvas

	z                    chart.Sizes // the sizes below, for the shared helpers
	fs, fsSmall, fsTitle float64
	pad                  float64

	gantt  box // the plots' horizontal extent (x0, x1) and the lanes' column
	labelX float64
	panels []panel
	axisY  float64 // the time axis line, under the last panel
	hist   box     // the histogram's whole area
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
	// Room for everything a finished frame draws, so the list never grows.
	p.l.Items = make([]render.Item, 0, 400+2*len(r.lanes)+2*r.nwork+3*len(r.msgs))
	p.layout(v.W, v.H)
	p.title()
	top := p.legend()
	p.arrange(top)
	for i := range p.panels {
		p.panel(&p.panels[i])
	}
	p.timeAxis()
	p.playhead()
	p.histogram()
	return *p.l, p
}

// layout picks sizes from the canvas: text scales with the canvas (14 px at
// 960x540, so 18.7 px at 1280x720 projected), with a floor for small embeds.
func (p *painter) layout(w, h float64) {
	p.z = chart.SizesFor(w, h)
	p.s, p.fs, p.fsSmall, p.fsTitle, p.pad = p.z.S, p.z.FS, p.z.FSSmall, p.z.FSTitle, p.z.Pad
}

func (p *painter) text(x, y float64, s string, size float64, align render.Align, bold bool, c color.RGBA) {
	p.l.Add(render.Text{At: render.Point{X: x, Y: y}, S: s, Size: size, Align: align, Bold: bold, Color: c})
}

func (p *painter) title() {
	rowH := p.fsTitle * 1.5
	y := chart.Baseline(p.pad*0.6, rowH, p.fsTitle)
	r := p.r
	right := fmt.Sprintf("P = %d · T = %d · t = %s", r.p.P, r.p.T, scene.Seconds(p.t))
	rw := font.Width(right, p.fs, false)
	p.text(p.l.W-p.pad, y, right, p.fs, render.AlignRight, false, p.th.Muted)
	room := p.l.W - 2*p.pad - rw - 2*p.fs
	p.text(p.pad, y, chart.Fit(room, p.fsTitle, true,
		"Butterfly allreduce under OS and network jitter",
		"Allreduce under OS and network jitter",
		"Allreduce under jitter"), p.fsTitle, render.AlignLeft, true, p.th.Ink)
}

// legend draws the key to the Gantt charts under the title, wrapping onto a
// second row on narrow canvases, and returns the y where the body starts.
func (p *painter) legend() float64 {
	th := p.th
	entries := []chart.LegendEntry{
		{Label: "reduce", Draw: func(b box) { p.rect(b, render.Style{Fill: th.Compute}) }},
		{Label: "wait for partner", Draw: func(b box) { p.rect(b, render.Style{Fill: th.Idle, Stroke: th.Rule}) }},
		{Label: "OS jitter", Draw: func(b box) { p.stall(b, false) }},
		{Label: "message", Draw: func(b box) {
			p.l.Add(render.Arrow{From: render.Point{X: b.X0, Y: b.Y1}, To: render.Point{X: b.X1, Y: b.Y0}, Head: 5 * p.s, Style: render.Style{Stroke: th.Butterfly, Fill: th.Butterfly, Width: max(1, p.s)}})
		}},
		{Label: "network noise", Draw: func(b box) {
			p.l.Add(render.Line{From: render.Point{X: b.X0, Y: (b.Y0 + b.Y1) / 2}, To: render.Point{X: b.X1, Y: (b.Y0 + b.Y1) / 2}, Style: render.Style{Stroke: th.Noise, Width: 3 * p.s}})
		}},
	}
	if p.r.view != ViewConventional {
		entries = append(entries,
			chart.LegendEntry{Label: "redundant copy", Draw: func(b box) {
				p.l.Add(render.Arrow{From: render.Point{X: b.X0, Y: b.Y1}, To: render.Point{X: b.X1, Y: b.Y0}, Head: 5 * p.s, Style: render.Style{Stroke: th.Redundant, Fill: th.Redundant, Width: max(1, p.s)}})
			}},
			chart.LegendEntry{Label: "adopted copy", Draw: func(b box) {
				p.l.Add(render.Line{From: render.Point{X: b.X0, Y: b.Y1}, To: render.Point{X: b.X1 - 4*p.s, Y: b.Y0 + 4*p.s}, Style: render.Style{Stroke: th.Adopted, Width: 1.6 * max(1, p.s)}})
				p.l.Add(render.Circle{Center: render.Point{X: b.X1 - 4*p.s, Y: b.Y0 + 4*p.s}, R: 4 * p.s, Style: render.Style{Fill: th.Adopted, Stroke: th.Panel, Width: p.s}})
			}},
		)
	}
	entries = append(entries, chart.LegendEntry{Label: "completion", Draw: func(b box) {
		x := (b.X0 + b.X1) / 2
		p.l.Add(render.Line{From: render.Point{X: x, Y: b.Y0 - 2*p.s}, To: render.Point{X: x, Y: b.Y1 + 2*p.s}, Style: render.Style{Stroke: th.Critical, Width: 2 * p.s}})
	}})

	return chart.Legend(p.l, p.z, p.th.Ink, entries)
}

// arrange splits the body into the Gantt column (panels stacked on one
// time axis) and the histogram: beside it on landscape canvases, under it
// on tall ones.
func (p *painter) arrange(top float64) {
	W, H := p.l.W, p.l.H
	body := box{X0: p.pad, Y0: top, X1: W - p.pad, Y1: H - p.pad}
	col := body
	if W >= 1.3*H {
		hw := math.Round(0.29 * body.W())
		col.X1 = body.X1 - hw - 2*p.pad
		p.hist = box{X0: col.X1 + 2*p.pad, Y0: body.Y0, X1: body.X1, Y1: body.Y1}
	} else {
		hh := math.Round(0.34 * body.H())
		col.Y1 = body.Y1 - hh - 2*p.pad
		p.hist = box{X0: body.X0, Y0: col.Y1 + 2*p.pad, X1: body.X1, Y1: body.Y1}
	}
	// Lane labels: as wide as the widest rank.
	labelW := font.Width(fmt.Sprintf("P%d", p.r.p.P-1), p.fsSmall, true) + 6*p.s
	p.gantt = box{X0: col.X0 + labelW, Y0: col.Y0, X1: col.X1 - 4*p.s, Y1: col.Y1}
	p.labelX = p.gantt.X0 - 4*p.s

	// Under the last panel: tick marks, tick labels and a caption row.
	axisH := 4*p.s + p.fsSmall*1.4 + p.fsSmall*1.5
	headerH := p.fs * 1.6
	gap := 6 * p.s
	kinds := []bool{false, true}
	switch p.r.view {
	case ViewConventional:
		kinds = []bool{false}
	case ViewRedundant:
		kinds = []bool{true}
	}
	n := float64(len(kinds))
	avail := col.H() - axisH - n*headerH - (n-1)*gap
	ph := max(avail/n, 1)
	y := col.Y0
	p.panels = p.panels[:0]
	for _, red := range kinds {
		pl := panel{redundant: red, header: chart.Baseline(y, headerH, p.fs)}
		pl.plot = box{X0: p.gantt.X0, Y0: y + headerH, X1: p.gantt.X1, Y1: y + headerH + ph}
		pl.laneH = ph / float64(len(p.r.lanes))
		p.panels = append(p.panels, pl)
		y = pl.plot.Y1 + gap
	}
	p.axisY = p.panels[len(p.panels)-1].plot.Y1
}

// x maps a simulated time onto the Gantt charts' shared time axis [0, End].
func (p *painter) x(t float64) float64 {
	return p.gantt.X0 + t/p.r.End()*p.gantt.W()
}

func (p *painter) rect(b box, st render.Style) { chart.Rect(p.l, b, st) }

// stall draws an OS-jitter window: a light tint of the warning colour
// crossed by diagonal hatching in full strength, so that it reads as a
// stall, not as work, even printed in grey. The hatch lines sit on a grid
// fixed to the canvas, so they stay put while the window grows with the
// playhead.
func (p *painter) stall(b box, faded bool) {
	c := p.th.Stall
	tint := render.Mix(p.th.Panel, c, stallTint)
	if faded {
		c, tint = render.Fade(c, fadeMoot), render.Fade(tint, fadeMoot)
	}
	p.rect(b, render.Style{Fill: tint})
	chart.Hatch(p.l, b, p.s, c)
	if b.H() >= 7*p.s {
		p.rect(b, render.Style{Stroke: c, Width: max(1, p.s)})
	}
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
	r, th, s := p.r, p.th, p.s
	p.rect(pl.plot, render.Style{Fill: th.Panel, Stroke: th.Rule, Width: 1})
	ticks := p.timeTicks()
	for _, tk := range ticks {
		if tk > 0 && tk < r.End() {
			x := p.x(tk)
			p.l.Add(render.Line{From: render.Point{X: x, Y: pl.plot.Y0}, To: render.Point{X: x, Y: pl.plot.Y1}, Style: render.Style{Stroke: th.Rule, Width: 1}})
		}
	}
	end, crit := p.completion(pl)
	finished := p.t >= end

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
	p.text(pl.plot.X0, pl.header, chart.Fit(pl.plot.W(), p.fs, true, head...), p.fs, render.AlignLeft, true, th.Ink)

	// Bars fill most of a lane, all of it when lanes are a couple of pixels.
	bh := pl.laneH * 0.72
	if pl.laneH < 3 {
		bh = pl.laneH
	}
	for li, proc := range r.lanes {
		yc := pl.laneY(li)
		moot := math.Inf(1)
		if pl.redundant {
			moot = r.finRed[proc]
		}
		// Waiting for a partner fills the lane up to f_i^(K); the work
		// is drawn over it.
		if b := min(r.finConv[proc], p.t); b > 0 {
			if moot < b {
				p.span(trace.Idle, 0, moot, yc, bh, false)
				p.span(trace.Idle, moot, b, yc, bh, true)
			} else {
				p.span(trace.Idle, 0, b, yc, bh, false)
			}
		}
		for _, sp := range r.work[li] {
			a, b := sp.Start, min(sp.End, p.t)
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
			if r.adopt[proc].exchange == 0 || g > p.t {
				continue
			}
			p.l.Add(render.Circle{Center: render.Point{X: p.x(g), Y: pl.laneY(li)}, R: rr, Style: render.Style{Fill: th.Adopted, Stroke: th.Panel, Width: max(1, 0.8*s)}})
		}
	}
	if pl.redundant && r.view == ViewBoth && p.t >= r.conv && r.red < r.conv {
		// The gain: where the conventional run ended, in the same panel.
		x := p.x(r.conv)
		p.l.Add(render.Line{From: render.Point{X: x, Y: pl.plot.Y0}, To: render.Point{X: x, Y: pl.plot.Y1}, Style: render.Style{Stroke: th.Muted, Width: 1.5 * s, Dash: []float64{4 * s, 3 * s}}})
	}
	if finished {
		x := p.x(end)
		p.l.Add(render.Line{From: render.Point{X: x, Y: pl.plot.Y0}, To: render.Point{X: x, Y: pl.plot.Y1}, Style: render.Style{Stroke: th.Critical, Width: 2 * s, Dash: []float64{6 * s, 3 * s}}})
		li := r.slot[crit]
		p.l.Add(render.Circle{Center: render.Point{X: p.x(p.done(pl, crit)), Y: pl.laneY(li)}, R: min(max(pl.laneH*0.9, 4*s), 8*s), Style: render.Style{Stroke: th.Critical, Width: 2 * s}})
		if pl.redundant && r.view == ViewBoth && p.t >= r.conv && r.red < r.conv {
			label := fmt.Sprintf("%.2g× faster", r.conv/r.red)
			w := font.Width(label, p.fsSmall, true)
			if xm := (x + p.x(r.conv)) / 2; p.x(r.conv)-x > w+8*s {
				y := pl.plot.Y0 + p.fsSmall*1.3
				p.rect(box{X0: xm - w/2 - 3*s, Y0: y - font.Ascent(p.fsSmall) - 2*s, X1: xm + w/2 + 3*s, Y1: y + font.Descent(p.fsSmall) + 2*s}, render.Style{Fill: th.Panel})
				p.text(xm, y, label, p.fsSmall, render.AlignCenter, true, th.Ink)
			}
		}
	}
}

// span draws part [a, b] of a span on a lane. Reductions take
// nanoseconds against microseconds of waiting, so they get at least a
// pixel: the viewer should see that the work is there and tiny.
func (p *painter) span(k trace.Kind, a, b, yc, bh float64, faded bool) {
	x0, x1 := p.x(a), p.x(b)
	bx := box{X0: x0, Y0: yc - bh/2, X1: x1, Y1: yc + bh/2}
	switch k {
	case trace.Stall:
		p.stall(bx, faded)
		return
	case trace.Compute:
		bx.X1 = max(bx.X1, bx.X0+1)
	}
	c := p.th.Kind(k)
	if faded {
		c = render.Fade(c, fadeMoot)
	}
	p.rect(bx, render.Style{Fill: c})
}

// messages draws each message sent by the playhead as an arrow from its
// sender's lane at the send time toward its receiver's lane at the arrival,
// moving while in flight; the part of a flight that network noise added
// (the last Delay seconds) is drawn thick in the noise colour.
func (p *painter) messages(pl *panel) {
	r, th, s := p.r, p.th, p.s
	w := max(1, 0.8*s)
	head := min(max(pl.laneH*1.6, 3.5*s), 6*s)
	end := r.End()
	for _, m := range r.msgs {
		if m.redundant && !pl.redundant {
			break // conventional messages come first
		}
		if m.send > p.t || m.send >= end {
			continue
		}
		upto := min(m.arr, p.t, end)
		a := render.Point{X: p.x(m.send), Y: pl.laneY(m.from)}
		b := render.Point{X: p.x(m.arr), Y: pl.laneY(m.to)}
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
			p.l.Add(render.Arrow{From: a, To: tip, Head: head, Style: st})
		} else {
			// Cut off by the end of the time axis: no head, it never lands
			// inside the picture (and nobody needed it).
			p.l.Add(render.Line{From: a, To: tip, Style: st})
		}
		if m.delay > 0 {
			if n0 := m.arr - m.delay; upto > n0 {
				p.l.Add(render.Line{From: at(max(n0, m.send)), To: tip, Style: render.Style{Stroke: th.Noise, Width: 2.6 * w}})
			}
		}
	}
}

// laneLabels names every lane that has room, and the critical process in
// bold once it has set the completion time.
func (p *painter) laneLabels(pl *panel, crit int, finished bool) {
	r := p.r
	need := p.fsSmall * 1.05
	stride := 1
	for float64(stride)*pl.laneH < need && stride < len(r.lanes) {
		stride *= 2
	}
	critLane := r.slot[crit]
	for li, proc := range r.lanes {
		y := pl.laneY(li)
		if finished && li == critLane {
			p.text(p.labelX, y+font.Ascent(p.fsSmall)/2-1, fmt.Sprintf("P%d", proc), p.fsSmall, render.AlignRight, true, p.th.Critical)
			continue
		}
		if li%stride != 0 || (finished && math.Abs(y-pl.laneY(critLane)) < need) {
			continue
		}
		p.text(p.labelX, y+font.Ascent(p.fsSmall)/2-1, fmt.Sprintf("P%d", proc), p.fsSmall, render.AlignRight, false, p.th.Muted)
	}
}

// timeTicks are the time axis ticks for this canvas: about one per
// label's width and a half.
func (p *painter) timeTicks() []float64 {
	lw := font.Width("88.8 µs", p.fsSmall, false)
	n := int(p.gantt.W() / (lw * 1.8))
	ticks, _ := chart.NiceTicks(0, p.r.End(), max(n, 1))
	return ticks
}

func (p *painter) timeAxis() {
	th, s := p.th, p.s
	y := p.axisY
	for _, tk := range p.timeTicks() {
		x := p.x(tk)
		p.l.Add(render.Line{From: render.Point{X: x, Y: y}, To: render.Point{X: x, Y: y + 4*s}, Style: render.Style{Stroke: th.Muted, Width: 1}})
		p.tickLabel(x, y+4*s+font.Ascent(p.fsSmall)+2*s, scene.Seconds(tk))
	}
	capY := y + 4*s + p.fsSmall*1.4 + font.Ascent(p.fsSmall) + 2*s
	p.text(p.gantt.X0, capY, "time since the allreduce began", p.fsSmall, render.AlignLeft, false, th.Muted)
	if n := len(p.r.lanes); n < p.r.p.P {
		p.text(p.gantt.X1, capY, fmt.Sprintf("showing %d of %d processes", n, p.r.p.P), p.fsSmall, render.AlignRight, true, th.Ink)
	}
}

// tickLabel centres an axis label under its tick, shifted inward where it
// would run off the canvas (the first time tick, 0 s, sits on the lanes'
// left edge; the last may sit on the canvas's right margin).
func (p *painter) tickLabel(x, y float64, label string) {
	w := font.Width(label, p.fsSmall, false)
	x = min(max(x, w/2+2), p.l.W-w/2-2)
	if x-w/2 < p.gantt.X0-2*p.s && x > p.gantt.X0-w {
		// Under the Gantt charts nothing may reach left into the lane
		// labels' column.
		x = p.gantt.X0 - 2*p.s + w/2
	}
	p.text(x, y, label, p.fsSmall, render.AlignCenter, false, p.th.Muted)
}

func (p *painter) playhead() {
	x := p.x(p.t)
	y0 := p.panels[0].plot.Y0
	p.l.Add(render.Line{From: render.Point{X: x, Y: y0}, To: render.Point{X: x, Y: p.axisY + 4*p.s}, Style: render.Style{Stroke: p.th.Playhead, Width: 2 * p.s}})
}

// histogram draws the completion times of all trials, the two series side
// by side in each bin: conventional solid, redundant as an outlined tint,
// so they differ in shape as well as hue. Dashed lines mark the means and
// dots on the axis this run's times.
func (p *painter) histogram() {
	r, th, s := p.r, p.th, p.s
	h := &r.hist
	hb := p.hist
	rowH := p.fs * 1.6
	p.text(hb.X0, chart.Baseline(hb.Y0, rowH, p.fs), chart.Fit(hb.W(), p.fs, true,
		fmt.Sprintf("Completion time, %d trials", h.n), fmt.Sprintf("%d trials", h.n)), p.fs, render.AlignLeft, true, th.Ink)

	// The series key, two rows.
	y := hb.Y0 + rowH
	krow := p.fsSmall * 1.5
	sw := 14 * s
	key := func(x, y float64, label string, draw func(b box)) float64 {
		sh := p.fsSmall * 0.8
		draw(box{X0: x, Y0: y + (krow-sh)/2, X1: x + sw, Y1: y + (krow+sh)/2})
		p.text(x+sw+4*s, chart.Baseline(y, krow, p.fsSmall), label, p.fsSmall, render.AlignLeft, false, th.Ink)
		return x + sw + 4*s + font.Width(label, p.fsSmall, false) + 12*s
	}
	convStyle := render.Style{Fill: th.Butterfly}
	redStyle := render.Style{Fill: render.Mix(th.Panel, th.Redundant, redTint), Stroke: th.Redundant, Width: max(1, 1.2*s)}
	x := key(hb.X0, y, "conventional", func(b box) { p.rect(b, convStyle) })
	redLabel := fmt.Sprintf("T = %d redundant", r.p.T)
	if x+sw+font.Width(redLabel, p.fsSmall, false) > hb.X1 {
		x, y = hb.X0, y+krow
	}
	key(x, y, redLabel, func(b box) { p.rect(b, redStyle) })
	y += krow
	x = key(hb.X0, y, "mean", func(b box) {
		p.l.Add(render.Line{From: render.Point{X: b.X0 + sw/2, Y: b.Y0 - 2*s}, To: render.Point{X: b.X0 + sw/2, Y: b.Y1 + 2*s}, Style: render.Style{Stroke: th.Ink, Width: 1.5 * s, Dash: []float64{3 * s, 2 * s}}})
	})
	key(x, y, "this run", func(b box) {
		p.l.Add(render.Circle{Center: render.Point{X: b.X0 + sw/2, Y: (b.Y0 + b.Y1) / 2}, R: 4 * s, Style: render.Style{Fill: th.Ink, Stroke: th.Panel, Width: s}})
	})
	y += krow + 4*s

	// The plot: counts up, time across.
	countW := font.Width(fmt.Sprint(h.max), p.fsSmall, false) + 6*s
	plot := box{X0: hb.X0 + countW, Y0: y + p.fsSmall*0.6, X1: hb.X1 - 2*s, Y1: hb.Y1 - p.fsSmall*1.4 - 4*s - p.fsSmall*1.5}
	if plot.H() < 10 || plot.W() < 10 {
		return
	}
	p.rect(plot, render.Style{Fill: th.Panel, Stroke: th.Rule, Width: 1})
	// Counts: whole-number ticks, the top one at or above the tallest bar.
	cticks, step := chart.NiceTicks(0, float64(max(h.max, 1)), max(int(plot.H()/(p.fsSmall*2.2)), 1))
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
			p.l.Add(render.Line{From: render.Point{X: plot.X0, Y: yy}, To: render.Point{X: plot.X1, Y: yy}, Style: render.Style{Stroke: th.Rule, Width: 1}})
		}
		p.text(plot.X0-4*s, yy+font.Ascent(p.fsSmall)/2-1, fmt.Sprint(c), p.fsSmall, render.AlignRight, false, th.Muted)
	}
	xOf := func(t float64) float64 { return plot.X0 + (t-h.lo)/(h.hi-h.lo)*plot.W() }
	bw := plot.W() / Bins
	gap := min(1, bw*0.1)
	for b := range Bins {
		x0 := plot.X0 + float64(b)*bw
		mid := x0 + bw/2
		if c := h.counts[seriesConventional][b]; c > 0 {
			p.rect(box{X0: x0 + gap, Y0: yOf(float64(c)), X1: mid, Y1: plot.Y1}, convStyle)
		}
		if c := h.counts[seriesRedundant][b]; c > 0 {
			p.rect(box{X0: mid, Y0: yOf(float64(c)), X1: x0 + bw - gap, Y1: plot.Y1}, redStyle)
		}
	}
	// Means: dashed lines in each series' colour.
	for sr, c := range []color.RGBA{th.Butterfly, th.Redundant} {
		mx := xOf(h.mean[sr])
		p.l.Add(render.Line{From: render.Point{X: mx, Y: plot.Y0}, To: render.Point{X: mx, Y: plot.Y1}, Style: render.Style{Stroke: c, Width: 1.5 * s, Dash: []float64{5 * s, 3 * s}}})
	}
	// This run: a dot per series on the axis.
	for sr, v := range []float64{r.conv, r.red} {
		c := []color.RGBA{th.Butterfly, th.Redundant}[sr]
		p.l.Add(render.Circle{Center: render.Point{X: xOf(v), Y: plot.Y1}, R: 4.5 * s, Style: render.Style{Fill: c, Stroke: th.Ink, Width: max(1, s)}})
	}
	// Time ticks.
	lw := font.Width("88.8 µs", p.fsSmall, false)
	tticks, _ := chart.NiceTicks(h.lo, h.hi, max(int(plot.W()/(lw*1.25)), 1))
	for _, tk := range tticks {
		xx := xOf(tk)
		p.l.Add(render.Line{From: render.Point{X: xx, Y: plot.Y1}, To: render.Point{X: xx, Y: plot.Y1 + 4*s}, Style: render.Style{Stroke: th.Muted, Width: 1}})
		p.tickLabel(xx, plot.Y1+4*s+font.Ascent(p.fsSmall)+3*s, scene.Seconds(tk))
	}
	p.text(plot.X0, plot.Y1+4*s+p.fsSmall*1.4+font.Ascent(p.fsSmall)+3*s, "completion time · bars: trials per bin", p.fsSmall, render.AlignLeft, false, th.Muted)
}
