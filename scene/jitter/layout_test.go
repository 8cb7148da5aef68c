package jitter

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"commlab/engine/trace"
	"commlab/render"
	"commlab/render/font"
	"commlab/scene"
	"commlab/scene/scenetest"
)

// stallSet is a small run with OS jitter windows a quarter of every period, so
// seed 25 stalls two of the four processes: P0 in stage 1 and P3 in stage 2
// (found by printing the trace once; TestStallRunIsAsDescribed pins it).
var stallSet = map[string]string{
	"P": "4", "T": "2", "period": "2e-05", "duration": "5e-06", "net_noise": "0", "trials": "10",
}

const stallSeed = 25

func TestStallRunIsAsDescribed(t *testing.T) {
	r := build(t, stallSet, stallSeed)
	var got []string
	for _, s := range r.tr.Spans {
		if s.Kind == trace.Stall {
			got = append(got, fmt.Sprintf("P%d stage %d", s.Lane, s.Step))
		}
	}
	if strings.Join(got, ", ") != "P0 stage 1, P3 stage 2" {
		t.Fatalf("stalls: %v, want P0 stage 1, P3 stage 2", got)
	}
}

var v960 = scene.View{W: 960, H: 540, Theme: render.Light()}

// stallRects returns the OS-jitter windows drawn inside pl (the tinted
// rectangles, faded or not) and, for each, the hatch lines inside it.
func stallRects(l render.List, th render.Theme, pl panel) (rects []box, hatches []int) {
	tint := render.Mix(th.Panel, th.Stall, stallTint)
	faded := render.Fade(tint, fadeMoot)
	for i, it := range l.Items {
		r, ok := it.(render.Rect)
		if !ok || (r.Fill != tint && r.Fill != faded) || !scenetest.Inside(r.Min, pl.plot, 0) || !scenetest.Inside(r.Max, pl.plot, 0) {
			continue
		}
		b := scenetest.RectBox(r)
		n := 0
		// The hatching follows its window in the list.
		for _, it2 := range l.Items[i+1:] {
			ln, ok := it2.(render.Line)
			if !ok || (ln.Stroke != th.Stall && ln.Stroke != render.Fade(th.Stall, fadeMoot)) {
				break
			}
			if scenetest.Inside(ln.From, b, 1e-9) && scenetest.Inside(ln.To, b, 1e-9) {
				n++
			}
		}
		rects = append(rects, b)
		hatches = append(hatches, n)
	}
	return rects, hatches
}

func TestStallsDrawnHatched(t *testing.T) {
	for _, th := range []render.Theme{render.Light(), render.Dark()} {
		r := build(t, map[string]string{"P": "4", "T": "2", "period": "2e-05", "duration": "5e-06", "net_noise": "0", "trials": "10", "view": "conventional"}, stallSeed)
		l, p := r.paint(r.End(), scene.View{W: 960, H: 540, Theme: th})
		if len(p.panels) != 1 || p.panels[0].redundant {
			t.Fatalf("conventional view: panels %+v", p.panels)
		}
		rects, hatches := stallRects(l, th, p.panels[0])
		if len(rects) != 2 {
			t.Fatalf("%s: %d stall windows drawn, want 2", th.Name, len(rects))
		}
		for i, b := range rects {
			// Each window is a few microseconds of a ~6.6 µs axis: wide,
			// so it holds many hatch lines.
			if hatches[i] < 5 {
				t.Errorf("%s: stall %d (%v) has %d hatch lines, want at least 5", th.Name, i, b, hatches[i])
			}
		}
		// P0's window in stage 1 lies on lane 0, P3's on lane 3.
		pl := p.panels[0]
		for i, lane := range []int{0, 3} {
			if y := (rects[i].Y0 + rects[i].Y1) / 2; math.Abs(y-pl.laneY(lane)) > 1e-9 {
				t.Errorf("stall %d centred at y=%v, want lane %d at %v", i, y, lane, pl.laneY(lane))
			}
		}
	}

	// Both runs: the redundant panel draws the same windows, split where a
	// process already held the result (the rest is faded).
	r := build(t, stallSet, stallSeed)
	l, p := r.paint(r.End(), v960)
	want := 0
	for _, s := range r.tr.Spans {
		if s.Kind == trace.Stall {
			want++
			if g := r.finRed[s.Lane]; s.Start < g && g < s.End {
				want++
			}
		}
	}
	if rects, _ := stallRects(l, v960.Theme, p.panels[0]); len(rects) != 2 {
		t.Errorf("both: conventional panel has %d stall windows, want 2", len(rects))
	}
	if rects, _ := stallRects(l, v960.Theme, p.panels[1]); len(rects) != want {
		t.Errorf("both: redundant panel has %d stall pieces, want %d", len(rects), want)
	}
}

