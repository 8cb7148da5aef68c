package raster

import (
	"image"
	"image/color"
	"math"
	"testing"

	"commlab/render"
	"commlab/render/font"
)

var (
	white = color.RGBA{0xff, 0xff, 0xff, 0xff}
	red   = color.RGBA{0xff, 0x00, 0x00, 0xff}
	blue  = color.RGBA{0x00, 0x00, 0xff, 0xff}
)

func pt(x, y float64) render.Point { return render.Point{X: x, Y: y} }

// paint draws items on a w x h white list at scale.
func paint(w, h, scale float64, items ...render.Item) *image.RGBA {
	return Image(render.List{W: w, H: h, Background: white, Items: items}, scale)
}

// ascii shows an image as rows of characters, for readable failures:
// '.' background white, '#' exactly c, '+' anything else.
func ascii(img *image.RGBA, c color.RGBA) []string {
	var rows []string
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := make([]byte, 0, b.Dx())
		for x := b.Min.X; x < b.Max.X; x++ {
			switch img.RGBAAt(x, y) {
			case white:
				row = append(row, '.')
			case c:
				row = append(row, '#')
			default:
				row = append(row, '+')
			}
		}
		rows = append(rows, string(row))
	}
	return rows
}

func checkASCII(t *testing.T, img *image.RGBA, c color.RGBA, want []string) {
	t.Helper()
	got := ascii(img, c)
	if len(got) != len(want) {
		t.Fatalf("image has %d rows, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("got:\n%s\nwant:\n%s", join(got), join(want))
			return
		}
	}
}

func join(rows []string) string {
	s := ""
	for _, r := range rows {
		s += "  " + r + "\n"
	}
	return s
}

func TestImageSize(t *testing.T) {
	for _, tt := range []struct {
		w, h, scale float64
		want        image.Point
	}{
		{960, 540, 1, image.Pt(960, 540)},
		{960, 540, 2, image.Pt(1920, 1080)},
		{100.2, 50.5, 1, image.Pt(101, 51)},
		{10, 10, 1.25, image.Pt(13, 13)},
		{960, 540, 0.5, image.Pt(480, 270)},
	} {
		if got := paint(tt.w, tt.h, tt.scale).Bounds().Size(); got != tt.want {
			t.Errorf("Image(%vx%v at %v) is %v, want %v", tt.w, tt.h, tt.scale, got, tt.want)
		}
	}
}

func TestBoundsRejects(t *testing.T) {
	for _, tt := range []struct{ w, h, scale float64 }{
		{0, 10, 1}, {10, -1, 1}, {math.NaN(), 10, 1}, {10, 10, 0}, {10, 10, -2},
		{10, 10, math.Inf(1)}, {10, 10, math.NaN()}, {20000, 10, 1}, {9000, 10, 2},
	} {
		l := render.List{W: tt.w, H: tt.h}
		if _, err := Bounds(l, tt.scale); err == nil {
			t.Errorf("Bounds(%vx%v at %v) accepted", tt.w, tt.h, tt.scale)
		}
		if got := Image(l, tt.scale).Bounds(); !got.Empty() {
			t.Errorf("Image(%vx%v at %v) is %v, want empty", tt.w, tt.h, tt.scale, got)
		}
	}
}

func TestFilledRectCoversExactlyItsPixels(t *testing.T) {
	img := paint(8, 6, 1, render.Rect{Min: pt(2, 1), Max: pt(6, 4), Style: render.Style{Fill: red}})
	checkASCII(t, img, red, []string{
		"........",
		"..####..",
		"..####..",
		"..####..",
		"........",
		"........",
	})
	// At scale 2 every scene pixel is a 2x2 block.
	img = paint(4, 3, 2, render.Rect{Min: pt(1, 1), Max: pt(3, 2), Style: render.Style{Fill: red}})
	checkASCII(t, img, red, []string{
		"........",
		"........",
		"..####..",
		"..####..",
		"........",
		"........",
	})
	// Min and Max given the wrong way round name the same rectangle.
	if a, b := paint(8, 6, 1, render.Rect{Min: pt(6, 4), Max: pt(2, 1), Style: render.Style{Fill: red}}),
		paint(8, 6, 1, render.Rect{Min: pt(2, 1), Max: pt(6, 4), Style: render.Style{Fill: red}}); string(a.Pix) != string(b.Pix) {
		t.Error("a rectangle with Min and Max swapped paints differently")
	}
}

