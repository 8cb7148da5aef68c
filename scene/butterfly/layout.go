package butterfly

import (
	"fmt"
	"math"
	"strings"

	"commlab/render"
	"commlab/render/font"
	"commlab/scene"
)

// The layout is designed at 960x540 and scaled with the canvas: labels are
// 14 px there (legible at 1280x720 projected) and never smaller than
// minLabel, so a 640x360 slide embed still reads.
const (
	designW, designH = 960.0, 540.0
	labelPx          = 14.0
	titlePx          = 16.0
	minLabel         = 9.0
	minBoxText       = 8.0
)

// label is a line of text whose colour the frame picks from the theme.
type label struct {
	at    render.Point
	s     string
	size  float64
	align render.Align
	bold  bool
}

// rowLabel names a row on the left and, once reached, tells its
// completion time on the right.
type rowLabel struct {
	row        int
	name, time label
}

// legendKind is what a legend swatch shows.
type legendKind uint8

const (
	legPending legendKind = iota
	legStall
	legMessage
	legNoise
	legRedundant
	legAdopted
	legCritical
)

type legendItem struct {
	kind   legendKind
	swatch [2]render.Point // swatch box
	text   label
}

// layout is everything about a frame that depends on the canvas size but
// not on the playhead or the theme. Frame reuses it while the size holds.
type layout struct {
	w, h, s  float64
	fs       float64 // label size
	pad      float64
	strip    bool
	tooSmall bool // nothing but the background fits

	title  label
	timeAt render.Point // playhead time, right-aligned
	timeSz float64

	x0, x1, y0, y1 float64 // the plot: processes span x0..x1
	pw             float64 // width per process
	rowY           []float64
	boxH, boxW     float64

	sepY      float64 // the redundant exchanges' separator (if T > 0)
	pill      [2]render.Point
	pillLabel label

	rowLabels []rowLabel
	colLabels []label

	// Full drawing: the text of each box (row-major, one slice of lines
	// each), its size and line spacing.
	boxText   [][]string
	boxTextSz float64
	boxLineH  float64
	lineW     float64 // message stroke width: thinner where columns are narrow

	// Heat-strip: the grid's geometry; grid row of each run row.
	gridMin, gridMax render.Point
	cols, bin        int
	gridRows         int
	gridRow          []int
	cellW, cellH     float64

	// The colour bar, which doubles as the timeline.
	barMin, barMax render.Point
	ticks          []label
	tickX          []float64
	barCaption     label

	// Completion times: the line under the bar, pending and reached text.
	complY                  float64
	complX                  [3]float64
	complPending, complDone [3]string
	complSz                 float64

	legend []legendItem
}

// layoutFor returns the cached layout for v's size, computing it on a
// change. The lock keeps Frame safe to call from several goroutines.
func (r *Run) layoutFor(w, h float64) *layout {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lay == nil || r.lay.w != w || r.lay.h != h {
		r.lay = r.newLayout(w, h)
		r.strip = nil
	}
	return r.lay
}

func textH(size float64) float64 { return font.Ascent(size) + font.Descent(size) }

