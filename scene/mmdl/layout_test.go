package mmdl

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"commlab/render"
	"commlab/scene"
	"commlab/scene/chart"
	"commlab/scene/scenetest"
)

var v960 = scene.View{W: 960, H: 540, Theme: render.Light()}

func inside(pt render.Point, b chart.Box, eps float64) bool {
	return pt.X >= b.X0-eps && pt.X <= b.X1+eps && pt.Y >= b.Y0-eps && pt.Y <= b.Y1+eps
}

func rectBox(r render.Rect) chart.Box {
	return chart.Box{X0: r.Min.X, Y0: r.Min.Y, X1: r.Max.X, Y1: r.Max.Y}
}

// spanRects returns the bars drawn in the Gantt's lanes.
func spanRects(l render.List, p *painter) []chart.Box {
	var out []chart.Box
	for _, it := range l.Items {
		r, ok := it.(render.Rect)
		if !ok || !inside(r.Min, p.Lanes, 0) || !inside(r.Max, p.Lanes, 0) || r.Fill == p.Th.Panel || r.Fill.A == 0 {
			continue
		}
		out = append(out, rectBox(r))
	}
	return out
}

// TestOneLanePerProcessor: every bar sits centred on one of P lanes, and
// every processor's lane has bars once the run is over.
func TestOneLanePerProcessor(t *testing.T) {
	for _, set := range []map[string]string{nil, {"load": "4", "procset": "1"}, {"rounds": "100"}, {"load": "1", "procset": "1", "rounds": "1"}} {
		r := build(t, set)
		l, p := r.paint(r.End(), v960)
		if want := p.Lanes.H() / 8; math.Abs(p.laneH-want) > 1e-9 {
			t.Errorf("%v: lanes %v high, want a P = 8th of the chart (%v)", set, p.laneH, want)
		}
		lanes := map[int]int{}
		for _, b := range spanRects(l, p) {
			y := (b.Y0+b.Y1)/2 - p.Lanes.Y0
			li := int(math.Floor(y / p.laneH))
			if math.Abs(y-(float64(li)+0.5)*p.laneH) > 1e-6 || li < 0 || li >= 8 {
				t.Errorf("%v: bar %v not centred on a lane", set, b)
			}
			lanes[li]++
		}
		if len(lanes) != 8 {
			t.Errorf("%v: bars on %d lanes, want all 8 processors", set, len(lanes))
		}
	}
}

// ruleLines returns the round rules drawn across the Gantt.
func ruleLines(l render.List, p *painter) []render.Line {
	st := p.ruleStyle()
	var out []render.Line
	for _, it := range l.Items {
		ln, ok := it.(render.Line)
		if ok && ln.Stroke == st.Stroke && ln.Width == st.Width && ln.From.X == ln.To.X &&
			ln.From.Y == p.Lanes.Y0 && ln.To.Y == p.Lanes.Y1 {
			out = append(out, ln)
		}
	}
	return out
}

// TestRoundRules: at the end there is one rule per round boundary, R in
// all, each at its boundary; before a boundary its rule is not drawn.
func TestRoundRules(t *testing.T) {
	for _, R := range []int{1, 2, 5, 20, 60} {
		r := build(t, map[string]string{"rounds": fmt.Sprint(R)})
		l, p := r.paint(r.End(), v960)
		rules := ruleLines(l, p)
		if p.ruleEvery != 1 {
			t.Fatalf("R = %d: every %d-th rule drawn at 960x540, want all", R, p.ruleEvery)
		}
		if len(rules) != R {
			t.Errorf("R = %d: %d round rules, want R", R, len(rules))
			continue
		}
		for i, ln := range rules {
			if math.Abs(ln.From.X-p.X(r.rounds[i])) > 1e-9 {
				t.Errorf("R = %d: rule %d at x=%v, want boundary %v at %v", R, i, ln.From.X, r.rounds[i], p.X(r.rounds[i]))
			}
		}
		// Halfway between the first two boundaries only the first is up.
		if R >= 2 {
			mid := (r.rounds[0] + r.rounds[1]) / 2
			l, p := r.paint(mid, v960)
			if n := len(ruleLines(l, p)); n != 1 {
				t.Errorf("R = %d at %v: %d rules, want 1", R, mid, n)
			}
		}
	}
	// Many rounds on a small canvas: only every k-th rule, k > 1.
	r := build(t, map[string]string{"rounds": "100"})
	l, p := r.paint(r.End(), scene.View{W: 640, H: 360, Theme: render.Light()})
	if n := len(ruleLines(l, p)); p.ruleEvery < 2 || n != 100/p.ruleEvery {
		t.Errorf("R = 100 at 640x360: every %d-th rule, %d rules drawn; want k ≥ 2 and 100/k", p.ruleEvery, n)
	}
}

