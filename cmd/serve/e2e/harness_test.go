//go:build !(js && wasm)

package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"commlab/cmd/serve/sitehttp"
)

// Paths relative to this package's directory, where go test runs.
const (
	siteDir = "../../../site"
	repoDir = "../../.."
)

// browserTimeout bounds one test's browser, so a hung page fails the test
// instead of stalling the run until go test's own 10-minute timeout.
const browserTimeout = 2 * time.Minute

// inCI reports whether missing tools must fail rather than skip.
func inCI() bool { return os.Getenv("CI") == "true" }

// skipOrFail skips the test with why, or fails it in CI.
func skipOrFail(t *testing.T, why string) {
	t.Helper()
	if inCI() {
		t.Fatal(why + " (CI=true, so this is a failure, not a skip)")
	}
	t.Skip(why)
}

// chromium returns the browser binary: $CHROMIUM, else /usr/bin/chromium.
func chromium(t *testing.T) string {
	t.Helper()
	path := os.Getenv("CHROMIUM")
	if path == "" {
		path = "/usr/bin/chromium"
	}
	if fi, err := os.Stat(path); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		skipOrFail(t, "no Chromium at "+path+": apt-get install chromium, or set $CHROMIUM")
	}
	return path
}

// mount is one extra directory served under a URL prefix, in front of the
// site: the wasm built by the test, or a report generated elsewhere.
type mount struct {
	prefix string // "/reports/", or an exact file path such as "/commlab.wasm"
	dir    string
}

// serveSite starts the site on a random 127.0.0.1 port (httptest never binds
// anything else) and returns its base URL, without a trailing slash.
func serveSite(t *testing.T, mounts ...mount) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/", sitehttp.Handler(os.DirFS(siteDir)))
	for _, m := range mounts {
		h := sitehttp.Handler(os.DirFS(m.dir))
		if strings.HasSuffix(m.prefix, "/") {
			mux.Handle(m.prefix, http.StripPrefix(strings.TrimSuffix(m.prefix, "/"), h))
		} else {
			mux.Handle(m.prefix, http.StripPrefix(pathDir(m.prefix), h))
		}
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

func pathDir(p string) string { return p[:strings.LastIndex(p, "/")] }

// session is one browser with one tab, and the problems seen in it.
type session struct {
	t    *testing.T
	ctx  context.Context
	base string

	mu       sync.Mutex
	problems []string
}

// newSession starts a fresh headless Chromium (its own temporary profile)
// pointed at base. Unless the test calls expectProblems, any problem the
// page shows fails the test when it ends.
func newSession(t *testing.T, base string) *session {
	t.Helper()
	exe := chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox, // root in CI containers has no user namespace sandbox
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		// Without a GPU, WebGL (which Ebiten draws with) runs on the
		// SwiftShader software rasteriser. Chromium is phasing out using
		// it unasked; this flag keeps the tests working after that.
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1024, 768),
	)
	// The overall timeout is on the browser's own context on purpose: it
	// stops the whole browser if a test hangs.
	ctx, cancelTimeout := context.WithTimeout(t.Context(), browserTimeout)
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	ctx, cancelCtx := chromedp.NewContext(ctx)
	s := &session{t: t, ctx: ctx, base: base}
	t.Cleanup(func() {
		cancelCtx()
		cancelAlloc()
		cancelTimeout()
	})
	if err := chromedp.Listen(ctx, s.watch); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	t.Cleanup(func() {
		for _, p := range s.seen() {
			t.Errorf("page problem: %s", p)
		}
	})
	return s
}

