package render

import (
	"image"
	"image/color"
	"math"
	"testing"
)

var (
	ink   = color.RGBA{20, 20, 20, 255}
	paper = color.RGBA{255, 255, 255, 255}
	size  = image.Pt(400, 300)
)

func box(x, y float64) Rect {
	return Rect{Min: Point{x, y}, Max: Point{x + 10, y + 10}, Style: Style{Fill: ink}}
}

func list(items ...Item) List { return List{W: 400, H: 300, Background: paper, Items: items} }

// covers reports whether the union of regions holds r.
func covers(regions []image.Rectangle, r image.Rectangle) bool {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			in := false
			for _, q := range regions {
				if image.Pt(x, y).In(q) {
					in = true
					break
				}
			}
			if !in {
				return false
			}
		}
	}
	return true
}

func TestDamageFirstAndUnchanged(t *testing.T) {
	var d Damage
	l := list(box(10, 10), box(100, 100))
	if regions, full := d.Next(l, 1, size); !full || regions != nil {
		t.Fatalf("first list: %v, full %v; want a full paint", regions, full)
	}
	same := list(box(10, 10), box(100, 100)) // equal items, new slices
	if regions, full := d.Next(same, 1, size); full || len(regions) != 0 {
		t.Fatalf("same list again: %v, full %v; want nothing to repaint", regions, full)
	}
	if got, want := d.Bounds(1), ItemBounds(box(100, 100), 1); got != want {
		t.Errorf("Bounds(1) = %v, want %v", got, want)
	}
}

func TestDamageChangedInsertedRemoved(t *testing.T) {
	a, b, c := box(10, 10), box(100, 100), box(300, 200)
	moved := box(200, 20)
	recoloured := b
	recoloured.Fill = color.RGBA{200, 0, 0, 255}
	for _, tc := range []struct {
		name        string
		from, to    List
		must, clean []Item // bounds that must be repainted; that must not
	}{
		{"moved", list(a, b, c), list(a, moved, c), []Item{b, moved}, []Item{a, c}},
		{"recoloured", list(a, b, c), list(a, recoloured, c), []Item{b}, []Item{a, c}},
		{"inserted", list(a, c), list(a, b, c), []Item{b}, []Item{a, c}},
		{"removed", list(a, b, c), list(a, c), []Item{b}, []Item{a, c}},
		{"raised", list(a, b, c), list(b, c, a), []Item{a}, []Item{c}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d Damage
			d.Next(tc.from, 1, size)
			regions, full := d.Next(tc.to, 1, size)
			if full {
				t.Fatal("full repaint for a small change")
			}
			for _, it := range tc.must {
				if r := ItemBounds(it, 1).Intersect(image.Rectangle{Max: size}); !covers(regions, r) {
					t.Errorf("regions %v miss %v", regions, r)
				}
			}
			for _, it := range tc.clean {
				for _, q := range regions {
					if q.Overlaps(ItemBounds(it, 1)) {
						t.Errorf("region %v repaints the unchanged %v", q, it)
					}
				}
			}
			checkDisjoint(t, regions)
		})
	}
}

// Overlapping items that swap places change the picture where they overlap
// although every item is still there.
func TestDamageOrderSwap(t *testing.T) {
	a, b := box(10, 10), box(15, 15)
	b.Fill = color.RGBA{0, 0, 200, 255}
	var d Damage
	d.Next(list(a, b), 1, size)
	regions, full := d.Next(list(b, a), 1, size)
	overlap := ItemBounds(a, 1).Intersect(ItemBounds(b, 1))
	if !full && !covers(regions, overlap) {
		t.Errorf("swapping two overlapping boxes repaints %v, which misses their overlap %v", regions, overlap)
	}
}

func TestDamageFullRepaints(t *testing.T) {
	l := list(box(10, 10))
	for _, tc := range []struct {
		name  string
		l     List
		scale float64
		size  image.Point
	}{
		{"new size", l, 1, image.Pt(401, 300)},
		{"new scale", l, 2, size},
		{"new background", List{W: 400, H: 300, Background: ink, Items: l.Items}, 1, size},
		{"most of the surface", list(Rect{Max: Point{400, 300}, Style: Style{Fill: ink}}), 1, size},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d Damage
			d.Next(l, 1, size)
			if regions, full := d.Next(tc.l, tc.scale, tc.size); !full {
				t.Errorf("%v, not a full repaint", regions)
			}
		})
	}
	t.Run("Reset", func(t *testing.T) {
		var d Damage
		d.Next(l, 1, size)
		d.Reset()
		if _, full := d.Next(l, 1, size); !full {
			t.Error("the list after Reset is not a full repaint")
		}
	})
	t.Run("every item changed", func(t *testing.T) {
		var a, b []Item
		for i := range 300 {
			bx := box(float64(i%20)*20, float64(i/20)*20)
			a = append(a, bx)
			bx.Fill = color.RGBA{0, 0, 200, 255}
			b = append(b, bx)
		}
		var d Damage
		d.Next(list(a...), 1, size)
		if regions, full := d.Next(list(b...), 1, size); !full {
			t.Errorf("every box recoloured: %d regions, not a full repaint", len(regions))
		}
	})
}

