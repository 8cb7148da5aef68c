package schedule

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"commlab/engine/goal"
	"commlab/render"
	"commlab/render/font"
	"commlab/scene"
	"commlab/scene/chart"
)

// painter lays out one frame.
type painter struct {
	chart.Frame // Now: the playhead, ns
	r           *run

	x0, x1 float64 // the time axis's pixel span: 0 and r.end
	oLine  bool    // outline sends and receives (dark theme: compute is too close to send)
	panels []panel
	axisY  float64
}

// panel is where one side is drawn.
type panel struct {
	sd     *side
	head   float64   // the header's baseline
	lanes  chart.Box // the lanes (or the heat-strip)
	laneH  float64
	labelX float64
}

func (r *run) paint(t float64, v scene.View) render.List {
	p := &painter{r: r}
	if !p.Begin(v.W, v.H, v.Theme, min(max(t, 0), float64(r.end)), r.items) {
		return *p.L
	}
	p.oLine = chart.OutlineComm(p.Th)
	p.title()
	top := p.legend()
	p.arrange(top)
	for i := range p.panels {
		p.panel(&p.panels[i])
	}
	p.axis()
	return *p.L
}

// x maps a time in ns to the canvas.
func (p *painter) x(t float64) float64 {
	return p.x0 + (p.x1-p.x0)*t/float64(p.r.end)
}

// ns writes a time in ns as the page does: µs with three significant
// digits above 1000 ns.
func ns(t float64) string {
	if math.Abs(t) >= 1000 {
		return scene.Seconds(t * 1e-9)
	}
	return strconv.FormatFloat(t, 'f', 0, 64) + " ns"
}

func (p *painter) critStyle() render.Style {
	return render.Style{Stroke: p.Th.Critical, Width: max(2, 2.5*p.S)}
}

func (p *painter) msgStyle() render.Style {
	return render.Style{Stroke: render.Fade(p.Th.Ink, 0.45), Width: max(1, 0.9*p.S)}
}

func (p *painter) gapColour() color.RGBA { return render.Mix(p.Th.Panel, p.Th.Muted, 0.55) }

// barStyle fills a CPU bar; sends and receives get an outline when the
// theme's compute colour is hard to tell from theirs.
//
//go:noinline
func (p *painter) barStyle(c color.RGBA, comm bool) render.Style { return p.Fill(c, comm && p.oLine) }

func (p *painter) kindColour(k goal.Kind) color.RGBA {
	switch k {
	case goal.Send:
		return p.Th.Send
	case goal.Recv:
		return p.Th.Receive
	}
	return p.Th.Compute
}

func (p *painter) title() {
	noise := ""
	if p.r.noise != NoiseNone {
		noise = " · noise " + p.r.noise
	}
	if p.r.trace != "" {
		noise += " · trace " + p.r.trace
	}
	p.Title("t = "+ns(p.Now), "GOAL schedule under LogGOPS"+noise, "GOAL schedule"+noise, "GOAL schedule")
}

func (p *painter) legend() float64 {
	th, s := p.Th, p.S
	bar := func(c color.RGBA) func(b chart.Box) { return p.Swatch(p.barStyle(c, c != th.Compute)) }
	strips, lanes := false, false
	for _, sd := range p.r.sides {
		strips = strips || sd.heat != nil
		lanes = lanes || sd.heat == nil
	}
	ramp := chart.LegendEntry{Label: "CPU busy: none → all", Draw: func(b chart.Box) {
		const n = 8
		for i := range n {
			w := b.W() / n
			p.Rect(chart.Box{X0: b.X0 + float64(i)*w, Y0: b.Y0, X1: b.X0 + float64(i+1)*w, Y1: b.Y1}, render.Style{Fill: th.HeatAt(float64(i) / (n - 1))})
		}
	}}
	crit := chart.LegendEntry{Label: "critical path", Draw: p.Stroke(p.critStyle())}
	if !lanes {
		return p.Legend([]chart.LegendEntry{ramp, crit})
	}
	entries := []chart.LegendEntry{
		{Label: "send o", Draw: bar(th.Send)},
		{Label: "receive o", Draw: bar(th.Receive)},
		{Label: "calc", Draw: bar(th.Compute)},
		{Label: "NIC gap g", Draw: func(b chart.Box) {
			p.Rect(chart.Box{X0: b.X0, Y0: b.Y1 - b.H()/2, X1: b.X1, Y1: b.Y1}, render.Style{Fill: p.gapColour()})
		}},
		{Label: "noise stall", Draw: func(b chart.Box) { p.Stalled(b, render.Mix(th.Panel, th.Stall, 0.25), th.Stall, false) }},
		{Label: "message", Draw: func(b chart.Box) { p.Line(b.X0, b.Y1, b.X1, b.Y0, p.msgStyle()) }},
		{Label: "network delay", Draw: p.Stroke(render.Style{Stroke: th.Noise, Width: max(1.5, 2*s)})},
		crit,
	}
	if strips {
		entries = append(entries, ramp)
	}
	return p.Legend(entries)
}

