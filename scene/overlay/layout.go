package overlay

import (
	"fmt"
	"image/color"
	"math"

	"commlab/render"
	"commlab/render/font"
	"commlab/scene"
	"commlab/scene/chart"
)

type box = chart.Box

// evictFade is how long, as a share of the run, an evicted shortcut stays
// on screen after its close, fading out: long enough to be seen at the
// page's playing speed, short enough that the thrashing of a small cache
// does not cover the picture with ghosts.
const evictFade = 0.04

// fadeSteps is how many shades an evicted shortcut passes through while it
// fades. In steps, not continuously: a fading arc spans much of the
// picture, and one that changed colour every frame made the page repaint
// half its canvas every frame (the overlay scene played at 18 frames/s).
const fadeSteps = 3

// staticTint is how much of the compute colour a static connection's arc
// takes: quiet, since there are many and they never change.
const staticTint = 0.45

// painter lays out one frame.
type painter struct {
	chart.Frame
	r *run

	net   box // the switch tree, the node row and the arcs
	panel box // the counters
	g     geometry
	dotR  float64
	pts   []render.Point // backing store of the arcs' points

	// What the frame shows, for the layout tests.
	links  []int // indices into history.links drawn as open connections
	fading []int // evicted shortcuts drawn fading out
	marked int   // the eviction drawn crossed and labelled (-1: none)
	flight []hop // messages drawn on the wire
	ringed []int // processes ringed as relays
	state  []openStep
	labels int // switch labels drawn
}

// paint lays out the frame and returns the painter too, whose geometry the
// layout tests check the list against.
func (r *run) paint(t float64, v scene.View) (render.List, *painter) {
	p := &painter{r: r, marked: -1}
	if !p.Begin(v.W, v.H, v.Theme, min(max(t, 0), r.End()), 200+len(r.h.links)+8*r.p.Procs) {
		return *p.L, p
	}
	// The base layer first (render.List.Base, set in connections): the
	// key, the switch tree and the static connections change only when a
	// node joins or leaves, while the shortcuts (hundreds opened and
	// evicted a second of play at the defaults) and the messages over them
	// change every frame. The title holds the playhead's time, so it comes
	// after; nothing of the base lies under it.
	top := p.legend()
	p.arrange(top)
	p.tree()
	p.connections()
	p.title()
	p.probes()
	p.nodes()
	p.messages()
	p.counters()
	return *p.L, p
}

// Styles of the connections, shared by the arcs and the legend.
func (p *painter) staticStyle() render.Style {
	return render.Style{Stroke: render.Mix(p.Th.Panel, p.Th.Compute, staticTint), Width: max(1, 0.9*p.S)}
}

func (p *painter) shortcutStyle(ready bool) render.Style {
	c := p.Th.Adopted
	if !ready {
		// Handshaking: the socket is open (and polled), no data yet.
		c = render.Mix(p.Th.Panel, c, 0.5)
	}
	return render.Style{Stroke: c, Width: max(1, 1.8*p.S), Dash: []float64{5 * p.S, 3.5 * p.S}}
}

// memberStyle is a connection a join or a leave opens: solid once its
// handshake is done, dashed and pale before.
func (p *painter) memberStyle(ready bool) render.Style {
	if !ready {
		return render.Style{Stroke: render.Mix(p.Th.Panel, p.Th.Receive, 0.5), Width: max(1, 1.8*p.S), Dash: []float64{5 * p.S, 3.5 * p.S}}
	}
	return render.Style{Stroke: p.Th.Receive, Width: max(1, 1.8*p.S)}
}

// evictedStyle is dotted rather than dashed, so a closed shortcut parts
// from the open ones even where the warning and highlight hues are close.
func (p *painter) evictedStyle(fade float64) render.Style {
	return render.Style{Stroke: render.Mix(p.Th.Stall, p.Th.Panel, fade), Width: max(1, 1.8*p.S), Dash: []float64{2 * p.S, 3 * p.S}}
}

func (p *painter) relayColour() color.RGBA { return p.Th.Redundant }

