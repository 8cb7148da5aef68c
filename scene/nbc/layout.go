package nbc

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

// stallTint is how much of the warning colour fills a blocked span or
// handle under its hatching (as in the jitter and LogP scenes, so blocking
// reads alike in all three).
const stallTint = 0.28

// waitedTint is how much of the done colour is left in a handle whose Wait
// has returned: finished business, drawn quiet.
const waitedTint = 0.35

// box is an axis-aligned rectangle in canvas pixels.
type box = chart.Box

// lane is one thread's row of a Gantt panel.
type lane struct {
	li     int     // the trace's lane
	Y0, Y1 float64 // its row
	label  string
}

func (ln lane) mid() float64 { return (ln.Y0 + ln.Y1) / 2 }

// panel is one method's Gantt chart.
type panel struct {
	tl     *timeline
	header float64 // header baseline
	plot   box
	lanes  []lane
}

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

	state  box // the state section: queue or handles, and compute bars
	bars   box // the compute threads' bars
	gantt  box // the Gantt charts' horizontal extent
	labelX float64
	panels []panel
	axisY  float64

	// What the frame shows, for the layout tests.
	slots      []box // the ring's slots, in slot order
	slotHandle []int // the handle drawn in each slot (-1: empty)
	mainBox    box   // the main thread's box in the state section
	mainBlock  bool  // the main thread is drawn blocked (queue full)
	flags      []box // each handle's done flag
	flagSet    []bool
	barFrac    [][]float64 // per shown timeline, per compute lane: the bar's fill
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
	p.l.Items = make([]render.Item, 0, 500+2*r.nSpan)
	p.layout(v.W, v.H)
	p.title()
	top := p.legend()
	p.arrange(top)
	if r.view == ViewNBCF {
		p.nbcfState(r.tl[iNBCF])
	} else {
		p.queueState(r.tl[iTCC])
	}
	p.computeBars()
	for i := range p.panels {
		p.panel(&p.panels[i])
	}
	p.timeAxis()
	p.playhead()
	return *p.l, p
}

// layout picks sizes from the canvas: text scales with it (14 px at
// 960x540), with a floor for small embeds.
func (p *painter) layout(w, h float64) {
	p.z = chart.SizesFor(w, h)
	p.s, p.fs, p.fsSmall, p.fsTitle, p.pad = p.z.S, p.z.FS, p.z.FSSmall, p.z.FSTitle, p.z.Pad
}

func (p *painter) text(x, y float64, s string, size float64, align render.Align, bold bool, c color.RGBA) {
	p.l.Add(render.Text{At: render.Point{X: x, Y: y}, S: s, Size: size, Align: align, Bold: bold, Color: c})
}

func (p *painter) rect(b box, st render.Style) { chart.Rect(p.l, b, st) }

func (p *painter) line(x0, y0, x1, y1 float64, st render.Style) {
	p.l.Add(render.Line{From: render.Point{X: x0, Y: y0}, To: render.Point{X: x1, Y: y1}, Style: st})
}

// onFill is the text colour that reads on fill c: the theme's ink or its
// background, whichever differs more in luminance (Rec. 709 weights).
func (p *painter) onFill(c color.RGBA) color.RGBA { return chart.OnFill(c, p.th.Ink, p.th.Background) }

// stallFill is the engine's Stall spans' colour (the progress thread's
// creation, context switches): the warning colour, solid, apart from the
// hatched blocked enqueue.
func (p *painter) stallFill() color.RGBA { return render.Mix(p.th.Panel, p.th.Stall, 0.7) }

// wireFill is the network row's colour: a quiet tint of the send colour,
// since many messages overlap.
func (p *painter) wireFill() color.RGBA { return render.Mix(p.th.Panel, p.th.Send, 0.6) }

// hatch draws blocked time: a light tint of the warning colour crossed by
// diagonal hatching in full strength, so it reads as time lost, not as
// work, even printed in grey. The hatch lines sit on a grid fixed to the
// canvas, so they stay put while the span grows with the playhead.
func (p *painter) hatch(b box) {
	c := p.th.Stall
	p.rect(b, render.Style{Fill: render.Mix(p.th.Panel, c, stallTint)})
	chart.Hatch(p.l, b, p.s, c)
}

