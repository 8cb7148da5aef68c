package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"commlab/internal/boundedio"
)

// builder makes, in the background while the site is served (-build, which
// make serve passes), what a fresh clone lacks: commlab.wasm and
// wasm_exec.js, the thumbnails and scene stills, a quick report when there
// is none, and then the full report, which replaces the quick one as a whole directory
// when it is done. The server answers from the first second; until a piece
// is in place the pages that need it say what is being built and reload
// themselves (see pending).
type builder struct {
	goCmd string // the go command, $GO or "go"
	repo  string // the module root the commands run in
	site  string // the site directory being served
	out   io.Writer

	// run runs one command (with env added to the server's environment)
	// and copyWasmExecFn copies the wasm glue; tests replace them.
	run            func(ctx context.Context, env []string, name string, args ...string) error
	copyWasmExecFn func(ctx context.Context) error

	mu      sync.Mutex
	step    string    // what is being built now, "" when nothing is
	steps   []string  // every step of this build, in order
	started time.Time // when step started
	last    string    // the step's last line of output (gen-report's progress)
	failed  string    // the last step that failed, with why
	done    bool      // every step has finished
}

func newBuilder(repo, site string, out io.Writer) *builder {
	b := &builder{goCmd: "go", repo: repo, site: site, out: out}
	if g := os.Getenv("GO"); g != "" {
		b.goCmd = g
	}
	b.run = b.exec
	b.copyWasmExecFn = b.copyWasmExec
	return b
}

// revision is what `make wasm` stamps the wasm with for
// window.commlab.version(): git's name for the checkout in repo (a commit
// abbreviation, "-dirty" with uncommitted changes), or "devel" outside a
// git checkout.
func revision(ctx context.Context, repo string) string {
	cmd := exec.CommandContext(ctx, "git", "describe", "--always", "--dirty", "--abbrev=12")
	cmd.Dir = repo
	out, err := cmd.Output()
	if rev := strings.TrimSpace(string(out)); err == nil && rev != "" && !strings.ContainsAny(rev, " \t'\"") {
		return rev
	}
	return "devel"
}

// Bounds on the files the builder reads: the report's marker is a few
// lines, the toolchain's wasm_exec.js about 17 kB.
const (
	maxMarker = 64 << 10
	maxGlue   = 4 << 20
)

// reportEdition reads which report the site holds: "quick", "full", "" (an
// older report without an edition line), or "none".
func reportEdition(site string) string {
	m, err := boundedio.ReadFile(filepath.Join(site, "reports", ".commlab-report"), maxMarker)
	if err != nil {
		if _, err := os.Stat(filepath.Join(site, "reports", "index.html")); err == nil {
			return ""
		}
		return "none"
	}
	for _, line := range strings.Split(string(m), "\n") {
		if e, ok := strings.CutPrefix(line, "edition: "); ok {
			return e
		}
	}
	return ""
}

// Build runs the steps in order until one fails or ctx ends; a failed step
// is reported and the server keeps serving what there is.
func (b *builder) Build(ctx context.Context) {
	defer func() {
		b.mu.Lock()
		b.step, b.done = "", true
		b.mu.Unlock()
	}()
	bin, err := os.MkdirTemp("", "commlab-serve-bin-")
	if err != nil {
		b.fail("tools", err)
		return
	}
	defer os.RemoveAll(bin)
	steps := []struct {
		name string
		skip bool
		do   func() error
	}{
		{"commlab.wasm", false, func() error { return b.buildWasm(ctx) }},
		{"the report tools", false, func() error {
			return b.run(ctx, nil, b.goCmd, "build", "-o", bin+string(filepath.Separator), "./cmd/gen-report", "./cmd/gen-anim")
		}},
		// The thumbnails before the quick report: they hold the scene
		// pages' stills, drawn at once while the wasm starts (site/boot.js),
		// and take seconds where the quick report takes a minute.
		{"the thumbnails", false, func() error {
			return b.run(ctx, nil, filepath.Join(bin, "gen-anim"), "-thumbs", filepath.Join(b.site, "thumbs"))
		}},
		{"the quick report", reportEdition(b.site) != "none", func() error {
			return b.run(ctx, nil, filepath.Join(bin, "gen-report"), "-quick", "-out", filepath.Join(b.site, "reports"))
		}},
		{"the full report", false, func() error {
			if reportEdition(b.site) == "full" {
				return nil
			}
			return b.run(ctx, nil, filepath.Join(bin, "gen-report"), "-out", filepath.Join(b.site, "reports"))
		}},
	}
	b.mu.Lock()
	b.steps = nil
	for _, s := range steps {
		if !s.skip {
			b.steps = append(b.steps, s.name)
		}
	}
	b.mu.Unlock()
	for _, s := range steps {
		if s.skip || ctx.Err() != nil {
			continue
		}
		b.mu.Lock()
		b.step, b.started, b.last = s.name, time.Now(), ""
		b.mu.Unlock()
		fmt.Fprintf(b.out, "build: %s ...\n", s.name)
		if err := s.do(); err != nil {
			if ctx.Err() != nil {
				return
			}
			b.fail(s.name, err)
			return
		}
		fmt.Fprintf(b.out, "build: %s done in %s\n", s.name, time.Since(b.started).Round(100*time.Millisecond))
	}
}