// newLayout lays the frame out for a w x h canvas.
func (r *Run) newLayout(w, h float64) *layout {
	L := &layout{w: w, h: h, strip: r.n > FullMaxP}
	if !(w >= 160 && h >= 90) || math.IsInf(w, 0) || math.IsInf(h, 0) {
		L.tooSmall = true
		return L
	}
	s := min(w/designW, h/designH)
	L.s = s
	fs := max(labelPx*s, minLabel)
	L.fs = fs
	pad := 8 * s
	L.pad = pad
	n := r.n

	// Header: what is drawn, left; the playhead time, right.
	tsz := max(titlePx*s, minLabel)
	L.timeSz = tsz
	timeW := font.Width("t = 888 µs", tsz, true)
	room := w - 2*pad - timeW - 12*s
	title := ""
	for _, c := range []string{
		fmt.Sprintf("Butterfly allreduce · P = %d · K = %d stages · T = %d redundant exchanges", n, r.k, r.t),
		fmt.Sprintf("Butterfly allreduce · P = %d · K = %d · T = %d", n, r.k, r.t),
		fmt.Sprintf("P = %d · K = %d · T = %d", n, r.k, r.t),
	} {
		if font.Width(c, tsz, true) <= room {
			title = c
			break
		}
	}
	top := pad + font.Ascent(tsz)
	L.title = label{at: render.Point{X: pad, Y: top}, s: title, size: tsz, bold: true}
	L.timeAt = render.Point{X: w - pad, Y: top}
	y := top + font.Descent(tsz) + 6*s

	// Row labels left, row completion times right.
	names := make([]string, r.rows)
	for row := range r.rows {
		switch {
		case row == 0:
			names[row] = "initial"
		case row <= r.k:
			names[row] = fmt.Sprintf("stage %d", row)
		default:
			names[row] = fmt.Sprintf("exchange %d", row-r.k)
		}
	}
	// The colour bar's caption sits in the same column.
	const caption = "finished at"
	leftW := font.Width(caption, fs, false)
	for _, nm := range names {
		leftW = max(leftW, font.Width(nm, fs, false))
	}
	times := make([]string, r.rows)
	rightW := 0.0
	for row := 1; row < r.rows; row++ {
		times[row] = scene.Seconds(r.rowEnd[row])
		rightW = max(rightW, font.Width(times[row], fs, false))
	}
	L.x0 = pad + leftW + 10*s
	L.x1 = w - pad - rightW - 10*s
	if L.x1-L.x0 < 40*s {
		L.tooSmall = true
		return L
	}
	L.pw = (L.x1 - L.x0) / float64(n)

	// Bottom, from the canvas edge up: legend, completion line, bar.
	L.legend = r.legendItems(L)
	legendTop := h - pad
	if len(L.legend) > 0 {
		legendTop = L.legend[0].swatch[0].Y - 0.3*fs
	}
	// The completion times, long form where it fits. Each segment gets
	// room for its longer text (pending or reached), so nothing shifts when
	// the playhead reaches a time.
	csz := fs
	L.complSz = csz
	sec := scene.Seconds
	noJitter := "no jitter " + sec(r.p.NoJitterTime())
	forms := []struct{ done, pending [3]string }{
		{[3]string{noJitter,
			fmt.Sprintf("conventional %s, set by P%d", sec(r.res.ByT[0]), r.critConv),
			fmt.Sprintf("with T = %d redundant exchanges %s, set by P%d", r.t, sec(r.res.ByT[r.t]), r.critRed)},
			[3]string{noJitter, "conventional …", fmt.Sprintf("with T = %d redundant exchanges …", r.t)}},
		{[3]string{noJitter,
			fmt.Sprintf("conventional %s (P%d)", sec(r.res.ByT[0]), r.critConv),
			fmt.Sprintf("T = %d: %s (P%d)", r.t, sec(r.res.ByT[r.t]), r.critRed)},
			[3]string{noJitter, "conventional …", fmt.Sprintf("T = %d: …", r.t)}},
		{[3]string{"",
			fmt.Sprintf("conventional %s (P%d)", sec(r.res.ByT[0]), r.critConv),
			fmt.Sprintf("T = %d: %s (P%d)", r.t, sec(r.res.ByT[r.t]), r.critRed)},
			[3]string{"", "conventional …", fmt.Sprintf("T = %d: …", r.t)}},
	}
	for fi, form := range forms {
		if r.t == 0 { // no redundant exchanges: nothing to compare
			form.done[2], form.pending[2] = "", ""
		}
		var xs [3]float64
		x := pad
		for i := range 3 {
			if form.done[i] == "" {
				continue
			}
			xs[i] = x
			x += max(font.Width(form.done[i], csz, true), font.Width(form.pending[i], csz, true)) + 18*s
		}
		if x-18*s <= w-pad || fi == len(forms)-1 {
			L.complX, L.complDone, L.complPending = xs, form.done, form.pending
			break
		}
	}
	L.complY = legendTop - 0.35*fs - font.Descent(csz)
	tickY := L.complY - font.Ascent(csz) - 0.45*fs - font.Descent(fs)
	barH := max(10*s, 6)
	barBottom := tickY - font.Ascent(fs) - 3*s
	L.barMin = render.Point{X: L.x0, Y: barBottom - barH}
	L.barMax = render.Point{X: L.x1, Y: barBottom}
	L.barCaption = label{at: render.Point{X: L.x0 - 10*s, Y: L.barMax.Y}, s: caption, size: fs, align: render.AlignRight}
	r.layTicks(L, tickY)

	// The plot: column labels on top, rows below.
	L.y0 = y + textH(fs) + 4*s
	L.y1 = L.barMin.Y - 10*s
	colY := L.y0 - 4*s - font.Descent(fs)
	maxLab := font.Width(fmt.Sprintf("P%d", n-1), fs, false) + 14*s
	step := 1
	for float64(step)*L.pw < maxLab && step < n {
		step *= 2
	}
	for i := 0; i < n; i += step {
		L.colLabels = append(L.colLabels, label{at: render.Point{X: L.x0 + (float64(i)+0.5)*L.pw, Y: colY}, s: fmt.Sprintf("P%d", i), size: fs, align: render.AlignCenter})
	}
	// The right-hand column's heading: each row's time is when its last
	// process finished it.
	L.colLabels = append(L.colLabels, label{at: render.Point{X: w - pad, Y: colY}, s: "row done", size: fs, align: render.AlignRight})
	if L.y1-L.y0 < 4*float64(r.rows) {
		L.tooSmall = true
		return L
	}
	L.rowY = make([]float64, r.rows)
	if L.strip {
		r.layStrip(L)
	} else {
		r.layFull(L)
	}

	// Row labels and times, centred on their rows.
	// Labels as tall as the rows allow; every other row's where even
	// that is too small to read.
	rowSz := min(fs, L.boxH*0.85)
	every := 1
	if rowSz < minLabel {
		every = 2
		rowSz = min(fs, 2*L.boxH*0.85)
	}
	for row := range r.rows {
		// Counted from the end of each section, so that stage K and the
		// last exchange are always named.
		last := r.k
		if row > r.k {
			last = r.rows - 1
		}
		if (last-row)%every != 0 {
			continue
		}
		mid := L.rowY[row] + L.boxH/2
		base := mid + (font.Ascent(rowSz)-font.Descent(rowSz))/2
		L.rowLabels = append(L.rowLabels, rowLabel{row: row,
			name: label{at: render.Point{X: L.x0 - 10*s, Y: base}, s: names[row], size: rowSz, align: render.AlignRight},
			time: label{at: render.Point{X: w - pad, Y: base}, s: times[row], size: rowSz, align: render.AlignRight}})
	}
	if r.t > 0 {
		r.layPill(L)
	}
	return L
}