func (p *painter) title() {
	r := p.r
	rowH := p.fsTitle * 1.5
	y := chart.Baseline(p.pad*0.6, rowH, p.fsTitle)
	right := chart.Fit(p.l.W*0.5, p.fs, false,
		fmt.Sprintf("%d nodes · %s messages · n = %d · t = %s", r.p.Nodes, bytes(r.p.Msg), r.p.Matrix, scene.Seconds(p.t)),
		fmt.Sprintf("%d nodes · %s · t = %s", r.p.Nodes, bytes(r.p.Msg), scene.Seconds(p.t)),
		"t = "+scene.Seconds(p.t))
	rw := font.Width(right, p.fs, false)
	p.text(p.l.W-p.pad, y, right, p.fs, render.AlignRight, false, p.th.Muted)
	room := p.l.W - 2*p.pad - rw - 2*p.fs
	names := []string{"TCC queue progress: non-blocking alltoalls on a progress thread", "TCC queue progress", "TCC queue"}
	switch r.view {
	case ViewNBCF:
		names = []string{"LibNBC progress function on the TCC workload", "LibNBC progress function", "LibNBC"}
	case ViewBoth:
		names = []string{"TCC's queue vs. LibNBC's progress function", "TCC vs. LibNBC", "TCC vs. NBCF"}
	}
	p.text(p.pad, y, chart.Fit(room, p.fsTitle, true, names...), p.fsTitle, render.AlignLeft, true, p.th.Ink)
}

// bytes writes a message size as the paper does: 500 KB, 5 MB (decimal).
func bytes(b float64) string {
	switch {
	case b >= 1e9:
		return fmt.Sprintf("%.3g GB", b/1e9)
	case b >= 1e6:
		return fmt.Sprintf("%.3g MB", b/1e6)
	case b >= 1e3:
		return fmt.Sprintf("%.3g KB", b/1e3)
	}
	return fmt.Sprintf("%.0f B", b)
}

// legend draws the key under the title, wrapping onto more rows on narrow
// canvases, and returns the y where the body starts. Span kinds are listed
// only when a shown run has them.
func (p *painter) legend() float64 {
	th, s := p.th, p.s
	has := map[trace.Kind]bool{}
	progress, blocked, net := false, false, false
	for _, tl := range p.r.shown {
		for _, sp := range tl.tr.Spans {
			if tl.blockedSpan(sp) {
				blocked = true
				continue
			}
			has[sp.Kind] = true
		}
		progress = progress || len(tl.progress) > 0
		net = net || tl.net >= 0 && len(tl.tr.Messages) > 0
	}
	bar := func(c color.RGBA) func(b box) { return func(b box) { p.rect(b, render.Style{Fill: c}) } }
	var entries []chart.LegendEntry
	add := func(on bool, label string, draw func(b box)) {
		if on {
			entries = append(entries, chart.LegendEntry{Label: label, Draw: draw})
		}
	}
	add(has[trace.Compute], "matrix-vector rows", bar(th.Compute))
	add(has[trace.Send], "posting a schedule", func(b box) {
		st := render.Style{Fill: th.Send}
		if chart.CloseColours(th.Compute, th.Send) {
			st.Stroke, st.Width = th.Ink, max(1, 0.8*s)
		}
		p.rect(b, st)
	})
	add(has[trace.Receive], "in the MPI library", bar(th.Receive))
	add(has[trace.Stall], "thread start / switch", bar(p.stallFill()))
	add(blocked, "blocked: queue full", p.hatch)
	add(has[trace.Idle], "waiting", func(b box) { p.rect(b, render.Style{Fill: th.Idle, Stroke: th.Rule}) })
	add(net, "data on the wire", bar(p.wireFill()))
	add(progress, "NBC_Test call", func(b box) {
		p.line((b.X0+b.X1)/2, b.Y0-2*s, (b.X0+b.X1)/2, b.Y1+2*s, render.Style{Stroke: th.Adopted, Width: 2 * s})
	})
	add(true, "collective in flight", bar(th.Redundant))
	add(true, "done flag set", func(b box) {
		c := (b.X0 + b.X1) / 2
		h := b.H()
		p.rect(box{X0: c - h/2, Y0: b.Y0, X1: c + h/2, Y1: b.Y1}, render.Style{Fill: th.Receive, Stroke: th.Ink, Width: max(1, s)})
	})
	return chart.Legend(p.l, p.z, th.Ink, entries)
}

