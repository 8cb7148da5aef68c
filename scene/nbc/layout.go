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
	chart.Gantt
	r      *run
	state  box // the state section: queue or handles, and compute bars
	bars   box // the compute threads' bars
	panels []panel

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
	p := &painter{r: r}
	if !p.Begin(v.W, v.H, v.Theme, min(max(t, 0), r.End()), 500+2*r.nSpan) {
		return *p.L, p
	}
	p.End = r.End()
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
	p.Playhead(p.panels[0].plot.Y0)
	return *p.L, p
}

// onFill is the text colour that reads on fill c: the theme's ink or its
// background, whichever differs more in luminance (Rec. 709 weights).
//
//go:noinline
func (p *painter) onFill(c color.RGBA) color.RGBA { return chart.OnFill(c, p.Th.Ink, p.Th.Background) }

// stallFill is the engine's Stall spans' colour (the progress thread's
// creation, context switches): the warning colour, solid, apart from the
// hatched blocked enqueue.
func (p *painter) stallFill() color.RGBA { return render.Mix(p.Th.Panel, p.Th.Stall, 0.7) }

// wireFill is the network row's colour: a quiet tint of the send colour,
// since many messages overlap.
func (p *painter) wireFill() color.RGBA { return render.Mix(p.Th.Panel, p.Th.Send, 0.6) }

// hatch draws blocked time: a light tint of the warning colour crossed by
// diagonal hatching in full strength, so it reads as time lost, not as
// work, even printed in grey. The hatch lines sit on a grid fixed to the
// canvas, so they stay put while the span grows with the playhead.
func (p *painter) hatch(b box) {
	p.Stalled(b, render.Mix(p.Th.Panel, p.Th.Stall, stallTint), p.Th.Stall, false)
}

func (p *painter) title() {
	r, t := p.r, scene.Seconds(p.Now)
	right := chart.Fit(p.L.W*0.5, p.FS, false,
		fmt.Sprintf("%d nodes · %s messages · n = %d · t = %s", r.p.Nodes, bytes(r.p.Msg), r.p.Matrix, t),
		fmt.Sprintf("%d nodes · %s · t = %s", r.p.Nodes, bytes(r.p.Msg), t),
		"t = "+t)
	names := []string{"TCC queue progress: non-blocking alltoalls on a progress thread", "TCC queue progress", "TCC queue"}
	switch r.view {
	case ViewNBCF:
		names = []string{"LibNBC progress function on the TCC workload", "LibNBC progress function", "LibNBC"}
	case ViewBoth:
		names = []string{"TCC's queue vs. LibNBC's progress function", "TCC vs. LibNBC", "TCC vs. NBCF"}
	}
	p.Title(right, names...)
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
	th, s := p.Th, p.S
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
	bar := func(c color.RGBA) func(b box) { return p.Swatch(render.Style{Fill: c}) }
	var entries []chart.LegendEntry
	add := func(on bool, label string, draw func(b box)) {
		if on {
			entries = append(entries, chart.LegendEntry{Label: label, Draw: draw})
		}
	}
	add(has[trace.Compute], "matrix-vector rows", bar(th.Compute))
	add(has[trace.Send], "posting a schedule", p.Swatch(p.Fill(th.Send, chart.CloseColours(th.Compute, th.Send))))
	add(has[trace.Receive], "in the MPI library", bar(th.Receive))
	add(has[trace.Stall], "thread start / switch", bar(p.stallFill()))
	add(blocked, "blocked: queue full", p.hatch)
	add(has[trace.Idle], "waiting", p.Swatch(render.Style{Fill: th.Idle, Stroke: th.Rule}))
	add(net, "data on the wire", bar(p.wireFill()))
	add(progress, "NBC_Test call", p.Mark(render.Style{Stroke: th.Adopted, Width: 2 * s}))
	add(true, "collective in flight", bar(th.Redundant))
	add(true, "done flag set", func(b box) {
		c := (b.X0 + b.X1) / 2
		h := b.H()
		p.Rect(box{X0: c - h/2, Y0: b.Y0, X1: c + h/2, Y1: b.Y1}, render.Style{Fill: th.Receive, Stroke: th.Ink, Width: max(1, s)})
	})
	return p.Legend(entries)
}

