package nbc

import (
	"fmt"
	"math"

	"commlab/engine/trace"
	"commlab/render"
	"commlab/render/font"
	"commlab/scene/chart"
)

// stateRows splits the state section's left part into its header, the
// flow row (main thread, queue, progress thread) and the handles row.
func (p *painter) stateRows() (headerY float64, flow, handles box) {
	s, b := p.S, p.state
	headerH := p.FS * 1.6
	chipH := p.FSSmall * 1.8
	handles = box{X0: b.X0, Y0: b.Y1 - chipH, X1: b.X1, Y1: b.Y1}
	flow = box{X0: b.X0, Y0: b.Y0 + headerH, X1: b.X1, Y1: handles.Y0 - 8*s}
	return chart.Baseline(b.Y0, headerH, p.FS), flow, handles
}

// threadBox draws a thread's box: its name, and its state under it.
func (p *painter) threadBox(b box, name, state string, st render.Style) {
	p.Rect(b, st)
	in := b.W() - 12*p.S
	lh := (b.H() - 4*p.S) / 2
	p.Text(b.X0+6*p.S, chart.Baseline(b.Y0+2*p.S, lh, p.FSSmall), chart.Fit(in, p.FSSmall, true, name), p.FSSmall, render.AlignLeft, true, p.Th.Ink)
	p.Text(b.X0+6*p.S, chart.Baseline(b.Y0+2*p.S+lh, lh, p.FSSmall)-2*p.S, chart.Fit(in, p.FSSmall, false, state, ""), p.FSSmall, render.AlignLeft, false, p.Th.Ink)
}

// arrow draws a flow arrow between the boxes of the flow row.
func (p *painter) arrow(x0, x1, y float64) {
	c := p.Th.Muted
	p.L.Add(render.Arrow{From: render.Point{X: x0, Y: y}, To: render.Point{X: x1, Y: y}, Head: 6 * p.S, Style: render.Style{Stroke: c, Fill: c, Width: max(1, 1.2*p.S)}})
}