func (b *builder) fail(step string, err error) {
	b.mu.Lock()
	b.failed = step + ": " + err.Error()
	b.mu.Unlock()
	fmt.Fprintf(b.out, "build: %s failed: %v\n", step, err)
}

// copyWasmExec copies the toolchain's wasm_exec.js beside the wasm: the glue
// must come from the toolchain that built it.
func (b *builder) copyWasmExec(ctx context.Context) error {
	out, err := exec.CommandContext(ctx, b.goCmd, "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %w", err)
	}
	glue, err := boundedio.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "lib", "wasm", "wasm_exec.js"), maxGlue)
	if err != nil {
		return err
	}
	tmp := filepath.Join(b.site, ".wasm_exec.js.build")
	if err := os.WriteFile(tmp, glue, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(b.site, "wasm_exec.js"))
}

// buildWasm builds site/commlab.wasm as `make wasm` does: for js/wasm
// (the go command's own target is the host's, which made an ELF binary
// named commlab.wasm), stripped, stamped with the checkout's revision, and
// wasm_exec.js from the same toolchain beside it; the file appears whole
// or not at all.
func (b *builder) buildWasm(ctx context.Context) error {
	tmp := filepath.Join(b.site, ".commlab.wasm.build")
	defer os.Remove(tmp)
	ldflags := "-s -w -X main.revision=" + revision(ctx, b.repo)
	env := []string{"GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0"}
	if err := b.run(ctx, env, b.goCmd, "build", "-trimpath", "-ldflags="+ldflags, "-o", tmp, "./wasm/"); err != nil {
		return err
	}
	if err := b.copyWasmExecFn(ctx); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(b.site, "commlab.wasm"))
}

// exec runs a command in the module root with env added to the server's
// environment, its output a line at a time to the server's output
// (indented) and its last line kept for the pages.
func (b *builder) exec(ctx context.Context, env []string, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = b.repo
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	// On Ctrl-C the tools get SIGINT, so gen-report removes its temporary
	// report, rather than SIGKILL.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	var tail bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintf(b.out, "  %s\n", line)
			b.mu.Lock()
			b.last = line
			b.mu.Unlock()
			tail.Reset()
			tail.WriteString(line)
		}
	}()
	err := cmd.Run()
	pw.Close()
	<-done
	if err != nil {
		if t := tail.String(); t != "" {
			return fmt.Errorf("%s: %w (%s)", filepath.Base(name), err, t)
		}
		return fmt.Errorf("%s: %w", filepath.Base(name), err)
	}
	return nil
}

// state is what the builder is doing, for the pages: step reads "the
// quick report (step 3 of 5)".
func (b *builder) state() (step string, since time.Duration, last, failed string, done bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.step != "" {
		since = time.Since(b.started).Round(time.Second)
		step = b.step
		for i, s := range b.steps {
			if s == b.step {
				step = fmt.Sprintf("%s (step %d of %d: %s)", b.step, i+1, len(b.steps), strings.Join(b.steps, ", "))
			}
		}
	}
	return step, since, b.last, b.failed, b.done
}

// statusNote is the paragraph the report pages show in their status slot
// while a fuller report is being built, or "" when nothing is on its way.
func (b *builder) statusNote() string {
	step, since, last, _, done := b.state()
	if done || step == "" || reportEdition(b.site) == "full" {
		return ""
	}
	msg := "A full report is on its way: make serve is building " + step + ", " + since.String() + " so far"
	if last != "" {
		msg += " (last output: " + last + ")"
	}
	msg += ". It replaces this report as a whole when it is done: reload then."
	return `<div class="edition pending"><p>` + html.EscapeString(msg) + `</p></div>`
}

// buildingPage is the page served in place of one whose files are not built
// yet: it says what is being built and reloads itself every few seconds
// (a meta refresh, which the site's Content-Security-Policy allows).
func (b *builder) buildingPage(what string) []byte {
	step, since, last, failed, done := b.state()
	var s strings.Builder
	s.WriteString(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">` +
		`<meta name="viewport" content="width=device-width, initial-scale=1">`)
	if failed == "" && !done {
		s.WriteString(`<meta http-equiv="refresh" content="3">`)
	}
	s.WriteString(`<title>commlab: building</title><link rel="icon" href="/favicon.ico"><link rel="stylesheet" href="/style.css"></head><body class="landing"><main class="building">`)
	fmt.Fprintf(&s, "<h1>Building %s</h1>", html.EscapeString(what))
	switch {
	case failed != "":
		fmt.Fprintf(&s, "<p>The build failed: %s. See make serve's output.</p>", html.EscapeString(failed))
	case done:
		fmt.Fprintf(&s, "<p>%s was not built; see make serve's output.</p>", html.EscapeString(what))
	case step != "":
		fmt.Fprintf(&s, "<p>make serve is building %s, %s so far.", html.EscapeString(step), since)
		if last != "" {
			fmt.Fprintf(&s, " Its last output: “%s”.", html.EscapeString(last))
		}
		s.WriteString(" This page reloads itself when it is ready. A first build from an empty Go cache takes a minute or two; later ones start at once.</p>")
	default:
		s.WriteString("<p>make serve is about to build it. This page reloads itself.</p>")
	}
	s.WriteString(`<p><a href="/">Back to the start page</a></p></main></body></html>`)
	return []byte(s.String())
}
