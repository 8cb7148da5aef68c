//go:build !(js && wasm)

package e2e

import (
	"bytes"
	"image"
	"image/png"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestScene boots the visualizer from wasm built from the current source
// and checks the JavaScript API and that the canvas shows a picture.
func TestScene(t *testing.T) {
	chromium(t) // skip before the slow part when there is no browser
	wasm := buildWasm(t)
	s := newSession(t, serveSite(t,
		mount{"/commlab.wasm", wasm},
		mount{"/wasm_exec.js", wasm},
	))
	s.open("scene.html?scene=butterfly")

	// The API appears when main starts; frames > 0 means Ebiten's loop runs.
	s.waitFor("window.commlab and a first update",
		`window.commlab !== undefined && window.commlab.state().frames > 0`, 20*time.Second)

	if v := eval[string](s, `window.commlab.version()`); v == "" {
		t.Error("commlab.version() is empty")
	} else {
		t.Logf("commlab.version() = %q", v)
	}
	st := eval[struct {
		Scene  string  `json:"scene"`
		Frames int64   `json:"frames"`
		Width  int     `json:"width"`
		Height int     `json:"height"`
		Head   float64 `json:"playhead"`
	}](s, `window.commlab.state()`)
	if st.Scene != "butterfly" {
		t.Errorf("state().scene = %q, want butterfly (from the URL)", st.Scene)
	}
	if st.Width <= 0 || st.Height <= 0 {
		t.Errorf("state() size %dx%d, want the window's", st.Width, st.Height)
	}
	if !eval[bool](s, `document.getElementById('status').hidden`) {
		t.Error("the loading note is still shown after commlab-ready")
	}
	if n := eval[int](s, `document.querySelectorAll('canvas').length`); n != 1 {
		t.Fatalf("%d canvases, want Ebiten's one", n)
	}

	// Ebiten draws with WebGL, whose buffer is not readable from script
	// after a frame; a screenshot shows what a person sees.
	shot, err := chromedp.Run(s.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	s.keep("scene.png", shot)
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	if n := colours(img, 4096); n < 3 {
		t.Errorf("the screenshot has %d colours; the placeholder picture has at least background, lanes and arrows", n)
	}
}

// colours counts the distinct colours in about samples pixels spread over img.
func colours(img image.Image, samples int) int {
	b := img.Bounds()
	step := max(1, int(float64(b.Dx()*b.Dy())/float64(samples)+0.5))
	seen := map[[4]uint32]bool{}
	for i := 0; i < b.Dx()*b.Dy(); i += step {
		r, g, bl, a := img.At(b.Min.X+i%b.Dx(), b.Min.Y+i/b.Dx()).RGBA()
		seen[[4]uint32{r, g, bl, a}] = true
	}
	return len(seen)
}
