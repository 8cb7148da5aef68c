package render

import (
	"image/color"
	"math"
	"testing"
)

func near(a, b Point) bool {
	const eps = 1e-9
	return math.Abs(a.X-b.X) <= eps && math.Abs(a.Y-b.Y) <= eps
}

func TestDashes(t *testing.T) {
	a, b := Point{0, 0}, Point{10, 0}
	tests := []struct {
		name string
		dash []float64
		want [][2]Point
	}{
		{"solid", nil, [][2]Point{{{0, 0}, {10, 0}}}},
		{"all zero is solid", []float64{0, 0}, [][2]Point{{{0, 0}, {10, 0}}}},
		{"negative is solid", []float64{3, -1}, [][2]Point{{{0, 0}, {10, 0}}}},
		{"even pattern, last dash cut at the end", []float64{3, 1}, [][2]Point{
			{{0, 0}, {3, 0}}, {{4, 0}, {7, 0}}, {{8, 0}, {10, 0}},
		}},
		// Canvas repeats an odd pattern: [4] means 4 on, 4 off.
		{"odd pattern repeats", []float64{4}, [][2]Point{
			{{0, 0}, {4, 0}}, {{8, 0}, {10, 0}},
		}},
		{"zero-length gap joins dashes", []float64{5, 0}, [][2]Point{
			{{0, 0}, {5, 0}}, {{5, 0}, {10, 0}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Dashes(a, b, tt.dash)
			if len(got) != len(tt.want) {
				t.Fatalf("Dashes(%v) = %v, want %v", tt.dash, got, tt.want)
			}
			for i := range got {
				if !near(got[i][0], tt.want[i][0]) || !near(got[i][1], tt.want[i][1]) {
					t.Fatalf("Dashes(%v) = %v, want %v", tt.dash, got, tt.want)
				}
			}
		})
	}
}

func TestDashesDiagonalKeepsDirection(t *testing.T) {
	// A 3-4-5 triangle: each unit of length moves 0.6 in x and 0.8 in y.
	got := Dashes(Point{0, 0}, Point{6, 8}, []float64{5, 5})
	want := [][2]Point{{{0, 0}, {3, 4}}}
	if len(got) != 1 || !near(got[0][0], want[0][0]) || !near(got[0][1], want[0][1]) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestArrowHead(t *testing.T) {
	a := Arrow{From: Point{0, 0}, To: Point{10, 0}, Head: 4}
	got := a.HeadPoints()
	want := [3]Point{{10, 0}, {6, 2}, {6, -2}}
	for i := range want {
		if !near(got[i], want[i]) {
			t.Fatalf("HeadPoints() = %v, want %v", got, want)
		}
	}
	if s := a.Shaft(); !near(s.From, Point{0, 0}) || !near(s.To, Point{6, 0}) {
		t.Fatalf("Shaft() = %v→%v, want (0,0)→(6,0)", s.From, s.To)
	}
	// Default head: 4*width+4 with width defaulting to 1.
	if h := (Arrow{}).HeadLength(); h != 8 {
		t.Fatalf("default HeadLength() = %v, want 8", h)
	}
	// Degenerate arrows must not produce NaN.
	for _, p := range (Arrow{From: Point{1, 1}, To: Point{1, 1}}).HeadPoints() {
		if p != (Point{1, 1}) {
			t.Fatalf("zero-length arrow head = %v, want all (1,1)", p)
		}
	}
}

func TestListOrderAndTypes(t *testing.T) {
	red := color.RGBA{R: 255, A: 255}
	var l List
	l.Add(Rect{Min: Point{0, 0}, Max: Point{2, 2}, Style: Style{Fill: red}})
	l.Add(Line{To: Point{1, 1}}, Text{S: "p0"})
	kinds := make([]string, len(l.Items))
	for i, it := range l.Items {
		switch it.(type) {
		case Rect:
			kinds[i] = "rect"
		case Line:
			kinds[i] = "line"
		case Text:
			kinds[i] = "text"
		default:
			kinds[i] = "?"
		}
	}
	if got := kinds[0] + "," + kinds[1] + "," + kinds[2]; got != "rect,line,text" {
		t.Fatalf("painting order = %s, want rect,line,text", got)
	}
	if w := (Style{}).StrokeWidth(); w != 1 {
		t.Fatalf("zero Style StrokeWidth() = %v, want 1", w)
	}
}