// queueState draws TCC's state at the playhead: the main thread issuing
// (or blocked on a full queue), the ring's slots with the handles in them
// and the head and tail pointers, the progress thread running the head's
// collective, and every handle with its done flag.
func (p *painter) queueState(tl *timeline) {
	th, s := p.Th, p.S
	cp := p.r.p.QueueCap
	hy, flow, hrow := p.stateRows()
	used := 0
	q := tl.queued(p.Now, cp)
	for _, h := range q {
		if h >= 0 {
			used++
		}
	}
	p.Text(flow.X0, hy, chart.Fit(flow.W(), p.FS, true,
		fmt.Sprintf("HandleQueue: a ring of %d slots, %d full", cp, used),
		fmt.Sprintf("HandleQueue: %d of %d slots full", used, cp),
		fmt.Sprintf("queue %d/%d", used, cp)), p.FS, render.AlignLeft, true, th.Ink)

	// Boxes: main | slots | progress, arrows between.
	bw := math.Round(min(0.27*flow.W(), 190*s))
	gap := 22 * s
	ptrH := p.FSSmall * 1.3
	slotRow := box{X0: flow.X0 + bw + gap, Y0: flow.Y0 + ptrH, X1: flow.X1 - bw - gap, Y1: flow.Y1 - ptrH - 6*s}
	sw := min(slotRow.W()/float64(cp), 70*s)
	slotRow.X1 = slotRow.X0 + sw*float64(cp)
	p.mainBox = box{X0: flow.X0, Y0: slotRow.Y0 - ptrH*0.4, X1: flow.X0 + bw, Y1: slotRow.Y1 + ptrH*0.4}
	progBox := box{X0: flow.X1 - bw, Y0: p.mainBox.Y0, X1: flow.X1, Y1: p.mainBox.Y1}
	mid := (slotRow.Y0 + slotRow.Y1) / 2

	// The main thread.
	blk := tl.blocked(p.Now)
	p.mainBlock = blk >= 0
	if p.mainBlock {
		p.hatch(p.mainBox)
		p.Rect(p.mainBox, render.Style{Stroke: th.Stall, Width: max(1, 1.5*s)})
		p.threadBox(p.mainBox, "main thread", "", render.Style{})
		p.Text(p.mainBox.X0+6*s, chart.Baseline(p.mainBox.Y0+2*s+(p.mainBox.H()-4*s)/2, (p.mainBox.H()-4*s)/2, p.FSSmall)-2*s,
			chart.Fit(p.mainBox.W()-12*s, p.FSSmall, true, blockText(blk, used == cp)...),
			p.FSSmall, render.AlignLeft, true, p.onFill(render.Mix(th.Panel, th.Stall, stallTint)))
	} else {
		p.threadBox(p.mainBox, "main thread", p.mainState(tl), render.Style{Fill: th.Panel, Stroke: th.Ink, Width: max(1, s)})
	}
	p.arrow(p.mainBox.X1+3*s, slotRow.X0-3*s, mid)

	// The slots: the ring drawn unrolled, its wrap-around as a line
	// from the last slot back under the row to the first.
	p.slots = make([]box, cp)
	p.slotHandle = q
	for i := range cp {
		b := box{X0: slotRow.X0 + float64(i)*sw, Y0: slotRow.Y0, X1: slotRow.X0 + float64(i+1)*sw, Y1: slotRow.Y1}
		p.slots[i] = b
		p.Rect(b, render.Style{Fill: th.Panel, Stroke: th.Ink, Width: max(1, s)})
		if h := q[i]; h >= 0 {
			in := box{X0: b.X0 + 3*s, Y0: b.Y0 + 3*s, X1: b.X1 - 3*s, Y1: b.Y1 - 3*s}
			p.Rect(in, render.Style{Fill: render.Mix(th.Panel, th.Ink, 0.12), Stroke: th.Ink, Width: max(1, s)})
			if lbl := chart.Fit(in.W()-2*s, p.FSSmall, true, fmt.Sprintf("h%d", h), fmt.Sprint(h), ""); lbl != "" {
				p.Text((in.X0+in.X1)/2, chart.Baseline(in.Y0, in.H(), p.FSSmall), lbl, p.FSSmall, render.AlignCenter, true, th.Ink)
			}
		}
	}
	wy := slotRow.Y1 + ptrH + 2*s
	wrap := render.Style{Stroke: th.Muted, Width: max(1, s), Dash: []float64{3 * s, 3 * s}}
	p.L.Add(render.Polyline{Points: []render.Point{
		{X: slotRow.X1 - sw/2, Y: slotRow.Y1}, {X: slotRow.X1 + gap*0.4, Y: slotRow.Y1},
		{X: slotRow.X1 + gap*0.4, Y: wy}, {X: slotRow.X0 - gap*0.4, Y: wy},
		{X: slotRow.X0 - gap*0.4, Y: slotRow.Y1}, {X: slotRow.X0 + sw/2 - 4*s, Y: slotRow.Y1},
	}, Style: wrap})
	head, tail := tl.headTail(p.Now, cp)
	p.pointer(p.slots[head], "head", true)
	p.pointer(p.slots[tail], "tail", false)

	// The progress thread.
	st := "waiting for a handle"
	run := tl.running(p.Now)
	switch {
	case run >= 0:
		st = fmt.Sprintf("MPI_Alltoall(h%d)", run)
	case tl.finalize[1] >= 0 && p.Now >= tl.finalize[1]:
		st = "stopped and joined"
	case tl.prog >= 0 && p.laneKind(tl, tl.prog) == trace.Compute:
		st = "switched in"
	}
	p.threadBox(progBox, "progress thread", st, render.Style{Fill: th.Panel, Stroke: th.Ink, Width: max(1, s)})
	if run >= 0 {
		h := tl.handles[run]
		f := 0.0
		if h.done > h.start {
			f = (p.Now - h.start) / (h.done - h.start)
		}
		bar := box{X0: progBox.X0 + 6*s, Y0: progBox.Y1 - 7*s, X1: progBox.X1 - 6*s, Y1: progBox.Y1 - 3*s}
		p.Rect(bar, render.Style{Fill: th.Idle})
		p.Rect(box{X0: bar.X0, Y0: bar.Y0, X1: bar.X0 + f*bar.W(), Y1: bar.Y1}, render.Style{Fill: th.Redundant})
	}
	p.arrow(slotRow.X1+3*s, progBox.X0-3*s, mid)

	p.handleChips(tl, hrow, true)
}

