//go:build !(js && wasm)

package e2e

import (
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"commlab/scene"
)

// The first ten minutes of a new user (issue 14, "Scenes"): what a person
// meets on the scene page before reading any documentation.

// notice is one of state().notices.
type notice struct {
	Key     string `json:"key"`
	Message string `json:"message"`
}

// TestDependentDefaults: changing P never meets a refusal because of T's
// default (T follows K = log2 P), an explicit T that no longer fits is
// moved into range with a notice on the page naming P and T, and a URL
// that gives only P gets T = K without a word.
func TestDependentDefaults(t *testing.T) {
	s := newSession(t, serveScenes(t))
	for _, name := range []string{"butterfly", "jitter"} {
		s.openScene("scene=" + name)
		if r := s.setParams(map[string]any{"P": 16}); !r.OK {
			t.Errorf("%s: setParams({P: 16}) from the defaults = %+v, want ok (T follows K)", name, r)
		}
		if st := s.state(); st.Params["T"] != "4" || st.Params["P"] != "16" {
			t.Errorf("%s: after P = 16, P = %s and T = %s; want T = K = 4", name, st.Params["P"], st.Params["T"])
		}
		if n := eval[[]notice](s, `window.commlab.state().notices`); len(n) != 0 {
			t.Errorf("%s: T following its default gave notices %+v", name, n)
		}
	}

	// Through the control, as a person does it.
	s.openScene("scene=butterfly")
	s.setControl("P", "8")
	s.waitFor("P = 8 from its control", `window.commlab.state().params.P === "8"`, 10*time.Second)
	if st := s.state(); st.Params["T"] != "3" || len(st.Errors) > 0 {
		t.Errorf("P = 8 from the control: T = %s, errors %+v; want T = 3 and no error", st.Params["T"], st.Errors)
	}
	if txt := eval[string](s, controlJS("T")+`.value`); txt != "3" {
		t.Errorf("the T control shows %q after P = 8, want 3", txt)
	}

	// An explicit T below K is kept; when P shrinks under it, it is moved
	// into range and the page says so, naming what changed and both fields.
	if r := s.setParams(map[string]any{"T": 2}); !r.OK {
		t.Fatalf("setParams({T: 2}) = %+v", r)
	}
	if r := s.setParams(map[string]any{"P": 2}); !r.OK {
		t.Fatalf("setParams({P: 2}) with T = 2 = %+v, want ok with a notice", r)
	}
	if st := s.state(); st.Params["T"] != "1" {
		t.Errorf("P = 2 with T = 2: T = %s, want 1 (K)", st.Params["T"])
	}
	n := eval[[]notice](s, `window.commlab.state().notices`)
	if len(n) != 1 || n[0].Key != "T" || !strings.Contains(n[0].Message, "P = 2") || !strings.Contains(n[0].Message, "T = 2") || !strings.Contains(n[0].Message, "T is now 1") {
		t.Errorf("notices %+v; want one on T naming P = 2, T = 2 and T is now 1", n)
	}
	s.waitFor("the notice on the page", shown(`document.getElementById('notices')`), 5*time.Second)
	if txt := eval[string](s, `document.getElementById('notices').textContent`); !strings.Contains(txt, "T is now 1") {
		t.Errorf("#notices says %q", txt)
	}
	if txt := eval[string](s, `document.querySelector('#controls .field-notice[data-key="T"]').textContent`); !strings.Contains(txt, "T is now 1") {
		t.Errorf("the T field's notice says %q", txt)
	}
	s.snap("notice.png")

	// Asking for a T that does not fit is refused on T, naming P's bound.
	r := s.setParams(map[string]any{"T": 3})
	if r.OK || len(r.Errors) != 1 || r.Errors[0].Key != "T" || !strings.Contains(r.Errors[0].Message, "K = log2 P = 1") {
		t.Errorf("setParams({T: 3}) at P = 2 = %+v, want one error on T naming K = log2 P = 1", r)
	}

	// A URL with P alone.
	st := s.openScene("scene=butterfly&P=16")
	if len(st.Errors) > 0 || st.Params["T"] != "4" {
		t.Errorf("?P=16: T = %s, errors %+v; want T = 4 and no error", st.Params["T"], st.Errors)
	}
	// The overlay's processes follow its nodes.
	st = s.openScene("scene=overlay&nodes=24")
	if len(st.Errors) > 0 || st.Params["procs"] != "24" {
		t.Errorf("overlay ?nodes=24: procs = %s, errors %+v; want procs = 24 and no error", st.Params["procs"], st.Errors)
	}
}

