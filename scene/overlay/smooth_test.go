package overlay

import (
	"math"
	"testing"

	"commlab/render"
	"commlab/scene"
)

// TestArcsAreSmooth: every arc is drawn with segments that stay within
// maxSag of the true half ellipse, from a neighbour's arc to one wider
// than a 4K screen. A fixed 14 segments strayed 9 px on the widest arc at
// 960x540 (issue 14's visible corners).
func TestArcsAreSmooth(t *testing.T) {
	for _, r := range []float64{3, 20, 120, 450, 1000, 2400} {
		for _, h := range []float64{r / 10, r / 2, r} {
			n := arcSegsFor(r, h)
			worst := 0.0
			for i := range n {
				t0, t1 := math.Pi*float64(i)/float64(n), math.Pi*float64(i+1)/float64(n)
				ax, ay := -r*math.Cos(t0), h*math.Sin(t0)
				bx, by := -r*math.Cos(t1), h*math.Sin(t1)
				for k := 1; k < 16; k++ {
					th := t0 + (t1-t0)*float64(k)/16
					px, py := -r*math.Cos(th), h*math.Sin(th)
					worst = max(worst, distToSegment(px, py, ax, ay, bx, by))
				}
			}
			if worst > maxSag {
				t.Errorf("r = %v, h = %v: %d segments stray %.3f px, want at most %v", r, h, n, worst, maxSag)
			}
		}
	}
}

// TestFrameArcsAreSmooth checks the arcs of a real frame, the "all"
// policy's at 1920x1080: at no vertex of any polyline does the turn
// between its two segments, times their length, make a corner that
// stands more than two maxSag off a smooth curve.
func TestFrameArcsAreSmooth(t *testing.T) {
	r := build(t, map[string]string{KeyPolicy: "all"})
	l := r.Frame(r.End(), scene.View{W: 1920, H: 1080, Theme: render.Light()})
	lines := 0
	for _, it := range l.Items {
		pl, ok := it.(render.Polyline)
		if !ok || len(pl.Points) < 3 {
			continue
		}
		lines++
		for i := 1; i+1 < len(pl.Points); i++ {
			a, b, c := pl.Points[i-1], pl.Points[i], pl.Points[i+1]
			l1, l2 := math.Hypot(b.X-a.X, b.Y-a.Y), math.Hypot(c.X-b.X, c.Y-b.Y)
			if l1 == 0 || l2 == 0 {
				continue
			}
			cos := ((b.X-a.X)*(c.X-b.X) + (b.Y-a.Y)*(c.Y-b.Y)) / (l1 * l2)
			turn := math.Acos(min(1, max(-1, cos)))
			// A corner of angle turn between segments of length L sits
			// about L·turn/4 off the smooth curve through the segments'
			// midpoints.
			if off := min(l1, l2) * turn / 4; off > 2*maxSag {
				t.Fatalf("a polyline of %d points turns %.1f° between segments of %.0f and %.0f px: a visible corner (%.2f px)", len(pl.Points), turn*180/math.Pi, l1, l2, off)
			}
		}
	}
	if lines < 10 {
		t.Fatalf("only %d polylines in the frame", lines)
	}
}

func distToSegment(px, py, ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	u := ((px-ax)*dx + (py-ay)*dy) / (dx*dx + dy*dy)
	u = min(1, max(0, u))
	return math.Hypot(px-ax-u*dx, py-ay-u*dy)
}
