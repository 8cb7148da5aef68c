package butterfly

import (
	"image/color"
	"math"

	"commlab/render"
	"commlab/scene"
)

// barCells is how many steps the colour bar samples the heat ramp in.
const barCells = 64

// Frame lays out the picture at playhead t.
func (r *Run) Frame(t float64, v scene.View) render.List {
	th := v.Theme
	out := render.List{W: v.W, H: v.H, Background: th.Background}
	if math.IsNaN(t) {
		t = 0
	}
	L := r.layoutFor(v.W, v.H)
	if L.tooSmall {
		return out
	}
	f := frame{r: r, L: L, th: th, t: t}
	f.items = make([]render.Item, 0, 64+3*r.rows*min(r.n, FullMaxP+1))
	f.dash = []float64{4 * L.s, 3 * L.s}
	f.header()
	if L.strip {
		f.strip()
	} else {
		f.full()
	}
	f.pill()
	f.bar()
	f.completion()
	f.legend()
	out.Items = f.items
	return out
}

// frame is one Frame call's state.
type frame struct {
	r     *Run
	L     *layout
	th    render.Theme
	t     float64
	items []render.Item
	dash  []float64
}

func (f *frame) add(it ...render.Item) { f.items = append(f.items, it...) }

//go:noinline
func (f *frame) text(l label, c color.RGBA) {
	if l.s == "" {
		return
	}
	f.add(render.Text{At: l.at, S: l.s, Size: l.size, Align: l.align, Bold: l.bold, Color: c})
}

func (f *frame) header() {
	L, th := f.L, f.th
	f.text(L.title, th.Ink)
	f.add(render.Text{At: L.timeAt, S: "t = " + scene.Seconds(f.t), Size: L.timeSz, Align: render.AlignRight, Bold: true, Color: th.Ink})
	for _, l := range L.colLabels {
		f.text(l, th.Muted)
	}
	for _, l := range L.rowLabels {
		c := th.Ink
		switch {
		case l.row == 0:
			c = th.Muted
		case l.row > f.r.k:
			c = th.Redundant
		}
		f.text(l.name, c)
		if l.row > 0 && f.t >= f.r.rowEnd[l.row] {
			f.text(l.time, th.Muted)
		}
	}
}

func (f *frame) colX(i int) float64 { return f.L.x0 + (float64(i)+0.5)*f.L.pw }

// box returns the corners of row's box of process i.
func (f *frame) box(row, i int) (render.Point, render.Point) {
	x, y := f.colX(i), f.L.rowY[row]
	return render.Point{X: x - f.L.boxW/2, Y: y}, render.Point{X: x + f.L.boxW/2, Y: y + f.L.boxH}
}