// spanRects returns the span bars inside pl: rectangles in a span colour.
func spanRects(l render.List, th render.Theme, pl panel) []box {
	var out []box
	for _, it := range l.Items {
		r, ok := it.(render.Rect)
		if !ok || !scenetest.Inside(r.Min, pl.plot, 0) || !scenetest.Inside(r.Max, pl.plot, 0) || r.Fill == th.Panel || r.Fill.A == 0 {
			continue
		}
		out = append(out, scenetest.RectBox(r))
	}
	return out
}

func TestOneLanePerProcess(t *testing.T) {
	for _, P := range []int{4, 16, 64} {
		r := build(t, map[string]string{"P": fmt.Sprint(P), "T": "2", "trials": "10", "view": "conventional"}, 1)
		l, p := r.paint(r.End(), v960)
		pl := p.panels[0]
		centres := map[int]bool{}
		for _, b := range spanRects(l, v960.Theme, pl) {
			lane := (b.Y0+b.Y1)/2 - pl.plot.Y0
			i := int(math.Floor(lane / pl.laneH))
			if math.Abs(lane-(float64(i)+0.5)*pl.laneH) > 1e-6 {
				t.Errorf("P=%d: span bar %v not centred on a lane", P, b)
			}
			centres[i] = true
		}
		if len(centres) != P {
			t.Errorf("P=%d: span bars on %d lanes, want %d", P, len(centres), P)
		}
		if strings.Contains(texts(l), "showing") {
			t.Errorf("P=%d: says it shows a subset", P)
		}
	}
}

func texts(l render.List) string {
	var b strings.Builder
	for _, it := range l.Items {
		if tx, ok := it.(render.Text); ok {
			b.WriteString(tx.S + "\n")
		}
	}
	return b.String()
}

func TestSubsetLanesForLargeP(t *testing.T) {
	r := build(t, map[string]string{"P": "256", "T": "8", "trials": "10"}, 3)
	if len(r.lanes) != SubsetLanes {
		t.Fatalf("%d lanes, want %d", len(r.lanes), SubsetLanes)
	}
	for _, c := range []int{r.critConv, r.critRed} {
		if _, ok := r.slot[c]; !ok {
			t.Errorf("critical process P%d not drawn", c)
		}
	}
	l, p := r.paint(r.End(), v960)
	if !strings.Contains(texts(l), "showing 48 of 256 processes") {
		t.Errorf("the canvas does not say it shows 48 of 256 processes:\n%s", texts(l))
	}
	// The critical process is named on its lane, in bold, in each panel.
	for _, pl := range p.panels {
		_, crit := p.completion(&pl)
		name := fmt.Sprintf("P%d", crit)
		found := false
		for _, it := range l.Items {
			if tx, ok := it.(render.Text); ok && tx.S == name && tx.Bold && tx.Color == v960.Theme.Critical {
				found = found || math.Abs(tx.At.Y-font.Ascent(tx.Size)/2+1-pl.laneY(r.slot[crit])) < 1e-9
			}
		}
		if !found {
			t.Errorf("redundant=%v: no bold label %s on its lane", pl.redundant, name)
		}
	}
}

