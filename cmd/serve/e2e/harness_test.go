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

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"commlab/cmd/serve/sitehttp"
)

// Paths relative to this package's directory, where go test runs.
const (
	siteDir = "../../../site"
	repoDir = "../../.."
)

// browserTimeout bounds one test's time in its tab, so a hung page fails
// the test instead of stalling the run until go test's own 10-minute timeout.
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

// session is one browser tab, and the problems seen in it.
type session struct {
	t    *testing.T
	ctx  context.Context
	base string

	mu       sync.Mutex
	problems []string
}

// The shared browser: one headless Chromium for the whole package run, each
// test in a tab of its own (starting a browser costs about a second, a tab
// almost nothing). TestMain stops it.
var shared struct {
	once   sync.Once
	ctx    context.Context
	cancel func()
	err    error
}

// allocatorOptions are the flags every browser of these tests starts with:
// headless, no sandbox, software WebGL, nothing phoning home, a fresh
// profile in profile.
func allocatorOptions(exe, profile string, width, height int) []chromedp.ExecAllocatorOption {
	return append(chromedp.DefaultExecAllocatorOptions[:],
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
		// A tab that is not in front gets no animation frames; the tests'
		// tabs must keep drawing whatever the browser thinks of them.
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(width, height),
	)
}

// startBrowser launches Chromium with a fresh profile and returns the
// context of its first tab. The browser lives until cancel.
func startBrowser(exe, profile string, width, height int) (ctx context.Context, cancel func(), err error) {
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), allocatorOptions(exe, profile, width, height)...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	cancel = func() { cancelCtx(); cancelAlloc() }
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		return nil, nil, fmt.Errorf("starting Chromium %s: %w", exe, err)
	}
	return ctx, cancel, nil
}