// full draws every box and every message.
func (f *frame) full() {
	r, L, th, t, s := f.r, f.L, f.th, f.t, f.L.s
	n := r.n
	// Each process's column, behind its boxes: it keeps its own partial
	// result from row to row.
	for i := range n {
		x := f.colX(i)
		f.add(render.Line{From: render.Point{X: x, Y: L.rowY[0] + L.boxH}, To: render.Point{X: x, Y: L.rowY[r.rows-1]}, Style: render.Style{Stroke: th.Rule, Width: max(s, 1)}})
	}
	if r.t > 0 {
		f.add(render.Line{From: render.Point{X: L.pad, Y: L.sepY}, To: render.Point{X: L.x1, Y: L.sepY}, Style: render.Style{Stroke: render.Fade(th.Redundant, 0.6), Width: max(s, 1), Dash: f.dash}})
	}

	// Messages that have arrived, faint, under the boxes; adopted copies
	// and messages in flight on top.
	var late []int
	for mi := range r.msgs {
		m := &r.msgs[mi]
		if t < m.send {
			continue
		}
		if t < m.arrive || (m.redundant && m.used) {
			late = append(late, mi)
			continue
		}
		f.message(m, 1, false)
	}

	stalledNow := make([]bool, r.rows*n)
	for _, st := range r.stalls {
		if st.start > t {
			break
		}
		if t < st.end {
			stalledNow[st.row*n+st.lane] = true
		}
	}
	textColor := [2]color.RGBA{th.Ink, th.Background}
	if luminance(th.Ink) > luminance(th.Background) {
		textColor = [2]color.RGBA{th.Background, th.Ink} // dark, light
	}
	for row := range r.rows {
		for i := range n {
			idx := row*n + i
			a, b := f.box(row, i)
			fin := r.fin[idx]
			switch {
			case t >= fin:
				fill := th.HeatAt(r.heat(fin))
				st := render.Style{Fill: fill, Stroke: render.Fade(th.Ink, 0.35), Width: max(0.75*s, 1)}
				if r.hadStall[idx] {
					st.Stroke, st.Width = th.Stall, max(2*s, 1.5)
				}
				if r.adopted[idx] >= 0 {
					st.Stroke, st.Width = th.Adopted, max(2.5*s, 2)
				}
				f.add(render.Rect{Min: a, Max: b, Style: st})
				if lines := L.boxText[idx]; len(lines) > 0 {
					c := textColor[1]
					if luminance(fill) > 0.18 {
						c = textColor[0]
					}
					f.boxLines(a, b, lines, c)
				}
			case stalledNow[idx]:
				f.add(render.Rect{Min: a, Max: b, Style: render.Style{Fill: th.Panel}})
				f.hatch(a, b, th.Stall)
				f.add(render.Rect{Min: a, Max: b, Style: render.Style{Stroke: th.Stall, Width: max(2*s, 1.5)}})
			case row >= 1 && row <= r.k && t >= r.fin[(row-1)*n+i]:
				// In the stage: waiting for the partner, or reducing.
				f.add(render.Rect{Min: a, Max: b, Style: render.Style{Fill: th.Panel, Stroke: th.Ink, Width: max(1.5*s, 1)}})
			default:
				f.add(render.Rect{Min: a, Max: b, Style: render.Style{Fill: th.Panel, Stroke: th.Rule, Width: max(s, 1)}})
			}
		}
	}
	for _, mi := range late {
		m := &r.msgs[mi]
		f.message(m, min(1, (t-m.send)/(m.arrive-m.send)), t < m.arrive)
	}
	f.critical(r.k, r.critConv, r.res.ByT[0])
	if r.t > 0 {
		f.critical(r.rows-1, r.critRed, r.res.ByT[r.t])
	}
}

// message draws m flown the fraction frac of its path: in flight with a
// head at its current position, or arrived (faint; an adopted copy
// highlighted, an unused copy dashed). The part of the flight that network
// noise added is drawn dashed in the noise colour.
func (f *frame) message(m *msg, frac float64, flying bool) {
	L, th, s := f.L, f.th, f.L.lineW
	if !(frac >= 0) { // NaN from a zero-length flight: it has arrived
		frac = 1
	}
	a := render.Point{X: f.colX(m.from), Y: L.rowY[m.row-1] + L.boxH}
	b := render.Point{X: f.colX(m.to), Y: L.rowY[m.row]}
	at := func(x float64) render.Point { return render.Point{X: a.X + (b.X-a.X)*x, Y: a.Y + (b.Y-a.Y)*x} }
	head := max(7*s, 4)
	col, width, alpha := th.Butterfly, max(2*s, 1.5), 1.0
	var dash []float64
	switch {
	case m.redundant && !flying && m.used:
		col, width = th.Adopted, max(3*s, 2)
	case m.redundant && !flying:
		col, alpha, dash, width = th.Redundant, 0.55, f.dash, max(s, 1)
	case m.redundant:
		col = th.Redundant
	case !flying:
		alpha, width = 0.35, max(s, 1)
	}
	if !flying && !(m.redundant && m.used) {
		head = max(5*s, 3)
	}
	col = render.Fade(col, alpha)
	noise := render.Fade(th.Noise, alpha)
	cur := at(frac)
	// A message that has just left grows its head out of the sender's
	// box rather than poking back into it.
	// (Head 0 would mean the default length, hence the floor.)
	head = max(min(head, math.Hypot(cur.X-a.X, cur.Y-a.Y)), 1e-3)
	// Where the noise-free flight would have ended.
	d0 := 1.0
	if m.arrive > m.send && m.onTime < m.arrive {
		d0 = (m.onTime - m.send) / (m.arrive - m.send)
	}
	if frac <= d0 {
		f.add(render.Arrow{From: a, To: cur, Head: head, Style: render.Style{Stroke: col, Fill: col, Width: width, Dash: dash}})
		return
	}
	mid := at(d0)
	f.add(render.Line{From: a, To: mid, Style: render.Style{Stroke: col, Width: width, Dash: dash}})
	f.add(render.Arrow{From: mid, To: cur, Head: head, Style: render.Style{Stroke: noise, Fill: noise, Width: width, Dash: f.dash}})
}