// blockText says why the main thread is blocked in the enqueue of handle
// h: the queue is full, or a slot has come free and the condition
// variable's hand-off has yet to wake it (Params.MutexHandoff).
func blockText(h int, full bool) []string {
	if full {
		return []string{fmt.Sprintf("blocked: queue full (h%d)", h), fmt.Sprintf("blocked (h%d)", h), "blocked"}
	}
	return []string{fmt.Sprintf("blocked: waking up (h%d)", h), fmt.Sprintf("waking (h%d)", h), "waking"}
}

// pointer marks a slot with the ring's head (an arrow down onto it from
// above) or its tail (an arrow up from below), named beside the arrow.
func (p *painter) pointer(b box, name string, above bool) {
	s := p.S
	cx := (b.X0 + b.X1) / 2
	c := p.Th.Ink
	tri := 5 * s
	from, to := b.Y0-tri-3*s, b.Y0-1*s
	if !above {
		from, to = b.Y1+tri+3*s, b.Y1+1*s
	}
	p.L.Add(render.Arrow{From: render.Point{X: cx, Y: from}, To: render.Point{X: cx, Y: to}, Head: tri, Style: render.Style{Stroke: c, Fill: c, Width: 1}})
	// The name sits beside the arrow, wholly outside the ring: its
	// descenders clear the slot's top (head), its ascenders the bottom
	// (tail), so "↓head" never overlaps the ring's border.
	ty := b.Y0 - 2*s - font.Descent(p.FSSmall)
	if !above {
		ty = b.Y1 + 2*s + font.Ascent(p.FSSmall)
	}
	p.Text(cx+tri*0.8, ty, name, p.FSSmall, render.AlignLeft, false, p.Th.Muted)
}

// laneKind is what lane li is doing at the playhead (Idle between spans).
func (p *painter) laneKind(tl *timeline, li int) trace.Kind {
	for _, sp := range tl.spans[li] {
		if sp.Start > p.Now {
			break
		}
		if p.Now < sp.End {
			return sp.Kind
		}
	}
	return trace.Idle
}

// mainState says what the main thread does at the playhead, in the API's
// words.
func (p *painter) mainState(tl *timeline) string {
	t := p.Now
	if tl.finalize[0] >= 0 && at(tl.finalize[0], t) && !at(tl.finalize[1], t) {
		return "Finalize: queue draining"
	}
	for id, h := range tl.handles {
		if at(h.waitCall, t) && !at(h.waitReturn, t) {
			if tl.method == "tcc" {
				return fmt.Sprintf("Wait(h%d)", id)
			}
			return fmt.Sprintf("NBC_Wait(h%d)", id)
		}
	}
	issued := 0
	for _, h := range tl.handles {
		if at(h.issue, t) {
			issued++
		}
	}
	last := tl.handles[len(tl.handles)-1]
	switch {
	case issued < len(tl.handles) || !at(max(last.enqueue, last.issue), t) && tl.method == "tcc":
		return fmt.Sprintf("issuing h%d", max(0, issued-1))
	case at(last.waitReturn, t) && (tl.finalize[1] < 0 || at(tl.finalize[1], t)):
		return "finished"
	}
	switch p.laneKind(tl, tl.main) {
	case trace.Compute:
		return "its matrix-vector rows"
	case trace.Send, trace.Receive:
		if tl.method == "tcc" {
			return "in the MPI library"
		}
		return "NBC_Test"
	}
	return "waiting"
}