func (p *painter) title() {
	r, t := p.r, scene.Seconds(p.Now)
	pol := string(r.p.Policy)
	p.Title(chart.Fit(p.L.W*0.55, p.FS, false,
		fmt.Sprintf("%d nodes · %d processes · %s · C = %d · t = %s", r.p.Nodes, r.p.Procs, pol, r.p.Cache, t),
		fmt.Sprintf("%d processes · %s · C = %d · t = %s", r.p.Procs, pol, r.p.Cache, t),
		fmt.Sprintf("C = %d · t = %s", r.p.Cache, t),
		"t = "+t),
		"Shortcut creation: connections from the switch tree, an LRU shortcut cache",
		"Shortcut creation with an LRU cache", "Shortcut creation", "Shortcuts")
}

// legend draws the key under the title and returns where the body starts.
func (p *painter) legend() float64 {
	th, s := p.Th, p.S
	hline := p.Stroke
	dot := func(c color.RGBA, ring bool) func(b box) {
		return func(b box) {
			cx, cy := (b.X0+b.X1)/2, (b.Y0+b.Y1)/2
			if ring {
				p.L.Add(render.Circle{Center: render.Point{X: cx, Y: cy}, R: b.H()/2 + 2*s, Style: render.Style{Stroke: c, Width: max(1, 1.5*s)}})
			}
			p.L.Add(render.Circle{Center: render.Point{X: cx, Y: cy}, R: b.H() / 3, Style: render.Style{Fill: c}})
		}
	}
	entries := []chart.LegendEntry{
		{Label: "switch", Draw: func(b box) {
			p.Rect(box{X0: b.X0 + 3*s, Y0: b.Y0 - 1, X1: b.X1 - 3*s, Y1: b.Y1 + 1}, render.Style{Fill: th.Panel, Stroke: th.Ink, Width: max(1, s)})
		}},
		{Label: "static connection", Draw: hline(p.staticStyle())},
		{Label: "shortcut opening", Draw: hline(p.shortcutStyle(false))},
		{Label: "shortcut", Draw: hline(p.shortcutStyle(true))},
		{Label: "evicted (LRU)", Draw: func(b box) {
			hline(p.evictedStyle(0))(b)
			p.cross((b.X0+b.X1)/2, (b.Y0+b.Y1)/2, 0)
		}},
		{Label: "message", Draw: dot(th.Send, false)},
		{Label: "relayed, relay ringed", Draw: dot(p.relayColour(), true)},
	}
	if p.r.mb.on() {
		entries = append(entries,
			chart.LegendEntry{Label: "RTT probe", Draw: hline(p.probeStyle())},
			chart.LegendEntry{Label: "joined / replaced", Draw: hline(p.memberStyle(true))})
	}
	return p.Legend(entries)
}

// cross marks an eviction: an × in the warning colour, faded by fade.
func (p *painter) cross(x, y, fade float64) {
	d := 4.5 * p.S
	st := render.Style{Stroke: render.Mix(p.Th.Stall, p.Th.Panel, fade), Width: max(1.5, 2*p.S)}
	p.Line(x-d, y-d, x+d, y+d, st)
	p.Line(x-d, y+d, x+d, y-d, st)
}

// arrange splits the body: the network on the left, the counters on the
// right, and lays the cluster out in the network's box.
func (p *painter) arrange(top float64) {
	s, pad := p.S, p.Pad
	body := p.Body(top)
	pw := math.Round(max(0.26*body.W(), 150*s))
	p.panel = box{X0: body.X1 - pw, Y0: body.Y0, X1: body.X1, Y1: body.Y1}
	p.net = box{X0: body.X0, Y0: body.Y0 + 2*s, X1: p.panel.X0 - 2*pad, Y1: body.Y1}
	swH := p.FSSmall * 1.7
	rowH := max(swH+12*s, p.FS*2.4)
	// A process's dot and its node's box: as large as the row allows, no
	// larger than reads as a dot.
	cl := p.r.cl
	units := float64(len(cl.procNode)) + nodeGap*float64(len(cl.nodeRow)-len(cl.leaves)) + switchGap*float64(len(cl.leaves)-1)
	unit := p.net.W() / units
	p.dotR = max(1.5, min(unit*0.3, 4.5*s))
	nodeH := 2*p.dotR + 6*s
	p.g = p.r.cl.layout(p.net, rowH, swH, nodeH)
}

