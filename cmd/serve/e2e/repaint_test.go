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

			if n, where, most := pixelDiffOver(got, want, filterSlack); n > 0 {
				t.Errorf("at t = %v the played frame differs from a freshly loaded one in %d pixels within %v, by up to %d levels (COMMLAB_E2E_SHOTS=dir keeps both)", st.T, n, where, most)
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

// filterSlack is how far, in 8-bit levels, a channel of a played frame may
// differ from the freshly loaded one. The painter samples its glyph atlas
// with linear filtering (for the strokes' profile and dash strips), at
// texel centres, where the result is the texel itself up to the rounding
// of a position; and a page that has drawn other text holds a glyph at
// another place in its atlas, so a rare pixel may round a level the other
// way. One CI run of 2026-11-25 (after the change to linear filtering)
// saw 5 pixels of the mmdl scene differ, out of 14 runs of it that day;
// how far was not recorded then (the message prints it now), so this is
// the likely cause, not a measured one. A region that damage missed keeps
// a stale picture, many levels off, and still fails.
const filterSlack = 2

// pixelDiff counts the pixels where a and b (same size, compared from their
// top-left corners) differ, and the box holding them.
func pixelDiff(a, b image.Image) (n int, where string) {
	n, where, _ = pixelDiffOver(a, b, 0)
	return n, where
}

// pixelDiffOver counts the pixels where a channel of a and b differs by
// more than slack 8-bit levels, the box holding them and the largest
// difference among them.
func pixelDiffOver(a, b image.Image, slack int) (n int, where string, most int) {
	ab, bb := a.Bounds(), b.Bounds()
	if ab.Size() != bb.Size() {
		return ab.Dx() * ab.Dy(), fmt.Sprintf("pictures of different sizes, %v and %v", ab.Size(), bb.Size()), 255
	}
	var box image.Rectangle
	for y := range ab.Dy() {
		for x := range ab.Dx() {
			r1, g1, b1, a1 := a.At(ab.Min.X+x, ab.Min.Y+y).RGBA()
			r2, g2, b2, a2 := b.At(bb.Min.X+x, bb.Min.Y+y).RGBA()
			d := 0
			for _, c := range [4][2]uint32{{r1, r2}, {g1, g2}, {b1, b2}, {a1, a2}} {
				d = max(d, abs(int(c[0]>>8)-int(c[1]>>8)))
			}
			if d > slack {
				n++
				most = max(most, d)
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return n, box.String(), most
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestPixelDiffOver: differences within the slack are not counted, a
// stale patch beyond it is, with its box and its largest difference.
func TestPixelDiffOver(t *testing.T) {
	a := image.NewRGBA(image.Rect(0, 0, 40, 30))
	b := image.NewRGBA(image.Rect(0, 0, 40, 30))
	for i := range a.Pix {
		a.Pix[i], b.Pix[i] = 200, 200
	}
	b.Pix[b.PixOffset(3, 4)] = 202 // a rounding: within the slack
	if n, _, _ := pixelDiffOver(a, b, filterSlack); n != 0 {
		t.Errorf("a 2-level rounding counted: %d pixels", n)
	}
	if n, _ := pixelDiff(a, b); n != 1 {
		t.Errorf("pixelDiff counts %d pixels for one that differs", n)
	}
	for y := 10; y < 12; y++ {
		for x := 20; x < 25; x++ {
			b.Pix[b.PixOffset(x, y)+1] = 150 // a stale patch
		}
	}
	n, where, most := pixelDiffOver(a, b, filterSlack)
	if n != 10 || where != image.Rect(20, 10, 25, 12).String() || most != 50 {
		t.Errorf("a stale 5x2 patch 50 levels off: %d pixels within %s, up to %d", n, where, most)
	}
}