func TestHalfPixelEdgesBlendByCoverage(t *testing.T) {
	// A rect from x=1.5 covers half of column 1: the blend of red over
	// white at half coverage, within a level of rounding.
	img := paint(4, 1, 1, render.Rect{Min: pt(1.5, 0), Max: pt(3, 1), Style: render.Style{Fill: red}})
	if got := img.RGBAAt(2, 0); got != red {
		t.Errorf("fully covered pixel is %v, want %v", got, red)
	}
	got := img.RGBAAt(1, 0)
	if got.R != 0xff || got.A != 0xff || math.Abs(float64(got.G)-127.5) > 1.5 || got.G != got.B {
		t.Errorf("half covered pixel is %v, want about {255 128 128 255}", got)
	}
}

func TestTranslucentFillIsSourceOver(t *testing.T) {
	// 40% blue over white: premultiplied source plus 60% of the white.
	half := render.Fade(blue, 0.4) // {0 0 102 102}
	img := paint(2, 2, 1, render.Rect{Min: pt(0, 0), Max: pt(2, 2), Style: render.Style{Fill: half}})
	want := color.RGBA{153, 153, 255, 255}
	for _, p := range []image.Point{{0, 0}, {1, 1}} {
		if got := img.RGBAAt(p.X, p.Y); !near8(got, want, 1) {
			t.Errorf("pixel %v = %v, want %v", p, got, want)
		}
	}
	// Over a transparent background the result stays premultiplied.
	img = Image(render.List{W: 1, H: 1, Items: []render.Item{render.Rect{Max: pt(1, 1), Style: render.Style{Fill: half}}}}, 1)
	if got := img.RGBAAt(0, 0); !near8(got, half, 1) {
		t.Errorf("over transparent = %v, want %v", got, half)
	}
}

func near8(a, b color.RGBA, tol int) bool {
	d := func(x, y uint8) bool { return int(x)-int(y) <= tol && int(y)-int(x) <= tol }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B) && d(a.A, b.A)
}

func TestLineHasButtEndsAndWidth(t *testing.T) {
	img := paint(10, 5, 1, render.Line{From: pt(2, 2), To: pt(8, 2), Style: render.Style{Stroke: red, Width: 2}})
	checkASCII(t, img, red, []string{
		"..........",
		"..######..",
		"..######..",
		"..........",
		"..........",
	})
	// Width 0 means 1: a hairline on a pixel row's centre fills that row.
	img = paint(6, 3, 1, render.Line{From: pt(1, 1.5), To: pt(5, 1.5), Style: render.Style{Stroke: red}})
	checkASCII(t, img, red, []string{
		"......",
		".####.",
		"......",
	})
}

func TestDashesAsRenderCutsThem(t *testing.T) {
	// Dash 2 on, 1 off from x=0: pieces [0,2] [3,5] [6,8] [9,10].
	img := paint(10, 3, 1, render.Line{From: pt(0, 1.5), To: pt(10, 1.5), Style: render.Style{Stroke: red, Dash: []float64{2, 1}}})
	checkASCII(t, img, red, []string{
		"..........",
		"##.##.##.#",
		"..........",
	})
	// At scale 2 the pattern and the width scale with the picture.
	img = paint(5, 1, 2, render.Line{From: pt(0, 0.5), To: pt(5, 0.5), Style: render.Style{Stroke: red, Dash: []float64{2, 1}}})
	checkASCII(t, img, red, []string{
		"####..####",
		"####..####",
	})
}