// layFull places the boxes of the full drawing: rows of boxes with room for
// the butterfly's arrows between them, and a band before the redundant
// exchanges for their label.
func (r *Run) layFull(L *layout) {
	s, fs := L.s, L.fs
	band := 0.0
	if r.t > 0 {
		band = 1.6 * fs
	}
	// plotH = rows·boxH + (rows-1)·gap + band with boxH = 0.58 pitch.
	pitch := (L.y1 - L.y0 - band) / (float64(r.rows) - 0.42)
	boxH := min(0.58*pitch, 3*fs)
	gap := (L.y1 - L.y0 - band - float64(r.rows)*boxH) / float64(max(r.rows-1, 1))
	L.boxH = boxH
	y := L.y0
	for row := range r.rows {
		L.rowY[row] = y
		y += boxH + gap
		if row == r.k {
			y += band
			L.sepY = L.rowY[row] + boxH + (gap+band)/2
		}
	}
	L.boxW = max(min(0.74*L.pw, 10*fs), min(L.pw-2*s, 2))
	L.lineW = s * min(max(L.pw/50, 0.6), 1)

	// The text of every box: the partial sum's formula for small P, the
	// value where only that fits, nothing where nothing fits. One size for
	// all boxes: the largest at which any box shows a formula, else the
	// largest at which any shows its value.
	L.boxText = make([][]string, r.rows*r.n)
	avail := L.boxW - 6*s
	best := -1
	for _, sz := range []float64{fs, max(0.93*fs, minBoxText), max(0.85*fs, minBoxText)} {
		lineH := boxLineH(sz)
		maxLines := 1 + int((boxH-2*s-sz)/lineH)
		if maxLines < 1 || font.Width("1", sz, false) > avail {
			continue
		}
		texts := make([][]string, r.rows*r.n)
		score := 0 // 2 for any formula shown, 1 for values only
		for row := range r.rows {
			for i := range r.n {
				t := r.fitBox(row, i, sz, avail, maxLines)
				texts[row*r.n+i] = t
				if len(t) > 0 {
					score = max(score, 1)
					if strings.HasPrefix(t[0], "x") {
						score = 2
					}
				}
			}
		}
		if score > best {
			best = score
			L.boxText, L.boxTextSz, L.boxLineH = texts, sz, lineH
		}
		if score == 2 {
			break
		}
	}
}

