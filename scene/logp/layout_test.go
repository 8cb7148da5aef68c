package logp

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"commlab/engine/trace"
	"commlab/render"
	"commlab/scene"
	"commlab/scene/scenetest"
)

var v960 = scene.View{W: 960, H: 540, Theme: render.Light()}

// The default seed 1 stalls the root: P3's partial sum is 4.36 late, so P1
// waits from 39 (when it planned to receive it) to 43.36
// (TestStallRunIsAsDescribed pins it).
const stallSeed = 1

func TestStallRunIsAsDescribed(t *testing.T) {
	r := build(t, nil, stallSeed)
	var got []string
	for _, s := range r.replay.Spans {
		if s.Kind == trace.Stall {
			got = append(got, fmt.Sprintf("P%d %.2f-%.2f %s", s.Lane+1, s.Start, s.End, s.Label))
		}
	}
	if strings.Join(got, "; ") != "P1 39.00-43.36 late message from P3" {
		t.Fatalf("stalls: %v, want P1 39.00-43.36 late message from P3", got)
	}
	if r.res.Late != 1 || r.sched.Planned() != 43 {
		t.Fatalf("late messages %d, T_s %v; want 1 and 43", r.res.Late, r.sched.Planned())
	}
}

// stallRects returns the stalls drawn inside pl (the tinted rectangles)
// and, for each, the hatch lines inside it.
func stallRects(l render.List, th render.Theme, pl panel) (rects []box, hatches []int) {
	tint := render.Mix(th.Panel, th.Stall, stallTint)
	for i, it := range l.Items {
		r, ok := it.(render.Rect)
		if !ok || r.Fill != tint || !scenetest.Inside(r.Min, pl.plot, 0) || !scenetest.Inside(r.Max, pl.plot, 0) {
			continue
		}
		b := scenetest.RectBox(r)
		n := 0
		for _, it2 := range l.Items[i+1:] {
			ln, ok := it2.(render.Line)
			if !ok || ln.Stroke != th.Stall {
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

// lateLines returns the thick stall-coloured segments (a message's flight
// beyond L_s) inside pl.
func lateLines(l render.List, th render.Theme, pl panel) []render.Line {
	var out []render.Line
	for _, it := range l.Items {
		if ln, ok := it.(render.Line); ok && ln.Stroke == th.Stall && ln.Width > 2 && scenetest.Inside(ln.From, pl.plot, 0) {
			out = append(out, ln)
		}
	}
	return out
}

// TestLateMessageStallsItsReceiver: in the replay the root's stall is
// drawn hatched on P1's lane from 39 to 43.36, and P3's message carries its
// 4.36 of lateness drawn thick; the plan has neither.
func TestLateMessageStallsItsReceiver(t *testing.T) {
	for _, th := range []render.Theme{render.Light(), render.Dark()} {
		r := build(t, nil, stallSeed)
		l, p := r.paint(r.End(), scene.View{W: 960, H: 540, Theme: th})
		if rects, _ := stallRects(l, th, p.panels[0]); len(rects) != 0 {
			t.Errorf("%s: the plan draws %d stalls", th.Name, len(rects))
		}
		rects, hatches := stallRects(l, th, p.panels[1])
		if len(rects) != 1 {
			t.Fatalf("%s: %d stalls in the replay, want 1", th.Name, len(rects))
		}
		b, pl := rects[0], p.panels[1]
		if y := (b.Y0 + b.Y1) / 2; math.Abs(y-pl.laneY(0)) > 1e-9 {
			t.Errorf("%s: stall centred at y=%v, want P1's lane at %v", th.Name, y, pl.laneY(0))
		}
		s := r.replay.Spans[1]
		if math.Abs(b.X0-p.X(s.Start)) > 1e-9 || math.Abs(b.X1-p.X(s.End)) > 1e-9 {
			t.Errorf("%s: stall drawn over x %v-%v, want %v-%v", th.Name, b.X0, b.X1, p.X(s.Start), p.X(s.End))
		}
		if hatches[0] < 5 {
			t.Errorf("%s: the stall has %d hatch lines, want at least 5", th.Name, hatches[0])
		}
		if n := len(lateLines(l, th, p.panels[0])); n != 0 {
			t.Errorf("%s: the plan draws %d late flights", th.Name, n)
		}
		late := lateLines(l, th, p.panels[1])
		if len(late) != 1 {
			t.Fatalf("%s: %d late flights in the replay, want 1", th.Name, len(late))
		}
		m := r.replay.Messages[0] // P3's, sent first
		if m.From != 2 || m.Delay <= 0 {
			t.Fatalf("first message %+v, want P3's late one", m)
		}
		if x0, x1 := late[0].From.X, late[0].To.X; math.Abs(x0-p.X(m.Arrive-m.Delay)) > 1e-9 || math.Abs(x1-p.X(m.Arrive)) > 1e-9 {
			t.Errorf("%s: late flight drawn over x %v-%v, want %v-%v", th.Name, x0, x1, p.X(m.Arrive-m.Delay), p.X(m.Arrive))
		}
		// Before the late part begins, no late flight and no stall.
		l, p = r.paint(m.Arrive-m.Delay-0.5, scene.View{W: 960, H: 540, Theme: th})
		if n := len(lateLines(l, th, p.panels[1])); n != 0 {
			t.Errorf("%s: a late flight drawn before the message is late", th.Name)
		}
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

// TestOneLanePerProcessor: every bar sits centred on a lane, and the lanes
// with bars are the processors the plan uses.
func TestOneLanePerProcessor(t *testing.T) {
	for _, set := range []map[string]string{{"P": "3"}, {"P": "8", "n": "1000"}, {"P": "32", "n": "10000"}, {"P": "32", "n": "40"}} {
		r := build(t, set, 1)
		l, p := r.paint(r.End(), v960)
		for i, pl := range p.panels {
			lanes := map[int]bool{}
			for _, b := range spanRects(l, v960.Theme, pl) {
				y := (b.Y0+b.Y1)/2 - pl.plot.Y0
				li := int(math.Floor(y / pl.laneH))
				if math.Abs(y-(float64(li)+0.5)*pl.laneH) > 1e-6 {
					t.Errorf("%v panel %d: bar %v not centred on a lane", set, i, b)
				}
				lanes[li] = true
			}
			if len(lanes) != r.sched.Used {
				t.Errorf("%v panel %d: bars on %d lanes, want the %d processors used", set, i, len(lanes), r.sched.Used)
			}
			if len(pl.g.spans) != r.p.P {
				t.Errorf("%v panel %d: %d lanes, want P = %d", set, i, len(pl.g.spans), r.p.P)
			}
		}
	}
}

// TestPlayheadHidesFuture: nothing in the Gantt panels reaches past the
// playhead, except an o's or addition's one-pixel minimum width.
func TestPlayheadHidesFuture(t *testing.T) {
	r := build(t, map[string]string{"P": "8", "n": "300"}, 2)
	th := v960.Theme
	for _, frac := range []float64{0, 0.3, 0.7, 0.9} {
		tt := r.End() * frac
		l, p := r.paint(tt, v960)
		limit := p.X(tt) + 1 + 1e-9
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
					if it.Stroke == th.Rule || it.Stroke == th.Playhead && it.Width > 1.5 && it.From.X == it.To.X {
						continue // grid lines and the playhead itself
					}
					pts = []render.Point{it.From, it.To}
				case render.Arrow:
					pts = []render.Point{it.From, it.To}
				case render.Circle:
					pts = []render.Point{it.Center}
				case render.Polyline:
					pts = it.Points
				}
				for _, pt := range pts {
					if in(pt) && pt.X > limit {
						t.Errorf("t = %.0f%% of End: %T at x=%.1f past the playhead x=%.1f", frac*100, it, pt.X, limit-1)
					}
				}
			}
		}
		if frac == 0 {
			for i, pl := range p.panels {
				if n := len(spanRects(l, th, pl)); n != 0 {
					t.Errorf("t = 0: panel %d draws %d bars, want none", i, n)
				}
			}
		}
	}
}

// TestRunningMeanRevealed: replay k of N shows once the playhead passes
// k/N of the run; the curve ends on the running mean of the replays shown.
func TestRunningMeanRevealed(t *testing.T) {
	r := build(t, map[string]string{"replays": "150"}, 4)
	for _, c := range []struct {
		frac float64
		want int
	}{{0, 1}, {0.5, 75}, {0.501, 76}, {1, 150}} {
		l, p := r.paint(r.End()*c.frac, v960)
		if p.shown != c.want {
			t.Errorf("t = %v End: %d replays shown, want %d", c.frac, p.shown, c.want)
		}
		var curve *render.Polyline
		for _, it := range l.Items {
			if pl, ok := it.(render.Polyline); ok && pl.Stroke == v960.Theme.Redundant {
				curve = &pl
			}
		}
		if c.want == 1 {
			if curve != nil {
				t.Errorf("one replay shown, but a curve is drawn")
			}
			continue
		}
		if curve == nil {
			t.Fatalf("t = %v End: no running-mean curve", c.frac)
		}
		if len(curve.Points) != c.want {
			t.Errorf("curve has %d points, want %d", len(curve.Points), c.want)
		}
		for _, pt := range curve.Points {
			if !scenetest.Inside(pt, p.plot, 1e-9) {
				t.Errorf("curve point %v outside the plot %v", pt, p.plot)
			}
		}
		// The last point's height against the references' lines.
		last := curve.Points[len(curve.Points)-1]
		lo, hi := refY(t, l, p)
		want := lo.y + (r.mean[c.want-1]-lo.v)/(hi.v-lo.v)*(hi.y-lo.y)
		if math.Abs(last.Y-want) > 1e-6 {
			t.Errorf("curve ends at y=%v, want %v for mean %v", last.Y, want, r.mean[c.want-1])
		}
	}
	// Many replays: at most about two points per pixel column.
	r = build(t, map[string]string{"replays": "2000"}, 4)
	l, p := r.paint(r.End(), v960)
	for _, it := range l.Items {
		if pl, ok := it.(render.Polyline); ok && float64(len(pl.Points)) > 2*p.plot.W()+2 {
			t.Errorf("%d points on a %v-pixel plot", len(pl.Points), p.plot.W())
		}
	}
}

type ref struct{ v, y float64 }

// refY finds the E[T] and T_s reference lines across the mean plot.
func refY(t *testing.T, l render.List, p *painter) (ts, e ref) {
	t.Helper()
	for _, it := range l.Items {
		ln, ok := it.(render.Line)
		if !ok || ln.From.X != p.plot.X0 || ln.To.X != p.plot.X1 || len(ln.Dash) == 0 {
			continue
		}
		switch ln.Stroke {
		case p.Th.Muted:
			ts = ref{p.r.sched.Planned(), ln.From.Y}
		case p.Th.Adopted:
			e = ref{p.r.expected, ln.From.Y}
		}
	}
	if ts.y == 0 || e.y == 0 || ts.y == e.y {
		t.Fatalf("reference lines T_s %+v, E[T] %+v not found", ts, e)
	}
	return ts, e
}

// TestFramesFitTheCanvas: at every size from a 640x360 embed to a 1080p
// slide, in each theme, all text lies on the canvas, no two labels
// overlap, and text is at least 13 px at 960x540.
func TestFramesFitTheCanvas(t *testing.T) {
	sizes := [][2]float64{{640, 360}, {960, 540}, {1280, 720}, {1920, 1080}, {800, 600}, {600, 800}}
	for _, set := range []map[string]string{
		nil, {"P": "2", "n": "1000"}, {"P": "32", "n": "1000000", "replays": "2000"},
		{"P": "16", "sigma": "20", "Ls": "100", "L": "100"}, {"n": "1", "replays": "1"},
		{"P": "5", "o": "20", "g": "20", "gap_sigma": "20"}, {"sigma": "0", "replays": "1"},
	} {
		r := build(t, set, 2)
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
