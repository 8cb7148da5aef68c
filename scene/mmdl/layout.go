package mmdl

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	emmdl "commlab/engine/mmdl"
	"commlab/engine/trace"
	"commlab/render"
	"commlab/render/font"
	"commlab/scene"
	"commlab/scene/chart"
)

// heldTint is how much of the compute colour fills the part of a load bar
// not yet computed: the same hue as the computed part, so the bar reads
// as one load, lighter so the computed part stands out.
const heldTint = 0.4

// painter lays out one frame.
type painter struct {
	chart.Gantt // Lanes: the Gantt's lanes
	r           *run

	header  float64 // the Gantt's and the load bars' header baseline
	laneH   float64
	bars    chart.Box // the load bars' column, lanes as in the Gantt
	barsEnd float64   // x of a full-scale bar (loadMax tasks)
	plotBox chart.Box // the rounds plot's whole area
	plot    chart.Box // its axes
	oLine   bool      // outline sends and receives (dark theme: too close to compute)

	held, done []float64 // loads at the playhead
	rules      []float64 // round boundaries drawn (≤ t)
	ruleEvery  int       // every how many'th boundary is drawn
}

// paint lays out the frame and returns the painter too, whose geometry the
// layout tests check the list against.
func (r *run) paint(t float64, v scene.View) (render.List, *painter) {
	p := &painter{r: r}
	if !p.Begin(v.W, v.H, v.Theme, min(max(t, 0), r.End()), 400+r.nSpans+len(r.rounds)+4*r.P) {
		return *p.L, p
	}
	p.End = r.End()
	p.oLine = chart.OutlineComm(p.Th)
	p.held = make([]float64, r.P)
	p.done = make([]float64, r.P)
	r.loads(p.Now, p.held, p.done)

	p.title()
	top := p.legend()
	p.arrange(top)
	p.ganttPanel()
	p.loadBars()
	p.timeAxis()
	p.roundsPlot()
	return *p.L, p
}

// Styles shared by the charts, the legend and the key.
func (p *painter) ruleStyle() render.Style {
	return render.Style{Stroke: render.Fade(p.Th.Ink, 0.6), Width: max(1, p.S)}
}

func (p *painter) steadyStyle() render.Style { // T, the steady state's makespan
	return render.Style{Stroke: p.Th.Muted, Width: 1.5 * p.S, Dash: []float64{5 * p.S, 3 * p.S}}
}

func (p *painter) makespanStyle() render.Style {
	return render.Style{Stroke: p.Th.Critical, Width: 2 * p.S}
}

func (p *painter) finalStyle() render.Style { // a bar's final load
	return render.Style{Stroke: p.Th.Ink, Width: max(1.5, 2*p.S)}
}

// presetName says which of the paper's cases this is.
func (p *painter) presetName() string {
	cal := "before calibration"
	if p.r.calibrated {
		cal = "after calibration"
	}
	return fmt.Sprintf("ProcSet %s · Load %s · %s", p.r.procset, p.r.load, cal)
}

func (p *painter) rLabel() string {
	if p.r.auto {
		return fmt.Sprintf("R = %d (chosen)", p.r.sch.R)
	}
	return fmt.Sprintf("R = %d", p.r.sch.R)
}

func (p *painter) title() {
	ts := "t = " + scene.Seconds(p.Now)
	p.Title(chart.Fit(p.L.W*0.55, p.FS, false,
		p.presetName()+" · "+p.rLabel()+" · "+ts,
		fmt.Sprintf("ProcSet %s · Load %s · %s · %s", p.r.procset, p.r.load, p.rLabel(), ts),
		p.rLabel()+" · "+ts, ts),
		"Multi-master divisible load in steady rounds",
		"Divisible load in steady rounds",
		"Steady rounds")
}