// heldTasks reads the tasks each processor holds off the load bars: the
// width of its tinted bar (or of its computed bar over it, whichever is
// longer) on the bars' scale.
func heldTasks(t *testing.T, l render.List, p *painter) []float64 {
	t.Helper()
	tint := render.Mix(p.Th.Panel, p.Th.Compute, heldTint)
	held := make([]float64, p.r.P)
	found := make([]bool, p.r.P)
	for _, it := range l.Items {
		rc, ok := it.(render.Rect)
		if !ok || (rc.Fill != tint && rc.Fill != p.Th.Compute) || !inside(rc.Min, p.bars, 0) || !inside(rc.Max, p.bars, 0) {
			continue
		}
		i := int(math.Floor(((rc.Min.Y+rc.Max.Y)/2 - p.Lanes.Y0) / p.laneH))
		n := (rc.Max.X - rc.Min.X) / (p.barsEnd - p.bars.X0) * p.r.loadMax
		if rc.Fill == tint || n > held[i] {
			held[i] = max(held[i], n)
		}
		found[i] = true
	}
	return held
}

// TestLoadBarsAddUp: at every playhead the bars hold the whole load;
// they start at the initial loads and end at the steady state's final
// loads, every task computed.
func TestLoadBarsAddUp(t *testing.T) {
	for _, set := range []map[string]string{nil, {"load": "4", "procset": "1", "rounds": "3"}, {"load": "3-a", "rounds": "50"}} {
		r := build(t, set)
		for _, frac := range []float64{0, 0.05, 0.2, 0.37, 0.5, 0.81, 1} {
			tt := r.End() * frac
			l, p := r.paint(tt, v960)
			held := heldTasks(t, l, p)
			sum := 0.0
			for _, h := range held {
				sum += h
			}
			if math.Abs(sum-r.total) > 1e-6*r.total {
				t.Errorf("%v t=%.0f%%: bars hold %v tasks, want %v", set, frac*100, sum, r.total)
			}
			for i := range r.P {
				if p.done[i] > p.held[i]*(1+1e-9)+1e-6 {
					t.Errorf("%v t=%.0f%%: P%d computed %v of the %v it holds", set, frac*100, i, p.done[i], p.held[i])
				}
				if p.held[i] > r.loadMax*(1+1e-9) || p.held[i] < -1e-6 {
					t.Errorf("%v t=%.0f%%: P%d holds %v, outside the scale [0, %v]", set, frac*100, i, p.held[i], r.loadMax)
				}
			}
			switch frac {
			case 0:
				for i, h := range held {
					if math.Abs(h-r.in.Tasks[i]) > 1e-6*r.total {
						t.Errorf("%v start: P%d holds %v, want its initial %v", set, i, h, r.in.Tasks[i])
					}
				}
			case 1:
				for i, h := range held {
					if math.Abs(h-r.st.Final[i]) > 1e-6*r.total || math.Abs(p.done[i]-h) > 1e-6*r.total {
						t.Errorf("%v end: P%d holds %v and computed %v, want the final load %v", set, i, h, p.done[i], r.st.Final[i])
					}
				}
			}
		}
	}
}

// TestPlayheadHidesFuture: nothing in the Gantt reaches past the playhead
// but work's one-pixel minimum width.
func TestPlayheadHidesFuture(t *testing.T) {
	r := build(t, map[string]string{"rounds": "7"})
	th := v960.Theme
	for _, frac := range []float64{0, 0.1, 0.33, 0.7, 0.95} {
		tt := r.End() * frac
		l, p := r.paint(tt, v960)
		limit := p.X(tt) + 1 + 1e-9
		in := func(pt render.Point) bool {
			return inside(pt, chart.Box{X0: p.Lanes.X0, Y0: p.Lanes.Y0 + 0.5, X1: p.Lanes.X1, Y1: p.Lanes.Y1 - 0.5}, 0)
		}
		for _, it := range l.Items {
			var pts []render.Point
			switch it := it.(type) {
			case render.Rect:
				if it.Fill == th.Panel {
					continue
				}
				pts = []render.Point{it.Min, it.Max}
			case render.Line:
				if it.Stroke == th.Playhead && it.From.X == it.To.X {
					continue
				}
				pts = []render.Point{it.From, it.To}
			case render.Circle:
				pts = []render.Point{it.Center}
			case render.Polyline:
				pts = it.Points
			}
			for _, pt := range pts {
				if in(pt) && pt.X > limit {
					t.Errorf("t = %.0f%%: %T at x=%.1f past the playhead x=%.1f", frac*100, it, pt.X, limit-1)
				}
			}
		}
		if frac == 0 && len(spanRects(l, p)) != 0 {
			t.Errorf("t = 0: %d bars drawn", len(spanRects(l, p)))
		}
	}
}