// boxLines centres lines of text in the box a–b.
func (f *frame) boxLines(a, b render.Point, lines []string, c color.RGBA) {
	L := f.L
	block := float64(len(lines)-1)*L.boxLineH + boxCap(L.boxTextSz)
	y := a.Y + (b.Y-a.Y-block)/2 + boxCap(L.boxTextSz)
	x := (a.X + b.X) / 2
	for _, s := range lines {
		f.add(render.Text{At: render.Point{X: x, Y: y}, S: s, Size: L.boxTextSz, Align: render.AlignCenter, Color: c})
		y += L.boxLineH
	}
}

// hatch fills the box a–b with diagonal strokes, the stall pattern.
func (f *frame) hatch(a, b render.Point, c color.RGBA) {
	w, h := b.X-a.X, b.Y-a.Y
	d := max(5*f.L.s, 3)
	st := render.Style{Stroke: c, Width: max(f.L.s, 1)}
	// Lines u + v = k in box coordinates (u right, v down).
	for k := d / 2; k < w+h; k += d {
		var p, q render.Point
		if k <= w {
			p = render.Point{X: a.X + k, Y: a.Y}
		} else {
			p = render.Point{X: b.X, Y: a.Y + k - w}
		}
		if k <= h {
			q = render.Point{X: a.X, Y: a.Y + k}
		} else {
			q = render.Point{X: a.X + k - h, Y: b.Y}
		}
		f.add(render.Line{From: p, To: q, Style: st})
	}
}

// critical rings the box (or heat-strip cell) of the process that set a
// completion time, once the playhead reaches it.
func (f *frame) critical(row, i int, at float64) {
	if f.t < at {
		return
	}
	L, s := f.L, f.L.s
	var a, b render.Point
	if L.strip {
		c := i / L.bin
		x := L.x0 + (float64(c)+0.5)*L.cellW
		y := L.rowY[row] + L.cellH/2
		hw, hh := max(L.cellW, 6*s)/2+2*s, L.cellH/2+2*s
		a, b = render.Point{X: x - hw, Y: y - hh}, render.Point{X: x + hw, Y: y + hh}
	} else {
		a, b = f.box(row, i)
		g := 3 * s
		a, b = render.Point{X: a.X - g, Y: a.Y - g}, render.Point{X: b.X + g, Y: b.Y + g}
	}
	f.add(render.Rect{Min: a, Max: b, Style: render.Style{Stroke: f.th.Critical, Width: max(2*s, 1.5)}})
}

// pill labels the redundant exchanges on their separator, above whatever
// crosses it.
func (f *frame) pill() {
	L, th := f.L, f.th
	if L.pillLabel.s == "" {
		return
	}
	f.add(render.Rect{Min: L.pill[0], Max: L.pill[1], Style: render.Style{Fill: th.Background, Stroke: th.Redundant, Width: max(L.s, 1)}})
	f.text(L.pillLabel, th.Redundant)
}