// watch runs on chromedp's reading goroutine: it only records.
func (s *session) watch(ev any) {
	switch e := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
			s.record("console.%s: %s", e.Type, consoleArgs(e.Args))
		}
	case *runtime.EventExceptionThrown:
		d := e.ExceptionDetails
		msg := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg += " " + d.Exception.Description
		}
		s.record("uncaught exception at %s:%d: %s", d.URL, d.LineNumber, msg)
	case *log.EventEntryAdded:
		if e.Entry.Level == log.EntryLevelError {
			s.record("browser log (%s): %s %s", e.Entry.Source, e.Entry.Text, e.Entry.URL)
		}
	case *network.EventRequestWillBeSent:
		if reason := offSite(e.Request.URL); reason != "" {
			s.record("request to %s: %s", e.Request.URL, reason)
		}
	}
}

func (s *session) record(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.problems = append(s.problems, fmt.Sprintf(format, args...))
}

// seen returns the problems so far and forgets them.
func (s *session) seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.problems
	s.problems = nil
	return p
}

// offSite says why a request leaves the machine, or "" when it does not.
func offSite(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "unparseable URL"
	}
	switch u.Scheme {
	case "data", "blob", "about":
		return ""
	case "http", "https", "ws", "wss":
		if u.Hostname() == "127.0.0.1" {
			return ""
		}
		return "host " + u.Hostname() + " is not 127.0.0.1 (the site must work offline)"
	}
	return "scheme " + u.Scheme + " is not served by the site"
}

func consoleArgs(args []*runtime.RemoteObject) string {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		switch {
		case a.Type == runtime.RemoteObjectTypeString:
			parts = append(parts, strings.Trim(string(a.Value), `"`))
		case a.Description != "":
			parts = append(parts, a.Description)
		default:
			parts = append(parts, string(a.Value))
		}
	}
	return strings.Join(parts, " ")
}

// open navigates to path (relative to the site root) and waits for load.
func (s *session) open(path string) {
	s.t.Helper()
	if err := chromedp.Do(s.ctx, chromedp.Navigate(s.base+"/"+path)); err != nil {
		s.t.Fatalf("opening %s: %v", path, err)
	}
}

// eval evaluates a JavaScript expression in the page and decodes its value.
func eval[T any](s *session, expr string) T {
	s.t.Helper()
	v, err := chromedp.Run(s.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		s.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// waitFor polls a JavaScript predicate until it is true or timeout passes.
func (s *session) waitFor(what, predicate string, timeout time.Duration) {
	s.t.Helper()
	_, err := chromedp.Run(s.ctx, chromedp.Poll[chromedp.Void](predicate,
		chromedp.WithPollingInterval(50*time.Millisecond),
		chromedp.WithPollingTimeout(timeout)))
	if err != nil {
		if errors.Is(err, chromedp.ErrPollingTimeout) {
			err = fmt.Errorf("not within %v", timeout)
		}
		s.t.Fatalf("waiting for %s: %v (problems so far: %q)", what, err, s.seen())
	}
}

// keep writes a screenshot into $COMMLAB_E2E_SHOTS, when set, so a person
// can look at what the test saw.
func (s *session) keep(name string, png []byte) {
	dir := os.Getenv("COMMLAB_E2E_SHOTS")
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// snap keeps a screenshot of the page as name, when $COMMLAB_E2E_SHOTS is set.
func (s *session) snap(name string) {
	s.t.Helper()
	if os.Getenv("COMMLAB_E2E_SHOTS") == "" {
		return
	}
	shot, err := chromedp.Run(s.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		s.t.Fatalf("screenshot: %v", err)
	}
	s.keep(name, shot)
}

// goCmd runs the go command in the repository root and fails the test with
// its output if it fails.
func goCmd(t *testing.T, env []string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "go", args...)
	cmd.Dir = repoDir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
}

// buildWasm compiles the visualizer from the current source, the way
// `make wasm` does, and puts wasm_exec.js from the same toolchain beside it.
// It returns the directory holding both.
func buildWasm(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	wasm, err := filepath.Abs(filepath.Join(dir, "commlab.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	goCmd(t, []string{"GOOS=js", "GOARCH=wasm"}, "build", "-trimpath", "-ldflags=-s -w", "-o", wasm, "./wasm/")
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	glue, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wasm_exec.js"), glue, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