// arrange splits the body: the state section on top (the queue or the
// handles on the left, the compute threads' bars on the right), the
// Gantt panels under it on one time axis.
func (p *painter) arrange(top float64) {
	s := p.S
	body := p.Body(top)
	stateH := math.Round(0.36 * body.H())
	p.state = box{X0: body.X0, Y0: body.Y0, X1: body.X1, Y1: body.Y0 + stateH}
	bw := math.Round(0.3 * body.W())
	p.bars = box{X0: body.X1 - bw, Y0: p.state.Y0, X1: body.X1, Y1: p.state.Y1}
	p.state.X1 = p.bars.X0 - 2*p.Pad

	labelW := 0.0
	for _, tl := range p.r.shown {
		for _, n := range tl.names {
			labelW = max(labelW, font.Width(laneLabel(n), p.FSSmall, false))
		}
	}
	col := box{X0: body.X0, Y0: p.state.Y1 + 2*p.Pad, X1: body.X1, Y1: body.Y1}
	stack, _ := p.Stack(col, col.X0+labelW+6*s, len(p.r.shown), nil)
	p.panels = make([]panel, len(stack))
	for i, tl := range p.r.shown {
		pl := panel{tl: tl, header: stack[i].Header, plot: stack[i].Plot}
		pl.lanes = laneRows(tl, pl.plot, font.Ascent(p.FSSmall)+font.Descent(p.FSSmall)+1)
		p.panels[i] = pl
	}
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

func (p *painter) panel(pl *panel) {
	th, s, tl := p.Th, p.S, pl.tl
	p.Plot(pl.plot, p.timeTicks())
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
	if p.Now >= tl.res.Total {
		res := fmt.Sprintf(": total %s, speedup %.3f over %s", scene.Seconds(tl.res.Total), tl.res.Speedup, base)
		head = []string{name + res, short + res, fmt.Sprintf("%s: total %s, speedup %.3f", short, scene.Seconds(tl.res.Total), tl.res.Speedup), short}
	}
	p.Header(pl.plot.X0, pl.header, pl.plot.W(), head...)

	for _, ln := range pl.lanes {
		bh := chart.BarH(ln.Y1-ln.Y0, math.Inf(1))
		yc := ln.mid()
		for _, sp := range tl.spans[ln.li] {
			a, b := sp.Start, min(sp.End, p.Now)
			if b <= a {
				break
			}
			if tl.blockedSpan(sp) {
				p.hatch(box{X0: p.X(a), Y0: yc - bh/2, X1: p.X(b), Y1: yc + bh/2})
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
				if !at(h.start, p.Now) {
					break
				}
				end := p.Now
				if at(h.done, p.Now) {
					end = h.done
				}
				y := ln.Y0 + 0.06*(ln.Y1-ln.Y0)
				p.Rect(box{X0: p.X(h.start), Y0: y, X1: max(p.X(end), p.X(h.start)+1), Y1: y + max(2, 2.5*s)}, render.Style{Fill: th.Redundant})
			}
		}
	}
	// Progress calls on the main thread: at most one tick per pixel.
	if len(tl.progress) > 0 {
		ln := pl.lanes[0]
		last := math.Inf(-1)
		st := render.Style{Stroke: th.Adopted, Width: max(1, 1.2*s)}
		for _, c := range tl.progress {
			if c > p.Now {
				break
			}
			x := p.X(c)
			if x-last < 1 {
				continue
			}
			last = x
			p.Line(x, ln.Y0+1, x, ln.Y0+0.3*(ln.Y1-ln.Y0), st)
		}
	}
	p.laneLabels(pl)
}

// span draws part [a, b] of a span on a lane, at least a pixel wide.
func (p *painter) span(k trace.Kind, a, b, yc, bh float64) {
	bx := box{X0: p.X(a), Y0: yc - bh/2, X1: p.X(b), Y1: yc + bh/2}
	switch k {
	case trace.Stall:
		bx.X1 = max(bx.X1, bx.X0+1)
		p.Rect(bx, render.Style{Fill: p.stallFill()})
		return
	case trace.Idle:
		p.Rect(bx, render.Style{Fill: p.Th.Idle})
		return
	}
	bx.X1 = max(bx.X1, bx.X0+1)
	p.Rect(bx, p.Fill(p.Th.Kind(k), k == trace.Send && chart.CloseColours(p.Th.Compute, p.Th.Send)))
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
		if m.Send >= p.Now {
			break
		}
		x0, x1 := p.X(m.Send), max(p.X(min(m.Arrive, p.Now)), p.X(m.Send)+1)
		if x0-lastX < 1 && x1 <= lastEnd {
			continue
		}
		lastX, lastEnd = x0, max(lastEnd, x1)
		p.Rect(box{X0: x0, Y0: yc - bh/2, X1: x1, Y1: yc + bh/2}, render.Style{Fill: c})
	}
}

// laneLabels names the lanes that have room: main, progress and network
// always, the compute threads where their label clears every other.
func (p *painter) laneLabels(pl *panel) {
	need := font.Ascent(p.FSSmall) + font.Descent(p.FSSmall) + 1
	var placed []float64
	y := func(ln lane) float64 { return ln.mid() + font.Ascent(p.FSSmall)/2 - 1 }
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
			p.LaneLabel(ln.mid(), ln.label, ln.li == tl.main || ln.li == tl.prog, p.Th.Muted)
		}
	}
}

// timeTicks are the time axis ticks for this canvas.
func (p *painter) timeTicks() []float64 {
	ticks, _ := p.TimeTicks("88.8 ms", 1.8)
	return ticks
}

func (p *painter) timeAxis() {
	p.TimeAxis(p.timeTicks(), scene.Seconds,
		"time since rank 0 issued its first alltoall (rank 0's threads)", "time since the first issue", "time")
}