func TestRectStrokeIsCentredWithSquareCorners(t *testing.T) {
	// Width 2 around the box (2,2)-(7,6): the ring from (1,1) to (8,7)
	// minus (3,3)-(6,5).
	img := paint(9, 8, 1, render.Rect{Min: pt(2, 2), Max: pt(7, 6), Style: render.Style{Stroke: red, Width: 2}})
	want := []string{
		".........",
		".#######.",
		".#######.",
		".##...##.",
		".##...##.",
		".#######.",
		".#######.",
		".........",
	}
	checkASCII(t, img, red, want)
	// Dashed with a pattern longer than every edge: each edge restarts the
	// pattern and is drawn whole, and corners stay square.
	img = paint(9, 8, 1, render.Rect{Min: pt(2, 2), Max: pt(7, 6), Style: render.Style{Stroke: red, Width: 2, Dash: []float64{50, 1}}})
	checkASCII(t, img, red, want)
	// Fill under stroke: the fill shows only inside the ring.
	img = paint(9, 8, 1, render.Rect{Min: pt(2, 2), Max: pt(7, 6), Style: render.Style{Fill: blue, Stroke: red, Width: 2}})
	if got := img.RGBAAt(4, 4); got != blue {
		t.Errorf("inside = %v, want the fill %v", got, blue)
	}
	if got := img.RGBAAt(2, 2); got != red {
		t.Errorf("on the outline = %v, want the stroke %v", got, red)
	}
}

func TestPolylineJoinsWithoutGap(t *testing.T) {
	// An L of width 2: down column 2, then along row 6. The outer corner
	// pixel (1,7) must be filled (a miter), and nothing else beyond.
	img := paint(8, 9, 1, render.Polyline{Points: []render.Point{pt(2, 1), pt(2, 7), pt(7, 7)}, Style: render.Style{Stroke: red, Width: 2}})
	checkASCII(t, img, red, []string{
		"........",
		".##.....",
		".##.....",
		".##.....",
		".##.....",
		".##.....",
		".######.",
		".######.",
		"........",
	})
}

func TestCircleArea(t *testing.T) {
	// The coverage of a filled circle adds up to its area.
	img := paint(40, 40, 1, render.Circle{Center: pt(20, 20), R: 12.5, Style: render.Style{Fill: color.RGBA{A: 0xff}}})
	area := 0.0
	for i := 0; i < len(img.Pix); i += 4 {
		area += 1 - float64(img.Pix[i])/255
	}
	if want := math.Pi * 12.5 * 12.5; math.Abs(area-want) > 0.01*want {
		t.Errorf("circle area %.1f px, want %.1f", area, want)
	}
	// A stroked circle is a ring: its centre stays background.
	img = paint(40, 40, 1, render.Circle{Center: pt(20, 20), R: 12.5, Style: render.Style{Stroke: red, Width: 3}})
	if got := img.RGBAAt(20, 20); got != white {
		t.Errorf("ring centre = %v, want background", got)
	}
	if got := img.RGBAAt(32, 20); got != red {
		t.Errorf("ring at radius 12.5 = %v, want %v", got, red)
	}
	// Dashed: the pattern starts at three o'clock going clockwise (y down),
	// so just below the start there is ink and just above there is a gap.
	img = paint(40, 40, 1, render.Circle{Center: pt(20, 20), R: 12.5, Style: render.Style{Stroke: red, Width: 3, Dash: []float64{10, 30}}})
	if got := img.RGBAAt(32, 22); got != red {
		t.Errorf("dashed ring just clockwise of the start = %v, want ink", got)
	}
	if got := img.RGBAAt(32, 17); got != white {
		t.Errorf("dashed ring just anticlockwise of the start = %v, want a gap", got)
	}
}