// sharedBrowser returns the package's browser, starting it on first use.
func sharedBrowser(t *testing.T) context.Context {
	t.Helper()
	exe := chromium(t)
	shared.once.Do(func() {
		var profile string
		profile, shared.err = os.MkdirTemp("", "commlab-e2e-profile-")
		if shared.err != nil {
			return
		}
		cleanups = append(cleanups, func() { os.RemoveAll(profile) })
		shared.ctx, shared.cancel, shared.err = startBrowser(exe, profile, 1024, 768)
		if shared.err == nil {
			cleanups = append(cleanups, shared.cancel)
		}
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.ctx
}

// cleanups run when the package's tests end, last first: the shared
// browser, the shared wasm.
var cleanups []func()

func TestMain(m *testing.M) {
	code := m.Run()
	for i := len(cleanups) - 1; i >= 0; i-- {
		cleanups[i]()
	}
	os.Exit(code)
}

// newSession opens a tab on base in the shared browser. Unless the test
// takes its problems with seen, any problem the page shows fails the test
// when it ends.
func newSession(t *testing.T, base string) *session {
	t.Helper()
	tab, closeTab := chromedp.NewContext(sharedBrowser(t))
	return attach(t, base, tab, closeTab)
}

// newBrowserSession starts a browser of its own for the test, with a fresh
// profile (a cold cache) and a window of width x height CSS pixels.
func newBrowserSession(t *testing.T, base string, width, height int) *session {
	t.Helper()
	ctx, cancel, err := startBrowser(chromium(t), t.TempDir(), width, height)
	if err != nil {
		t.Fatal(err)
	}
	return attach(t, base, ctx, cancel)
}

// attach makes a session of the tab ctx: it watches the tab's events,
// brings it to the front, and bounds the test's time in it.
func attach(t *testing.T, base string, tab context.Context, closeTab func()) *session {
	t.Helper()
	// The timeout is on a child of the tab's context: when it ends, the
	// test's next browser call fails instead of the run stalling until go
	// test's own 10-minute timeout, and the shared browser lives on.
	ctx, cancelTimeout := context.WithTimeout(tab, browserTimeout)
	s := &session{t: t, ctx: ctx, base: base}
	t.Cleanup(func() {
		cancelTimeout()
		closeTab()
	})
	if err := chromedp.Listen(tab, s.watch); err != nil {
		t.Fatalf("opening a tab in Chromium: %v", err)
	}
	if _, err := chromedp.Call(ctx, page.BringToFront, cdp.Empty{}); err != nil {
		t.Fatalf("bringing the tab to the front: %v", err)
	}
	// Each tab behaves as if it had the focus, as the one window a person
	// looks at does: focus() and keyboard events work in every test's tab.
	if _, err := chromedp.Call(ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		t.Fatalf("emulating focus: %v", err)
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
	if err := runGo(t.Context(), env, args...); err != nil {
		t.Fatal(err)
	}
}

// runGo runs the go command in the repository root; its error holds the
// command's output.
func runGo(ctx context.Context, env []string, args ...string) error {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = repoDir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	return nil
}

// The wasm built from the current source, once per package run: every
// scene test loads the same binary.
var wasmBuild struct {
	once sync.Once
	dir  string
	err  error
}

// sharedWasm returns the directory holding commlab.wasm, built from the
// current source the way `make wasm` builds it, and wasm_exec.js from the
// same toolchain beside it. The first caller builds it.
func sharedWasm(t *testing.T) string {
	t.Helper()
	wasmBuild.once.Do(func() {
		start := time.Now()
		wasmBuild.dir, wasmBuild.err = os.MkdirTemp("", "commlab-e2e-wasm-")
		if wasmBuild.err != nil {
			return
		}
		dir := wasmBuild.dir
		cleanups = append(cleanups, func() { os.RemoveAll(dir) })
		wasmBuild.err = buildWasm(context.Background(), dir)
		t.Logf("built commlab.wasm for the browser tests in %v", time.Since(start).Round(time.Millisecond))
	})
	if wasmBuild.err != nil {
		t.Fatal(wasmBuild.err)
	}
	return wasmBuild.dir
}

// buildWasm compiles the visualizer into dir/commlab.wasm with `make wasm`'s
// flags and copies wasm_exec.js from the same toolchain beside it.
func buildWasm(ctx context.Context, dir string) error {
	wasm, err := filepath.Abs(filepath.Join(dir, "commlab.wasm"))
	if err != nil {
		return err
	}
	if err := runGo(ctx, []string{"GOOS=js", "GOARCH=wasm"}, "build", "-trimpath", "-ldflags=-s -w", "-o", wasm, "./wasm/"); err != nil {
		return err
	}
	goroot, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %v", err)
	}
	glue, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "wasm_exec.js"), glue, 0o644)
}

// serveScenes serves the site with the shared wasm and thumbnails (the
// scene page shows its scene's still from thumbs/ while the wasm starts),
// and any extra mounts, and returns its base URL.
func serveScenes(t *testing.T, extra ...mount) string {
	t.Helper()
	chromium(t) // skip before the slow build when there is no browser
	wasm := sharedWasm(t)
	return serveSite(t, append([]mount{
		{"/commlab.wasm", wasm},
		{"/wasm_exec.js", wasm},
		{"/thumbs/", sharedThumbs(t)},
	}, extra...)...)
}

// The index page's thumbnails, generated once per run as `make thumbs`
// does, since site/thumbs is not committed.
var thumbs struct {
	once sync.Once
	dir  string
	err  error
}

// sharedThumbs returns a directory holding cmd/gen-anim's thumbnails of
// the current source's scenes.
func sharedThumbs(t *testing.T) string {
	t.Helper()
	thumbs.once.Do(func() {
		thumbs.dir, thumbs.err = os.MkdirTemp("", "commlab-e2e-thumbs-")
		if thumbs.err != nil {
			return
		}
		dir := thumbs.dir
		cleanups = append(cleanups, func() { os.RemoveAll(dir) })
		thumbs.err = runGo(context.Background(), nil, "run", "./cmd/gen-anim", "-thumbs", dir)
	})
	if thumbs.err != nil {
		t.Fatal(thumbs.err)
	}
	return thumbs.dir
}
