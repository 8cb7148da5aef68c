//go:build !(js && wasm)

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"commlab/cmd/serve/sitehttp"
	"commlab/scene/catalog"
)

// stillJS returns what the page says of its still: whether the element is
// there, the image's address and size, and the element-timing entry of
// its paint (which outlives the element).
const stillJS = `(async () => {
	const el = document.getElementById('still');
	const entries = await new Promise((resolve) => {
		const got = [];
		new PerformanceObserver((l) => { for (const e of l.getEntries()) got.push(e); })
			.observe({type: 'element', buffered: true});
		setTimeout(() => resolve(got), 50);
	});
	const e = entries.find((e) => e.identifier === 'commlab-still');
	return {
		present: el !== null,
		src: el ? el.src : '',
		width: el ? el.naturalWidth : 0,
		painted: e ? (e.renderTime || e.loadTime) : 0,
		url: e ? e.url : '',
		requested: performance.getEntriesByType('resource').filter((r) => r.name.includes('.still-')).map((r) => r.name),
	};
})()`

type stillInfo struct {
	Present   bool     `json:"present"`
	Src       string   `json:"src"`
	Width     int      `json:"width"`
	Painted   float64  `json:"painted"`
	URL       string   `json:"url"`
	Requested []string `json:"requested"`
}

// TestStill holds every scene page to its still: a bare link to any scene
// of the catalog paints thumbs/NAME.still-THEME.png (gen-anim -thumbs) before
// the first live frame, which then takes its place; a link that asks for a
// view the still does not show (a parameter, a seed, a playhead, a theme
// the site has no still in) asks for no still at all.
func TestStill(t *testing.T) {
	s := newSession(t, serveScenes(t))
	check := func(query, want string) {
		t.Helper()
		s.open("scene.html?" + query)
		s.waitFor(query+" to draw", ready, bootTimeout)
		got := eval[stillInfo](s, stillJS)
		first := s.state().FirstFrameMs
		switch {
		case got.Present:
			t.Errorf("%s: the still is still on the page after the first frame", query)
		case want == "" && len(got.Requested) > 0:
			t.Errorf("%s: the page asked for stills %v; want none (the URL asks for another view)", query, got.Requested)
		case want == "":
		case !strings.HasSuffix(got.URL, "/thumbs/"+want) || got.Painted <= 0:
			t.Errorf("%s: still painted %+v; want thumbs/%s painted", query, got, want)
		case got.Painted >= first:
			t.Errorf("%s: still painted at %.0f ms, after the first frame at %.0f ms", query, got.Painted, first)
		}
	}
	for _, sc := range scenes(t) {
		name := sc.Info().Name
		check("scene="+name, name+".still-light.png")
	}
	check("scene=logp&theme=dark&embed=1&autoplay=1", "logp.still-dark.png")
	for _, q := range []string{"scene=butterfly&P=16", "scene=butterfly&seed=3", "scene=jitter&t=0", "scene=nope", "scene=logp&theme=pink"} {
		check(q, "")
	}
	s.seen() // the bad URLs' messages are the page's answer, not problems
}

