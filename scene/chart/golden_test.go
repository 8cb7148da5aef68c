package chart

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"commlab/render"
	"commlab/render/font"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current painter")

// sampleGantt lays out a frame with every piece of the shared Gantt
// painter, as the jitter and LogP scenes use them: the title row, a
// wrapping legend, two stacked panels of four lanes beside a side plot,
// spans (one outlined, one stalled), lane labels, the time axis with its
// caption, a value axis in the side plot and the playhead at now.
func sampleGantt(w, h float64, th render.Theme, now float64) render.List {
	var g Gantt
	if !g.Begin(w, h, th, now, 256) {
		return *g.L
	}
	g.End = 40
	g.Title(Fit(g.L.W*0.55, g.FS, false, fmt.Sprintf("P = 4 · t = %s", AxisLabel(now, 0.1)), "t"),
		"A shared Gantt painter under test", "Gantt painter", "Gantt")
	top := g.Legend([]LegendEntry{
		{Label: "compute", Draw: g.Swatch(g.Fill(th.Compute, false))},
		{Label: "send", Draw: g.Swatch(g.Fill(th.Send, true))},
		{Label: "stall", Draw: func(b Box) { g.Stalled(b, render.Mix(th.Panel, th.Stall, 0.28), th.Stall, true) }},
		{Label: "noise", Draw: g.Stroke(render.Style{Stroke: th.Noise, Width: 3 * g.S})},
		{Label: "completion", Draw: g.Mark(render.Style{Stroke: th.Critical, Width: 2 * g.S})},
	})
	col, side := g.Split(g.Body(top), 0.3)
	panels, ph := g.Stack(col, col.X0+30*g.S, 2, nil)
	laneH := ph / 4
	ticks, step := g.TimeTicks("88.8", 2)
	for i, pl := range panels {
		g.Plot(pl.Plot, ticks)
		g.Header(pl.Plot.X0, pl.Header, pl.Plot.W(), fmt.Sprintf("Panel %d with a header too long for a small canvas", i+1), fmt.Sprintf("Panel %d", i+1))
		bh := BarH(laneH, 26*g.S)
		stride := g.LaneStride(laneH, 4)
		for li := range 4 {
			yc := pl.Plot.Y0 + (float64(li)+0.5)*laneH
			a, b := float64(4*li+i), min(float64(4*li+i+12), now)
			if b > a {
				g.Rect(Box{X0: g.X(a), Y0: yc - bh/2, X1: g.X(b), Y1: yc + bh/2}, g.Fill(th.Kind(0), false))
			}
			if s0, s1 := 30.0, min(36, now); li == 2 && s1 > s0 {
				g.Stalled(Box{X0: g.X(s0), Y0: yc - bh/2, X1: g.X(s1), Y1: yc + bh/2}, render.Mix(th.Panel, th.Stall, 0.28), th.Stall, true)
			}
			if li%stride == 0 {
				g.LaneLabel(yc, fmt.Sprintf("P%d", li), li == 0, th.Muted)
			}
		}
	}
	g.TimeAxis(ticks, func(t float64) string { return AxisLabel(t, step) }, "time, in a caption that gives way on small canvases", "time")
	g.Playhead(panels[0].Plot.Y0)
	// A value axis in the side box, labelled as the scenes' plots are.
	plot := Box{X0: side.X0 + 30*g.S, Y0: side.Y0 + g.FSSmall, X1: side.X1 - 2*g.S, Y1: side.Y1 - 3*g.FSSmall}
	g.Rect(plot, render.Style{Fill: th.Panel, Stroke: th.Rule, Width: 1})
	for _, v := range []float64{0, 0.5, 1} {
		y := plot.Y1 - v*plot.H()
		g.HLine(plot.X0, plot.X1, y, render.Style{Stroke: th.Rule, Width: 1})
		g.ValueLabel(plot.X0-4*g.S, y, AxisLabel(v, 0.5))
		g.TickLabel(plot.X0+v*plot.W(), plot.Y1+4*g.S+g.FSSmall, AxisLabel(v, 0.5), plot.X0, plot.X1)
	}
	return *g.L
}

// dump writes a display list one item a line, floats in full, so that a
// golden pins every coordinate.
func dump(l render.List) string {
	var b strings.Builder
	fmt.Fprintf(&b, "list %vx%v background %+v\n", l.W, l.H, l.Background)
	for _, it := range l.Items {
		fmt.Fprintf(&b, "%T %+v\n", it, it)
	}
	return b.String()
}

// TestGanttGolden pins the shared Gantt painter's display list at two
// canvas sizes (a projected slide and a small embed, where labels give
// way) and both themes: every scene draws its title, legend, axis and
// playhead with it, so a change here shows in all of them. Rewrite with
// go test ./scene/chart -run Golden -update, for an intended change only.
func TestGanttGolden(t *testing.T) {
	for _, c := range []struct {
		w, h float64
		th   render.Theme
	}{
		{960, 540, render.Light()},
		{640, 360, render.Dark()},
	} {
		name := fmt.Sprintf("gantt-%vx%v-%s.golden", c.w, c.h, c.th.Name)
		t.Run(name, func(t *testing.T) {
			got := dump(sampleGantt(c.w, c.h, c.th, 33))
			path := filepath.Join("testdata", name)
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test ./scene/chart -run Golden -update to create it)", err)
			}
			g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
			for i := range max(len(g), len(w)) {
				var gl, wl string
				if i < len(g) {
					gl = g[i]
				}
				if i < len(w) {
					wl = w[i]
				}
				if gl != wl {
					t.Fatalf("%s: line %d differs (%d lines, golden %d):\n got %s\nwant %s\nif the change is intended: go test ./scene/chart -run Golden -update", path, i+1, len(g), len(w), gl, wl)
				}
			}
		})
	}
}

// TestSampleGanttFits guards the golden frames themselves: their text
// stays on the canvas and the playhead and axis are drawn, so a golden
// rewritten from a broken painter does not pass unnoticed.
func TestSampleGanttFits(t *testing.T) {
	for _, sz := range [][2]float64{{960, 540}, {640, 360}} {
		th := render.Light()
		l := sampleGantt(sz[0], sz[1], th, 33)
		playhead, ticks := 0, 0
		for _, it := range l.Items {
			switch it := it.(type) {
			case render.Text:
				w := font.Width(it.S, it.FontSize(), it.Bold)
				x0 := it.At.X - map[render.Align]float64{render.AlignLeft: 0, render.AlignCenter: w / 2, render.AlignRight: w}[it.Align]
				if x0 < -0.5 || x0+w > l.W+0.5 || it.At.Y-font.Ascent(it.FontSize()) < -0.5 || it.At.Y+font.Descent(it.FontSize()) > l.H+0.5 {
					t.Errorf("%vx%v: %q at %v leaves the canvas", sz[0], sz[1], it.S, it.At)
				}
			case render.Line:
				if it.Stroke == th.Playhead {
					playhead++
				}
				if it.Stroke == th.Muted && it.To.Y-it.From.Y > 0 {
					ticks++
				}
			}
		}
		if playhead != 1 || ticks < 3 {
			t.Errorf("%vx%v: %d playheads and %d axis ticks, want 1 and at least 3", sz[0], sz[1], playhead, ticks)
		}
	}
}