// handleChips draws one chip per handle in issue order: not yet issued
// (outlined), blocked on the full queue (hatched), queued, running,
// done, or waited for; each with its done flag, a square that fills when
// the flag is set.
func (p *painter) handleChips(tl *timeline, b box, queue bool) {
	th, s := p.Th, p.S
	n := len(tl.handles)
	lw := font.Width("handles", p.FSSmall, true) + 8*s
	p.Text(b.X0, chart.Baseline(b.Y0, b.H(), p.FSSmall), "handles", p.FSSmall, render.AlignLeft, true, th.Ink)
	cw := min((b.W()-lw)/float64(n), 64*s)
	p.flags = make([]box, n)
	p.flagSet = make([]bool, n)
	t := p.Now
	for id, h := range tl.handles {
		c := box{X0: b.X0 + lw + float64(id)*cw, Y0: b.Y0, X1: b.X0 + lw + float64(id+1)*cw - 3*s, Y1: b.Y1}
		ink := th.Ink
		switch {
		case !at(h.issue, t):
			p.Rect(c, render.Style{Stroke: th.Rule, Width: max(1, s)})
			ink = th.Muted
		case queue && h.block >= 0 && at(h.block, t) && !at(h.enqueue, t):
			p.hatch(c)
			p.Rect(c, render.Style{Stroke: th.Stall, Width: max(1, s)})
		case at(h.waitReturn, t):
			fill := render.Mix(th.Panel, th.Receive, waitedTint)
			p.Rect(c, render.Style{Fill: fill})
			ink = p.onFill(fill)
		case at(h.done, t):
			p.Rect(c, render.Style{Fill: th.Panel, Stroke: th.Receive, Width: max(1, 2*s)})
		case at(h.start, t) && queue:
			p.Rect(c, render.Style{Fill: th.Redundant})
			ink = p.onFill(th.Redundant)
		case at(h.start, t):
			// LibNBC: the schedule is posted and in flight.
			fill := render.Mix(th.Panel, th.Redundant, 0.45)
			p.Rect(c, render.Style{Fill: fill})
			ink = p.onFill(fill)
		default:
			p.Rect(c, render.Style{Fill: render.Mix(th.Panel, th.Ink, 0.12), Stroke: th.Ink, Width: max(1, s)})
		}
		fs := c.H() * 0.42
		f := box{X0: c.X1 - fs - 3*s, Y0: (c.Y0+c.Y1)/2 - fs/2, X1: c.X1 - 3*s, Y1: (c.Y0+c.Y1)/2 + fs/2}
		p.flags[id] = f
		set := at(h.done, t)
		p.flagSet[id] = set
		if set {
			p.Rect(f, render.Style{Fill: th.Receive, Stroke: th.Ink, Width: max(1, s)})
		} else {
			p.Rect(f, render.Style{Fill: th.Panel, Stroke: ink, Width: max(1, s)})
		}
		room := f.X0 - c.X0 - 4*s
		if lbl := chart.Fit(room, p.FSSmall, false, fmt.Sprintf("h%d", id), fmt.Sprint(id), ""); lbl != "" {
			p.Text(c.X0+3*s, chart.Baseline(c.Y0, c.H(), p.FSSmall), lbl, p.FSSmall, render.AlignLeft, false, ink)
		}
	}
}

