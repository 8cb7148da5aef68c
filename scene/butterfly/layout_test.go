package butterfly

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"
	"testing"

	"commlab/render"
	"commlab/render/font"
	"commlab/scene"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
)

var view = scene.View{W: 960, H: 540, Theme: render.Light()}

// rect is an item's bounding box.
type rect struct{ x0, y0, x1, y1 float64 }

func (a rect) inside(b rect, eps float64) bool {
	return a.x0 >= b.x0-eps && a.y0 >= b.y0-eps && a.x1 <= b.x1+eps && a.y1 <= b.y1+eps
}

// bounds is the box an item paints into, strokes and text included.
func bounds(it render.Item) rect {
	grow := func(r rect, d float64) rect { return rect{r.x0 - d, r.y0 - d, r.x1 + d, r.y1 + d} }
	span := func(ps ...render.Point) rect {
		r := rect{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
		for _, p := range ps {
			r = rect{min(r.x0, p.X), min(r.y0, p.Y), max(r.x1, p.X), max(r.y1, p.Y)}
		}
		return r
	}
	switch it := it.(type) {
	case render.Rect:
		r := span(it.Min, it.Max)
		if it.Stroke.A > 0 {
			r = grow(r, it.StrokeWidth()/2)
		}
		return r
	case render.Line:
		return grow(span(it.From, it.To), it.StrokeWidth()/2)
	case render.Polyline:
		return grow(span(it.Points...), it.StrokeWidth()/2)
	case render.Arrow:
		h := it.HeadPoints()
		return grow(span(it.From, it.To, h[1], h[2]), it.StrokeWidth()/2)
	case render.Circle:
		return grow(rect{it.Center.X - it.R, it.Center.Y - it.R, it.Center.X + it.R, it.Center.Y + it.R}, it.StrokeWidth()/2)
	case render.Grid:
		return span(it.Min, it.Max)
	case render.Text:
		return textBounds(it)
	}
	panic(fmt.Sprintf("unknown item %T", it))
}

func textBounds(t render.Text) rect {
	w := font.Width(t.S, t.FontSize(), t.Bold)
	x := t.At.X
	switch t.Align {
	case render.AlignCenter:
		x -= w / 2
	case render.AlignRight:
		x -= w
	}
	return rect{x, t.At.Y - font.Ascent(t.FontSize()), x + w, t.At.Y + font.Descent(t.FontSize())}
}

// TestInsideCanvas: at every size from a slide embed to full HD, in both
// themes, at the start, mid-run and the end, nothing is drawn off the
// canvas.
func TestInsideCanvas(t *testing.T) {
	runs := map[string]*Run{}
	for _, p := range []string{"2", "4", "8", "16", "64", "128", "4096"} {
		tt := "1"
		if p == "64" || p == "4096" {
			tt = "6"
		}
		runs[p] = build(t, jittery(p, tt), 1)
	}
	for _, size := range [][2]float64{{640, 360}, {800, 600}, {960, 540}, {1280, 720}, {1920, 1080}, {400, 800}} {
		for p, run := range runs {
			for _, th := range []render.Theme{render.Light(), render.Dark()} {
				for _, frac := range []float64{0, 0.37, 1} {
					v := scene.View{W: size[0], H: size[1], Theme: th}
					l := run.Frame(frac*run.End(), v)
					canvas := rect{0, 0, v.W, v.H}
					if len(l.Items) < 20 {
						t.Errorf("P=%s %vx%v: only %d items", p, v.W, v.H, len(l.Items))
					}
					for _, it := range l.Items {
						if b := bounds(it); !b.inside(canvas, 0.01) {
							t.Errorf("P=%s %vx%v %s t=%g·End: %T %+v reaches %+v, off the canvas", p, v.W, v.H, th.Name, frac, it, it, b)
							break
						}
					}
				}
			}
		}
	}
}

// boxesOf returns the boxes a frame drew for a full (P ≤ 64) run: the
// rects that sit exactly where the layout puts row r's box of process i.
func boxesOf(t *testing.T, run *Run, l render.List) map[[2]int]render.Rect {
	t.Helper()
	L := run.layoutFor(l.W, l.H)
	f := frame{r: run, L: L}
	want := map[render.Point][2]int{}
	for row := range run.rows {
		for i := range run.n {
			a, _ := f.box(row, i)
			want[a] = [2]int{row, i}
		}
	}
	got := map[[2]int]render.Rect{}
	for _, it := range l.Items {
		r, ok := it.(render.Rect)
		if !ok || r.Fill.A == 0 {
			continue
		}
		if key, ok := want[r.Min]; ok && math.Abs(r.Max.X-r.Min.X-L.boxW) < 1e-9 && math.Abs(r.Max.Y-r.Min.Y-L.boxH) < 1e-9 {
			if _, dup := got[key]; dup {
				t.Errorf("box %v filled twice", key)
			}
			got[key] = r
		}
	}
	return got
}

func TestBoxes(t *testing.T) {
	for _, p := range []int{2, 4, 8} {
		k := int(math.Log2(float64(p)))
		run := build(t, jittery(fmt.Sprint(p), fmt.Sprint(k)), 1)
		for _, tt := range []float64{0, run.End() / 2, run.End()} {
			l := run.Frame(tt, view)
			boxes := boxesOf(t, run, l)
			if want := p * (2*k + 1); len(boxes) != want {
				t.Errorf("P=%d t=%v: %d boxes, want P·(K+1+T) = %d", p, tt, len(boxes), want)
			}
			for key, b := range boxes {
				fin := run.fin[key[0]*p+key[1]]
				heat := view.Theme.HeatAt(run.heat(fin))
				if done := tt >= fin; done != (b.Fill == heat) {
					t.Errorf("P=%d t=%v: box %v (finished at %v) filled %v; want the heat colour %v exactly when finished", p, tt, key, fin, b.Fill, heat)
				}
			}
		}
	}
}

// TestFormulas: with four processes every box has room for the partial
// sum's formula and its value, as in Fig. 1.
func TestFormulas(t *testing.T) {
	run := build(t, jittery("4", "2"), 1)
	l := run.Frame(run.End(), view)
	L := run.layoutFor(view.W, view.H)
	f := frame{r: run, L: L}
	texts := map[[2]int][]string{}
	for _, it := range l.Items {
		tx, ok := it.(render.Text)
		if !ok {
			continue
		}
		for row := range run.rows {
			for i := range 4 {
				a, b := f.box(row, i)
				box := rect{a.X, a.Y, b.X, b.Y}
				if tx.At.X > a.X && tx.At.X < b.X && tx.At.Y > a.Y && tx.At.Y < b.Y {
					texts[[2]int{row, i}] = append(texts[[2]int{row, i}], tx.S)
					tb := textBounds(tx)
					// The font's ascent includes room for accents; the
					// digits and letters the boxes hold stay below
					// boxCap.
					tb.y0 = tx.At.Y - boxCap(tx.Size)
					if !tb.inside(box, 0.01) {
						t.Errorf("text %q %+v overflows box %v %+v", tx.S, tb, [2]int{row, i}, box)
					}
				}
			}
		}
	}
	want := map[[2]int][]string{
		{0, 0}: {"x0", "= 1"}, {0, 1}: {"x1", "= 2"}, {0, 2}: {"x2", "= 3"}, {0, 3}: {"x3", "= 4"},
		{1, 0}: {"x0+x1", "= 3"}, {1, 1}: {"x0+x1", "= 3"}, {1, 2}: {"x2+x3", "= 7"}, {1, 3}: {"x2+x3", "= 7"},
	}
	for i := range 4 {
		want[[2]int{2, i}] = []string{"x0+x1+x2+x3", "= 10"}
	}
	for key, w := range want {
		if !slices.Equal(texts[key], w) {
			t.Errorf("box %v shows %q, want %q", key, texts[key], w)
		}
	}
	// Redundant rows: the total, and where a copy was adopted, its sender.
	for row := 3; row < run.rows; row++ {
		for i := range 4 {
			got := strings.Join(texts[[2]int{row, i}], " ")
			if !strings.Contains(got, "10") {
				t.Errorf("redundant box %v shows %q, want the total 10", [2]int{row, i}, got)
			}
			if m := run.adopted[row*4+i]; m >= 0 && !strings.Contains(got, fmt.Sprintf("P%d", run.msgs[m].from)) {
				t.Errorf("box %v adopted a copy from P%d but shows %q", [2]int{row, i}, run.msgs[m].from, got)
			}
		}
	}
}

// TestInFlight: two processes, no jitter. Both stage-1 messages leave at 0
// and arrive at Tcomm; halfway, each is an arrow from its sender's box to
// halfway down to its partner's box.
func TestInFlight(t *testing.T) {
	run := build(t, values("P", "2", "T", "1", "os_jitter", "0", "net_noise", "0"), 1)
	tcomm := 1e-6 + 8e-9
	l := run.Frame(tcomm/2, view)
	L := run.layoutFor(view.W, view.H)
	f := frame{r: run, L: L}
	var flying []render.Arrow
	for _, it := range l.Items {
		if a, ok := it.(render.Arrow); ok && a.Fill == view.Theme.Butterfly {
			if a.From.Y < L.y1 { // the legend's arrow is below the plot
				flying = append(flying, a)
			}
		}
	}
	if len(flying) != 2 {
		t.Fatalf("%d butterfly arrows in flight, want 2", len(flying))
	}
	for _, a := range flying {
		from := 0
		if math.Abs(a.From.X-f.colX(1)) < 1e-9 {
			from = 1
		}
		_, b0 := f.box(0, from)
		a1, _ := f.box(1, 1-from)
		start := render.Point{X: f.colX(from), Y: b0.Y}
		end := render.Point{X: f.colX(1 - from), Y: a1.Y}
		mid := render.Point{X: (start.X + end.X) / 2, Y: (start.Y + end.Y) / 2}
		if !near(a.From, start) || !near(a.To, mid) {
			t.Errorf("arrow from P%d: %v → %v, want %v → %v", from, a.From, a.To, start, mid)
		}
	}
	// Once arrived they are faint; the redundant copies have just left.
	l = run.Frame(run.fin[2*2]*(1+1e-12), view) // just after stage 1
	copies := 0
	for _, it := range l.Items {
		a, ok := it.(render.Arrow)
		if !ok || a.From.Y > L.y1 || a.Fill.A != 255 {
			continue
		}
		if a.Fill != view.Theme.Redundant {
			t.Errorf("after stage 1 an opaque arrow %+v is drawn; arrived messages are faint", a)
		}
		copies++
	}
	if copies != 2 {
		t.Errorf("after stage 1, %d copies in flight, want 2", copies)
	}
}

func near(a, b render.Point) bool { return math.Abs(a.X-b.X) < 1e-9 && math.Abs(a.Y-b.Y) < 1e-9 }

// TestInFlightCount: at any t the plot holds one opaque arrow per message
// in flight.
func TestInFlightCount(t *testing.T) {
	run := build(t, jittery("8", "3"), 1)
	th := view.Theme
	L := run.layoutFor(view.W, view.H)
	for _, frac := range []float64{0.1, 0.3, 0.5, 0.7} {
		tt := frac * run.End()
		want := 0
		for _, m := range run.msgs {
			if m.send <= tt && tt < m.arrive {
				want++
			}
		}
		got := 0
		for _, it := range run.Frame(tt, view).Items {
			if a, ok := it.(render.Arrow); ok && a.From.Y < L.y1 && slices.Contains([]color.RGBA{th.Butterfly, th.Redundant, th.Noise}, a.Fill) {
				got++
			}
		}
		if got != want || (frac == 0.5 && want == 0) {
			t.Errorf("t = %v: %d arrows in flight, %d messages are", tt, got, want)
		}
	}
}

// TestAdopted: the copy each process adopts is drawn in the adopted colour
// once it has arrived, its receiver's box outlined in that colour; unused
// copies are faint and dashed.
func TestAdopted(t *testing.T) {
	run := build(t, jittery("4", "2"), 1)
	th := view.Theme
	l := run.Frame(run.End(), view)
	f := frame{r: run, L: run.layoutFor(view.W, view.H)}
	boxes := boxesOf(t, run, l)
	adopted, unused := 0, 0
	for _, m := range run.msgs {
		if !m.redundant {
			continue
		}
		// Every box sends one message per row, so the stroke that starts
		// at the bottom of the sender's box is m's.
		_, b0 := f.box(m.row-1, m.from)
		start := render.Point{X: f.colX(m.from), Y: b0.Y}
		var st *render.Style
		for _, it := range l.Items {
			switch it := it.(type) {
			case render.Arrow:
				if near(it.From, start) {
					st = &it.Style
				}
			case render.Line:
				if near(it.From, start) {
					st = &it.Style
				}
			}
		}
		if st == nil {
			t.Errorf("redundant copy P%d→P%d (exchange %d) is not drawn", m.from, m.to, m.row-run.k)
			continue
		}
		box := boxes[[2]int{m.row, m.to}]
		if m.used {
			adopted++
			if st.Stroke != th.Adopted || len(st.Dash) != 0 {
				t.Errorf("adopted copy P%d→P%d drawn %+v, want solid %v", m.from, m.to, *st, th.Adopted)
			}
			if box.Stroke != th.Adopted {
				t.Errorf("P%d adopted a copy in exchange %d but its box is outlined %v", m.to, m.row-run.k, box.Stroke)
			}
		} else {
			unused++
			if st.Stroke.A == 255 || len(st.Dash) == 0 {
				t.Errorf("unused copy P%d→P%d drawn %+v, want faint and dashed", m.from, m.to, *st)
			}
		}
	}
	if adopted == 0 || unused == 0 {
		t.Errorf("%d adopted and %d unused copies: the case should have both", adopted, unused)
	}
	// Before the copy arrives, nothing is highlighted.
	for _, it := range run.Frame(0, view).Items {
		if a, ok := it.(render.Arrow); ok && a.Fill == th.Adopted && a.From.Y < f.L.y1 {
			t.Errorf("at t = 0 an adopted copy is drawn: %+v", a)
		}
	}
}

// TestHeatStrip: beyond 64 processes the rows are one grid, a column per
// process (or per bin of processes when there are more than pixels), a
// row per stage and exchange plus the separator; a cell is pending until
// the last process in it has finished the row, then coloured by that time.
func TestHeatStrip(t *testing.T) {
	for _, c := range []struct {
		p, t      int
		w, h      float64
		cols, bin int
	}{
		{128, 7, 960, 540, 128, 1},
		{128, 0, 640, 360, 128, 1},
		{4096, 12, 960, 540, 512, 8},
		{4096, 12, 1920, 1080, 1024, 4},
	} {
		name := fmt.Sprintf("P=%d,T=%d,%vx%v", c.p, c.t, c.w, c.h)
		t.Run(name, func(t *testing.T) {
			run := build(t, values("P", fmt.Sprint(c.p), "T", fmt.Sprint(c.t)), 1)
			v := scene.View{W: c.w, H: c.h, Theme: render.Dark()}
			tt := run.res.StageEnd[3]
			l := run.Frame(tt, v)
			var grids []render.Grid
			for _, it := range l.Items {
				if g, ok := it.(render.Grid); ok && g.Rows > 1 {
					grids = append(grids, g)
				}
				if _, ok := it.(render.Arrow); ok {
					t.Errorf("the heat-strip draws no messages, got %+v", it)
				}
			}
			if len(grids) != 1 {
				t.Fatalf("%d multi-row grids, want the one heat-strip", len(grids))
			}
			g := grids[0]
			rows := run.k + 1 + c.t
			if c.t > 0 {
				rows++ // the separator before the redundant exchanges
			}
			if g.Cols != c.cols || g.Rows != rows || len(g.Cells) != g.Cols*g.Rows {
				t.Fatalf("grid %dx%d with %d cells, want %dx%d", g.Cols, g.Rows, len(g.Cells), c.cols, rows)
			}
			if px := g.Max.X - g.Min.X; float64(g.Cols) > px || float64(2*g.Cols) <= px && g.Cols < c.p {
				t.Errorf("%d columns over %v pixels: want the largest power of two that fits", g.Cols, px)
			}
			L := run.layoutFor(v.W, v.H)
			for row := range run.rows {
				for col := range g.Cols {
					fin := slices.Max(run.fin[row*c.p+col*c.bin : row*c.p+(col+1)*c.bin])
					got := g.Cells[L.gridRow[row]*g.Cols+col]
					switch {
					case tt >= fin:
						if want := v.Theme.HeatAt(run.heat(fin)); got != want {
							t.Fatalf("row %d cell %d finished at %v: %v, want %v", row, col, fin, got, want)
						}
					case got != v.Theme.Idle && got != v.Theme.Stall:
						t.Fatalf("row %d cell %d pending until %v shows %v", row, col, fin, got)
					}
				}
			}
			if c.t > 0 {
				for col := range g.Cols {
					if g.Cells[(run.k+1)*g.Cols+col].A != 0 {
						t.Fatal("the separator row is painted")
					}
				}
			}
		})
	}
}

// TestStallShown: a process held by an OS-jitter window during a stage is
// hatched in the stall colour while the window lasts.
func TestStallShown(t *testing.T) {
	run := build(t, jittery("4", "2"), 1)
	if len(run.stalls) == 0 {
		t.Fatal("the case has no OS-jitter stall")
	}
	st := run.stalls[0]
	tt := (st.start + st.end) / 2
	l := run.Frame(tt, view)
	f := frame{r: run, L: run.layoutFor(view.W, view.H)}
	a, b := f.box(st.row, st.lane)
	hatch, edge := 0, false
	for _, it := range l.Items {
		switch it := it.(type) {
		case render.Line:
			if it.Stroke == view.Theme.Stall && (rect{it.From.X, it.From.Y, it.From.X, it.From.Y}).inside(rect{a.X, a.Y, b.X, b.Y}, 1e-9) {
				hatch++
			}
		case render.Rect:
			if it.Min == a && it.Max == b && it.Stroke == view.Theme.Stall {
				edge = true
			}
		}
	}
	if hatch < 3 || !edge {
		t.Errorf("P%d stalled in stage %d at t = %v: %d hatch strokes, stall edge %v", st.lane, st.row, tt, hatch, edge)
	}
}

// TestTinyViews: sizes too small to lay anything out give the background,
// never a panic; odd playheads are harmless.
func TestTinyViews(t *testing.T) {
	run := build(t, jittery("8", "3"), 1)
	for _, v := range []scene.View{{W: 0, H: 0}, {W: 100, H: 50}, {W: math.NaN(), H: 540}, {W: math.Inf(1), H: 540}, {W: 300, H: 170}} {
		v.Theme = render.Light()
		for _, tt := range []float64{math.NaN(), -1, 0, run.End() * 2} {
			l := run.Frame(tt, v)
			if l.Background != v.Theme.Background {
				t.Errorf("%vx%v: background %v", v.W, v.H, l.Background)
			}
		}
	}
}

// TestGlyphs: every character the scene writes is in the Go fonts, so no
// backend draws a missing-glyph box.
func TestGlyphs(t *testing.T) {
	var fonts [2]*sfnt.Font
	for i, ttf := range [][]byte{goregular.TTF, gobold.TTF} {
		f, err := sfnt.Parse(ttf)
		if err != nil {
			t.Fatal(err)
		}
		fonts[i] = f
	}
	var buf sfnt.Buffer
	for _, v := range []scene.Values{jittery("4", "2"), jittery("8", "3"), values("P", "4096")} {
		run := build(t, v, 1)
		for _, frac := range []float64{0.5, 1} {
			for _, it := range run.Frame(frac*run.End(), view).Items {
				tx, ok := it.(render.Text)
				if !ok {
					continue
				}
				f := fonts[0]
				if tx.Bold {
					f = fonts[1]
				}
				for _, r := range tx.S {
					if g, err := f.GlyphIndex(&buf, r); err != nil || g == 0 {
						t.Errorf("%q: no glyph for %q", tx.S, r)
					}
				}
			}
		}
	}
}
