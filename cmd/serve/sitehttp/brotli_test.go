package sitehttp

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/andybalholm/brotli"
)

// TestBrotli: brotli for the types Netlify compresses when the client takes
// it (as browsers do), gzip when it takes only gzip, none when it takes
// neither; compressed once per file version.
func TestBrotli(t *testing.T) {
	big := strings.Repeat("commlab wasm bytes ", 1000)
	root := fstest.MapFS{
		"commlab.wasm": {Data: []byte(big), ModTime: time.Unix(1, 0)},
		"scene.js":     {Data: []byte(big)},
		"data.json":    {Data: []byte(big)},
		"thumb.png":    {Data: []byte(big)},
	}
	h := Handler(root)
	do := func(target, accept string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, target, nil)
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	unbrotli := func(t *testing.T, rec *httptest.ResponseRecorder) string {
		t.Helper()
		b, err := io.ReadAll(brotli.NewReader(rec.Body))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, target := range []string{"/commlab.wasm", "/scene.js", "/data.json"} {
		for range 2 { // the second from the cache
			rec := do(target, "gzip, deflate, br, zstd") // Chromium's header
			if rec.Header().Get("Content-Encoding") != "br" || !strings.Contains(rec.Header().Get("Vary"), "Accept-Encoding") {
				t.Fatalf("GET %s: headers %v", target, rec.Header())
			}
			if got := unbrotli(t, rec); got != big {
				t.Errorf("GET %s: the brotli holds %d bytes, not the file", target, len(got))
			}
			if n := rec.Body.Len(); n != 0 {
				t.Errorf("GET %s: %d bytes after the brotli stream", target, n)
			}
		}
	}
	for _, tc := range []struct{ accept, want string }{
		{"br", "br"},
		{"BR;q=0.5, gzip", "br"},
		{"br;q=0, gzip", "gzip"},
		// Issue 26: "q" is case-insensitive (RFC 9110), and so is the
		// coding; spaces around ";" are allowed.
		{"br;Q=0", ""},
		{"BR ; Q=0.000, gzip", "gzip"},
		{"br;q=0.001", "br"},
		{"br;q=1.000", "br"},
		// A weight that is not one refuses the coding.
		{"br;q=2, gzip;q=-1", ""},
		{"br;q=0.0001, gzip;q=.5", ""},
		{"br;q=, gzip;q=1.5", ""},
		{"br;q=x", ""},
		{"br;level=1", "br"},
		{"gzip", "gzip"},
		{"*", "br"},
		{"br;q=0, *", "gzip"},
		{"br;q=0, gzip;q=0, *", ""},
		{"*;q=0", ""},
		{"identity", ""},
		{"", ""},
	} {
		if got := negotiate(tc.accept); got != tc.want {
			t.Errorf("negotiate(%q) = %q, want %q", tc.accept, got, tc.want)
		}
		if got := do("/commlab.wasm", tc.accept).Header().Get("Content-Encoding"); got != tc.want {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", tc.accept, got, tc.want)
		}
	}
	if rec := do("/thumb.png", "br"); rec.Header().Get("Content-Encoding") != "" {
		t.Errorf("a PNG came %s", rec.Header().Get("Content-Encoding"))
	}

	// A new version of the file is compressed anew.
	root["commlab.wasm"] = &fstest.MapFile{Data: []byte(big + "v2"), ModTime: time.Unix(2, 0)}
	if got := unbrotli(t, do("/commlab.wasm", "br")); got != big+"v2" {
		t.Errorf("after a rebuild: %d bytes, want the new file", len(got))
	}
}

// TestCompressOnce: requests at once for a file not compressed yet wait for
// one compression and all get it.
func TestCompressOnce(t *testing.T) {
	root := fstest.MapFS{"commlab.wasm": {Data: []byte(strings.Repeat("x", 1<<20))}}
	var cc compCache
	fi, _ := root.Stat("commlab.wasm")
	var wg sync.WaitGroup
	got := make([][]byte, 8)
	for i := range got {
		wg.Go(func() {
			b, err := cc.compressed(root, "commlab.wasm", fi, "br")
			if err != nil {
				t.Error(err)
			}
			got[i] = b
		})
	}
	wg.Wait()
	for i := range got {
		if &got[i][0] != &got[0][0] {
			t.Fatalf("request %d got its own compression", i)
		}
	}
}