// arrange stacks the sides, each with a header row and its lanes in
// proportion to its ranks (but at least a third of the height), over one
// time axis.
func (p *painter) arrange(top float64) {
	z, s := p.Sizes, p.S
	W, H := p.L.W, p.L.H
	axisH := 4*s + z.FSSmall*1.4 + z.FSSmall*1.3
	headH := z.FS * 1.5
	gap := z.Pad
	body := chart.Box{X0: z.Pad, Y0: top, X1: W - z.Pad, Y1: H - z.Pad - axisH}
	n := len(p.r.sides)
	avail := body.H() - float64(n)*headH - float64(n-1)*gap
	labelW := 0.0
	weights := make([]float64, n)
	total := 0.0
	for i, sd := range p.r.sides {
		labelW = max(labelW, font.Width(rankLabel(sd.ranks-1), z.FSSmall, false))
		weights[i] = float64(sd.ranks)
		total += weights[i]
	}
	for i := range weights {
		weights[i] = max(weights[i]/total, 1/(3*float64(n)))
	}
	sum := 0.0
	for _, w := range weights {
		sum += w
	}
	p.x0 = body.X0 + labelW + 6*s
	p.x1 = body.X1 - 2*s
	y := body.Y0
	for i, sd := range p.r.sides {
		h := max(1, avail*weights[i]/sum)
		pn := panel{sd: sd, head: chart.Baseline(y, headH, z.FS), labelX: p.x0 - 4*s}
		pn.lanes = chart.Box{X0: p.x0, Y0: y + headH, X1: p.x1, Y1: y + headH + h}
		pn.laneH = h / float64(sd.ranks)
		p.panels = append(p.panels, pn)
		y = pn.lanes.Y1 + gap
	}
	p.axisY = p.panels[n-1].lanes.Y1
}

//go:noinline
func rankLabel(r int) string { return "r" + strconv.Itoa(r) }

// header names the side's file and parameters and, once the playhead has
// reached it, its maximum finishing time.
func (p *painter) header(pn *panel) {
	sd, z := pn.sd, p.Sizes
	pp := sd.p
	params := fmt.Sprintf("L=%d o=%d g=%d G=%d O=%d S=%d", pp.L, pp.Overhead, pp.Gap, pp.GapPerByte, pp.OverheadPerByte, pp.S)
	end := "running"
	if p.Now >= float64(sd.res.End) {
		end = fmt.Sprintf("finishes at %d ns (rank %d)", sd.res.End, sd.res.EndRank)
	}
	room := p.L.W - 2*z.Pad
	s := chart.Fit(room, z.FS, false,
		fmt.Sprintf("%s: %s · %d ranks · %s · %s", sd.name, sd.file, sd.ranks, params, end),
		fmt.Sprintf("%s: %s · %s · %s", sd.name, sd.file, params, end),
		fmt.Sprintf("%s: %s · %s", sd.name, sd.file, end),
		fmt.Sprintf("%s: %s", sd.name, end))
	p.Text(z.Pad, pn.head, s, z.FS, render.AlignLeft, false, p.Th.Ink)
}

func (p *painter) panel(pn *panel) {
	p.header(pn)
	p.Rect(pn.lanes, render.Style{Fill: p.Th.Panel})
	if pn.sd.heat != nil {
		p.heatStrip(pn)
	} else {
		p.lanes(pn)
	}
	p.critical(pn)
	// The playhead.
	if p.Now < float64(p.r.end) {
		x := p.x(p.Now)
		p.Line(x, pn.lanes.Y0, x, pn.lanes.Y1, render.Style{Stroke: p.Th.Playhead, Width: max(1, 1.5*p.S)})
	}
}

// laneY is the centre of rank r's lane.
func (pn *panel) laneY(r float64) float64 { return pn.lanes.Y0 + (r+0.5)*pn.laneH }