// TestNumbersPanel: the panel lists each number with the scene's label and
// in its own unit, written by the Go side, in the scene's order: a speedup
// is a ratio, a count has no unit, a time has its prefix.
func TestNumbersPanel(t *testing.T) {
	reg := scenes(t)
	s := newSession(t, serveScenes(t))
	for _, name := range []string{"butterfly", "tcc", "mmdl"} {
		sc, ok := reg.Lookup(name)
		if !ok {
			t.Fatalf("no scene %s", name)
		}
		s.openScene("scene=" + name)
		def := scene.Default(sc)
		run, err := sc.Build(def.Values, def.Seed)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, n := range scene.Report(run) {
			want = append(want, n.Label+" = "+n.Text(sc.Info()))
		}
		got := eval[[]string](s, `[...document.querySelectorAll('#numbers dt')].map(dt => dt.textContent + ' = ' + dt.nextElementSibling.textContent)`)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: #numbers lists\n %s\nwant (scene.Report, Number.Text)\n %s", name, strings.Join(got, "\n "), strings.Join(want, "\n "))
		}
	}
	// The two cases, spelled out.
	s.openScene("scene=tcc")
	if txt := eval[string](s, `document.querySelector('#numbers dd[data-key="speedup"]').textContent`); !strings.HasSuffix(txt, "×") {
		t.Errorf("tcc speedup reads %q, want a ratio (…×), not seconds", txt)
	}
	s.openScene("scene=mmdl")
	if txt := eval[string](s, `document.querySelector('#numbers dd[data-key="moved"]').textContent`); strings.HasSuffix(txt, "s") {
		t.Errorf("mmdl tasks moved reads %q, want a count, not seconds", txt)
	}
}

// TestBadURLEdges: a key given twice is reported, not resolved; a long bad
// value is cut in the message; the rest of the URL still applies.
func TestBadURLEdges(t *testing.T) {
	s := newSession(t, serveScenes(t))
	long := strings.Repeat("7", 4000)
	st := s.openScene("scene=butterfly&P=16&P=32&N=" + long + "&seed=5")
	if st.Params["P"] != "64" || st.Seed != 5 {
		t.Errorf("P given twice: P = %s, seed %v; want the default 64 and seed 5", st.Params["P"], st.Seed)
	}
	var msgs []string
	for _, e := range st.Errors {
		msgs = append(msgs, e.Message)
		if len(e.Message) > 300 || len(e.Value) > 200 {
			t.Errorf("error on %s is %d bytes (value %d): not cut", e.Key, len(e.Message), len(e.Value))
		}
	}
	all := strings.Join(msgs, "\n")
	if len(st.Errors) != 2 || !strings.Contains(all, "the URL gives P 2 times") || !strings.Contains(all, "(4000 characters)") {
		t.Errorf("errors:\n %s\nwant P repeated and N cut", all)
	}
	if txt := eval[string](s, `document.getElementById('errors').textContent`); len(txt) > 600 || !strings.Contains(txt, "2 times") {
		t.Errorf("#errors says %d bytes: %.200q", len(txt), txt)
	}
}