// boxLineH is the line spacing of the text in boxes.
func boxLineH(size float64) float64 { return 1.15 * size }

// boxCap is the height of digits and capitals above the baseline, which
// is what looks centred in a box (the font's ascent leaves room for
// accents the box text never has).
func boxCap(size float64) float64 { return 0.72 * size }

// formulas returns the partial sum of row's box of i as a formula, long
// form first ("x0+x1+x2+x3", then "x0+…+x3").
func (r *Run) formulas(row, i int) []string {
	lo, size := r.group(row, i)
	if size == 1 {
		return []string{fmt.Sprintf("x%d", lo)}
	}
	var out []string
	if size <= 4 {
		parts := make([]string, size)
		for j := range parts {
			parts[j] = fmt.Sprintf("x%d", lo+j)
		}
		out = append(out, strings.Join(parts, "+"))
	}
	return append(out, fmt.Sprintf("x%d..x%d", lo, lo+size-1))
}

// fitBox picks the richest text for a box that fits avail pixels wide and
// maxLines lines at size sz: formula and value, then less.
func (r *Run) fitBox(row, i int, sz, avail float64, maxLines int) []string {
	v := fmt.Sprint(r.sum(row, i))
	var cands [][]string
	from := ""
	if m := r.adopted[row*r.n+i]; m >= 0 {
		from = fmt.Sprintf("from P%d", r.msgs[m].from)
	}
	// An adopted copy's source says more than the formula, which in the
	// redundant rows is the same in every box.
	fs := r.formulas(row, i)
	if from != "" {
		for _, f := range fs {
			cands = append(cands, []string{f, "= " + v, from}, []string{f + " = " + v, from})
		}
		cands = append(cands, []string{v, from}, []string{v + " " + strings.Replace(from, "from ", "← ", 1)})
	}
	for _, f := range fs {
		cands = append(cands, []string{f, "= " + v}, []string{f + " = " + v})
	}
	cands = append(cands, []string{v})
	for _, c := range cands {
		if len(c) > maxLines {
			continue
		}
		ok := true
		for _, line := range c {
			if font.Width(line, sz, false) > avail {
				ok = false
				break
			}
		}
		if ok {
			return c
		}
	}
	return nil
}

// layStrip places the heat-strip: one grid, a row per stage and exchange
// and an empty row between them for the redundant exchanges' label, a
// column per process or per power-of-two bin of processes so that no cell
// is narrower than a pixel.
func (r *Run) layStrip(L *layout) {
	cols := r.n
	for cols > 1 && float64(cols) > L.x1-L.x0 {
		cols /= 2
	}
	L.cols, L.bin = cols, r.n/cols
	L.gridRows = r.rows
	if r.t > 0 {
		L.gridRows++
	}
	L.gridRow = make([]int, r.rows)
	L.cellH = (L.y1 - L.y0) / float64(L.gridRows)
	L.cellW = (L.x1 - L.x0) / float64(cols)
	for row := range r.rows {
		g := row
		if row > r.k {
			g++
		}
		L.gridRow[row] = g
		L.rowY[row] = L.y0 + float64(g)*L.cellH
	}
	L.boxH = L.cellH
	L.boxW = L.cellW
	L.gridMin = render.Point{X: L.x0, Y: L.y0}
	L.gridMax = render.Point{X: L.x1, Y: L.y1}
	if r.t > 0 {
		L.sepY = L.y0 + (float64(r.k)+1.5)*L.cellH
	}
}