func TestArrowHead(t *testing.T) {
	// A horizontal arrow to x=20 with a 6 px head: the head is a triangle
	// from x=14 (6 wide at its base) to the tip; the shaft stops at its base.
	a := render.Arrow{From: pt(2, 10.5), To: pt(20, 10.5), Head: 6, Style: render.Style{Stroke: red, Fill: blue, Width: 1}}
	img := paint(24, 20, 1, a)
	if got := img.RGBAAt(15, 10); got != blue {
		t.Errorf("head base centre = %v, want the fill %v", got, blue)
	}
	if got := img.RGBAAt(10, 10); got != red {
		t.Errorf("shaft = %v, want the stroke %v", got, red)
	}
	if got := img.RGBAAt(21, 10); got != white {
		t.Errorf("beyond the tip = %v, want background", got)
	}
	if got := img.RGBAAt(15, 13); got != white {
		t.Errorf("outside the head = %v, want background", got)
	}
	// Only the fill paints the head.
	a.Fill = color.RGBA{}
	img = paint(24, 20, 1, a)
	if got := img.RGBAAt(15, 10); got != white {
		t.Errorf("head without fill = %v, want background", got)
	}
}

func TestGridCellsLandWhereTheyShould(t *testing.T) {
	g := render.Grid{Min: pt(1, 1), Max: pt(5, 3), Cols: 2, Rows: 2, Cells: []color.RGBA{red, blue, blue, {}}}
	img := paint(6, 4, 1, g)
	checkASCII(t, img, red, []string{
		"......",
		".##++.",
		".++...",
		"......",
	})
	if got := img.RGBAAt(3, 1); got != blue {
		t.Errorf("cell (1,0) = %v, want %v", got, blue)
	}
	// At scale 2 each cell is 4x2 device pixels, still sharp.
	img = paint(6, 4, 2, g)
	for _, c := range []struct {
		x, y int
		want color.RGBA
	}{{2, 2, red}, {5, 3, red}, {6, 2, blue}, {9, 3, blue}, {2, 4, blue}, {5, 5, blue}, {6, 4, white}, {10, 2, white}, {1, 2, white}} {
		if got := img.RGBAAt(c.x, c.y); got != c.want {
			t.Errorf("scale 2: pixel (%d,%d) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
	// Fractional bounds: a pixel takes the cell under its centre, with no
	// blending. Three cells over x in [0.4, 3.4): centres 0.5..2.5 fall in
	// cells 0, 1, 2; the centre 3.5 is past the end.
	g = render.Grid{Min: pt(0.4, 0), Max: pt(3.4, 1), Cols: 3, Rows: 1, Cells: []color.RGBA{red, blue, red}}
	img = paint(4, 1, 1, g)
	for x, want := range []color.RGBA{red, blue, red, white} {
		if got := img.RGBAAt(x, 0); got != want {
			t.Errorf("fractional grid: pixel %d = %v, want %v", x, got, want)
		}
	}
	// A malformed grid (cells missing) paints nothing.
	img = paint(4, 1, 1, render.Grid{Min: pt(0, 0), Max: pt(4, 1), Cols: 3, Rows: 1, Cells: []color.RGBA{red}})
	if got := img.RGBAAt(0, 0); got != white {
		t.Errorf("malformed grid painted %v", got)
	}
}

func TestTextInkInsideMeasuredBox(t *testing.T) {
	const s, size = "P64 stage", 16.0
	for _, scale := range []float64{1, 2} {
		for _, tt := range []struct {
			align render.Align
			bold  bool
			left  float64 // where the text starts, given the anchor at x=100
		}{
			{render.AlignLeft, false, 100},
			{render.AlignCenter, false, 100 - font.Width(s, size, false)/2},
			{render.AlignRight, true, 100 - font.Width(s, size, true)},
		} {
			img := paint(200, 40, scale, render.Text{At: pt(100, 25), S: s, Size: size, Align: tt.align, Bold: tt.bold, Color: blue})
			ink := image.Rectangle{}
			for y := 0; y < img.Bounds().Dy(); y++ {
				for x := 0; x < img.Bounds().Dx(); x++ {
					if img.RGBAAt(x, y) != white {
						ink = ink.Union(image.Rect(x, y, x+1, y+1))
					}
				}
			}
			w := font.Width(s, size, tt.bold)
			box := image.Rect(
				int(math.Floor((tt.left-1)*scale)), int(math.Floor((25-font.Ascent(size)-1)*scale)),
				int(math.Ceil((tt.left+w+1)*scale)), int(math.Ceil((25+font.Descent(size)+1)*scale)))
			if ink.Empty() || !ink.In(box) {
				t.Errorf("align %d bold %v scale %v: ink at %v, want inside the measured box %v", tt.align, tt.bold, scale, ink, box)
			}
			// The ink spans most of the measured width, so a wrong anchor
			// cannot hide inside the box.
			if float64(ink.Dx()) < 0.9*w*scale {
				t.Errorf("align %d scale %v: ink %d px wide, measured %.1f", tt.align, scale, ink.Dx(), w*scale)
			}
		}
	}
}

func TestZeroAlphaPaintsNothing(t *testing.T) {
	none := render.Style{Width: 3, Dash: []float64{2, 2}}
	items := []render.Item{
		render.Rect{Min: pt(1, 1), Max: pt(20, 20), Style: none},
		render.Line{From: pt(0, 0), To: pt(30, 30), Style: none},
		render.Polyline{Points: []render.Point{pt(0, 5), pt(10, 25), pt(30, 0)}, Style: none},
		render.Arrow{From: pt(2, 28), To: pt(28, 2), Style: none},
		render.Circle{Center: pt(15, 15), R: 8, Style: none},
		render.Text{At: pt(2, 20), S: "nothing", Size: 14},
		render.Grid{Min: pt(0, 0), Max: pt(30, 30), Cols: 2, Rows: 1, Cells: []color.RGBA{{}, {}}},
	}
	img := paint(30, 30, 1, items...)
	for i := 0; i < len(img.Pix); i += 4 {
		if c := (color.RGBA{img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3]}); c != white {
			t.Fatalf("pixel %d = %v: a zero-alpha style painted", i/4, c)
		}
	}
}

func TestDegenerateItemsDoNotPanic(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	st := render.Style{Fill: red, Stroke: blue, Width: 2, Dash: []float64{1, 1}}
	img := paint(20, 20, 1,
		render.Rect{Min: pt(nan, 0), Max: pt(5, 5), Style: st},
		render.Rect{Min: pt(3, 3), Max: pt(3, 3), Style: st},
		render.Line{From: pt(0, 0), To: pt(inf, 3), Style: st},
		render.Line{From: pt(4, 4), To: pt(4, 4), Style: st},
		render.Line{From: pt(-1e9, 10), To: pt(1e9, 10), Style: render.Style{Stroke: red}},
		render.Polyline{Points: []render.Point{pt(1, 1)}, Style: st},
		render.Polyline{Points: []render.Point{pt(1, 1), pt(1, 1), pt(5, 1), pt(1, 1)}, Style: st},
		render.Arrow{From: pt(5, 5), To: pt(5, 5), Style: st},
		render.Circle{Center: pt(5, 5), R: -1, Style: st},
		render.Circle{Center: pt(5, 5), R: nan, Style: st},
		render.Text{At: pt(nan, 5), S: "x", Color: red},
		render.Text{At: pt(5, 5), S: "x", Size: 1e9, Color: red},
		render.Grid{Min: pt(5, 5), Max: pt(1, 1), Cols: 1, Rows: 1, Cells: []color.RGBA{red}},
		render.Grid{Min: pt(0, 0), Max: pt(5, 5), Cols: -1, Rows: -1},
	)
	if img.Bounds().Dx() != 20 {
		t.Fatal("no image")
	}
	// Shapes far off the canvas are clipped, not wrapped onto it.
	img = paint(10, 10, 1, render.Rect{Min: pt(12, -5), Max: pt(30, 30), Style: render.Style{Fill: red}})
	for i := 0; i < len(img.Pix); i += 4 {
		if img.Pix[i+1] != 0xff {
			t.Fatalf("a rectangle off the right edge painted pixel %d", i/4)
		}
	}
}
