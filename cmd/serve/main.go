package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"commlab/cmd/serve/sitehttp"
)

func main() {
	if err := run(os.Stdout, os.Stderr, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
}

// config is what the flags say.
type config struct {
	addr string
	dir  string
}

func parseFlags(stdout io.Writer, args []string) (config, error) {
	var c config
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	// The flag package's own messages already name the flag; the usage
	// text would bury them, so it is printed only for -h.
	fs.SetOutput(io.Discard)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "`host:port` to listen on (port 0 picks a free one)")
	fs.StringVar(&c.dir, "dir", "site", "`directory` to serve")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fmt.Fprintln(stdout, "usage: serve [-addr host:port] [-dir directory]")
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
	return serve(ctx, ln, c.dir, stdout, stderr)
}

// serve answers on ln until ctx ends, then lets requests in flight finish.
func serve(ctx context.Context, ln net.Listener, dir string, stdout, stderr io.Writer) error {
	warnMissing(stderr, dir)
	addr := ln.Addr().(*net.TCPAddr)
	if !addr.IP.IsLoopback() {
		fmt.Fprintf(stderr, "note: listening on %s, which other machines can reach\n", addr)
	}
	fmt.Fprintf(stdout, "serving %s on http://%s/ (Ctrl-C to stop)\n", dir, urlHost(addr))

	srv := &http.Server{
		Handler:           sitehttp.Handler(os.DirFS(dir)),
		ReadHeaderTimeout: 10 * time.Second,
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
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
