//go:build !(js && wasm)

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The page contract, as the tests read it: window.commlab's state(), the
// errors it reports, and the DOM the controls live in. README.md documents
// the same API for pages that embed the visualizer.

// pageState is commlab.state().
type pageState struct {
	Scene        string             `json:"scene"`
	Params       map[string]string  `json:"params"`
	Seed         float64            `json:"seed"`
	T            float64            `json:"t"`
	End          float64            `json:"end"`
	Playing      bool               `json:"playing"`
	Speed        float64            `json:"speed"`
	Theme        string             `json:"theme"`
	Embed        bool               `json:"embed"`
	Autoplay     bool               `json:"autoplay"`
	Loop         bool               `json:"loop"`
	Query        string             `json:"query"`
	Numbers      map[string]float64 `json:"numbers"`
	Errors       []pageError        `json:"errors"`
	Frames       float64            `json:"frames"`
	Draws        float64            `json:"draws"`
	FirstFrameMs float64            `json:"firstFrameMs"`
	Width        float64            `json:"width"`
	Height       float64            `json:"height"`
}

// pageError is one bad value the page reports: state().errors[i], and the
// errors setParams and seek return.
type pageError struct {
	Key     string `json:"key"`
	Value   string `json:"value"`
	Want    string `json:"want"`
	Message string `json:"message"`
}

// result is what setParams and seek return.
type result struct {
	OK     bool        `json:"ok"`
	Errors []pageError `json:"errors"`
}

// bootTimeout is how long a scene page may take to start and draw: the
// wasm compiles in a second or two, but CI's two cores are shared with the
// rest of `make test`.
const bootTimeout = 45 * time.Second

// ready is true once the API exists and a built run has been drawn, and
// the URL's run is built (a heavy one builds in steps while the scene's
// defaults are drawn), and the scene's still has made way for it.
const ready = `window.commlab !== undefined && window.commlab.state().draws > 0 && window.commlab.state().firstFrameMs > 0 && !window.commlab.state().building && !document.getElementById('still')`

// openScene opens scene.html?query and waits until it has drawn a run.
func (s *session) openScene(query string) pageState {
	s.t.Helper()
	s.open("scene.html?" + query)
	s.waitFor("scene.html?"+query+" to draw", ready, bootTimeout)
	return s.state()
}

// state returns commlab.state().
func (s *session) state() pageState {
	s.t.Helper()
	return eval[pageState](s, `window.commlab.state()`)
}

// call evaluates a commlab API call that returns {ok, errors}.
func (s *session) call(expr string) result {
	s.t.Helper()
	return eval[result](s, expr)
}

// setParams calls commlab.setParams(obj) with obj given as Go values and
// returns its final outcome, once a run that builds in steps is built
// (the answer's done).
func (s *session) setParams(obj map[string]any) result {
	s.t.Helper()
	js, err := json.Marshal(obj)
	if err != nil {
		s.t.Fatal(err)
	}
	return s.call(`window.commlab.setParams(` + string(js) + `).done`)
}

// settled waits until the page's address bar holds its state, the
// contract's promise after every change (while paused, at once).
func (s *session) settled(what string) pageState {
	s.t.Helper()
	s.waitFor(what+": location.search == '?' + state().query",
		`location.search === '?' + window.commlab.state().query`, 5*time.Second)
	return s.state()
}

// numberBits returns state().numbers as the hex of each float64's bits, so
// the comparison with the native engine is bit for bit and does not
// depend on how a number is printed.
func (s *session) numberBits() map[string]string {
	s.t.Helper()
	return eval[map[string]string](s, `(() => {
		const n = window.commlab.state().numbers, out = {}, d = new DataView(new ArrayBuffer(8));
		for (const k of Object.keys(n)) { d.setFloat64(0, n[k]); out[k] = d.getBigUint64(0).toString(16); }
		return out;
	})()`)
}

func bits(x float64) string { return strconv.FormatUint(math.Float64bits(x), 16) }

// controlJS is the element of field key in #controls (not its .field-error).
func controlJS(key string) string {
	return `document.querySelector('#controls :is(input, select, textarea)[data-key="` + key + `"]')`
}

// setControl sets the control of field key to value as a person would (the
// value, then input and change events) and returns "" or what went wrong.
func (s *session) setControl(key, value string) {
	s.t.Helper()
	msg := eval[string](s, `((el, value) => {
		if (!el) return 'no control for the field in #controls';
		if (el.type === 'checkbox') el.checked = value === '1';
		else el.value = value;
		if (el.type !== 'checkbox' && el.value !== value) return 'the ' + el.type + ' control took ' + JSON.stringify(value) + ' as ' + JSON.stringify(el.value);
		el.dispatchEvent(new Event('input', {bubbles: true}));
		el.dispatchEvent(new Event('change', {bubbles: true}));
		return '';
	})(`+controlJS(key)+`, `+strconv.Quote(value)+`)`)
	if msg != "" {
		s.t.Fatalf("setting control %s to %q: %s", key, value, msg)
	}
}

