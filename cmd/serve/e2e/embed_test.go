//go:build !(js && wasm)

package e2e

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// hostHTML is a lecture slide's page: the snippet a scene page offers,
// 640x360, on another page of the same origin (the site's CSP allows
// framing by anyone; same origin lets the test reach into the frame).
const hostHTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>slide</title></head>
<body style="margin: 20px">
<h1>A slide</h1>
<iframe id="frame" src="/scene.html?scene=butterfly&amp;embed=1&amp;t=0" width="640" height="360" style="border: 0" title="butterfly allreduce"></iframe>
</body></html>
`

// frameJS is the embedded page's window.
const frameJS = `document.getElementById('frame').contentWindow`

// TestEmbed puts a scene in an iframe at 640x360, as a slide does: the
// canvas fills the frame, none of the page's chrome shows, the picture is
// drawn, the keyboard drives it once the frame has focus, and on a
// high-DPI screen the canvas has a pixel per device pixel.
func TestEmbed(t *testing.T) {
	host := t.TempDir()
	if err := os.WriteFile(filepath.Join(host, "host.html"), []byte(hostHTML), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newSession(t, serveScenes(t, mount{"/host/", host}))
	s.open("host/host.html")
	s.waitFor("the embedded scene to draw", `(() => { const w = `+frameJS+`; try { return !!w.commlab && `+
		`w.commlab.state().draws > 0 && w.commlab.state().firstFrameMs > 0; } catch (e) { return false; } })()`, bootTimeout)

	st := eval[pageState](s, frameJS+`.commlab.state()`)
	if !st.Embed || st.Scene != "butterfly" {
		t.Errorf("state() in the frame: embed %v, scene %q; want embed, butterfly", st.Embed, st.Scene)
	}
	if st.Width != 640 || st.Height != 360 {
		t.Errorf("state() in the frame is %vx%v, want 640x360", st.Width, st.Height)
	}
	if !eval[bool](s, frameJS+`.document.body.classList.contains('embed')`) {
		t.Error("the embedded page's body has no class embed")
	}
	canvas := eval[rect](s, `(() => { const r = `+frameJS+`.document.querySelector('canvas').getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; })()`)
	if math.Abs(canvas.X) > 0.5 || math.Abs(canvas.Y) > 0.5 || math.Abs(canvas.W-640) > 0.5 || math.Abs(canvas.H-360) > 0.5 {
		t.Errorf("the canvas is at %+v in the frame, want it to fill 640x360", canvas)
	}
	if sw, sh := eval[float64](s, frameJS+`.document.documentElement.scrollWidth`), eval[float64](s, frameJS+`.document.documentElement.scrollHeight`); sw > 640 || sh > 360 {
		t.Errorf("the embedded page scrolls: %vx%v in a 640x360 frame", sw, sh)
	}
	for _, id := range append(chromeIDs, "status", "errors") {
		if eval[bool](s, shown(frameJS+`.document.getElementById('`+id+`')`)) {
			t.Errorf("#%s shows in embed mode", id)
		}
	}
	frame := s.rectOf(`document.getElementById('frame')`)
	checkPicture(t, "the embedded canvas", s.shot("embed.png", frame))

	// The keyboard, with focus in the frame as after a click on a slide.
	if _, err := chromedp.Run(s.ctx, chromedp.Evaluate[chromedp.Void](frameJS+`.focus()`)); err != nil {
		t.Fatal(err)
	}
	state := func() pageState { return eval[pageState](s, frameJS+`.commlab.state()`) }
	press := func(key, what, predicate string) {
		t.Helper()
		if err := chromedp.Do(s.ctx, chromedp.KeyEvent(key)); err != nil {
			t.Fatal(err)
		}
		s.waitFor(what, `(() => { const st = `+frameJS+`.commlab.state(); return `+predicate+`; })()`, 5*time.Second)
	}
	press(" ", "space to play", `st.playing`)
	press(" ", "space again to pause", `!st.playing`)
	before := state()
	press(kb.ArrowRight, "ArrowRight to step forward", fmt.Sprintf(`st.t > %v`, before.T))
	stepped := state()
	press(kb.ArrowLeft, "ArrowLeft to step back", fmt.Sprintf(`st.t < %v`, stepped.T))
	press("+", "+ to speed up", fmt.Sprintf(`st.speed > %v`, before.Speed))
	press("-", "- to slow down", fmt.Sprintf(`st.speed === %v`, before.Speed))
	press(kb.ArrowRight, "ArrowRight to step forward again", `st.t > 0`)
	press(kb.Home, "Home to restart", `st.t === 0`)

	// High DPI: at two device pixels per CSS pixel the canvas keeps its
	// CSS size and doubles its pixels, so slides stay crisp.
	if err := chromedp.Do(s.ctx, chromedp.EmulateViewport(1024, 768, chromedp.EmulateScale(2))); err != nil {
		t.Fatal(err)
	}
	s.open("host/host.html")
	s.waitFor("the embedded scene at DPR 2 to draw", `(() => { const w = `+frameJS+`; try { return !!w.commlab && w.commlab.state().draws > 0; } catch (e) { return false; } })()`, bootTimeout)
	s.waitFor("a 1280x720 canvas behind the 640x360 frame at DPR 2",
		`(() => { const c = `+frameJS+`.document.querySelector('canvas'); return c.width === 1280 && c.height === 720; })()`, 5*time.Second)
}