func (p *painter) legend() float64 {
	th, s := p.Th, p.S
	bar := func(c color.RGBA, outline bool) func(b chart.Box) { return p.Swatch(p.Fill(c, outline)) }
	return p.Legend([]chart.LegendEntry{
		{Label: "send", Draw: bar(th.Send, p.oLine)},
		{Label: "receive", Draw: bar(th.Receive, p.oLine)},
		{Label: "compute", Draw: bar(th.Compute, false)},
		{Label: "idle", Draw: bar(th.Idle, false)},
		{Label: "round boundary", Draw: p.Mark(p.ruleStyle())},
		{Label: "T (steady state)", Draw: p.Mark(p.steadyStyle())},
		{Label: "makespan", Draw: p.Mark(p.makespanStyle())},
		{Label: "tasks held", Draw: bar(render.Mix(th.Panel, th.Compute, heldTint), false)},
		{Label: "final load", Draw: func(b chart.Box) {
			p.Rect(b, render.Style{Fill: th.Panel, Stroke: th.Rule, Width: 1})
			p.VLine(b.X0+0.7*b.W(), b.Y0-2*s, b.Y1+2*s, p.finalStyle())
		}},
	})
}

// arrange splits the body: the Gantt chart with the load bars beside its
// lanes on top, the rounds plot under them.
func (p *painter) arrange(top float64) {
	z, s, r := p.Sizes, p.S, p.r
	W, H := p.L.W, p.L.H
	body := p.Body(top)
	gap := 2 * z.Pad
	topH := math.Round(0.58 * (body.H() - gap))
	if H > 1.3*W {
		topH = math.Round(0.5 * (body.H() - gap))
	}
	headerH := z.FS * 1.6
	axisH := 4*s + z.FSSmall*1.4 + z.FSSmall*1.5
	p.header = chart.Baseline(body.Y0, headerH, z.FS)

	// Lane labels: with the clock rate where they fit in an eighth of the
	// width, else short.
	names := r.long
	if w := p.labelWidth(names); w > body.W()/8 {
		names = r.names
	}
	labelW := p.labelWidth(names) + 6*s
	barsW := math.Round(0.26 * body.W())
	lanes := chart.Box{X0: body.X0 + labelW, Y0: body.Y0 + headerH, X1: body.X1 - barsW - gap, Y1: body.Y0 + topH - axisH}
	lanes.Y1 = max(lanes.Y1, lanes.Y0+1)
	p.Lanes = lanes
	p.laneH = lanes.H() / float64(r.P)
	p.LabelX = lanes.X0 - 4*s
	p.AxisY = lanes.Y1
	p.bars = chart.Box{X0: lanes.X1 + gap, Y0: lanes.Y0, X1: body.X1, Y1: lanes.Y1}
	// Room right of a full bar for its count.
	p.barsEnd = p.bars.X1 - font.Width("888.8k", z.FSSmall, false) - 6*s
	p.plotBox = chart.Box{X0: body.X0, Y0: body.Y0 + topH + gap, X1: body.X1, Y1: body.Y1}
	p.laneNames(names)
}

func (p *painter) labelWidth(names []string) float64 {
	w := 0.0
	for _, n := range names {
		w = max(w, font.Width(n, p.FSSmall, false))
	}
	return w
}

// laneY is the centre of lane i.
func (p *painter) laneY(i int) float64 { return p.Lanes.Y0 + (float64(i)+0.5)*p.laneH }

// barH is the height of a lane's bars: most of the lane, all of it when
// lanes are a couple of pixels, and no more than a thick bar.
func (p *painter) barH() float64 { return chart.BarH(p.laneH, 28*p.S) }

// laneStride is every how many'th lane has a label: all of them where
// the lanes are at least a text line high.
func (p *painter) laneStride() int { return p.LaneStride(p.laneH, p.r.P) }

func (p *painter) laneNames(names []string) {
	stride := p.laneStride()
	for i, n := range names {
		if i%stride == 0 {
			p.LaneLabel(p.laneY(i), n, false, p.Th.Muted)
		}
	}
}

// roundAt is the round the playhead is in: 1 until the first boundary,
// R+1 (the last round's computation) after the last.
func (p *painter) roundAt() int {
	k := 1
	for _, b := range p.r.rounds {
		if b <= p.Now {
			k++
		}
	}
	return k
}