// TestBigInt: a BigInt anywhere in the API is a bad type like any other,
// with a message and no stack in the console (the harness fails the test
// on any console error).
func TestBigInt(t *testing.T) {
	s := newSession(t, serveScenes(t))
	before := s.openScene("scene=butterfly")
	r := s.call(`window.commlab.setParams({P: 16n})`)
	if r.OK || len(r.Errors) != 1 || r.Errors[0].Key != "P" || !strings.Contains(r.Errors[0].Message, "bigint") {
		t.Errorf("setParams({P: 16n}) = %+v, want one error on P naming the bigint", r)
	}
	for _, expr := range []string{`window.commlab.setParams(16n)`, `window.commlab.seek(1n)`} {
		if r := s.call(expr); r.OK || len(r.Errors) != 1 {
			t.Errorf("%s = %+v, want one error", expr, r)
		}
	}
	if v := eval[any](s, `window.commlab.pngDataURL(2n)`); v != nil {
		t.Errorf("pngDataURL(2n) = %.40v, want null", v)
	}
	if st := s.state(); st.Query != before.Query {
		t.Errorf("rejected calls changed the view: %s, before %s", st.Query, before.Query)
	}
	// step's direction is only its sign: a BigInt steps forward, quietly.
	eval[any](s, `window.commlab.step(1n)`)
}

// TestThemeAndWidth: the dark theme is the whole page's, not only the
// canvas's, and the page works at 1280 and at 390 CSS pixels wide: nothing
// scrolls sideways, the transport and the canvas fit, the panel is below.
// The screenshots (COMMLAB_E2E_SHOTS) are the ones to look at.
func TestThemeAndWidth(t *testing.T) {
	base := serveScenes(t)
	for _, w := range []int{1280, 390} {
		h := 800
		if w == 390 {
			h = 844
		}
		// A phone's width: Chromium's window is at least 500 px wide, so the
		// viewport is emulated, as the devtools' device mode does.
		s := newSession(t, base)
		if err := chromedp.Do(s.ctx, chromedp.EmulateViewport(int64(w), int64(h))); err != nil {
			t.Fatal(err)
		}
		for _, theme := range []string{"light", "dark"} {
			for _, name := range []string{"butterfly", "tcc"} {
				what := fmt.Sprintf("%s %s at %d px", name, theme, w)
				s.openScene("scene=" + name + "&theme=" + theme)
				bg := eval[[]float64](s, `(() => { const m = getComputedStyle(document.querySelector('.panel')).backgroundColor.match(/[0-9.]+/g).map(Number); return m.slice(0, 3); })()`)
				luma := (0.2126*bg[0] + 0.7152*bg[1] + 0.0722*bg[2]) / 255
				if theme == "dark" && luma > 0.3 || theme == "light" && luma < 0.7 {
					t.Errorf("%s: the panel's background %v (luma %.2f) is not %s", what, bg, luma, theme)
				}
				ink := eval[[]float64](s, `getComputedStyle(document.querySelector('.panel h1')).color.match(/[0-9.]+/g).map(Number).slice(0, 3)`)
				if il := (0.2126*ink[0] + 0.7152*ink[1] + 0.0722*ink[2]) / 255; math.Abs(il-luma) < 0.5 {
					t.Errorf("%s: heading colour %v on %v: too little contrast", what, ink, bg)
				}
				if sw := eval[float64](s, `document.documentElement.scrollWidth`); sw > float64(w) {
					t.Errorf("%s: the page is %v px wide: it scrolls sideways", what, sw)
				}
				for _, id := range []string{"play", "step-fwd", "faster", "scrub", "time"} {
					r := s.rectOf(`document.getElementById('` + id + `')`)
					if r.X < 0 || r.X+r.W > float64(w)+0.5 || r.W < 1 {
						t.Errorf("%s: #%s at %+v is not within the %d px window", what, id, r, w)
					}
				}
				c := s.rectOf(`document.querySelector('canvas')`)
				if c.W > float64(w)+0.5 || c.W < 0.9*float64(min(w, 1280))-400 {
					t.Errorf("%s: the canvas is %+v", what, c)
				}
				checkPicture(t, what, s.shot(fmt.Sprintf("page-%s-%s-%d.png", name, theme, w), c))
				s.snap(fmt.Sprintf("whole-%s-%s-%d.png", name, theme, w))
			}
		}
	}
}

