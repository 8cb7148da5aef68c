package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSymlinkOutOfSiteIsRefused checks that the server's os.Root does not
// follow a link out of the site directory, while one inside it still works.
func TestSymlinkOutOfSiteIsRefused(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	site := t.TempDir()
	if err := os.WriteFile(filepath.Join(site, "a.txt"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"out.txt": filepath.Join(outside, "secret.txt"), "outdir": outside, "in.txt": "a.txt"} {
		if err := os.Symlink(target, filepath.Join(site, name)); err != nil {
			t.Fatal(err)
		}
	}
	root, err := os.OpenRoot(site)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	h := siteHandler(root.FS(), nil)
	for target, want := range map[string]int{"/out.txt": 404, "/outdir/secret.txt": 404, "/in.txt": 200, "/a.txt": 200} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
		if rec.Code != want || strings.Contains(rec.Body.String(), "secret") {
			t.Errorf("GET %s: status %d, body %q; want %d and no secret", target, rec.Code, rec.Body.String(), want)
		}
	}
}

// TestBuilderServesWhileBuilding runs the builder with a fake command
// runner that writes what each step would and checks, step by step, what a
// browser gets: a reloading "building" page (503) for the scene page while
// the wasm is missing and for the reports while there are none, the quick
// report with the builder's status in its slot while the full one is on its
// way, and the full report without it at the end.
func TestBuilderServesWhileBuilding(t *testing.T) {
	site := t.TempDir()
	for name, data := range map[string]string{"index.html": "<!doctype html>landing", "scene.html": "<!doctype html>scene"} {
		if err := os.WriteFile(filepath.Join(site, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, err := os.OpenRoot(site)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	var log bytes.Buffer
	b := newBuilder(".", site, &log)
	h := siteHandler(root.FS(), b)
	get := func(target string) (int, string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
		return rec.Code, rec.Body.String()
	}
	writeReport := func(edition string) {
		dir := filepath.Join(site, "reports")
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "index.html"), []byte("<main>\n"+statusSlot+"\n<h1>"+edition+"</h1>"), 0o644)
		os.WriteFile(filepath.Join(dir, ".commlab-report"), []byte("Written by commlab\nedition: "+edition+"\n"), 0o644)
	}
	// Each step checks the pages as they are before it does its work.
	var steps []string
	b.run = func(ctx context.Context, env []string, name string, args ...string) error {
		joined := filepath.Base(name) + " " + strings.Join(args, " ")
		steps = append(steps, joined)
		switch {
		case strings.Contains(joined, "./wasm/"):
			if e := strings.Join(env, " "); !strings.Contains(e, "GOOS=js") || !strings.Contains(e, "GOARCH=wasm") {
				t.Errorf("the wasm is built with env %q, want GOOS=js GOARCH=wasm", e)
			}
			if code, body := get("/scene.html"); code != 503 || !strings.Contains(body, "commlab.wasm") || !strings.Contains(body, `http-equiv="refresh"`) {
				t.Errorf("scene.html while the wasm builds: %d %q", code, body)
			}
			if code, _ := get("/reports/index.html"); code != 503 {
				t.Errorf("reports while none is built: %d, want 503", code)
			}
			for _, f := range []string{"commlab.wasm", "wasm_exec.js"} {
				os.WriteFile(filepath.Join(site, f), []byte("x"), 0o644)
			}
			return os.WriteFile(args[len(args)-2], []byte("\x00asm"), 0o644)
		case strings.HasPrefix(joined, "gen-report -quick"):
			writeReport("quick")
		case strings.HasPrefix(joined, "gen-report -out"):
			code, body := get("/reports/")
			if code != 200 || !strings.Contains(body, "A full report is on its way") || strings.Contains(body, statusSlot) {
				t.Errorf("the quick report while the full one builds: %d %q", code, body)
			}
			writeReport("full")
		}
		return nil
	}
	b.copyWasmExecFn = func(context.Context) error { return nil }
	b.Build(context.Background())
	// The stills come before the quick report: a scene page shows its
	// still a minute sooner.
	var order []string
	for _, s := range steps {
		order = append(order, strings.Fields(s)[0]+" "+strings.Fields(s)[1])
	}
	if got, want := strings.Join(order, ", "), "go build, go build, gen-anim -thumbs, gen-report -quick, gen-report -out"; got != want {
		t.Errorf("steps run: %q, want %s (wasm, tools, thumbnails, quick report, full report)", got, want)
	}
	if code, body := get("/scene.html"); code != 200 || body != "<!doctype html>scene" {
		t.Errorf("scene.html after the build: %d %q", code, body)
	}
	if code, body := get("/reports/"); code != 200 || strings.Contains(body, "on its way") || !strings.Contains(body, "full") {
		t.Errorf("reports after the build: %d %q", code, body)
	}
	// A second start with a full report builds no report.
	steps = nil
	b2 := newBuilder(".", site, io.Discard)
	b2.run = func(ctx context.Context, env []string, name string, args ...string) error {
		steps = append(steps, filepath.Base(name)+" "+strings.Join(args, " "))
		if strings.Contains(strings.Join(args, " "), "./wasm/") {
			return os.WriteFile(args[len(args)-2], []byte("\x00asm"), 0o644)
		}
		return nil
	}
	b2.copyWasmExecFn = func(context.Context) error { return nil }
	b2.Build(context.Background())
	for _, s := range steps {
		if strings.HasPrefix(s, "gen-report") {
			t.Errorf("with a full report in place, the builder ran %q", s)
		}
	}
}

// TestBuildWasmIsWasm builds the wasm step for real, as `make serve` does
// on a fresh clone, and checks that commlab.wasm is a WebAssembly module
// (it was once built for the host: an ELF binary the page could not load)
// with wasm_exec.js beside it.
func TestBuildWasmIsWasm(t *testing.T) {
	site := t.TempDir()
	b := newBuilder(filepath.Join("..", ".."), site, io.Discard)
	if err := b.buildWasm(t.Context()); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(site, "commlab.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	magic := make([]byte, 4)
	if _, err := io.ReadFull(f, magic); err != nil || string(magic) != "\x00asm" {
		t.Errorf("commlab.wasm starts with %q (%v), want the WebAssembly magic \\x00asm", magic, err)
	}
	if _, err := os.Stat(filepath.Join(site, "wasm_exec.js")); err != nil {
		t.Errorf("no wasm_exec.js beside it: %v", err)
	}
}

// TestBuilderReportsFailure checks that a failing step is named on the
// building page, which then stops reloading.
func TestBuilderReportsFailure(t *testing.T) {
	site := t.TempDir()
	b := newBuilder(".", site, io.Discard)
	b.run = func(context.Context, []string, string, ...string) error { return errors.New("compiler exploded") }
	b.Build(context.Background())
	page := string(b.buildingPage("the visualizer"))
	if !strings.Contains(page, "compiler exploded") || strings.Contains(page, "refresh") {
		t.Errorf("building page after a failure: %q", page)
	}
}

// TestStatusSlotMatchesReports checks that the slot the server fills is the
// one the report pages carry (cmd/gen-report/internal/report, which this
// package may not import, so its golden page is read instead).
func TestStatusSlotMatchesReports(t *testing.T) {
	b, err := os.ReadFile("../gen-report/internal/report/testdata/golden/index.html.golden")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(statusSlot)) {
		t.Errorf("the report pages carry no %s", statusSlot)
	}
}