func (p *painter) ganttPanel() {
	r, th := p.r, p.Th
	R := r.sch.R
	k := p.roundAt()
	var where string
	switch {
	case p.Now >= r.end:
		where = "done"
	case len(r.rounds) == 0:
		where = "no task moves" // a balanced load: the rounds are empty
	case k > R:
		where = "last computation"
	case k == 1 && r.sch.Sched == emmdl.Paper:
		where = fmt.Sprintf("round 1 of %d: transfers only", R)
	default:
		where = fmt.Sprintf("round %d of %d", k, R)
	}
	head := []string{
		fmt.Sprintf("Round schedule, %s: T = %s, makespan %s", where, scene.Seconds(r.st.T), scene.Seconds(r.sch.Makespan)),
		fmt.Sprintf("Schedule, %s: makespan %s", where, scene.Seconds(r.sch.Makespan)),
		"Schedule, " + where,
	}
	p.Header(p.Lanes.X0, p.header, p.Lanes.W(), head...)
	p.Rect(p.Lanes, render.Style{Fill: th.Panel, Stroke: th.Rule, Width: 1})

	bh := p.barH()
	for i, spans := range r.lanes {
		yc := p.laneY(i)
		for _, sp := range spans {
			if sp.Start >= p.Now {
				break // spans are in time order
			}
			a, b := sp.Start, min(sp.End, p.Now)
			if b <= a {
				continue
			}
			p.span(sp.Kind, a, b, yc, bh)
		}
	}
	p.roundRules()
	// T, then the makespan, once the playhead reaches them.
	if p.Now >= r.st.T {
		p.VLine(p.X(r.st.T), p.Lanes.Y0, p.Lanes.Y1, p.steadyStyle())
	}
	if p.Now >= r.sch.Makespan {
		p.VLine(p.X(r.sch.Makespan), p.Lanes.Y0, p.Lanes.Y1, p.makespanStyle())
	}
	p.Playhead(p.Lanes.Y0)
}

// span draws part [a, b] of a span on a lane. Work gets at least a pixel,
// so a short round stays visible on a long axis.
func (p *painter) span(k trace.Kind, a, b, yc, bh float64) {
	bx := chart.Box{X0: p.X(a), Y0: yc - bh/2, X1: p.X(b), Y1: yc + bh/2}
	if k == trace.Idle {
		p.Rect(bx, render.Style{Fill: p.Th.Idle})
		return
	}
	bx.X1 = max(bx.X1, bx.X0+1)
	p.Rect(bx, p.Fill(p.Th.Kind(k), k != trace.Compute && p.oLine && bx.W() >= 4*p.S))
}

// roundRules draws the round boundaries the playhead has passed, across
// all lanes. Where rounds are narrower than a few pixels (the scheduler's
// own choice can be hundreds of rounds) only every k-th is drawn, so the
// rules do not turn the chart grey; ruleEvery records k.
func (p *painter) roundRules() {
	r := p.r
	p.ruleEvery = 1
	if n := len(r.rounds); n > 0 {
		perRule := p.Lanes.W() / float64(n+1)
		for perRule*float64(p.ruleEvery) < max(4, 5*p.S) {
			p.ruleEvery++
		}
	}
	st := p.ruleStyle()
	p.rules = p.rules[:0]
	for i, b := range r.rounds {
		if b > p.Now {
			break
		}
		if (i+1)%p.ruleEvery != 0 {
			continue
		}
		p.rules = append(p.rules, b)
		p.VLine(p.X(b), p.Lanes.Y0, p.Lanes.Y1, st)
	}
}

// timeAxis draws the Gantt's time axis, a tick about every two labels'
// widths.
func (p *painter) timeAxis() {
	ticks, step := p.TimeTicks("88.88", 2)
	p.TimeAxis(ticks, func(t float64) string { return chart.AxisLabel(t, step) }, "time (s)", "s")
}

// tasks formats a task count: "62.5k", "600k", "850".
func tasks(x float64) string {
	switch a := math.Abs(x); {
	case a >= 999.5e3:
		return strconv.FormatFloat(x/1e6, 'f', 2, 64) + "M"
	case a >= 99.95e3:
		return strconv.FormatFloat(x/1e3, 'f', 0, 64) + "k"
	case a >= 999.5:
		return strconv.FormatFloat(x/1e3, 'f', 1, 64) + "k"
	}
	return strconv.FormatFloat(x, 'f', 0, 64)
}

// barX maps a task count onto the load bars' scale.
func (p *painter) barX(n float64) float64 {
	return p.bars.X0 + n/p.r.loadMax*(p.barsEnd-p.bars.X0)
}