// tree draws the switches, the links between them and the links down to
// the nodes.
func (p *painter) tree() {
	th, s, g, cl := p.Th, p.S, p.g, p.r.cl
	edge := render.Style{Stroke: th.Muted, Width: max(1, 1.2*s)}
	for sw, par := range cl.parent {
		b := g.sw[sw]
		if par >= 0 {
			pb := g.sw[par]
			p.Line(g.swMid[par], pb.Y1, g.swMid[sw], b.Y0, edge)
		}
		for _, n := range cl.nodesOf[sw] {
			nb := g.node[n]
			p.Line(g.swMid[sw], b.Y1, (nb.X0+nb.X1)/2, nb.Y0, render.Style{Stroke: th.Rule, Width: max(1, s)})
		}
	}
	for sw, par := range cl.parent {
		b := g.sw[sw]
		p.Rect(b, render.Style{Fill: th.Panel, Stroke: th.Ink, Width: max(1, 1.2*s)})
		var names []string
		if par < 0 && len(cl.nodesOf[sw]) == 0 {
			names = []string{"core switch", "core", ""}
		} else {
			names = []string{fmt.Sprintf("switch %d", sw), fmt.Sprintf("s%d", sw), fmt.Sprint(sw), ""}
		}
		if lbl := chart.Fit(b.W()-4*s, p.FSSmall, false, names...); lbl != "" {
			p.Text((b.X0+b.X1)/2, chart.Baseline(b.Y0, b.H(), p.FSSmall), lbl, p.FSSmall, render.AlignCenter, false, th.Ink)
			p.labels++
		}
	}
}

// arc adds the arc between processes a and b from fraction f0 to f1 of
// the way.
func (p *painter) arc(a, b int, f0, f1 float64, st render.Style) {
	x0, x1 := p.g.procX[a], p.g.procX[b]
	mid, r, h := (x0+x1)/2, (x1-x0)/2, p.g.arcDepthFor(x0, x1)
	segs := arcSegsFor(r, h)
	if f0 == 0 && f1 < 1 {
		p.growing(a, b, f1, mid, r, h, segs, st)
		return
	}
	n := max(2, int(math.Ceil(float64(segs)*(f1-f0))))
	// The points come from one buffer per frame: the "all" policy draws
	// over a thousand arcs, and one allocation each is most of a frame.
	if cap(p.pts)-len(p.pts) < n+1 {
		p.pts = make([]render.Point, 0, max(64*(arcSegs+1), 2*cap(p.pts), n+1))
	}
	pts := p.pts[len(p.pts) : len(p.pts)+n+1 : len(p.pts)+n+1]
	p.pts = p.pts[:len(p.pts)+n+1]
	if f0 == 0 && f1 == 1 && n == segs {
		// A whole arc: the angles are the table's.
		tab := arcTable(segs)
		for i := range pts {
			pts[i] = render.Point{X: mid - r*tab[0][i], Y: p.g.arcTop + h*tab[1][i]}
		}
	} else {
		for i := range pts {
			x, y := p.g.arcPoint(a, b, f0+(f1-f0)*float64(i)/float64(n))
			pts[i] = render.Point{X: x, Y: y}
		}
	}
	p.L.Add(render.Polyline{Points: pts, Style: st})
}

