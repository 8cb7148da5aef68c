package chart

import (
	"math"
	"slices"
	"testing"

	"commlab/render"
	"commlab/render/font"
)

func TestNiceTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64
		max    int
		want   []float64
	}{
		{0, 16.05e-6, 4, []float64{0, 5e-6, 10e-6, 15e-6}},
		{0, 16.05e-6, 9, []float64{0, 2e-6, 4e-6, 6e-6, 8e-6, 10e-6, 12e-6, 14e-6, 16e-6}},
		{3.03e-6, 38.03e-6, 3, []float64{10e-6, 20e-6, 30e-6}},
		{0, 173, 4, []float64{0, 50, 100, 150}},
		{0, 3, 8, []float64{0, 0.5, 1, 1.5, 2, 2.5, 3}},
		{5, 5, 3, []float64{5}},
	}
	for _, tc := range tests {
		got, _ := NiceTicks(tc.lo, tc.hi, tc.max)
		if len(got) > max(tc.max, 1) || !slices.EqualFunc(got, tc.want, func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }) {
			t.Errorf("NiceTicks(%v, %v, %d) = %v, want %v", tc.lo, tc.hi, tc.max, got, tc.want)
		}
	}
	// The first tick of an axis from 0 is +0, never -0 (a "-0 s" label).
	if got, _ := NiceTicks(0, 1e-5, 4); math.Signbit(got[0]) {
		t.Error("first tick is -0")
	}
}

// TestAxisLabelsCarryNoNoise: ticks step × i print as short as the step,
// never with float noise such as 0.7000000000000001 (= 7 × 0.1).
func TestAxisLabelsCarryNoNoise(t *testing.T) {
	tests := []struct {
		lo, hi float64
		max    int
		want   []string
	}{
		{0, 1, 11, []string{"0.0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1.0"}},
		{0.05, 0.31, 3, []string{"0.1", "0.2", "0.3"}},
		{40, 46, 4, []string{"40", "42", "44", "46"}},
		{1, 2000, 5, []string{"500", "1000", "1500", "2000"}},
		{-0.03, 0.03, 4, []string{"-0.02", "0.00", "0.02"}},
	}
	for _, tc := range tests {
		ticks, step := NiceTicks(tc.lo, tc.hi, tc.max)
		var got []string
		for _, v := range ticks {
			got = append(got, AxisLabel(v, step))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("labels of NiceTicks(%v, %v, %d) = %q, want %q", tc.lo, tc.hi, tc.max, got, tc.want)
		}
	}
	if got := 7 * 0.1; AxisLabel(got, 0.1) != "0.7" {
		t.Errorf("AxisLabel(%v, 0.1) = %q, want 0.7", got, AxisLabel(got, 0.1))
	}
}

func TestFit(t *testing.T) {
	long, short := "Butterfly allreduce under OS and network jitter", "Allreduce"
	wl := font.Width(long, 14, true)
	ws := font.Width(short, 14, true)
	for _, tc := range []struct {
		w    float64
		want string
	}{
		{wl, long},      // exactly fits
		{wl - 1, short}, // gives way to the short one
		{ws, short},     // the short one fits exactly
		{ws - 1, short}, // none fits: the last, the shortest there is
		{math.Inf(1), long},
	} {
		if got := Fit(tc.w, 14, true, long, short); got != tc.want {
			t.Errorf("Fit(%v) = %q, want %q", tc.w, got, tc.want)
		}
	}
	// Bold text is wider, so it gives way sooner.
	if w := font.Width(long, 14, false); w < wl && Fit(w, 14, true, long, short) != short {
		t.Error("bold label fitted in the plain label's width")
	}
}

// TestSizes: 14 px body text at 960x540, scaled with the canvas's shorter
// side, floored on small embeds.
func TestSizes(t *testing.T) {
	for _, tc := range []struct {
		w, h float64
		want Sizes
	}{
		{640, 360, Sizes{S: 2.0 / 3, FS: 10, FSSmall: 9, FSTitle: 11, Pad: 20.0 / 3}},
		{960, 540, Sizes{S: 1, FS: 14, FSSmall: 13, FSTitle: 16, Pad: 10}},
		{1920, 1080, Sizes{S: 2, FS: 28, FSSmall: 26, FSTitle: 32, Pad: 20}},
		{1920, 540, Sizes{S: 1, FS: 14, FSSmall: 13, FSTitle: 16, Pad: 10}}, // the shorter side decides
	} {
		got := SizesFor(tc.w, tc.h)
		if math.Abs(got.S-tc.want.S) > 1e-12 || got.FS != tc.want.FS || got.FSSmall != tc.want.FSSmall ||
			got.FSTitle != tc.want.FSTitle || math.Abs(got.Pad-tc.want.Pad) > 1e-12 {
			t.Errorf("SizesFor(%v, %v) = %+v, want %+v", tc.w, tc.h, got, tc.want)
		}
	}
}