// shown is JS that is true when element el is rendered (not hidden, not
// display:none, with a box).
func shown(el string) string {
	return `((el) => !!el && !el.hidden && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden')(` + el + `)`
}

// rect is a box in CSS pixels.
type rect struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"width"`
	H float64 `json:"height"`
}

// rectOf returns the bounding box of the element expression el.
func (s *session) rectOf(el string) rect {
	s.t.Helper()
	return eval[rect](s, `(() => { const r = (`+el+`).getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; })()`)
}

// shot takes a screenshot of the viewport and crops it to r. Ebiten draws
// with WebGL, whose buffer script cannot read back after a frame, so the
// pixel checks look at what a person would see.
func (s *session) shot(name string, r rect) image.Image {
	s.t.Helper()
	data, err := chromedp.Run(s.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		s.t.Fatalf("screenshot: %v", err)
	}
	s.keep(name, data)
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		s.t.Fatal(err)
	}
	crop := image.Rect(int(math.Ceil(r.X)), int(math.Ceil(r.Y)), int(r.X+r.W), int(r.Y+r.H)).Intersect(img.Bounds())
	if crop.Empty() {
		s.t.Fatalf("screenshot %s: the box %+v is outside the %v viewport", name, r, img.Bounds())
	}
	return img.(interface {
		SubImage(image.Rectangle) image.Image
	}).SubImage(crop)
}

// checkPicture fails when img is not a picture: fewer than 4 colours, or
// less than 1% of it differing from the background (its commonest colour).
func checkPicture(t *testing.T, what string, img image.Image) {
	t.Helper()
	n, ink := colours(img, 1<<14)
	if n < 4 || ink < 0.01 {
		t.Errorf("%s is blank: %d colours, %.2f%% of it not background (want 4 colours and 1%%)", what, n, 100*ink)
	}
}

// colours samples about samples pixels spread over img and returns how many
// distinct colours they have and the fraction that differ from the
// commonest one.
func colours(img image.Image, samples int) (n int, ink float64) {
	b := img.Bounds()
	area := b.Dx() * b.Dy()
	if area == 0 {
		return 0, 0
	}
	step := max(1, area/samples)
	seen := map[[4]uint32]int{}
	total := 0
	for i := 0; i < area; i += step {
		r, g, bl, a := img.At(b.Min.X+i%b.Dx(), b.Min.Y+i/b.Dx()).RGBA()
		seen[[4]uint32{r, g, bl, a}]++
		total++
	}
	most := 0
	for _, c := range seen {
		most = max(most, c)
	}
	return len(seen), 1 - float64(most)/float64(total)
}

// sameState compares what a URL must reproduce: parameters, seed, playhead,
// speed, theme and the canonical query.
func sameState(a, b pageState) error {
	var diffs []string
	if a.Scene != b.Scene {
		diffs = append(diffs, fmt.Sprintf("scene %q != %q", a.Scene, b.Scene))
	}
	for k, v := range a.Params {
		if b.Params[k] != v {
			diffs = append(diffs, fmt.Sprintf("%s %q != %q", k, v, b.Params[k]))
		}
	}
	if len(a.Params) != len(b.Params) {
		diffs = append(diffs, fmt.Sprintf("%d params != %d", len(a.Params), len(b.Params)))
	}
	if a.Seed != b.Seed {
		diffs = append(diffs, fmt.Sprintf("seed %v != %v", a.Seed, b.Seed))
	}
	if bits(a.T) != bits(b.T) {
		diffs = append(diffs, fmt.Sprintf("t %v != %v", a.T, b.T))
	}
	if a.Speed != b.Speed {
		diffs = append(diffs, fmt.Sprintf("speed %v != %v", a.Speed, b.Speed))
	}
	if a.Theme != b.Theme {
		diffs = append(diffs, fmt.Sprintf("theme %q != %q", a.Theme, b.Theme))
	}
	if a.Query != b.Query {
		diffs = append(diffs, fmt.Sprintf("query %q != %q", a.Query, b.Query))
	}
	if len(diffs) > 0 {
		return fmt.Errorf("%s", strings.Join(diffs, "; "))
	}
	return nil
}