// growing adds the arc from a towards b up to fraction f (a relayed
// message's trace): the whole arc's own points up to f, then the point at
// f. The points sit at fixed steps along the arc, so from frame to frame a
// growing trace keeps its points and only adds some at its head (points
// spread evenly over [0, f] moved every one of them every frame), and the
// trace is exactly as smooth as the whole arc.
func (p *painter) growing(a, b int, f, mid, r, h float64, segs int, st render.Style) {
	k := int(math.Floor(f * float64(segs)))
	tab := arcTable(segs)
	n := k + 1
	head := float64(k) < f*float64(segs)
	if head {
		n++
	}
	if n < 2 {
		return
	}
	if cap(p.pts)-len(p.pts) < n {
		p.pts = make([]render.Point, 0, max(64*(arcSegs+1), 2*cap(p.pts), n))
	}
	pts := p.pts[len(p.pts) : len(p.pts)+n : len(p.pts)+n]
	p.pts = p.pts[:len(p.pts)+n]
	for i := 0; i <= k; i++ {
		pts[i] = render.Point{X: mid - r*tab[0][i], Y: p.g.arcTop + h*tab[1][i]}
	}
	if head {
		x, y := p.g.arcPoint(a, b, f)
		pts[n-1] = render.Point{X: x, Y: y}
	}
	p.L.Add(render.Polyline{Points: pts, Style: st})
}

// connections draws the connections open at the playhead, the shortcuts
// over the static ones, and the shortcuts evicted in the last moments,
// fading out, the latest crossed and named.
func (p *painter) connections() {
	h, t := p.r.h, p.Now
	fade := evictFade * p.r.res.Time
	st := p.staticStyle()
	for i, ln := range h.links {
		if !ln.shortcut && !ln.member && ln.open <= t && t < ln.close {
			p.arc(ln.a, ln.b, 0, 1, st)
			p.links = append(p.links, i)
		}
	}
	p.L.Base = len(p.L.Items) // the static connections are the last of the base
	for i, ln := range h.links {
		if ln.shortcut && ln.open <= t && t < ln.close {
			p.arc(ln.a, ln.b, 0, 1, p.shortcutStyle(ln.ready <= t))
			p.links = append(p.links, i)
		}
	}
	for i, ln := range h.links {
		if ln.member && ln.open <= t && t < ln.close {
			p.arc(ln.a, ln.b, 0, 1, p.memberStyle(ln.ready <= t))
			p.links = append(p.links, i)
		}
	}
	latest := -1
	for i, ln := range h.links {
		if ln.close <= t && t < ln.close+fade {
			f := math.Floor((t-ln.close)/fade*fadeSteps) / fadeSteps
			p.arc(ln.a, ln.b, 0, 1, p.evictedStyle(0.15+0.85*f))
			if !ln.left { // a leaver's connections: its node is crossed
				x, y := p.g.arcPoint(ln.a, ln.b, 0.5)
				p.cross(x, y, 0.15+0.85*f)
			}
			p.fading = append(p.fading, i)
			if !ln.left && (latest < 0 || ln.close >= h.links[latest].close) {
				latest = i
			}
		}
	}
	if latest >= 0 {
		p.markEviction(latest)
	}
}

// markEviction names the latest eviction beside its cross: which shortcut
// closed, and whose full cache closed it.
func (p *painter) markEviction(i int) {
	ln := p.r.h.links[i]
	x, y := p.g.arcPoint(ln.a, ln.b, 0.5)
	fs := p.FSSmall
	lbl := chart.Fit(p.net.W()*0.6, fs, false,
		fmt.Sprintf("LRU: P%d closes P%d–P%d", ln.by, ln.a, ln.b),
		fmt.Sprintf("evicted P%d–P%d", ln.a, ln.b), "evicted")
	w := font.Width(lbl, fs, false)
	lx := min(max(x-w/2, p.net.X0+3*p.S), p.net.X1-w-3*p.S)
	ly := y - 8*p.S - font.Descent(fs)
	if ly-font.Ascent(fs) < p.g.arcTop+2*p.S {
		ly = y + 8*p.S + font.Ascent(fs)
	}
	ly = min(ly, p.net.Y1-font.Descent(fs))
	// On a plate of the panel colour: arcs cross the label's place.
	p.Rect(box{X0: lx - 3*p.S, Y0: ly - font.Ascent(fs) - 2*p.S, X1: lx + w + 3*p.S, Y1: ly + font.Descent(fs) + 2*p.S},
		render.Style{Fill: p.Th.Panel, Stroke: p.Th.Stall, Width: max(1, p.S)})
	p.Text(lx, ly, lbl, fs, render.AlignLeft, true, p.Th.Stall)
	p.marked = i
}