// TestStillThenLive holds back the wasm so that the still can be seen: it
// must fill the stage with a picture (not a blank) at the phone's and the
// desktop's widths, and the live frame must follow it once the wasm comes.
// With COMMLAB_E2E_SHOTS it keeps both, for a person to compare.
func TestStillThenLive(t *testing.T) {
	wasmDir := sharedWasm(t)
	thumbsDir := sharedThumbs(t)
	for _, width := range []int{1280, 390} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			release := make(chan struct{})
			mux := http.NewServeMux()
			mux.Handle("/", sitehttp.Handler(os.DirFS(siteDir)))
			wasm := sitehttp.Handler(os.DirFS(wasmDir))
			mux.Handle("/wasm_exec.js", wasm)
			mux.Handle("/commlab.wasm", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				select {
				case <-release:
				case <-r.Context().Done():
					return
				}
				wasm.ServeHTTP(w, r)
			}))
			mux.Handle("/thumbs/", http.StripPrefix("/thumbs", sitehttp.Handler(os.DirFS(thumbsDir))))
			srv := httptest.NewServer(mux)
			t.Cleanup(srv.Close)
			var once bool
			t.Cleanup(func() {
				if !once {
					close(release)
				}
			})

			height := 800
			if width < 500 {
				height = 844
			}
			s := newSession(t, srv.URL)
			if err := chromedp.Do(s.ctx, chromedp.EmulateViewport(int64(width), int64(height))); err != nil {
				t.Fatal(err)
			}
			s.open("scene.html?scene=butterfly")
			eval[any](s, `window.stillPainted = false; new PerformanceObserver((l) => {
				if (l.getEntries().some((e) => e.identifier === 'commlab-still')) { window.stillPainted = true; }
			}).observe({type: 'element', buffered: true})`)
			s.waitFor("the still to be painted", `window.stillPainted`, 10*time.Second)
			// The picture inside the still's box: 960x540 letterboxed in the
			// stage's shape (object-fit: contain). The loading note lies
			// above it, outside.
			box := s.rectOf(`document.getElementById('still')`)
			if box.W < 300 || box.H < 150 {
				t.Fatalf("the still's box is %+v; want the stage", box)
			}
			k := min(box.W/960, box.H/540)
			pic := rect{X: box.X + (box.W-960*k)/2, Y: box.Y + (box.H-540*k)/2, W: 960 * k, H: 540 * k}
			still := s.shot(fmt.Sprintf("still-%d.png", width), pic)
			checkPicture(t, "the still on the stage", still)
			if eval[bool](s, `window.commlab !== undefined`) {
				t.Fatal("the visualizer runs without its wasm")
			}
			close(release)
			once = true
			s.waitFor("the live frame", ready, bootTimeout)
			time.Sleep(200 * time.Millisecond) // let the frame that dropped the still reach the screen
			live := s.shot(fmt.Sprintf("live-%d.png", width), s.rectOf(`document.querySelector('canvas')`))
			checkPicture(t, "the canvas after the still", live)
			s.snap(fmt.Sprintf("page-live-%d.png", width))
		})
	}
}

// placesJS lists the scene page's report links as the browser resolved
// them, and whether the list is shown.
const placesJS = `(() => ({
	shown: !document.getElementById('places').hidden && document.getElementById('places').offsetParent !== null,
	links: [...document.querySelectorAll('#places-list a')].map((a) => ({href: a.href, text: a.textContent})),
}))()`

type placesInfo struct {
	Shown bool `json:"shown"`
	Links []struct {
		Href string `json:"href"`
		Text string `json:"text"`
	} `json:"links"`
}

// TestScenePlaces holds each scene page to the figures and findings it
// says it illustrates (scene/catalog.Places): the panel lists them, in
// order, under the site's reports/, and every one resolves to a page and
// an element with that id in a report (a quick one unless
// $COMMLAB_REPORTS names another). An embedded scene shows none.
func TestScenePlaces(t *testing.T) {
	dir, mounted := reportsDir(t)
	var extra []mount
	if mounted {
		extra = append(extra, mount{"/reports/", dir})
	}
	base := serveScenes(t, extra...)
	s := newSession(t, base)
	resolved := 0
	for _, sc := range scenes(t) {
		name := sc.Info().Name
		want := catalog.Places(name)
		s.openScene("scene=" + name + "&seed=3")
		got := eval[placesInfo](s, placesJS)
		if got.Shown != (len(want) > 0) || len(got.Links) != len(want) {
			t.Errorf("%s: the panel shows %d report links (list shown %v); want %d", name, len(got.Links), got.Shown, len(want))
			continue
		}
		if len(want) == 0 {
			t.Logf("%s illustrates no report figure yet", name)
		}
		for i, p := range want {
			link := got.Links[i]
			if link.Href != base+"/reports/"+p.Href() || link.Text != p.Label {
				t.Errorf("%s: link %d is %q to %s; want %q to %s", name, i, link.Text, link.Href, p.Label, base+"/reports/"+p.Href())
				continue
			}
			// The page and the anchor, as the browser finds them.
			found := eval[string](s, `fetch(`+jsString(link.Href)+`).then((r) => r.ok ? r.text() : Promise.reject(new Error('HTTP ' + r.status)))
				.then((html) => { const d = new DOMParser().parseFromString(html, 'text/html');
					return `+jsString(p.Anchor)+` === '' || d.getElementById(`+jsString(p.Anchor)+`) !== null ? 'ok' : 'no element with that id'; },
					(err) => err.message)`)
			if found != "ok" {
				t.Errorf("%s: %s (%q): %s", name, link.Href, p.Label, found)
				continue
			}
			resolved++
		}
	}
	if resolved == 0 {
		t.Error("no scene links to a report")
	}
	s.openScene("scene=butterfly&seed=3&embed=1")
	if got := eval[placesInfo](s, placesJS); got.Shown {
		t.Error("an embedded scene shows its report links")
	}
}

// jsString quotes s as a JavaScript string literal (JSON's, which Go
// writes with U+2028 and U+2029 escaped).
func jsString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err) // a string always marshals
	}
	return string(b)
}
