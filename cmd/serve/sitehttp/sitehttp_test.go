package sitehttp

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

var site = fstest.MapFS{
	"index.html":             {Data: []byte("<!doctype html><title>commlab</title>")},
	"style.css":              {Data: []byte("body{}")},
	"scene.js":               {Data: []byte("'use strict';")},
	"commlab.wasm":           {Data: []byte("\x00asm\x01\x00\x00\x00")},
	"reports/index.html":     {Data: []byte("<!doctype html><title>reports</title>")},
	"reports/data/fig1.csv":  {Data: []byte("x,y\n1,2\n")},
	"reports/data/fig1.json": {Data: []byte(`{"x":[1]}`)},
	"nolist/a.txt":           {Data: []byte("a")},
	"e2e/e2e_test.go":        {Data: []byte("package e2e")},
	".git/config":            {Data: []byte("[core]")},
}

func get(t *testing.T, method, target string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	Handler(site).ServeHTTP(rec, httptest.NewRequest(method, target, nil))
	return rec
}

func TestContentTypes(t *testing.T) {
	tests := []struct{ path, want string }{
		{"/", "text/html; charset=utf-8"},
		{"/reports/", "text/html; charset=utf-8"},
		{"/style.css", "text/css; charset=utf-8"},
		{"/scene.js", "text/javascript; charset=utf-8"},
		{"/commlab.wasm", "application/wasm"},
		{"/reports/data/fig1.csv", "text/csv; charset=utf-8"},
		{"/reports/data/fig1.json", "application/json"},
		{"/nolist/a.txt", "text/plain; charset=utf-8"},
	}
	for _, tt := range tests {
		rec := get(t, http.MethodGet, tt.path)
		if rec.Code != http.StatusOK {
			t.Errorf("GET %s: status %d, want 200", tt.path, rec.Code)
			continue
		}
		if got := rec.Header().Get("Content-Type"); got != tt.want {
			t.Errorf("GET %s: Content-Type %q, want %q", tt.path, got, tt.want)
		}
	}
}

func TestHeadersOnEveryResponse(t *testing.T) {
	for _, target := range []string{"/", "/commlab.wasm", "/missing.html", "/nolist/"} {
		rec := get(t, http.MethodGet, target)
		for _, kv := range Headers {
			if got := rec.Header().Get(kv[0]); got != kv[1] {
				t.Errorf("GET %s: %s = %q, want %q", target, kv[0], got, kv[1])
			}
		}
	}
}

func TestCSPAllowsNoInlineScript(t *testing.T) {
	// The report pages and the scene page were written not to need inline
	// script or eval; widening the policy should be a deliberate change.
	var script string
	for _, d := range strings.Split(CSP, ";") {
		if d = strings.TrimSpace(d); strings.HasPrefix(d, "script-src ") {
			script = d
		}
	}
	if script != "script-src 'self' 'wasm-unsafe-eval'" {
		t.Errorf("CSP %q: script-src must be exactly 'self' 'wasm-unsafe-eval'", CSP)
	}
}

func TestNotFoundAndHidden(t *testing.T) {
	for _, target := range []string{
		"/missing.html",
		"/nolist/",          // a directory without index.html is not listed
		"/e2e/e2e_test.go",  // Go sources are never part of the site
		"/.git/config",      // nor are dot files
		"/reports/../.git/", // cleaning does not escape the rule
	} {
		if rec := get(t, http.MethodGet, target); rec.Code != http.StatusNotFound {
			t.Errorf("GET %s: status %d, want 404", target, rec.Code)
		}
	}
}

func TestMethods(t *testing.T) {
	if rec := get(t, http.MethodHead, "/commlab.wasm"); rec.Code != http.StatusOK || rec.Body.Len() != 0 {
		t.Errorf("HEAD: status %d with %d body bytes, want 200 and none", rec.Code, rec.Body.Len())
	}
	rec := get(t, http.MethodPost, "/")
	if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "GET, HEAD" {
		t.Errorf("POST: status %d Allow %q, want 405 and \"GET, HEAD\"", rec.Code, rec.Header().Get("Allow"))
	}
}

// TestBadPathsAreNotErrors checks the edges a probe found on a real
// directory: %00 is a 400, an over-long segment or path a 404, and neither
// answer echoes the path back (a 500 "cannot read <path>" did).
func TestBadPathsAreNotErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("<!doctype html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("a", 300)
	for _, tc := range []struct {
		target string
		status int
	}{
		{"/index.html%00.png", http.StatusBadRequest},
		{"/%00", http.StatusBadRequest},
		{"/" + long, http.StatusNotFound},
		{"/" + long + "/x.html", http.StatusNotFound},
		{"/" + strings.Repeat("b/", 600) + "c", http.StatusNotFound},
		{"/%ff%fe.html", http.StatusBadRequest},
	} {
		rec := httptest.NewRecorder()
		Handler(os.DirFS(dir)).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tc.target, nil))
		if rec.Code != tc.status {
			t.Errorf("GET %.60s: status %d, want %d", tc.target, rec.Code, tc.status)
		}
		if body := rec.Body.String(); strings.Contains(body, "aaaa") || strings.Contains(body, "index.html") || strings.Contains(body, "\x00") {
			t.Errorf("GET %.60s: the answer %.80q echoes the path", tc.target, body)
		}
	}
}

// TestGzip checks that the wasm, JSON and pages go gzipped to a browser that
// accepts it, as Netlify sends them, and plain otherwise, to a range
// request, and below minCompress.
func TestGzip(t *testing.T) {
	big := strings.Repeat("commlab wasm bytes ", 1000)
	root := fstest.MapFS{
		"commlab.wasm":       {Data: []byte(big)},
		"reports/index.html": {Data: []byte("<!doctype html>" + big)},
		"data.json":          {Data: []byte(`{"a":1}`)},
		"thumb.png":          {Data: []byte(big)},
	}
	h := Handler(root)
	do := func(target, accept, rng string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, target, nil)
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		if rng != "" {
			req.Header.Set("Range", rng)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	for _, target := range []string{"/commlab.wasm", "/reports/"} {
		for range 2 { // the second from the cache
			rec := do(target, "gzip, deflate", "")
			if rec.Header().Get("Content-Encoding") != "gzip" || !strings.Contains(rec.Header().Get("Vary"), "Accept-Encoding") {
				t.Fatalf("GET %s with gzip: headers %v", target, rec.Header())
			}
			zr, err := gzip.NewReader(rec.Body)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(zr)
			if !strings.HasSuffix(string(b), big) {
				t.Errorf("GET %s: the gzip holds %d bytes, not the file", target, len(b))
			}
		}
	}
	if rec := do("/commlab.wasm", "gzip", ""); rec.Header().Get("Content-Type") != "application/wasm" {
		t.Errorf("gzipped wasm has Content-Type %q", rec.Header().Get("Content-Type"))
	}
	for _, tc := range []struct{ target, accept, rng string }{
		{"/commlab.wasm", "", ""},
		{"/commlab.wasm", "gzip;q=0", ""},
		{"/commlab.wasm", "gzip", "bytes=0-9"},
		{"/data.json", "gzip", ""}, // too small to gain
		{"/thumb.png", "gzip", ""}, // already compressed
	} {
		if rec := do(tc.target, tc.accept, tc.rng); rec.Header().Get("Content-Encoding") != "" {
			t.Errorf("GET %s (Accept-Encoding %q, Range %q) came %s", tc.target, tc.accept, tc.rng, rec.Header().Get("Content-Encoding"))
		}
	}
}