// nodes draws the node boxes and their processes' dots.
func (p *painter) nodes() {
	th, s, g := p.Th, p.S, p.g
	for n, b := range g.node {
		st := render.Style{Fill: th.Panel, Stroke: th.Muted, Width: max(1, s)}
		switch p.nodeState(n) {
		case nodeAbsent, nodeGone:
			st = render.Style{Stroke: th.Muted, Width: max(1, s), Dash: []float64{3 * s, 2.5 * s}}
		case nodeMeasuring:
			st = render.Style{Fill: th.Panel, Stroke: th.Receive, Width: max(1.5, 2*s)}
		}
		p.Rect(b, st)
	}
	fill := render.Mix(th.Panel, th.Ink, 0.55)
	for q, x := range g.procX {
		st := render.Style{Fill: fill}
		switch p.nodeState(p.r.cl.procNode[q]) {
		case nodeAbsent, nodeGone:
			st = render.Style{Stroke: th.Muted, Width: max(1, 0.8*s)}
		}
		p.L.Add(render.Circle{Center: render.Point{X: x, Y: g.rowY}, R: p.dotR, Style: st})
	}
	if mb := p.r.mb; mb.leaveNode >= 0 && p.Now >= mb.leaveAt {
		b := g.node[mb.leaveNode]
		p.cross((b.X0+b.X1)/2, (b.Y0+b.Y1)/2, 0)
	}
}

// messages draws every hop on the wire at the playhead as a dot on its
// arc; a relayed message's arc is traced in the relay colour up to the
// dot and its relay is ringed.
func (p *painter) messages() {
	th, s := p.Th, p.S
	p.flight = p.r.h.inFlight(p.Now, p.flight[:0])
	rc := p.relayColour()
	ringed := map[int]bool{}
	for _, hp := range p.flight {
		if !hp.relayed {
			continue
		}
		f := (p.Now - hp.t0) / (hp.t1 - hp.t0)
		if f > 0 {
			p.arc(hp.from, hp.to, 0, f, render.Style{Stroke: rc, Width: max(1, 1.6*s)})
		}
		if hp.relay >= 0 && !ringed[hp.relay] {
			ringed[hp.relay] = true
			p.ringed = append(p.ringed, hp.relay)
			p.L.Add(render.Circle{Center: render.Point{X: p.g.procX[hp.relay], Y: p.g.rowY}, R: p.dotR + 2.5*s, Style: render.Style{Stroke: rc, Width: max(1, 1.8*s)}})
		}
	}
	r := max(2, min(p.dotR*0.8, 3.5*s))
	for _, hp := range p.flight {
		f := (p.Now - hp.t0) / (hp.t1 - hp.t0)
		x, y := p.g.arcPoint(hp.from, hp.to, f)
		c := th.Send
		if hp.relayed {
			c = rc
		}
		p.L.Add(render.Circle{Center: render.Point{X: x, Y: y}, R: r, Style: render.Style{Fill: c, Stroke: th.Panel, Width: max(1, 0.8*s)}})
	}
}