// TestPlayheadHidesFuture: nothing in the Gantt panels reaches past the
// playhead, except a reduction's one-pixel minimum width.
func TestPlayheadHidesFuture(t *testing.T) {
	r := build(t, map[string]string{"P": "16", "T": "4"}, 2)
	for _, frac := range []float64{0, 0.2, 0.45, 0.8} {
		tt := r.End() * frac
		l, p := r.paint(tt, v960)
		limit := p.X(tt) + 1 + 1e-9
		th := v960.Theme
		for _, pl := range p.panels {
			in := func(pt render.Point) bool {
				return scenetest.Inside(pt, box{X0: pl.plot.X0, Y0: pl.plot.Y0 + 0.5, X1: pl.plot.X1, Y1: pl.plot.Y1 - 0.5}, 0)
			}
			for _, it := range l.Items {
				var pts []render.Point
				switch it := it.(type) {
				case render.Rect:
					if it.Fill == th.Panel {
						continue // the panel's own background
					}
					pts = []render.Point{it.Min, it.Max}
				case render.Line:
					if it.Stroke == th.Rule || it.Stroke == th.Playhead {
						continue // grid lines and the playhead itself
					}
					pts = []render.Point{it.From, it.To}
				case render.Arrow:
					pts = []render.Point{it.From, it.To}
				case render.Circle:
					pts = []render.Point{{X: it.Center.X, Y: it.Center.Y}}
				}
				for _, pt := range pts {
					if in(pt) && pt.X > limit {
						t.Errorf("t = %.0f%% of End: %T at x=%.1f past the playhead x=%.1f", frac*100, it, pt.X, limit-1)
					}
				}
			}
		}
		// At the start nothing has happened yet.
		if frac == 0 {
			if n := len(spanRects(l, th, p.panels[0])); n != 0 {
				t.Errorf("t = 0: %d span bars drawn, want none", n)
			}
		}
	}
}

// TestAdoptionsMarked: the redundant panel marks every adoption once the
// playhead reaches it, and none before.
func TestAdoptionsMarked(t *testing.T) {
	r := build(t, map[string]string{"P": "16", "T": "4", "view": "redundant"}, 2)
	for _, tt := range []float64{r.red / 2, r.red, r.End()} {
		want := 0
		for _, proc := range r.lanes {
			if r.adopt[proc].exchange > 0 && r.finRed[proc] <= tt {
				want++
			}
		}
		l, p := r.paint(tt, v960)
		got := 0
		for _, it := range l.Items {
			if c, ok := it.(render.Circle); ok && c.Fill == v960.Theme.Adopted && scenetest.Inside(c.Center, p.panels[0].plot, 0) {
				got++
			}
		}
		if got != want {
			t.Errorf("t = %v: %d adoptions marked, want %d", tt, got, want)
		}
		if tt == r.red/2 && want != 0 {
			t.Errorf("seed 2 adopts before half the redundant completion; pick another time")
		}
	}
}

// TestNoiseDelaysDrawn: every message that network noise delayed gets its
// delayed part drawn thick in the noise colour, and only those.
func TestNoiseDelaysDrawn(t *testing.T) {
	set := map[string]string{"P": "8", "T": "3", "period": "3e-06", "duration": "1e-06", "os_jitter": "0", "trials": "10", "view": "conventional"}
	r := build(t, set, 5)
	want := 0
	for _, m := range r.msgs {
		if !m.redundant && m.delay > 0 {
			want++
		}
	}
	if want == 0 {
		t.Fatal("no message met network noise; pick another seed")
	}
	l, p := r.paint(r.End(), v960)
	noiseW := 2.6 * max(1, 0.8*p.S)
	got := 0
	for _, it := range l.Items {
		if ln, ok := it.(render.Line); ok && ln.Stroke == v960.Theme.Noise && ln.Width == noiseW && scenetest.Inside(ln.From, p.panels[0].plot, 0) {
			got++
		}
	}
	if got != want {
		t.Errorf("%d noise segments drawn, want %d delayed messages", got, want)
	}
}