// bar draws the heat ramp as a timeline over [0, conventional completion]
// with the playhead and the completion times reached so far.
func (f *frame) bar() {
	r, L, th, t, s := f.r, f.L, f.th, f.t, f.L.s
	cells := make([]color.RGBA, barCells)
	for i := range cells {
		cells[i] = th.HeatAt(float64(i) / (barCells - 1))
	}
	f.add(render.Grid{Min: L.barMin, Max: L.barMax, Cols: barCells, Rows: 1, Cells: cells})
	for i, l := range L.ticks {
		x := L.tickX[i]
		f.add(render.Line{From: render.Point{X: x, Y: L.barMax.Y}, To: render.Point{X: x, Y: L.barMax.Y + 3*s}, Style: render.Style{Stroke: th.Muted, Width: max(s, 1)}})
		f.text(l, th.Muted)
	}
	f.text(L.barCaption, th.Muted)
	xAt := func(x float64) float64 { return L.x0 + (L.x1-L.x0)*min(max(r.heat(x), 0), 1) }
	mark := func(x float64, c color.RGBA) {
		px := xAt(x)
		f.add(render.Line{From: render.Point{X: px, Y: L.barMin.Y - 5*s}, To: render.Point{X: px, Y: L.barMax.Y}, Style: render.Style{Stroke: c, Width: max(2*s, 1.5)}})
	}
	if r.t > 0 && t >= r.res.ByT[r.t] {
		mark(r.res.ByT[r.t], th.Redundant)
	}
	if t >= r.res.ByT[0] {
		mark(r.res.ByT[0], th.Critical)
	}
	px := xAt(t)
	f.add(render.Line{From: render.Point{X: px, Y: L.barMin.Y - 4*s}, To: render.Point{X: px, Y: L.barMax.Y + 4*s}, Style: render.Style{Stroke: th.Playhead, Width: max(3*s, 2)}})
}

// completion writes the completion times, each once the playhead has
// reached it.
func (f *frame) completion() {
	r, L, th, t := f.r, f.L, f.th, f.t
	reached := [3]bool{true, t >= r.res.ByT[0], t >= r.res.ByT[r.t]}
	colors := [3]color.RGBA{th.Muted, th.Ink, th.Redundant}
	for i := range 3 {
		s, c := L.complDone[i], colors[i]
		if !reached[i] {
			s, c = L.complPending[i], th.Muted
		}
		if s == "" {
			continue
		}
		f.add(render.Text{At: render.Point{X: L.complX[i], Y: L.complY}, S: s, Size: L.complSz, Bold: i > 0, Color: c})
	}
}

// legend draws the swatches and their words.
func (f *frame) legend() {
	th, s := f.th, f.L.s
	for _, it := range f.L.legend {
		a, b := it.swatch[0], it.swatch[1]
		mid := render.Point{X: a.X, Y: (a.Y + b.Y) / 2}
		end := render.Point{X: b.X, Y: mid.Y}
		arrow := func(c color.RGBA, w float64, dash []float64) {
			f.add(render.Arrow{From: mid, To: end, Head: max(6*s, 4), Style: render.Style{Stroke: c, Fill: c, Width: w, Dash: dash}})
		}
		switch it.kind {
		case legPending:
			f.add(render.Rect{Min: a, Max: b, Style: render.Style{Fill: th.Panel, Stroke: th.Rule, Width: max(s, 1)}})
		case legStall:
			f.add(render.Rect{Min: a, Max: b, Style: render.Style{Fill: th.Panel}})
			f.hatch(a, b, th.Stall)
			f.add(render.Rect{Min: a, Max: b, Style: render.Style{Stroke: th.Stall, Width: max(2*s, 1.5)}})
		case legMessage:
			arrow(th.Butterfly, max(2*s, 1.5), nil)
		case legNoise:
			arrow(th.Noise, max(2*s, 1.5), f.dash)
		case legRedundant:
			arrow(th.Redundant, max(2*s, 1.5), nil)
		case legAdopted:
			arrow(th.Adopted, max(3*s, 2), nil)
		case legCritical:
			f.add(render.Rect{Min: a, Max: b, Style: render.Style{Fill: th.HeatAt(1), Stroke: th.Critical, Width: max(2*s, 1.5)}})
		}
		f.text(it.text, th.Ink)
	}
}

// luminance is the relative luminance of c (sRGB, alpha ignored), for
// picking text that stands out on a heat-coloured box.
func luminance(c color.RGBA) float64 {
	lin := func(x uint8) float64 {
		v := float64(x) / 255
		if v <= 0.04045 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}