// arrange splits the body: the state section on top (the queue or the
// handles on the left, the compute threads' bars on the right), the
// Gantt panels under it on one time axis.
func (p *painter) arrange(top float64) {
	W, H := p.l.W, p.l.H
	s := p.s
	body := box{X0: p.pad, Y0: top, X1: W - p.pad, Y1: H - p.pad}
	stateH := math.Round(0.36 * body.H())
	p.state = box{X0: body.X0, Y0: body.Y0, X1: body.X1, Y1: body.Y0 + stateH}
	bw := math.Round(0.3 * body.W())
	p.bars = box{X0: body.X1 - bw, Y0: p.state.Y0, X1: body.X1, Y1: p.state.Y1}
	p.state.X1 = p.bars.X0 - 2*p.pad

	labelW := 0.0
	for _, tl := range p.r.shown {
		for _, n := range tl.names {
			labelW = max(labelW, font.Width(laneLabel(n), p.fsSmall, false))
		}
	}
	col := box{X0: body.X0, Y0: p.state.Y1 + 2*p.pad, X1: body.X1, Y1: body.Y1}
	p.gantt = box{X0: col.X0 + labelW + 6*s, Y0: col.Y0, X1: col.X1 - 4*s, Y1: col.Y1}
	p.labelX = p.gantt.X0 - 4*s

	axisH := 4*s + p.fsSmall*1.4 + p.fsSmall*1.5
	headerH := p.fs * 1.6
	gap := 6 * s
	n := len(p.r.shown)
	ph := max((col.H()-axisH-float64(n)*headerH-float64(n-1)*gap)/float64(n), 1)
	y := col.Y0
	p.panels = make([]panel, n)
	for i, tl := range p.r.shown {
		pl := panel{tl: tl, header: chart.Baseline(y, headerH, p.fs)}
		pl.plot = box{X0: p.gantt.X0, Y0: y + headerH, X1: p.gantt.X1, Y1: y + headerH + ph}
		pl.lanes = laneRows(tl, pl.plot, font.Ascent(p.fsSmall)+font.Descent(p.fsSmall)+1)
		p.panels[i] = pl
		y = pl.plot.Y1 + gap
	}
	p.axisY = p.panels[n-1].plot.Y1
}

// laneLabel shortens the engine's lane names for the Gantt's label column.
func laneLabel(name string) string {
	switch name {
	case "main (thread 0)":
		return "main"
	case "progress thread":
		return "progress"
	case "other ranks":
		return "network"
	}
	if len(name) > 8 && name[:8] == "compute " {
		return "thread " + name[8:]
	}
	return name
}

// laneRows orders a timeline's lanes main, progress thread, compute
// threads, the rest (the other ranks' end of the network), and gives the
// threads whose state the picture is about, main and progress, half again
// the height of a compute thread, and at least minKey each (the height of
// their labels) when the panel is short; the compute threads share the
// rest, however thin.
func laneRows(tl *timeline, plot box, minKey float64) []lane {
	order := []int{tl.main}
	if tl.prog >= 0 {
		order = append(order, tl.prog)
	}
	for _, li := range tl.computes {
		if li != tl.main {
			order = append(order, li)
		}
	}
	for li := range tl.names {
		if li != tl.main && li != tl.prog && tl.work[li] == 0 && (len(tl.spans[li]) > 0 || li == tl.net && len(tl.tr.Messages) > 0) {
			order = append(order, li)
		}
	}
	weight := func(li int) float64 {
		if li == tl.main || li == tl.prog {
			return 1.6
		}
		if tl.work[li] == 0 {
			return 1.3
		}
		return 1
	}
	key := func(li int) bool { return li == tl.main || li == tl.prog || tl.work[li] == 0 }
	total, keys, nc := 0.0, 0.0, 0
	for _, li := range order {
		total += weight(li)
		if key(li) {
			keys += weight(li)
		} else {
			nc++
		}
	}
	unit := plot.H() / total
	keyUnit := unit
	if nc > 0 && unit*1.3 < minKey {
		// Key lanes at their label's height, compute lanes share the rest.
		keyUnit = min(minKey/1.3, plot.H()/keys)
		unit = (plot.H() - keyUnit*keys) / float64(nc)
	}
	y := plot.Y0
	rows := make([]lane, len(order))
	for i, li := range order {
		h := weight(li) * unit
		if key(li) {
			h = weight(li) * keyUnit
		}
		rows[i] = lane{li: li, Y0: y, Y1: y + h, label: laneLabel(tl.names[li])}
		y += h
	}
	return rows
}