// TestHistogramBarsSumToTrials reads the bars back from the list: heights
// in units of the tallest bar add up to the trials, for each series.
func TestHistogramBarsSumToTrials(t *testing.T) {
	for _, th := range []render.Theme{render.Light(), render.Dark()} {
		r := build(t, map[string]string{"P": "64", "trials": "173"}, 11)
		l, p := r.paint(r.End()/2, scene.View{W: 960, H: 540, Theme: th})
		conv := render.Style{Fill: th.Butterfly}
		red := render.Mix(th.Panel, th.Redundant, redTint)
		for s, fill := range []any{conv.Fill, red} {
			var heights []float64
			bottom := 0.0
			for _, it := range l.Items {
				if rc, ok := it.(render.Rect); ok && rc.Fill == fill && scenetest.Inside(rc.Min, p.hist, 0) {
					bottom = max(bottom, rc.Max.Y)
				}
			}
			for _, it := range l.Items {
				if rc, ok := it.(render.Rect); ok && rc.Fill == fill && scenetest.Inside(rc.Min, p.hist, 0) && rc.Max.Y == bottom {
					heights = append(heights, rc.Max.Y-rc.Min.Y)
				}
			}
			nonzero := 0
			for _, c := range r.hist.counts[s] {
				if c > 0 {
					nonzero++
				}
			}
			if len(heights) != nonzero {
				t.Fatalf("%s series %d: %d bars, want %d non-empty bins", th.Name, s, len(heights), nonzero)
			}
			// The y axis tops out at a round count at or above the tallest
			// bar; recover the pixels per trial from the tallest bin.
			tallest, tallestCount := 0.0, 0
			for _, h := range heights {
				tallest = max(tallest, h)
			}
			for _, c := range r.hist.counts[s] {
				tallestCount = max(tallestCount, c)
			}
			sum := 0.0
			for _, h := range heights {
				sum += h / tallest * float64(tallestCount)
			}
			if math.Abs(sum-173) > 1e-6 {
				t.Errorf("%s series %d: bars add up to %v trials, want 173", th.Name, s, sum)
			}
		}
	}
}

// TestFramesFitTheCanvas: at every size from a 640x360 embed to a 1080p
// slide, in each view and theme, all text lies on the canvas, no two
// labels overlap, and text is at least 13 px at 960x540.
func TestFramesFitTheCanvas(t *testing.T) {
	sizes := [][2]float64{{640, 360}, {960, 540}, {1280, 720}, {1920, 1080}, {800, 600}}
	for _, set := range []map[string]string{
		{"P": "64"}, {"P": "16", "T": "4"}, {"P": "4096", "T": "12", "trials": "10"},
		{"P": "64", "view": "conventional"}, {"P": "2", "T": "1", "view": "redundant"},
		{"P": "64", "period": "2e-05", "duration": "1.5e-05", "trials": "50"},
		{"P": "16", "T": "4", "os_jitter": "0", "net_noise": "0", "trials": "10"},
		{"P": "8", "T": "3", "N": "1e6", "alpha": "0.001", "period": "10", "duration": "0.5", "trials": "10"},
	} {
		r := build(t, set, 2)
		for _, sz := range sizes {
			for _, th := range []render.Theme{render.Light(), render.Dark()} {
				for _, frac := range []float64{0.5, 1} {
					l, _ := r.paint(r.End()*frac, scene.View{W: sz[0], H: sz[1], Theme: th})
					what := fmt.Sprintf("%v t=%.0f%%", set, frac*100)
					scenetest.TextOnCanvas(t, l, 13, what)
					scenetest.NoOverlappingText(t, l, what)
				}
			}
		}
	}
}
