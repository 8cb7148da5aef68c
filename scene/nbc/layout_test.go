package nbc

import (
	"fmt"
	"math"
	"testing"

	"commlab/render"
	"commlab/scene"
	"commlab/scene/scenetest"
)

var v960 = scene.View{W: 960, H: 540, Theme: render.Light()}

// TestSlotsAreTheCapacity: the ring has one slot per unit of capacity,
// in a row, and each handle in a slot is the one the engine's events put
// there.
func TestSlotsAreTheCapacity(t *testing.T) {
	for _, q := range []string{"1", "3", "8", "16"} {
		r := build(t, map[string]string{"queue": q, "collectives": "16"})
		for _, frac := range []float64{0, 0.01, 0.2, 1} {
			tt := r.End() * frac
			l, p := r.paint(tt, v960)
			if len(p.slots) != r.p.QueueCap {
				t.Fatalf("queue %s: %d slots drawn", q, len(p.slots))
			}
			n := 0
			for _, it := range l.Items {
				if rc, ok := it.(render.Rect); ok {
					for _, b := range p.slots {
						if scenetest.RectBox(rc) == b {
							n++
						}
					}
				}
			}
			if n != len(p.slots) {
				t.Errorf("queue %s: %d slot rectangles in the list, want %d", q, n, len(p.slots))
			}
			for i := 1; i < len(p.slots); i++ {
				if p.slots[i].X0 < p.slots[i-1].X1-1e-9 || p.slots[i].Y0 != p.slots[0].Y0 {
					t.Errorf("queue %s: slot %d at %v overlaps or leaves the row", q, i, p.slots[i])
				}
			}
			for slot, h := range p.slotHandle {
				if h < 0 {
					continue
				}
				e := r.tl[iTCC].handles[h]
				if e.slot != slot || e.enqueue > tt || e.dequeue <= tt {
					t.Errorf("queue %s t=%v: h%d drawn in slot %d, events say slot %d from %v to %v", q, tt, h, slot, e.slot, e.enqueue, e.dequeue)
				}
			}
		}
	}
}

// TestFullQueueBlocksMain: while a handle waits between its Block and its
// Enqueue the queue is full and the main thread's box is drawn blocked
// (hatched in the warning colour); otherwise it is not.
func TestFullQueueBlocksMain(t *testing.T) {
	r := build(t, nil)
	tl := r.tl[iTCC]
	seen := 0
	for id, h := range tl.handles {
		if h.block < 0 || h.enqueue <= h.block {
			continue
		}
		seen++
		// At the Block the queue is full; until the Enqueue (a slot may
		// free up while the hand-off wakes the main thread) it stays
		// drawn blocked.
		for _, tt := range []float64{h.block, (h.block + h.enqueue) / 2, math.Nextafter(h.enqueue, 0)} {
			l, p := r.paint(tt, v960)
			full := 0
			for _, x := range p.slotHandle {
				if x >= 0 {
					full++
				}
			}
			if tt == h.block && full != r.p.QueueCap {
				t.Errorf("h%d blocks at %v: %d of %d slots drawn full", id, tt, full, r.p.QueueCap)
			}
			if !p.mainBlock || !hatchedIn(l, v960.Theme, p.mainBox) {
				t.Errorf("h%d blocked at %v: main thread not drawn blocked", id, tt)
			}
		}
	}
	if seen == 0 {
		t.Fatal("the defaults never block the main thread")
	}
	last := tl.handles[len(tl.handles)-1]
	l, p := r.paint(last.enqueue, v960)
	if p.mainBlock || hatchedIn(l, v960.Theme, p.mainBox) {
		t.Errorf("at the last enqueue (%v) the main thread is still drawn blocked", last.enqueue)
	}
}

// hatchedIn reports whether a stall-coloured hatch line lies inside b.
func hatchedIn(l render.List, th render.Theme, b box) bool {
	for _, it := range l.Items {
		if ln, ok := it.(render.Line); ok && ln.Stroke == th.Stall && scenetest.Inside(ln.From, b, 1e-9) && scenetest.Inside(ln.To, b, 1e-9) {
			return true
		}
	}
	return false
}