// x maps a time onto the Gantt charts' shared axis [0, End].
func (p *painter) x(t float64) float64 {
	return p.gantt.X0 + t/p.r.End()*p.gantt.W()
}

func (p *painter) panel(pl *panel) {
	th, s, tl := p.th, p.s, pl.tl
	p.rect(pl.plot, render.Style{Fill: th.Panel, Stroke: th.Rule, Width: 1})
	for _, tk := range p.timeTicks() {
		if tk > 0 && tk < p.r.End() {
			p.line(p.x(tk), pl.plot.Y0, p.x(tk), pl.plot.Y1, render.Style{Stroke: th.Rule, Width: 1})
		}
	}
	// Header: the method, and its total once the playhead gets there.
	name := "TCC (progress thread, HandleQueue)"
	short := "TCC"
	base := "MPI_Alltoall then compute"
	if tl.method != "tcc" {
		name = fmt.Sprintf("LibNBC, NBC_Test every %d outer iteration", p.r.p.TestEvery)
		if p.r.p.TestEvery > 1 {
			name += "s"
		}
		short = "NBCF-ovlp-test"
		base = "NBCF-noovlp"
	}
	head := []string{name, short}
	if p.t >= tl.res.Total {
		res := fmt.Sprintf(": total %s, speedup %.3f over %s", scene.Seconds(tl.res.Total), tl.res.Speedup, base)
		head = []string{name + res, short + res, fmt.Sprintf("%s: total %s, speedup %.3f", short, scene.Seconds(tl.res.Total), tl.res.Speedup), short}
	}
	p.text(pl.plot.X0, pl.header, chart.Fit(pl.plot.W(), p.fs, true, head...), p.fs, render.AlignLeft, true, th.Ink)

	for _, ln := range pl.lanes {
		h := ln.Y1 - ln.Y0
		bh := h * 0.72
		if h < 3 {
			bh = h
		}
		yc := ln.mid()
		for _, sp := range tl.spans[ln.li] {
			a, b := sp.Start, min(sp.End, p.t)
			if b <= a {
				break
			}
			if tl.blockedSpan(sp) {
				p.hatch(box{X0: p.x(a), Y0: yc - bh/2, X1: p.x(b), Y1: yc + bh/2})
				continue
			}
			p.span(sp.Kind, a, b, yc, bh)
		}
		if ln.li == tl.net {
			p.wire(tl, yc, bh)
		}
	}
	// The collectives the progress thread runs, outlined one by one in
	// the running colour over its lane, so consecutive handles part.
	if tl.prog >= 0 {
		for _, ln := range pl.lanes {
			if ln.li != tl.prog {
				continue
			}
			for _, h := range tl.handles {
				if !at(h.start, p.t) {
					break
				}
				end := p.t
				if at(h.done, p.t) {
					end = h.done
				}
				y := ln.Y0 + 0.06*(ln.Y1-ln.Y0)
				p.rect(box{X0: p.x(h.start), Y0: y, X1: max(p.x(end), p.x(h.start)+1), Y1: y + max(2, 2.5*s)}, render.Style{Fill: th.Redundant})
			}
		}
	}
	// Progress calls on the main thread: at most one tick per pixel.
	if len(tl.progress) > 0 {
		ln := pl.lanes[0]
		last := math.Inf(-1)
		st := render.Style{Stroke: th.Adopted, Width: max(1, 1.2*s)}
		for _, c := range tl.progress {
			if c > p.t {
				break
			}
			x := p.x(c)
			if x-last < 1 {
				continue
			}
			last = x
			p.line(x, ln.Y0+1, x, ln.Y0+0.3*(ln.Y1-ln.Y0), st)
		}
	}
	p.laneLabels(pl)
}