// slideHTML is a slide deck's page with a scene in a frame below a tall
// block, so that the frame can be scrolled out of view.
const slideHTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>deck</title></head>
<body style="margin: 0">
<div id="spacer" style="height: 10px"></div>
<iframe id="frame" src="/scene.html?scene=butterfly&amp;P=16&amp;embed=1&amp;autoplay=1&amp;loop=1" width="640" height="360" style="border: 0" title="scene"></iframe>
<div style="height: 3000px"></div>
</body></html>
`

// TestHiddenStopsDrawing: a scene scrolled out of view, or on a reveal.js
// slide that was left (its "slide:stop" message), stops painting and its
// playhead waits; back in view (or "slide:start") it goes on from there.
func TestHiddenStopsDrawing(t *testing.T) {
	host := t.TempDir()
	writeFile(t, host, "deck.html", slideHTML)
	s := newSession(t, serveScenes(t, mount{"/host/", host}))
	s.open("host/deck.html")
	fs := func(expr string) string { return frameJS + `.commlab.state().` + expr }
	s.waitFor("the framed scene to play", `(() => { try { return `+fs(`playing`)+` && `+fs(`draws`)+` > 2; } catch (e) { return false; } })()`, bootTimeout)

	frozen := func(what string) {
		t.Helper()
		s.waitFor(what+": visible false", `!`+fs(`visible`), 5*time.Second)
		time.Sleep(200 * time.Millisecond)
		t0, d0 := eval[float64](s, fs(`t`)), eval[float64](s, fs(`draws`))
		time.Sleep(700 * time.Millisecond)
		if t1, d1 := eval[float64](s, fs(`t`)), eval[float64](s, fs(`draws`)); t1 != t0 || d1 != d0 {
			t.Errorf("%s: the playhead moved %v → %v and %v frames were painted, want none", what, t0, t1, d1-d0)
		}
	}
	resumed := func(what string) {
		t.Helper()
		t0, d0 := eval[float64](s, fs(`t`)), eval[float64](s, fs(`draws`))
		s.waitFor(what+": visible again and painting", fs(`visible`)+` && `+fs(`draws`)+` > `+fmt.Sprint(d0), 5*time.Second)
		t1 := eval[float64](s, fs(`t`))
		end := eval[float64](s, fs(`end`))
		// On from where it stopped: not back to 0, and not jumped ahead by
		// the time it was hidden (a loop may wrap at most once).
		if !(t1 >= t0 && t1-t0 < 0.5*end) && !(t1 < t0 && t1 < 0.5*end) {
			t.Errorf("%s: resumed at %v after stopping at %v (end %v)", what, t1, t0, end)
		}
	}

	eval[any](s, frameJS+`.postMessage('slide:stop', '*')`)
	frozen("after slide:stop")
	eval[any](s, frameJS+`.postMessage('slide:start', '*')`)
	resumed("after slide:start")

	eval[any](s, `window.scrollTo(0, 1500)`)
	frozen("scrolled out of view")
	eval[any](s, `window.scrollTo(0, 0)`)
	resumed("scrolled back")
}

// TestScaleCrisp: on a slide that a deck scales up with a CSS transform,
// the canvas gets the scale's extra pixels: from the URL's scale for a
// frame of any origin, measured for a frame of the same origin.
func TestScaleCrisp(t *testing.T) {
	host := t.TempDir()
	writeFile(t, host, "scaled.html", `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>scaled deck</title></head>
<body style="margin: 0">
<div style="transform: scale(2); transform-origin: 0 0; width: 640px; height: 360px">
<iframe id="frame" src="/scene.html?scene=jitter&amp;embed=1" width="640" height="360" style="border: 0" title="scene"></iframe>
</div></body></html>`)
	writeFile(t, host, "param.html", `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>deck</title></head>