func TestBaselineCentresText(t *testing.T) {
	y := Baseline(100, 30, 14)
	top, bottom := y-font.Ascent(14), y+font.Descent(14)
	if math.Abs((top-100)-(130-bottom)) > 1e-9 {
		t.Errorf("text spans %v-%v in the row 100-130: not centred", top, bottom)
	}
}

// TestHatchStaysInTheBox: every hatch line lies in its box, on the
// canvas-fixed grid x + y = k·sp.
func TestHatchStaysInTheBox(t *testing.T) {
	l := render.List{W: 960, H: 540}
	b := Box{X0: 13, Y0: 20, X1: 97, Y1: 31}
	Hatch(&l, b, 1, render.Light().Stall)
	if len(l.Items) == 0 {
		t.Fatal("no hatch lines")
	}
	for _, it := range l.Items {
		ln := it.(render.Line)
		for _, pt := range []render.Point{ln.From, ln.To} {
			if pt.X < b.X0-1e-9 || pt.X > b.X1+1e-9 || pt.Y < b.Y0-1e-9 || pt.Y > b.Y1+1e-9 {
				t.Errorf("hatch point %v leaves %v", pt, b)
			}
			if k := (pt.X + pt.Y) / 5; math.Abs(k-math.Round(k)) > 1e-9 {
				t.Errorf("hatch point %v off the grid", pt)
			}
		}
	}
}

// TestLegendWraps: entries run left to right and wrap before the right
// margin; the body starts under the last row.
func TestLegendWraps(t *testing.T) {
	for _, w := range []float64{320, 960} {
		l := render.List{W: w, H: 540}
		z := SizesFor(960, 540)
		var swatches []Box
		var entries []LegendEntry
		for _, label := range []string{"reduce", "wait for partner", "OS jitter", "message", "network noise"} {
			entries = append(entries, LegendEntry{Label: label, Draw: func(b Box) { swatches = append(swatches, b) }})
		}
		top := Legend(&l, z, render.Light().Ink, entries)
		if len(swatches) != len(entries) || len(l.Items) != len(entries) {
			t.Fatalf("width %v: %d swatches and %d items for %d entries", w, len(swatches), len(l.Items), len(entries))
		}
		rows := 1
		for i, it := range l.Items {
			tx := it.(render.Text)
			if x1 := tx.At.X + font.Width(tx.S, tx.FontSize(), false); x1 > w-z.Pad+1e-9 && swatches[i].X0 > z.Pad {
				t.Errorf("width %v: %q ends at %v, past the margin", w, tx.S, x1)
			}
			if swatches[i].Y1 > top {
				t.Errorf("width %v: swatch %d below the body's top %v", w, i, top)
			}
			if i > 0 && swatches[i].Y0 > swatches[i-1].Y0 {
				rows++
			}
		}
		if w == 960 && rows != 1 || w == 320 && rows < 2 {
			t.Errorf("width %v: %d legend rows", w, rows)
		}
	}
}

func TestCloseColoursAndOnFill(t *testing.T) {
	dark := render.Dark()
	if !CloseColours(dark.Compute, dark.Send) {
		t.Error("dark theme's compute and send colours not close")
	}
	if CloseColours(dark.Compute, dark.Stall) {
		t.Error("compute and stall colours called close")
	}
	for _, th := range []render.Theme{render.Light(), dark} {
		if got := OnFill(th.Ink, th.Ink, th.Background); got != th.Background {
			t.Errorf("%s: text on an ink fill in %v, want the background", th.Name, got)
		}
		if got := OnFill(th.Background, th.Ink, th.Background); got != th.Ink {
			t.Errorf("%s: text on a background fill in %v, want the ink", th.Name, got)
		}
	}
}
