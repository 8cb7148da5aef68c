package main

import (
	"testing"

	"commlab/render"
)

func TestPlaceholderButterfly(t *testing.T) {
	const w, h, p = 800, 600, 8
	l := placeholder(w, h, p, 0.5)
	if l.W != w || l.H != h {
		t.Fatalf("size %vx%v, want %vx%v", l.W, l.H, w, h)
	}
	var arrows, rects int
	inside := func(pt render.Point) bool { return pt.X >= 0 && pt.X <= w && pt.Y >= 0 && pt.Y <= h }
	for _, it := range l.Items {
		switch it := it.(type) {
		case render.Arrow:
			arrows++
			if !inside(it.From) || !inside(it.To) {
				t.Errorf("arrow %v→%v leaves the canvas", it.From, it.To)
			}
		case render.Rect:
			rects++
			if !inside(it.Min) || !inside(it.Max) {
				t.Errorf("rect %v–%v leaves the canvas", it.Min, it.Max)
			}
		}
	}
	// log2(8) = 3 stages, every process sends once per stage.
	if arrows != p*3 {
		t.Errorf("%d exchanges, want %d", arrows, p*3)
	}
	if rects != p {
		t.Errorf("%d lanes, want %d", rects, p)
	}
}

func TestPlaceholderTooSmall(t *testing.T) {
	l := placeholder(10, 10, 8, 0)
	if len(l.Items) != 0 {
		t.Fatalf("a 10x10 canvas got %d items, want only the background", len(l.Items))
	}
}