<body style="margin: 0">
<iframe id="frame" src="/scene.html?scene=jitter&amp;embed=1&amp;scale=1.5" width="640" height="360" style="border: 0" title="scene"></iframe>
</body></html>`)
	s := newSession(t, serveScenes(t, mount{"/host/", host}))
	for _, c := range []struct {
		page string
		w, h int
	}{{"scaled.html", 1280, 720}, {"param.html", 960, 540}} {
		s.open("host/" + c.page)
		s.waitFor(c.page+": the framed scene draws", `(() => { try { return `+frameJS+`.commlab.state().draws > 0; } catch (e) { return false; } })()`, bootTimeout)
		s.waitFor(fmt.Sprintf("%s: a %dx%d canvas", c.page, c.w, c.h),
			fmt.Sprintf(`(() => { const c = %s.document.querySelector('canvas'); return c.width === %d && c.height === %d; })()`, frameJS, c.w, c.h), 5*time.Second)
		if st := eval[pageState](s, frameJS+`.commlab.state()`); st.Width != 640 || st.Height != 360 || len(st.Errors) > 0 {
			t.Errorf("%s: state() %vx%v CSS px, errors %+v; want 640x360 and none", c.page, st.Width, st.Height, st.Errors)
		}
	}
	s.snap("scaled.png")
	// A bad scale is named on the page, with its range.
	st := s.openScene("scene=jitter&scale=9")
	if len(st.Errors) != 1 || st.Errors[0].Key != "scale" || !strings.Contains(st.Errors[0].Want, "[0.5, 4]") {
		t.Errorf("?scale=9: errors %+v, want one on scale naming [0.5, 4]", st.Errors)
	}
}

// TestEmbedBuilder: the snippet follows the builder's autoplay, loop, start
// and size, and the snippet's own URL opens the view it promises.
func TestEmbedBuilder(t *testing.T) {
	s := newSession(t, serveScenes(t))
	s.openScene("scene=butterfly&P=16&t=0.000001")
	set := func(id, js string) {
		t.Helper()
		eval[any](s, `(() => { const el = document.getElementById('`+id+`'); `+js+`; el.dispatchEvent(new Event('change', {bubbles: true})); return null; })()`)
	}
	snippet := func() string { return eval[string](s, `document.getElementById('embed-code').value`) }
	src := func(snip string) url.Values {
		t.Helper()
		i := strings.Index(snip, `src="`)
		j := strings.Index(snip[i+5:], `"`)
		u, err := url.Parse(strings.ReplaceAll(snip[i+5:i+5+j], "&amp;", "&"))
		if err != nil {
			t.Fatal(err)
		}
		return u.Query()
	}
	q := src(snippet())
	if tq, err := strconv.ParseFloat(q.Get("t"), 64); err != nil || tq != 1e-6 || q.Get("embed") != "1" || q.Get("autoplay") != "1" || q.Get("loop") != "1" || q.Get("P") != "16" {
		t.Errorf("default snippet query %v, want embed, autoplay, loop, t = the playhead, P = 16", q)
	}
	set("embed-autoplay", "el.checked = false")
	set("embed-loop", "el.checked = false")
	set("embed-start", "el.value = 'moment'")
	set("embed-size", "el.value = '1280x720'")
	set("embed-scale", "el.value = '2'")
	snip := snippet()
	q = src(snip)
	if q.Has("autoplay") || q.Has("loop") || q.Has("t") || q.Get("scale") != "2" || !strings.Contains(snip, `width="1280" height="720"`) {
		t.Errorf("snippet after the builder's changes: %s", snip)
	}
	set("embed-start", "el.value = 'beginning'")
	set("embed-size", "el.value = 'fluid'")
	set("embed-autoplay", "el.checked = true")
	snip = snippet()
	q = src(snip)
	if q.Get("t") != "0" || q.Get("autoplay") != "1" || !strings.Contains(snip, "aspect-ratio: 16 / 9") {
		t.Errorf("snippet from the beginning, full width: %s", snip)
	}
	eval[any](s, `document.getElementById('h-embed').scrollIntoView()`)
	s.snap("embed-builder.png")
	q.Del("scale")
	st := s.openScene(q.Encode())
	if !st.Embed || !st.Autoplay || st.Params["P"] != "16" {
		t.Errorf("the snippet's URL opens embed %v autoplay %v P %s", st.Embed, st.Autoplay, st.Params["P"])
	}
}

// writeFile writes a host page for a test into dir.
func writeFile(t *testing.T, dir, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