func (p *painter) lanes(pn *panel) {
	sd, z, s := pn.sd, p.Sizes, p.S
	th := p.Th
	// Labels: every k-th lane so that they do not overlap.
	every := max(1, int(math.Ceil(z.FSSmall*1.1/pn.laneH)))
	fs := min(z.FSSmall, max(z.FSSmall*0.75, pn.laneH*0.9))
	for r := 0; r < sd.ranks; r += every {
		// Labels taller than their lane stay inside the side's box, off
		// the header above and the next side below.
		y := chart.Baseline(pn.lanes.Y0+float64(r)*pn.laneH, pn.laneH, fs)
		y = min(max(y, pn.lanes.Y0+font.Ascent(fs)), pn.lanes.Y1-font.Descent(fs))
		p.Text(pn.labelX, y, rankLabel(r), fs, render.AlignRight, false, th.Muted)
	}
	if pn.laneH >= 6*s && sd.ranks > 1 {
		for r := 1; r < sd.ranks; r++ {
			y := pn.lanes.Y0 + float64(r)*pn.laneH
			p.Line(pn.lanes.X0, y, pn.lanes.X1, y, render.Style{Stroke: th.Rule, Width: 1})
		}
	}
	detail := pn.laneH >= 4
	barH := pn.laneH * 0.62
	if !detail {
		barH = pn.laneH
	}
	gapH := pn.laneH * 0.18
	for r := range sd.ranks {
		top := pn.lanes.Y0 + float64(r)*pn.laneH + pn.laneH*0.08
		if !detail {
			top = pn.lanes.Y0 + float64(r)*pn.laneH
		}
		if detail {
			for _, g := range sd.gaps[r] {
				a, b := float64(g.start), min(float64(g.end), p.Now)
				if a >= p.Now {
					break
				}
				p.Rect(chart.Box{X0: p.x(a), Y0: top + barH + pn.laneH*0.06, X1: p.x(b), Y1: top + barH + pn.laneH*0.06 + gapH}, render.Style{Fill: p.gapColour()})
			}
		}
		for _, b := range sd.bars[r] {
			a := float64(b.start)
			if a >= p.Now {
				break
			}
			e := min(float64(b.end), p.Now)
			if e > a {
				box := chart.Box{X0: p.x(a), Y0: top, X1: max(p.x(e), p.x(a)+0.5), Y1: top + barH}
				p.Rect(box, p.barStyle(p.kindColour(b.kind), b.kind != goal.Calc && detail && box.W() >= 4))
			}
			if b.stall > 0 && float64(b.end) < p.Now {
				se := min(float64(b.end+b.stall), p.Now)
				box := chart.Box{X0: p.x(float64(b.end)), Y0: top, X1: p.x(se), Y1: top + barH}
				p.Rect(box, render.Style{Fill: render.Mix(th.Panel, th.Stall, 0.25)})
				if box.W() >= 3 {
					chart.Hatch(p.L, box, s, th.Stall)
				}
			}
		}
	}
	if detail {
		p.messages(pn)
	}
}

// messages draws each message from its send's start on the sender's lane
// to its arrival on the receiver's, as far as the playhead; the part its
// network noise added is drawn in the noise colour.
func (p *painter) messages(pn *panel) {
	sd, s := pn.sd, p.S
	st := p.msgStyle()
	noise := render.Style{Stroke: p.Th.Noise, Width: max(1.5, 2*s)}
	head := max(4, 5*s)
	for _, m := range sd.res.Timeline.Messages {
		if m.Arrive < 0 || float64(m.Sent) >= p.Now {
			continue
		}
		x0, y0 := p.x(float64(m.Sent)), pn.laneY(float64(m.From))
		x1, y1 := p.x(float64(m.Arrive)), pn.laneY(float64(m.To))
		at := func(t float64) (float64, float64) {
			if m.Arrive == m.Sent {
				return x1, y1
			}
			f := (t - float64(m.Sent)) / float64(m.Arrive-m.Sent)
			return x0 + f*(x1-x0), y0 + f*(y1-y0)
		}
		if float64(m.Arrive) <= p.Now {
			p.L.Add(render.Arrow{From: render.Point{X: x0, Y: y0}, To: render.Point{X: x1, Y: y1}, Head: head, Style: render.Style{Stroke: st.Stroke, Fill: st.Stroke, Width: st.Width}})
		} else {
			xe, ye := at(p.Now)
			p.Line(x0, y0, xe, ye, st)
		}
		if m.Delay > 0 {
			d0 := float64(m.Arrive - m.Delay)
			if d0 < p.Now {
				xa, ya := at(d0)
				xb, yb := at(min(p.Now, float64(m.Arrive)))
				p.Line(xa, ya, xb, yb, noise)
			}
		}
	}
}