// TestRoundsPlot: the current R and R* are marked where the log axes put
// them, and the curves stay inside the plot.
func TestRoundsPlot(t *testing.T) {
	for _, set := range []map[string]string{nil, {"latency": "0.05", "rounds": "12"}, {"latency": "1e-6", "rounds": "100"}, {"latency": "1", "rounds": "1"}} {
		r := build(t, set)
		l, p := r.paint(r.End(), v960)
		xMax, _, _ := r.plotRange()
		xOf := func(R float64) float64 { return p.plot.X0 + math.Log10(R)/math.Log10(xMax)*p.plot.W() }
		curves, circles := 0, 0
		for _, it := range l.Items {
			switch it := it.(type) {
			case render.Polyline:
				curves++
				for _, pt := range it.Points {
					if !inside(pt, p.plot, 1e-9) {
						t.Errorf("%v: curve point %v outside the plot %v", set, pt, p.plot)
					}
				}
			case render.Circle:
				if inside(it.Center, p.plot, 1e-9) {
					circles++
					if math.Abs(it.Center.X-xOf(float64(r.sch.R))) > 1e-9 {
						t.Errorf("%v: marker at x=%v, want R = %d at %v", set, it.Center.X, r.sch.R, xOf(float64(r.sch.R)))
					}
				}
			}
		}
		if curves != 3 || circles != 2 {
			t.Errorf("%v: %d curves and %d markers in the plot, want 3 and 2", set, curves, circles)
		}
		if float64(r.best) > xMax || float64(r.sch.R) > xMax {
			t.Errorf("%v: R* = %d or R = %d beyond the axis' %v", set, r.best, r.sch.R, xMax)
		}
	}
}

// TestFramesFitTheCanvas: at every size from a 640x360 embed to a 1080p
// slide, in each theme, all text lies on the canvas, no two labels
// overlap, and text is at least 13 px at 960x540.
func TestFramesFitTheCanvas(t *testing.T) {
	sizes := [][2]float64{{640, 360}, {960, 540}, {1280, 720}, {1920, 1080}, {800, 600}, {600, 800}}
	for _, set := range []map[string]string{
		nil, {"rounds": "100"}, {"rounds": "0"}, {"procset": "1", "load": "4", "calibrated": "0", "rounds": "1"},
		{"latency": "1", "throughput": "1e6"}, {"latency": "1e-6", "throughput": "1e11"},
	} {
		r := build(t, set)
		for _, sz := range sizes {
			for _, th := range []render.Theme{render.Light(), render.Dark()} {
				for _, frac := range []float64{0, 0.5, 1} {
					l, _ := r.paint(r.End()*frac, scene.View{W: sz[0], H: sz[1], Theme: th})
					what := fmt.Sprintf("%v t=%.0f%%", set, frac*100)
					scenetest.TextOnCanvas(t, l, 13, what)
					scenetest.NoOverlappingText(t, l, what)
				}
			}
		}
	}
}

// TestBalancedLoadHasNoRounds: ProcSet 1 with Load 1 is balanced, so no
// task moves: no round rules, every processor computes its own load, and
// the header says so.
func TestBalancedLoadHasNoRounds(t *testing.T) {
	r := build(t, map[string]string{"procset": "1", "load": "1"})
	if len(r.rounds) != 0 || len(r.xfers) != 0 {
		t.Fatalf("%d round boundaries and %d transfers, want none", len(r.rounds), len(r.xfers))
	}
	l, p := r.paint(r.End()/2, v960)
	if n := len(ruleLines(l, p)); n != 0 {
		t.Errorf("%d round rules drawn", n)
	}
	found := false
	for _, it := range l.Items {
		if tx, ok := it.(render.Text); ok && strings.Contains(tx.S, "no task moves") {
			found = true
		}
	}
	if !found {
		t.Error("the header does not say that no task moves")
	}
	if got := r.Steps(); len(got) != 1 || got[0] != r.End() {
		t.Errorf("steps %v, want only the end %v", got, r.End())
	}
}
