//go:build !(js && wasm)

package e2e

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"commlab/cmd/serve/sitehttp"
)

func TestLandingPage(t *testing.T) {
	chromium(t) // skip before generating thumbnails when there is no browser
	s := newSession(t, serveSite(t, mount{"/thumbs/", sharedThumbs(t)}))
	s.open("index.html")

	if title := eval[string](s, `document.title`); !strings.Contains(title, "commlab") {
		t.Errorf("title %q does not name commlab", title)
	}
	if !eval[bool](s, `document.querySelector('a[href="reports/index.html"]') !== null`) {
		t.Errorf("no link to reports/index.html")
	}
	// Every scene has a card: a link, a paragraph and a thumbnail that loaded.
	for _, sc := range scenes(t) {
		href := "scene.html?scene=" + sc.Info().Name
		a := `document.querySelector('a[href="` + href + `"]')`
		if !eval[bool](s, a+` !== null`) {
			t.Errorf("no link to %s", href)
			continue
		}
		card := a + `.closest('li, article, section, div') || ` + a
		if eval[string](s, `((c) => c.querySelector('p') ? c.querySelector('p').textContent.trim() : '')(`+card+`)`) == "" {
			t.Errorf("the card for %s has no paragraph saying what it shows", href)
		}
		s.waitFor("the thumbnail of "+href, `((c) => [...c.querySelectorAll('img')].some(i => i.complete && i.naturalWidth > 0))(`+card+`)`, 5*time.Second)
	}
	// style.css applied: the page background is the stylesheet's paper colour,
	// not the browser's white.
	if bg := eval[string](s, `getComputedStyle(document.body).backgroundColor`); bg != "rgb(251, 250, 247)" {
		t.Errorf("body background %q: style.css did not apply", bg)
	}
	s.snap("landing.png")
}

// TestHarnessSeesProblems checks the checker: an inline script (blocked by
// the site's CSP), a console error and a request to a host that is not
// 127.0.0.1 must each be reported. The other host is "localhost" on the
// same loopback server, so nothing leaves the machine.
func TestHarnessSeesProblems(t *testing.T) {
	mux := http.NewServeMux()
	var srv *httptest.Server
	mux.HandleFunc("/bad.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", sitehttp.CSP)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
		w.Write([]byte(`<!doctype html><title>bad</title>
<script>document.title = "inline ran";</script>
<script src="/err.js"></script>
<img src="http://localhost:` + port + `/pixel.png">`))
	})
	mux.HandleFunc("/err.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Write([]byte(`console.error("deliberate");`))
	})
	srv = httptest.NewServer(mux)
	defer srv.Close()

	s := newSession(t, srv.URL)
	s.open("bad.html")
	// Give the browser a moment to deliver the log and network events.
	deadline := time.Now().Add(5 * time.Second)
	var problems []string
	want := []string{"inline", "deliberate", "localhost"}
	for time.Now().Before(deadline) {
		problems = append(problems, s.seen()...)
		if all(problems, want) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if eval[string](s, `document.title`) == "inline ran" {
		t.Error("an inline script ran under the site's CSP")
	}
	for _, w := range want {
		if !any1(problems, w) {
			t.Errorf("harness did not report the %s problem; it saw %q", w, problems)
		}
	}
	s.seen() // these problems were the point; do not fail the test on them
}

func all(ps, subs []string) bool {
	for _, sub := range subs {
		if !any1(ps, sub) {
			return false
		}
	}
	return true
}

func any1(ps []string, sub string) bool {
	for _, p := range ps {
		if strings.Contains(strings.ToLower(p), sub) {
			return true
		}
	}
	return false
}
