//go:build !(js && wasm)

package e2e

import (
	"fmt"
	"image"
	"net/url"
	"testing"
	"time"
)

// TestPlayedFrameMatchesLoaded checks the painter's partial repaints: while
// a scene plays, the page repaints only the regions render.Damage finds
// changed, on a canvas that keeps its pixels. So for every scene, the
// frame a page reaches by playing must be, pixel for pixel, the frame a
// fresh page draws whole for the same state; an item whose bounds Damage
// underestimates leaves a trail that shows here. (scene/catalog checks the
// same with the software rasteriser; this is the WebGL painter's edges,
// glyphs and heat maps.)
func TestPlayedFrameMatchesLoaded(t *testing.T) {
	reg := scenes(t)
	base := serveScenes(t)
	for _, sc := range reg {
		name := sc.Info().Name
		t.Run(name, func(t *testing.T) {
			played := newSession(t, base)
			played.openScene("scene=" + url.QueryEscape(name) + "&embed=1")
			if r := played.call(`window.commlab.seek(0)`); !r.OK {
				t.Fatalf("seek(0) = %+v", r)
			}
			eval[any](played, `window.commlab.play()`)
			// A fifth of the run: messages in flight, stalls, queues and
			// rounds under way in every scene.
			time.Sleep(1500 * time.Millisecond)
			eval[any](played, `window.commlab.pause()`)
			st := played.stillFrame()
			if !(st.T > 0 && st.T < st.End) {
				t.Fatalf("paused at t = %v of %v; want a frame mid-run", st.T, st.End)
			}
			box := played.rectOf(`document.querySelector('canvas')`)
			got := played.shot("played-"+name+".png", box)

			loaded := newSession(t, base)
			lst := loaded.openScene(st.Query)
			if err := sameState(st, lst); err != nil {
				t.Fatalf("the played page's URL does not reproduce its state: %v", err)
			}
			loaded.stillFrame()
			want := loaded.shot("loaded-"+name+".png", loaded.rectOf(`document.querySelector('canvas')`))

			if n, where := pixelDiff(got, want); n > 0 {
				t.Errorf("at t = %v the played frame differs from a freshly loaded one in %d pixels within %v (COMMLAB_E2E_SHOTS=dir keeps both)", st.T, n, where)
			}
		})
	}
}

// stillFrame waits until the page has painted its current state and stopped
// painting (paused, the last frame drawn), and returns that state.
func (s *session) stillFrame() pageState {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	last := s.state()
	for time.Now().Before(deadline) {
		time.Sleep(250 * time.Millisecond)
		st := s.state()
		if !st.Playing && st.Draws == last.Draws && st.T == last.T {
			return st
		}
		last = st
	}
	s.t.Fatalf("the page kept painting for 10 s after pause (draws %v, t %v)", last.Draws, last.T)
	return last
}

// pixelDiff counts the pixels where a and b (same size, compared from their
// top-left corners) differ, and the box holding them.
func pixelDiff(a, b image.Image) (n int, where string) {
	ab, bb := a.Bounds(), b.Bounds()
	if ab.Size() != bb.Size() {
		return ab.Dx() * ab.Dy(), fmt.Sprintf("pictures of different sizes, %v and %v", ab.Size(), bb.Size())
	}
	var box image.Rectangle
	for y := range ab.Dy() {
		for x := range ab.Dx() {
			r1, g1, b1, a1 := a.At(ab.Min.X+x, ab.Min.Y+y).RGBA()
			r2, g2, b2, a2 := b.At(bb.Min.X+x, bb.Min.Y+y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				n++
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return n, box.String()
}