// loadBars draws, beside each lane, the tasks the processor holds at the
// playhead, the part computed solid, and its steady-state final load as a
// tick.
func (p *painter) loadBars() {
	r, th, z, s := p.r, p.Th, p.Sizes, p.S
	done := 0.0
	for _, d := range p.done {
		done += d
	}
	p.Header(p.bars.X0, p.header, p.bars.W(),
		fmt.Sprintf("Tasks held, %s of %s computed", tasks(done), tasks(r.total)),
		fmt.Sprintf("Held, %s computed", tasks(done)),
		"Tasks held")
	bh := p.barH()
	tint := render.Mix(th.Panel, th.Compute, heldTint)
	stride := p.laneStride()
	for i := range r.P {
		yc := p.laneY(i)
		y0, y1 := yc-bh/2, yc+bh/2
		p.Rect(chart.Box{X0: p.bars.X0, Y0: y0, X1: p.barsEnd, Y1: y1}, render.Style{Fill: th.Panel, Stroke: th.Rule, Width: 1})
		if h := p.held[i]; h > 0 {
			p.Rect(chart.Box{X0: p.bars.X0, Y0: y0, X1: p.barX(h), Y1: y1}, render.Style{Fill: tint})
		}
		if d := p.done[i]; d > 0 {
			p.Rect(chart.Box{X0: p.bars.X0, Y0: y0, X1: p.barX(d), Y1: y1}, render.Style{Fill: th.Compute})
		}
		p.VLine(p.barX(r.st.Final[i]), y0-2*s, y1+2*s, p.finalStyle())
		if i%stride == 0 {
			p.Text(p.barsEnd+4*s, yc+font.Ascent(z.FSSmall)/2-1, tasks(p.held[i]), z.FSSmall, render.AlignLeft, false, th.Muted)
		}
	}
	// The scale under the bars, where the Gantt has its time axis.
	y := p.AxisY
	lw := font.Width("888k", z.FSSmall, false)
	ticks, step := chart.NiceTicks(0, r.loadMax, max(1, int((p.barsEnd-p.bars.X0)/(lw*1.8))))
	for _, tk := range ticks {
		x := p.barX(tk)
		p.VLine(x, y, y+4*s, render.Style{Stroke: th.Muted, Width: 1})
		label := chart.AxisLabel(tk, step)
		if step >= 1000 && tk != 0 {
			label = chart.AxisLabel(tk/1000, step/1000) + "k"
		}
		p.TickLabel(x, y+4*s+font.Ascent(z.FSSmall)+2*s, label, p.bars.X0, p.bars.X1)
	}
	capY := y + 4*s + z.FSSmall*1.4 + font.Ascent(z.FSSmall) + 2*s
	p.Text(p.bars.X0, capY, chart.Fit(p.bars.W(), z.FSSmall, false, "tasks (computed part solid)", "tasks"), z.FSSmall, render.AlignLeft, false, th.Muted)
}

// The rounds plot's curves.
func (p *painter) firstStyle() render.Style { // T/R
	return render.Style{Stroke: p.Th.Redundant, Width: 2 * p.S}
}

func (p *painter) latencyStyle() render.Style { // α·R
	return render.Style{Stroke: p.Th.Adopted, Width: 2 * p.S}
}

func (p *painter) sumStyle() render.Style { // T/R + α·R
	return render.Style{Stroke: render.Fade(p.Th.Ink, 0.45), Width: 6 * p.S}
}

// plotRange is the rounds plot's axes: R from 1 to past both the slider's
// end and R* (a whole decade, so the log axis ends on a label), and the
// curves' values over that range, in whole decades too.
func (r *run) plotRange() (xMax, yLo, yHi float64) {
	T, a := r.st.T, r.in.Latency
	xMax = math.Pow(10, math.Ceil(math.Log10(max(MaxRounds, float64(r.sch.R), 3*float64(r.best)))-1e-9))
	yLo = min(T/xMax, a)
	yHi = max(T, a*xMax)
	// Eight decades at most: the curves are straight lines, and what
	// lies further down says nothing more.
	yLo = math.Pow(10, math.Floor(math.Log10(max(yLo, yHi*1e-8))))
	yHi = math.Pow(10, math.Ceil(math.Log10(yHi)))
	return xMax, yLo, yHi
}