// Many small scattered changes come back as at most maxRegions disjoint
// regions inside the surface that still cover every change.
func TestDamageRegionsBounded(t *testing.T) {
	var a, b []Item
	for i := range 60 {
		x, y := float64(i%10)*40, float64(i/10)*50
		a = append(a, box(x, y))
		c := box(x, y)
		c.Fill = color.RGBA{0, 150, 0, 255}
		b = append(b, c)
	}
	big := image.Pt(4000, 3000) // changes are a small part of it
	var d Damage
	d.Next(list(a...), 1, big)
	regions, full := d.Next(list(b...), 1, big)
	if full || len(regions) == 0 || len(regions) > maxRegions {
		t.Fatalf("%d regions, full %v; want 1 to %d", len(regions), full, maxRegions)
	}
	for _, it := range b {
		if r := ItemBounds(it, 1).Intersect(image.Rectangle{Max: big}); !covers(regions, r) {
			t.Errorf("regions miss %v", r)
		}
	}
	checkDisjoint(t, regions)
	for _, r := range regions {
		if !r.In(image.Rectangle{Max: big}) {
			t.Errorf("region %v outside the surface", r)
		}
	}
}

func checkDisjoint(t *testing.T, regions []image.Rectangle) {
	t.Helper()
	for i, a := range regions {
		for _, b := range regions[i+1:] {
			if a.Overlaps(b) {
				t.Errorf("regions %v and %v overlap", a, b)
			}
		}
	}
}

func TestItemBounds(t *testing.T) {
	for _, tc := range []struct {
		name  string
		it    Item
		scale float64
		want  image.Rectangle
	}{
		{"filled box", box(10, 20), 1, image.Rect(8, 18, 22, 32)},
		{"outlined box at 2x", Rect{Min: Point{10, 20}, Max: Point{20, 30}, Style: Style{Stroke: ink, Width: 2}}, 2, image.Rect(16, 36, 44, 64)},
		{"line", Line{From: Point{0, 0}, To: Point{100, 0}, Style: Style{Stroke: ink, Width: 3}}, 1, image.Rect(-5, -5, 105, 5)},
		{"circle", Circle{Center: Point{50, 50}, R: 5, Style: Style{Fill: ink}}, 1, image.Rect(43, 43, 57, 57)},
		{"grid", Grid{Min: Point{0, 0}, Max: Point{64, 8}, Cols: 64, Rows: 1, Cells: make([]color.RGBA, 64)}, 1, image.Rect(-2, -2, 66, 10)},
		{"empty text", Text{At: Point{5, 5}}, 1, image.Rectangle{}},
		{"not finite", Line{From: Point{0, 0}, To: Point{X: math.Inf(1)}}, 1, image.Rectangle{}},
	} {
		if got := ItemBounds(tc.it, tc.scale); got != tc.want {
			t.Errorf("%s: ItemBounds = %v, want %v", tc.name, got, tc.want)
		}
	}
	// Text: right-aligned text ends at its anchor, centred straddles it.
	txt := Text{At: Point{200, 100}, S: "t = 1.25 ms", Size: 14}
	for _, align := range []Align{AlignLeft, AlignCenter, AlignRight} {
		txt.Align = align
		b := ItemBounds(txt, 1)
		if !image.Pt(200, 100-10).In(b) || b.Dy() < 14 {
			t.Errorf("align %d: text bounds %v do not hold the anchor's line", align, b)
		}
	}
}

// A polyline that keeps its points but the last and moves that one or
// adds more (a message's trace following the playhead) damages its old
// last segment and its new points from the last shared one on, widened by
// stroke and joins, and not its start; with dashes, a fill, other earlier
// points or WholePolylines it damages its whole bounds, old and new.
func TestDamagePolylineGrowth(t *testing.T) {
	arc := func(n int, head Point) Polyline {
		pl := Polyline{Style: Style{Stroke: ink, Width: 2}}
		for i := range n {
			th := math.Pi * float64(i) / 40
			pl.Points = append(pl.Points, Point{200 - 150*math.Cos(th), 40 + 200*math.Sin(th)})
		}
		pl.Points = append(pl.Points, head)
		return pl
	}
	old := arc(10, Point{150, 150})
	grown := arc(13, Point{160, 170}) // the old points but the head, 3 more, a new head
	other := box(350, 10)
	region := func(pl Polyline, d *Damage) ([]image.Rectangle, bool) {
		d.Next(list(other, pl), 1, size)
		return d.Next(list(other, grown), 1, size)
	}
	var d Damage
	regions, full := region(old, &d)
	if full || len(regions) == 0 {
		t.Fatalf("growth: %v, full %v; want a partial repaint", regions, full)
	}
	// The new points from the last shared one (index 9) on, and the old
	// head's segment, are covered, stroke and antialiasing included.
	tail := ItemBounds(Polyline{Points: grown.Points[9:], Style: grown.Style}, 1)
	oldSeg := ItemBounds(Polyline{Points: old.Points[9:], Style: old.Style}, 1)
	if !covers(regions, tail) || !covers(regions, oldSeg) {
		t.Errorf("growth: regions %v miss the new tail %v or the old head %v", regions, tail, oldSeg)
	}
	start := ItemBounds(Polyline{Points: grown.Points[:3], Style: grown.Style}, 1)
	for _, r := range regions {
		if r.Overlaps(start) {
			t.Errorf("growth: region %v repaints the trace's unchanged start %v", r, start)
		}
	}
	whole := ItemBounds(grown, 1)
	for name, pl := range map[string]Polyline{
		"dashed": func() Polyline { p := old; p.Dash = []float64{4, 2}; return p }(),
		"filled": func() Polyline { p := old; p.Fill = ink; return p }(),
		"moved start": func() Polyline {
			p := old
			p.Points = append([]Point{{51, 40}}, old.Points[1:]...)
			return p
		}(),
	} {
		var d Damage
		regions, full := region(pl, &d)
		if !full && !covers(regions, whole) {
			t.Errorf("%s: regions %v do not cover the whole new polyline %v", name, regions, whole)
		}
	}
	w := Damage{WholePolylines: true}
	if regions, full := region(old, &w); !full && !covers(regions, whole) {
		t.Errorf("WholePolylines: regions %v do not cover the whole new polyline %v", regions, whole)
	}
}