// span draws part [a, b] of a span on a lane, at least a pixel wide.
func (p *painter) span(k trace.Kind, a, b, yc, bh float64) {
	bx := box{X0: p.x(a), Y0: yc - bh/2, X1: p.x(b), Y1: yc + bh/2}
	switch k {
	case trace.Stall:
		bx.X1 = max(bx.X1, bx.X0+1)
		p.rect(bx, render.Style{Fill: p.stallFill()})
		return
	case trace.Idle:
		p.rect(bx, render.Style{Fill: p.th.Idle})
		return
	}
	bx.X1 = max(bx.X1, bx.X0+1)
	st := render.Style{Fill: p.th.Kind(k)}
	if k == trace.Send && chart.CloseColours(p.th.Compute, p.th.Send) {
		st.Stroke, st.Width = p.th.Ink, max(1, 0.8*p.s)
	}
	p.rect(bx, st)
}

// wire draws the network row: every message of rank 0 from its send to
// its arrival (clipped at the playhead), so the row is filled while data
// is moving and empty while it waits for a thread to enter the library.
// Messages that start in the same pixel column as the last drawn one and
// end no later are skipped: they would paint the same pixels.
func (p *painter) wire(tl *timeline, yc, bh float64) {
	c := p.wireFill()
	lastX, lastEnd := math.Inf(-1), math.Inf(-1)
	for _, m := range tl.tr.Messages {
		if m.Send >= p.t {
			break
		}
		x0, x1 := p.x(m.Send), max(p.x(min(m.Arrive, p.t)), p.x(m.Send)+1)
		if x0-lastX < 1 && x1 <= lastEnd {
			continue
		}
		lastX, lastEnd = x0, max(lastEnd, x1)
		p.rect(box{X0: x0, Y0: yc - bh/2, X1: x1, Y1: yc + bh/2}, render.Style{Fill: c})
	}
}

// laneLabels names the lanes that have room: main, progress and network
// always, the compute threads where their label clears every other.
func (p *painter) laneLabels(pl *panel) {
	need := font.Ascent(p.fsSmall) + font.Descent(p.fsSmall) + 1
	var placed []float64
	y := func(ln lane) float64 { return ln.mid() + font.Ascent(p.fsSmall)/2 - 1 }
	clear := func(v float64) bool {
		for _, o := range placed {
			if math.Abs(o-v) < need {
				return false
			}
		}
		return true
	}
	tl := pl.tl
	for pass := range 2 {
		for _, ln := range pl.lanes {
			key := ln.li == tl.main || ln.li == tl.prog || ln.li == tl.net
			if key != (pass == 0) || !key && !clear(y(ln)) {
				continue
			}
			placed = append(placed, y(ln))
			bold := ln.li == tl.main || ln.li == tl.prog
			p.text(p.labelX, y(ln), ln.label, p.fsSmall, render.AlignRight, bold, p.th.Muted)
		}
	}
}

// timeTicks are the time axis ticks for this canvas.
func (p *painter) timeTicks() []float64 {
	lw := font.Width("88.8 ms", p.fsSmall, false)
	n := int(p.gantt.W() / (lw * 1.8))
	ticks, _ := chart.NiceTicks(0, p.r.End(), max(n, 1))
	return ticks
}

func (p *painter) timeAxis() {
	th, s := p.th, p.s
	y := p.axisY
	for _, tk := range p.timeTicks() {
		x := p.x(tk)
		p.line(x, y, x, y+4*s, render.Style{Stroke: th.Muted, Width: 1})
		label := scene.Seconds(tk)
		w := font.Width(label, p.fsSmall, false)
		x = min(max(x, p.gantt.X0-2*s+w/2), p.gantt.X1+2*s-w/2)
		p.text(x, y+4*s+font.Ascent(p.fsSmall)+2*s, label, p.fsSmall, render.AlignCenter, false, th.Muted)
	}
	capY := y + 4*s + p.fsSmall*1.4 + font.Ascent(p.fsSmall) + 2*s
	p.text(p.gantt.X0, capY, chart.Fit(p.gantt.W(), p.fsSmall, false,
		"time since rank 0 issued its first alltoall (rank 0's threads)", "time since the first issue", "time"),
		p.fsSmall, render.AlignLeft, false, th.Muted)
}

func (p *painter) playhead() {
	x := p.x(p.t)
	p.line(x, p.panels[0].plot.Y0, x, p.axisY+4*p.s, render.Style{Stroke: p.th.Playhead, Width: 2 * p.s})
}