// critical draws the critical path as far as the playhead: along a lane
// for CPU work and NIC gaps, across lanes for a message's flight, and a
// jump where a rendezvous released its send.
func (p *painter) critical(pn *panel) {
	sd := pn.sd
	y := func(rank int) float64 {
		if sd.heat != nil {
			return pn.lanes.Y0 + sd.heat.critRank(rank)*pn.lanes.H()/float64(sd.heat.rows)
		}
		return pn.laneY(float64(rank))
	}
	var pts []render.Point
	add := func(t float64, yy float64) {
		pt := render.Point{X: p.x(t), Y: yy}
		if n := len(pts); n > 0 && pts[n-1] == pt {
			return
		}
		pts = append(pts, pt)
	}
	for _, c := range sd.crit {
		a, b := float64(c.Start), float64(c.End)
		if a > p.Now {
			break
		}
		ya, yb := y(c.Rank), y(c.Rank)
		switch c.Kind {
		case goal.CritFlight:
			yb = y(c.Peer)
		case goal.CritRendezvous:
			ya = y(c.Peer)
		}
		add(a, ya)
		if b > p.Now {
			f := 0.0
			if b > a {
				f = (p.Now - a) / (b - a)
			}
			add(p.Now, ya+f*(yb-ya))
			break
		}
		add(b, yb)
	}
	if len(pts) >= 2 {
		p.L.Add(render.Polyline{Points: pts, Style: p.critStyle()})
	}
}

// heatStrip draws a side with many ranks as one grid: a row per group of
// ranks, a column per time slice, coloured by how busy the group's CPUs
// were; slices after the playhead are left blank.
func (p *painter) heatStrip(pn *panel) {
	h := pn.sd.heat
	// The ramp sampled at the levels the cells were quantised to.
	var lut [heatLevels]color.RGBA
	for i := range lut {
		lut[i] = p.Th.HeatAt(float64(i) / (heatLevels - 1))
	}
	cells := make([]color.RGBA, h.rows*HeatCols)
	shown := min(int(math.Ceil(p.Now/h.slice)), HeatCols)
	for row := range h.rows {
		lv, out := h.level[row*HeatCols:][:shown], cells[row*HeatCols:][:shown]
		for c, x := range lv {
			out[c] = lut[x]
		}
	}
	p.L.Add(render.Grid{Min: render.Point{X: pn.lanes.X0, Y: pn.lanes.Y0}, Max: render.Point{X: pn.lanes.X1, Y: pn.lanes.Y1}, Cols: HeatCols, Rows: h.rows, Cells: cells})
	z := p.Sizes
	p.Text(pn.labelX, pn.lanes.Y0+z.FSSmall, rankLabel(0), z.FSSmall, render.AlignRight, false, p.Th.Muted)
	p.Text(pn.labelX, pn.lanes.Y1, rankLabel(pn.sd.ranks-1), z.FSSmall, render.AlignRight, false, p.Th.Muted)
}

// axis is the shared time axis under the last side, in µs.
func (p *painter) axis() {
	z, s, th := p.Sizes, p.S, p.Th
	y := p.axisY
	p.Line(p.x0, y, p.x1, y, render.Style{Stroke: th.Ink, Width: max(1, p.S)})
	endUS := float64(p.r.end) / 1000
	maxTicks := max(2, int((p.x1-p.x0)/(font.Width("000.0", z.FSSmall, false)*2.2)))
	ticks, step := chart.NiceTicks(0, endUS, maxTicks)
	for _, tk := range ticks {
		x := p.x(tk * 1000)
		p.Line(x, y, x, y+4*s, render.Style{Stroke: th.Ink, Width: max(1, p.S)})
		p.Text(x, y+4*s+z.FSSmall*1.1, chart.AxisLabel(tk, step), z.FSSmall, render.AlignCenter, false, th.Muted)
	}
	p.Text(p.x1, y+4*s+z.FSSmall*2.4, "time (µs)", z.FSSmall, render.AlignRight, false, th.Muted)
}