// layPill places the "redundant exchanges" label on the separator.
func (r *Run) layPill(L *layout) {
	s := L.s
	sz := L.fs
	if L.strip {
		sz = min(sz, L.cellH*0.9)
	}
	txt := "redundant exchanges"
	tw := font.Width(txt, sz, true)
	x := L.pad
	if x+tw+12*s > L.w-L.pad {
		return
	}
	half := textH(sz)/2 + 2*s
	L.pill = [2]render.Point{{X: x, Y: L.sepY - half}, {X: x + tw + 12*s, Y: L.sepY + half}}
	L.pillLabel = label{at: render.Point{X: x + 6*s, Y: L.sepY + (font.Ascent(sz)-font.Descent(sz))/2}, s: txt, size: sz, bold: true}
}

// layTicks puts time ticks under the colour bar: a 1-2-5 step that leaves
// room between the labels.
func (r *Run) layTicks(L *layout, y float64) {
	c := r.res.ByT[0]
	if !(c > 0) {
		return
	}
	width := L.x1 - L.x0
	widest := font.Width(scene.Seconds(c), L.fs, false) + 16*L.s
	nmax := max(1, int(width/widest))
	step := niceStep(c, nmax)
	for i := 0; ; i++ {
		x := float64(i) * step
		if x > c*(1+1e-9) {
			break
		}
		// Labels at 1-2-5 steps print exactly, except for float noise.
		x = math.Round(x/step) * step
		px := L.x0 + width*x/c
		lab := label{at: render.Point{X: px, Y: y}, s: scene.Seconds(x), size: L.fs, align: render.AlignCenter}
		if i == 0 {
			lab.s = "0"
		}
		hw := font.Width(lab.s, L.fs, false) / 2
		if px+hw > L.w-L.pad {
			lab.align, lab.at.X = render.AlignRight, L.w-L.pad
		}
		L.ticks = append(L.ticks, lab)
		L.tickX = append(L.tickX, px)
	}
}

// niceStep is the smallest step of the form {1, 2, 5}·10^e that cuts
// [0, span] into at most n intervals.
func niceStep(span float64, n int) float64 {
	raw := span / float64(n)
	e := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*e >= raw*(1-1e-12) {
			return m * e
		}
	}
	return 10 * e
}

// legendItems lays the legend out along the bottom edge, wrapping lines.
func (r *Run) legendItems(L *layout) []legendItem {
	type entry struct {
		k legendKind
		s string
	}
	var es []entry
	es = append(es, entry{legPending, "pending"}, entry{legStall, "OS-jitter stall"})
	if !L.strip {
		es = append(es, entry{legMessage, "message"}, entry{legNoise, "network noise"})
		if r.t > 0 {
			es = append(es, entry{legRedundant, "redundant copy"}, entry{legAdopted, "adopted copy"})
		}
	}
	es = append(es, entry{legCritical, "last to finish"})

	s, fs := L.s, L.fs
	sw := 22 * s
	lineH := textH(fs) * 1.35
	var out []legendItem
	x, line := L.pad, 0
	for _, e := range es {
		wid := sw + 5*s + font.Width(e.s, fs, false)
		if x > L.pad && x+wid > L.w-L.pad {
			x, line = L.pad, line+1
		}
		out = append(out, legendItem{kind: e.k, text: label{at: render.Point{X: x + sw + 5*s, Y: float64(line)}, s: e.s, size: fs}})
		out[len(out)-1].swatch = [2]render.Point{{X: x, Y: float64(line)}, {X: x + sw, Y: float64(line)}}
		x += wid + 14*s
	}
	// Now that the number of lines is known, place them above the bottom.
	top := L.h - L.pad - float64(line+1)*lineH
	for i := range out {
		ln := out[i].text.at.Y
		base := top + ln*lineH + font.Ascent(fs)
		out[i].text.at.Y = base
		out[i].swatch[0].Y = base - font.Ascent(fs)*0.85
		out[i].swatch[1].Y = base
	}
	return out
}