// roundsPlot draws the paper's accounting against R on log–log axes: T/R
// (the first round, which only communicates), α·R (the latency) and their
// sum, the formula's excess over T, least at R*; the current R with the
// formula's value and the simulated makespan's excess over T.
func (p *painter) roundsPlot() {
	r, th, z, s := p.r, p.Th, p.Sizes, p.S
	mb := p.plotBox
	T, alpha, R := r.st.T, r.in.Latency, r.sch.R
	rowH := z.FS * 1.6
	p.Text(mb.X0, chart.Baseline(mb.Y0, rowH, z.FS), chart.Fit(mb.W(), z.FS, true,
		fmt.Sprintf("Rounds: T + T/R + α·R = %s at %s, least at R* = √(T/α) = %d (%s)", scene.Seconds(r.formula), p.rLabel(), r.best, scene.Seconds(r.bestVal)),
		fmt.Sprintf("T + T/R + α·R = %s at R = %d; R* = %d", scene.Seconds(r.formula), R, r.best),
		fmt.Sprintf("R = %d, R* = %d", R, r.best)), z.FS, render.AlignLeft, true, th.Ink)

	// The key on the right, one row per line.
	keyW := math.Round(0.36 * mb.W())
	kx := mb.X1 - keyW
	y := mb.Y0 + rowH
	krow := z.FSSmall * 1.5
	sw := 16 * s
	room := keyW - sw - 5*s
	over := r.sch.Makespan - T
	key := func(draw func(x0, x1, mid float64), labels ...string) {
		if y+krow > mb.Y1 {
			return
		}
		mid := y + krow/2
		draw(kx, kx+sw, mid)
		p.Text(kx+sw+5*s, chart.Baseline(y, krow, z.FSSmall), chart.Fit(room, z.FSSmall, false, labels...), z.FSSmall, render.AlignLeft, false, th.Ink)
		y += krow
	}
	line := func(st render.Style) func(x0, x1, mid float64) {
		return func(x0, x1, mid float64) { p.HLine(x0, x1, mid, st) }
	}
	dot := func(fill, stroke color.RGBA) func(x0, x1, mid float64) {
		return func(x0, x1, mid float64) {
			p.L.Add(render.Circle{Center: render.Point{X: (x0 + x1) / 2, Y: mid}, R: 4 * s, Style: render.Style{Fill: fill, Stroke: stroke, Width: max(1, 1.5*s)}})
		}
	}
	key(line(p.firstStyle()), fmt.Sprintf("T/R = %s: a round that only communicates", scene.Seconds(T/float64(R))), "T/R = "+scene.Seconds(T/float64(R)), "T/R")
	key(line(p.latencyStyle()), fmt.Sprintf("α·R = %s: latency per round", scene.Seconds(alpha*float64(R))), "α·R = "+scene.Seconds(alpha*float64(R)), "α·R")
	key(line(p.sumStyle()), fmt.Sprintf("T/R + α·R = %s (the formula less T)", scene.Seconds(r.formula-T)), "T/R + α·R = "+scene.Seconds(r.formula-T), "sum")
	key(dot(th.Critical, th.Panel), fmt.Sprintf("simulated makespan − T = %s", scene.Seconds(over)), "makespan − T = "+scene.Seconds(over), "simulated")
	key(line(p.steadyStyle()), fmt.Sprintf("R* = %d: T + 2√(Tα) = %s", r.best, scene.Seconds(r.bestVal)), fmt.Sprintf("R* = %d", r.best), "R*")

	// The axes, left of the key.
	xMax, yLo, yHi := r.plotRange()
	plot := chart.Box{X0: mb.X0, Y0: mb.Y0 + rowH + z.FSSmall*0.6, X1: kx - 3*z.Pad, Y1: mb.Y1 - 4*s - z.FSSmall*1.4 - z.FSSmall*1.5}
	yt := decades(yLo, yHi)
	labelW := 0.0
	for _, v := range yt {
		labelW = max(labelW, font.Width(scene.Seconds(v), z.FSSmall, false))
	}
	plot.X0 += labelW + 6*s
	p.plot = plot
	if plot.H() < 10 || plot.W() < 10 {
		return
	}
	p.Rect(plot, render.Style{Fill: th.Panel, Stroke: th.Rule, Width: 1})
	lx0, lx1 := 0.0, math.Log10(xMax)
	ly0, ly1 := math.Log10(yLo), math.Log10(yHi)
	xOf := func(R float64) float64 { return plot.X0 + (math.Log10(R)-lx0)/(lx1-lx0)*plot.W() }
	yOf := func(v float64) float64 { return plot.Y1 - (math.Log10(v)-ly0)/(ly1-ly0)*plot.H() }
	// Decade labels where they do not crowd (every other one if needed).
	yEvery := 1
	for float64(yEvery)*plot.H()/float64(max(1, len(yt)-1)) < z.FSSmall*1.3 {
		yEvery++
	}
	for i, v := range yt {
		yy := yOf(v)
		if i > 0 && i < len(yt)-1 {
			p.HLine(plot.X0, plot.X1, yy, render.Style{Stroke: th.Rule, Width: 1})
		}
		if i%yEvery == 0 {
			p.ValueLabel(plot.X0-4*s, yy, scene.Seconds(v))
		}
	}
	for _, v := range decades(1, xMax) {
		xx := xOf(v)
		if v > 1 && v < xMax {
			p.VLine(xx, plot.Y0, plot.Y1, render.Style{Stroke: th.Rule, Width: 1})
		}
		p.VLine(xx, plot.Y1, plot.Y1+4*s, render.Style{Stroke: th.Muted, Width: 1})
		p.TickLabel(xx, plot.Y1+4*s+font.Ascent(z.FSSmall)+2*s, num(v), plot.X0, plot.X1)
	}
	p.Text(plot.X0, plot.Y1+4*s+z.FSSmall*1.4+font.Ascent(z.FSSmall)+2*s, chart.Fit(plot.W(), z.FSSmall, false,
		"rounds R (log); time above T (log)", "rounds R", "R"), z.FSSmall, render.AlignLeft, false, th.Muted)

	// The curves, clipped to the plot: T/R and α·R are straight lines on
	// log–log axes; the sum is sampled.
	clip := func(f func(R float64) float64, st render.Style) {
		const n = 96
		pts := make([]render.Point, 0, n+1)
		for i := 0; i <= n; i++ {
			x := math.Pow(10, lx1*float64(i)/n)
			v := f(x)
			if v < yLo || v > yHi {
				continue
			}
			pts = append(pts, render.Point{X: xOf(x), Y: yOf(v)})
		}
		if len(pts) > 1 {
			p.L.Add(render.Polyline{Points: pts, Style: st})
		}
	}
	// The sum under its parts, so where it runs along one both show.
	clip(func(x float64) float64 { return T/x + alpha*x }, p.sumStyle())
	clip(func(x float64) float64 { return T / x }, p.firstStyle())
	clip(func(x float64) float64 { return alpha * x }, p.latencyStyle())

	// R*, then the current R with the formula's value on the sum and the
	// simulated excess (at the plot's floor if it is below it).
	if b := float64(r.best); b >= 1 && b <= xMax {
		p.VLine(xOf(b), plot.Y0, plot.Y1, p.steadyStyle())
	}
	xr := xOf(float64(R))
	p.VLine(xr, plot.Y0, plot.Y1, render.Style{Stroke: render.Fade(th.Ink, 0.5), Width: max(1, s)})
	p.L.Add(render.Circle{Center: render.Point{X: xr, Y: yOf(r.formula - T)}, R: 4.5 * s, Style: render.Style{Fill: th.Panel, Stroke: th.Ink, Width: max(1, 1.5*s)}})
	oy := plot.Y1
	if over > yLo {
		oy = yOf(min(over, yHi))
	}
	p.L.Add(render.Circle{Center: render.Point{X: xr, Y: oy}, R: 4 * s, Style: render.Style{Fill: th.Critical, Stroke: th.Panel, Width: max(1, s)}})
}

// decades are the powers of ten from lo to hi (both powers of ten).
func decades(lo, hi float64) []float64 {
	var out []float64
	for e := math.Round(math.Log10(lo)); e <= math.Round(math.Log10(hi)); e++ {
		out = append(out, math.Pow(10, e))
	}
	return out
}