// nbcfState draws LibNBC's state at the playhead: no queue and no
// progress thread, only the main thread, which advances every schedule
// when it calls NBC_Test between outer-loop iterations or waits.
func (p *painter) nbcfState(tl *timeline) {
	th, s := p.Th, p.S
	hy, flow, hrow := p.stateRows()
	k := p.r.p.TestEvery
	every := "every outer iteration"
	if k > 1 {
		every = fmt.Sprintf("every %d outer iterations", k)
	}
	p.Text(flow.X0, hy, chart.Fit(flow.W(), p.FS, true,
		"LibNBC progress function: NBC_Test "+every, "LibNBC: NBC_Test "+every, "LibNBC"), p.FS, render.AlignLeft, true, th.Ink)
	bw := math.Round(min(0.27*flow.W(), 190*s))
	ptrH := p.FSSmall * 1.3
	p.mainBox = box{X0: flow.X0, Y0: flow.Y0 + ptrH*0.6, X1: flow.X0 + bw, Y1: flow.Y1 - ptrH*0.6 - 6*s}
	p.threadBox(p.mainBox, "main thread", p.mainState(tl), render.Style{Fill: th.Panel, Stroke: th.Ink, Width: max(1, s)})
	x := p.mainBox.X1 + 14*s
	w := flow.X1 - x
	lh := p.FSSmall * 1.5
	y := p.mainBox.Y0
	inFlight := 0
	for _, h := range tl.handles {
		if at(h.start, p.Now) && !at(h.done, p.Now) {
			inFlight++
		}
	}
	lines := [][]string{
		{fmt.Sprintf("main thread's NBC_Test calls so far: %d of %d", tl.progressCalls(p.Now), len(tl.progress)), fmt.Sprintf("NBC_Test calls: %d", tl.progressCalls(p.Now))},
		{fmt.Sprintf("schedules in flight: %d (they progress together)", inFlight), fmt.Sprintf("in flight: %d", inFlight)},
		{"no progress thread: rendezvous data moves only inside NBC_Test or NBC_Wait", "rendezvous moves only inside NBC_Test/Wait", ""},
	}
	for _, c := range lines {
		if y+lh > p.mainBox.Y1+ptrH*0.6 {
			break
		}
		if txt := chart.Fit(w, p.FSSmall, false, c...); txt != "" {
			p.Text(x, chart.Baseline(y, lh, p.FSSmall), txt, p.FSSmall, render.AlignLeft, false, th.Ink)
		}
		y += lh
	}
	p.handleChips(tl, hrow, false)
}

// computeBars draws the compute threads' share of their matrix-vector
// rows done by the playhead, one vertical bar per thread, a group per
// shown method.
func (p *painter) computeBars() {
	th, s := p.Th, p.S
	b := p.bars
	headerH := p.FS * 1.6
	done, all := 0.0, 0.0
	tl0 := p.r.shown[0]
	for _, li := range tl0.computes {
		done += tl0.computed(li, p.Now)
		all += tl0.work[li]
	}
	pc := 0.0
	if all > 0 {
		pc = 100 * done / all
	}
	p.Text(b.X0, chart.Baseline(b.Y0, headerH, p.FS), chart.Fit(b.W(), p.FS, true,
		fmt.Sprintf("Compute threads: %.0f %% of rows", pc), fmt.Sprintf("Compute %.0f %%", pc), fmt.Sprintf("%.0f %%", pc)), p.FS, render.AlignLeft, true, th.Ink)
	capH := p.FSSmall * 1.5
	area := box{X0: b.X0, Y0: b.Y0 + headerH, X1: b.X1, Y1: b.Y1 - capH}
	n := len(p.r.shown)
	gw := area.W() / float64(n)
	p.barFrac = make([][]float64, n)
	for g, tl := range p.r.shown {
		gb := box{X0: area.X0 + float64(g)*gw, Y0: area.Y0, X1: area.X0 + float64(g+1)*gw - 8*s*float64(min(1, n-1)), Y1: area.Y1}
		m := len(tl.computes)
		bw := gb.W() / float64(max(m, 1))
		p.barFrac[g] = make([]float64, m)
		for i, li := range tl.computes {
			f := tl.fraction(li, p.Now)
			p.barFrac[g][i] = f
			bb := box{X0: gb.X0 + float64(i)*bw, Y0: gb.Y0, X1: gb.X0 + float64(i+1)*bw - max(1, 0.2*bw), Y1: gb.Y1}
			p.Rect(bb, render.Style{Fill: th.Panel, Stroke: th.Rule, Width: 1})
			if f > 0 {
				p.Rect(box{X0: bb.X0, Y0: bb.Y1 - f*bb.H(), X1: bb.X1, Y1: bb.Y1}, render.Style{Fill: th.Compute})
			}
		}
		name := "TCC"
		if tl.method != "tcc" {
			name = "NBCF"
		}
		p.Text(gb.X0, chart.Baseline(area.Y1, capH, p.FSSmall), chart.Fit(gb.W(), p.FSSmall, false,
			fmt.Sprintf("%s: %d threads", name, m), name), p.FSSmall, render.AlignLeft, false, th.Muted)
	}
}
