package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"commlab/cmd/serve/sitehttp"
	"commlab/internal/boundedio"
)

func main() {
	if err := run(os.Stdout, os.Stderr, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
}

// config is what the flags say.
type config struct {
	addr  string
	dir   string
	build bool
}

func parseFlags(stdout io.Writer, args []string) (config, error) {
	var c config
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	// The flag package's own messages already name the flag; the usage
	// text would bury them, so it is printed only for -h.
	fs.SetOutput(io.Discard)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "`host:port` to listen on (port 0 picks a free one)")
	fs.StringVar(&c.dir, "dir", "site", "`directory` to serve")
	fs.BoolVar(&c.build, "build", false, "serve at once and build what the site lacks in the background, from the module in the current directory: commlab.wasm, a quick report if there is none, the thumbnails, then the full report (make serve)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fmt.Fprintln(stdout, "usage: serve [-addr host:port] [-dir directory] [-build]")
			fs.PrintDefaults()
		}
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q (serve takes flags only)", fs.Arg(0))
	}
	if _, _, err := net.SplitHostPort(c.addr); err != nil {
		return c, fmt.Errorf("invalid value %q for flag -addr: %v", c.addr, err)
	}
	fi, err := os.Stat(c.dir)
	if err != nil {
		return c, fmt.Errorf("invalid value %q for flag -dir: %v", c.dir, err)
	}
	if !fi.IsDir() {
		return c, fmt.Errorf("invalid value %q for flag -dir: not a directory", c.dir)
	}
	if c.build {
		if _, err := os.Stat("go.mod"); err != nil {
			return c, fmt.Errorf("-build runs the go command in the module root, but the current directory has no go.mod: run make serve from the repository root")
		}
	}
	return c, nil
}

func run(stdout, stderr io.Writer, args []string) error {
	c, err := parseFlags(stdout, args)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return err
	}
	var b *builder
	if c.build {
		b = newBuilder(".", c.dir, stdout)
	}
	return serve(ctx, ln, c.dir, b, stdout, stderr)
}

// serve answers on ln until ctx ends, then lets requests in flight finish.
// With a builder, it starts building once it is listening.
func serve(ctx context.Context, ln net.Listener, dir string, b *builder, stdout, stderr io.Writer) error {
	return serveWithin(ctx, ln, dir, b, stdout, stderr, serverLimits())
}

// serveWithin is serve under the limits lim (tests shorten them).
func serveWithin(ctx context.Context, ln net.Listener, dir string, b *builder, stdout, stderr io.Writer, lim limits) error {
	if b == nil {
		warnMissing(stderr, dir)
	}
	// os.Root keeps every file the server opens inside dir: a symlink that
	// points out of the site is refused, not followed.
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	addr := ln.Addr().(*net.TCPAddr)
	if !addr.IP.IsLoopback() {
		fmt.Fprintf(stderr, "note: listening on %s, which other machines can reach\n", addr)
	}
	fmt.Fprintf(stdout, "serving %s on http://%s/ (Ctrl-C to stop)\n", dir, urlHost(addr))

	srv := newServer(siteHandler(root.FS(), b), lim)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(headerListener{ln}) }()
	buildDone := make(chan struct{})
	if b != nil {
		go func() { defer close(buildDone); b.Build(ctx) }()
	} else {
		close(buildDone)
	}
	defer func() { <-buildDone }() // the tools get SIGINT and clean up first
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// urlHost is the host:port to print in a URL; an unspecified address
// (0.0.0.0 or ::) is shown as loopback, which is where a browser on this
// machine finds it.
func urlHost(a *net.TCPAddr) string {
	ip := a.IP
	if ip.IsUnspecified() {
		ip = net.IPv4(127, 0, 0, 1)
	}
	return net.JoinHostPort(ip.String(), fmt.Sprint(a.Port))
}

// warnMissing names the generated parts of the site that are absent, with
// the make verb that builds each: they are not committed, so a fresh
// checkout lacks them and the pages that need them would fail.
func warnMissing(stderr io.Writer, dir string) {
	for _, f := range []struct{ path, verb string }{
		{"commlab.wasm", "make wasm"},
		{"wasm_exec.js", "make wasm"},
		{filepath.Join("reports", "index.html"), "make report"},
	} {
		if _, err := os.Stat(filepath.Join(dir, f.path)); err != nil {
			fmt.Fprintf(stderr, "note: %s is missing (%s builds it)\n", filepath.Join(dir, f.path), f.verb)
		}
	}
}

// maxPage bounds a report page read to put the status in: a larger one
// (none is near it) is served as it is.
const maxPage = 64 << 20

// readPage reads a report page of the site, at most maxPage bytes.
func readPage(root fs.FS, name string) ([]byte, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return boundedio.ReadAll(name, f, maxPage)
}

// statusSlot is the comment every report page carries where the server puts
// the builder's status: cmd/gen-report/internal/report's StatusSlot (a test
// reads it from that package's golden page).
const statusSlot = "<!--commlab:status-->"

// siteHandler is sitehttp's handler over root; with a builder, pages whose
// files are not built yet are answered with a page saying what is being
// built (503, reloading itself), and report pages carry the builder's
// status in their status slot while a full report is on its way.
func siteHandler(root fs.FS, b *builder) http.Handler {
	files := sitehttp.Handler(root)
	if b == nil {
		return files
	}
	missing := func(name string) bool {
		_, err := fs.Stat(root, name)
		return err != nil
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		building := ""
		switch {
		case name == "scene.html" && (missing("commlab.wasm") || missing("wasm_exec.js")):
			building = "the visualizer (commlab.wasm)"
		case (name == "reports" || strings.HasPrefix(name, "reports/")) && missing("reports/index.html"):
			building = "the quick report"
		}
		if building != "" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			h := w.Header()
			for _, kv := range sitehttp.Headers {
				h.Set(kv[0], kv[1])
			}
			h.Set("Content-Type", "text/html; charset=utf-8")
			h.Set("Cache-Control", "no-store")
			h.Set("Retry-After", "3")
			w.WriteHeader(http.StatusServiceUnavailable)
			if r.Method == http.MethodGet {
				w.Write(b.buildingPage(building))
			}
			return
		}
		page := name
		if page == "reports" && strings.HasSuffix(r.URL.Path, "/") { // "/reports" is redirected first
			page = "reports/index.html"
		}
		if note := b.statusNote(); note != "" && r.Method == http.MethodGet && strings.HasPrefix(page, "reports/") && strings.HasSuffix(page, ".html") {
			if page, err := readPage(root, page); err == nil {
				h := w.Header()
				for _, kv := range sitehttp.Headers {
					h.Set(kv[0], kv[1])
				}
				h.Set("Content-Type", "text/html; charset=utf-8")
				w.Write(bytes.Replace(page, []byte(statusSlot), []byte(note), 1))
				return
			}
		}
		files.ServeHTTP(w, r)
	})
}