// TestDoneFlagFlipsAtDone: a handle's flag is drawn filled from its Done
// event on and empty just before it.
func TestDoneFlagFlipsAtDone(t *testing.T) {
	for _, view := range []string{ViewTCC, ViewNBCF} {
		r := build(t, map[string]string{"view": view})
		tl := r.shown[0]
		th := v960.Theme
		for id, h := range tl.handles {
			for _, c := range []struct {
				tt  float64
				set bool
			}{{math.Nextafter(h.done, 0), false}, {h.done, true}} {
				l, p := r.paint(c.tt, v960)
				if p.flagSet[id] != c.set {
					t.Errorf("%s h%d at %v (done %v): flag set %v", view, id, c.tt, h.done, p.flagSet[id])
				}
				filled := false
				for _, it := range l.Items {
					if rc, ok := it.(render.Rect); ok && scenetest.RectBox(rc) == p.flags[id] && rc.Fill == th.Receive {
						filled = true
					}
				}
				if filled != c.set {
					t.Errorf("%s h%d at %v: flag drawn filled %v, want %v", view, id, c.tt, filled, c.set)
				}
			}
		}
	}
}

// TestPlayheadHidesFuture: nothing in a Gantt panel reaches past the
// playhead, but a span's one-pixel minimum width.
func TestPlayheadHidesFuture(t *testing.T) {
	for _, view := range []string{ViewTCC, ViewNBCF, ViewBoth} {
		r := build(t, map[string]string{"view": view})
		th := v960.Theme
		for _, frac := range []float64{0, 0.1, 0.4, 0.8} {
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
							continue
						}
						pts = []render.Point{it.Min, it.Max}
					case render.Line:
						if it.Stroke == th.Rule || it.Stroke == th.Playhead && it.From.X == it.To.X && it.Width >= 2 {
							continue
						}
						pts = []render.Point{it.From, it.To}
					}
					for _, pt := range pts {
						if in(pt) && pt.X > limit {
							t.Errorf("%s t=%.0f%%: %T at x=%.1f past the playhead x=%.1f", view, frac*100, it, pt.X, limit-1)
						}
					}
				}
			}
		}
	}
}

// TestComputeBars: one bar per compute thread, empty at 0 and full at the
// end, filled with the lane's share of its compute time.
func TestComputeBars(t *testing.T) {
	for _, set := range []map[string]string{nil, {"oversubscribe": "1"}, {"view": "both"}} {
		r := build(t, set)
		_, p := r.paint(0, v960)
		for g, tl := range r.shown {
			if len(p.barFrac[g]) != len(tl.computes) {
				t.Fatalf("%v: %d bars, %d compute lanes", set, len(p.barFrac[g]), len(tl.computes))
			}
			for _, f := range p.barFrac[g] {
				if f != 0 {
					t.Errorf("%v: a bar at %v at t = 0", set, f)
				}
			}
		}
		_, p = r.paint(r.End(), v960)
		for g := range r.shown {
			for i, f := range p.barFrac[g] {
				if math.Abs(f-1) > 1e-12 {
					t.Errorf("%v: bar %d at %v at the end", set, i, f)
				}
			}
		}
	}
	r := build(t, nil)
	if n, want := len(r.tl[iTCC].computes), r.p.ComputeThreads(); n != want {
		t.Errorf("TCC: %d compute lanes, want %d threads", n, want)
	}
}

// TestFramesFitTheCanvas: at every size from a 640x360 embed to a 1080p
// slide, in each theme and view, all text lies on the canvas, no two
// labels overlap, and text is at least 13 px at 960x540.
func TestFramesFitTheCanvas(t *testing.T) {
	sizes := [][2]float64{{640, 360}, {960, 540}, {1280, 720}, {1920, 1080}, {800, 600}}
	for _, set := range []map[string]string{
		nil, {"view": "nbcf"}, {"view": "both"},
		{"queue": "16", "collectives": "16", "cores": "32"},
		{"queue": "1", "collectives": "1", "cores": "2", "oversubscribe": "1"},
		{"view": "both", "collectives": "16", "msg": "1e8", "nodes": "32", "matrix": "200000"},
		{"view": "nbcf", "test_every": "10000", "matrix": "100"},
	} {
		r := build(t, set)
		for _, sz := range sizes {
			for _, th := range []render.Theme{render.Light(), render.Dark()} {
				for _, frac := range []float64{0, 0.05, 0.5, 1} {
					l, _ := r.paint(r.End()*frac, scene.View{W: sz[0], H: sz[1], Theme: th})
					what := fmt.Sprintf("%v t=%.0f%%", set, frac*100)
					scenetest.TextOnCanvas(t, l, 13, what)
					scenetest.NoOverlappingText(t, l, what)
				}
			}
		}
	}
}