// counters draws the panel: the open connections per process at the
// playhead (mean, max, peak so far), the shortcuts, the evictions and
// the relayed messages so far, and a bar per process.
func (p *painter) counters() {
	th, s, r, h := p.Th, p.S, p.r, p.r.h
	b := p.panel
	p.Rect(b, render.Style{Fill: th.Panel, Stroke: th.Rule, Width: 1})
	in := box{X0: b.X0 + 8*s, Y0: b.Y0 + 4*s, X1: b.X1 - 8*s, Y1: b.Y1 - 6*s}
	P := len(h.steps)
	p.state = make([]openStep, P)
	sum, mx, peakSum, peakMax, shortcuts := 0, 0, 0, 0, 0
	for q := range P {
		st := h.at(q, p.Now)
		p.state[q] = st
		sum += st.open
		mx = max(mx, st.open)
		peakSum += st.peak
		peakMax = max(peakMax, st.peak)
		shortcuts += st.short
	}
	shortcuts /= 2 // each shortcut has two ends
	mean := float64(sum) / float64(P)
	peakMean := float64(peakSum) / float64(P)
	fs, fsS := p.FS, p.FSSmall
	headH := fs * 1.6
	p.Text(in.X0, chart.Baseline(in.Y0, headH, fs), chart.Fit(in.W(), fs, true, "Connections at the playhead", "Connections", "Open"), fs, render.AlignLeft, true, th.Ink)
	y := in.Y0 + headH
	rowH := fsS * 1.45
	done := p.Now >= r.res.Time
	rows := [][]string{
		{fmt.Sprintf("open per process: mean %.1f, max %d", mean, mx), fmt.Sprintf("open: mean %.1f, max %d", mean, mx), fmt.Sprintf("%.1f / %d open", mean, mx)},
		{fmt.Sprintf("peak so far: mean %.1f, max %d", peakMean, peakMax), fmt.Sprintf("peak: mean %.1f, max %d", peakMean, peakMax), fmt.Sprintf("peak %.1f / %d", peakMean, peakMax)},
		{fmt.Sprintf("shortcuts open: %d (C = %d each)", shortcuts, r.p.Cache), fmt.Sprintf("shortcuts open: %d", shortcuts), fmt.Sprintf("open: %d", shortcuts)},
		{fmt.Sprintf("shortcuts opened: %d", upTo(h.opens, p.Now)), fmt.Sprintf("opened: %d", upTo(h.opens, p.Now))},
		{fmt.Sprintf("evicted by LRU: %d", upTo(h.evicts, p.Now)), fmt.Sprintf("evicted: %d", upTo(h.evicts, p.Now))},
		{fmt.Sprintf("relayed messages: %d", upTo(h.relays, p.Now)), fmt.Sprintf("relayed: %d", upTo(h.relays, p.Now))},
	}
	if done {
		rows = append(rows, []string{"Integer Sort: " + scene.Seconds(r.res.Time), "IS: " + scene.Seconds(r.res.Time), scene.Seconds(r.res.Time)})
	} else {
		rows = append(rows, []string{"Integer Sort running", "sorting"})
	}
	sortRow := len(rows) - 1
	rows = append(rows, p.memberRows()...)
	for i, c := range rows {
		bold := i == sortRow && done
		p.Text(in.X0, chart.Baseline(y, rowH, fsS), chart.Fit(in.W(), fsS, bold, c...), fsS, render.AlignLeft, bold, th.Ink)
		y += rowH
	}
	// The bars: one per process, static connections and shortcuts
	// stacked, on a scale up to the run's most open at once.
	capH := fsS * 1.5
	bars := box{X0: in.X0, Y0: y + 8*s, X1: in.X1, Y1: in.Y1 - capH}
	if bars.H() < 8*s {
		return
	}
	scale := max(r.res.ConnMax, float64(h.maxOpen), 1)
	p.Rect(bars, render.Style{Stroke: th.Rule, Width: 1})
	bw := bars.W() / float64(P)
	gap := min(max(0.2*bw, 0.5), 2*s)
	sc := render.Mix(th.Panel, th.Compute, 0.75)
	for q, st := range p.state {
		x0 := bars.X0 + float64(q)*bw
		hs := float64(st.open-st.short) / scale * bars.H()
		hc := float64(st.short) / scale * bars.H()
		if hs > 0 {
			p.Rect(box{X0: x0 + gap/2, Y0: bars.Y1 - hs, X1: x0 + bw - gap/2, Y1: bars.Y1}, render.Style{Fill: sc})
		}
		if hc > 0 {
			p.Rect(box{X0: x0 + gap/2, Y0: bars.Y1 - hs - hc, X1: x0 + bw - gap/2, Y1: bars.Y1 - hs}, render.Style{Fill: th.Adopted})
		}
	}
	p.Text(bars.X0, chart.Baseline(bars.Y1, capH, fsS), chart.Fit(in.W(), fsS, false,
		fmt.Sprintf("per process P0–P%d, full height %g", P-1, scale),
		fmt.Sprintf("P0–P%d, top %g", P-1, scale), "per process"), fsS, render.AlignLeft, false, th.Muted)
}
