package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"commlab/cmd/serve/sitehttp"
)

// startServer serves a small site under lim until the test ends and
// returns its address.
func startServer(t *testing.T, lim limits) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range map[string]string{
		"index.html":   "<!doctype html><title>commlab</title>",
		"commlab.wasm": strings.Repeat("\x00asm", 1000),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serveWithin(ctx, ln, dir, nil, io.Discard, io.Discard, lim) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return ln.Addr().String()
}

// raw sends req on a new connection and reads one response.
func raw(t *testing.T, addr, req string) *http.Response {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("%.40q: %v", req, err)
	}
	resp.Body.Close()
	return resp
}

// TestEveryAnswerCarriesTheHeaders: the answers net/http writes itself
// (431 for a header too large, 400 for a request it cannot read), OPTIONS *
// and a 416 for a range past the end carry the site's headers like every
// other response (issue 26: they had none, or lacked Cache-Control).
func TestEveryAnswerCarriesTheHeaders(t *testing.T) {
	addr := startServer(t, serverLimits())
	for _, c := range []struct {
		name, req string
		status    int
	}{
		{"OPTIONS *", "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", http.StatusMethodNotAllowed},
		{"a header of 100 kB", "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 100<<10) + "\r\n\r\n", http.StatusRequestHeaderFieldsTooLarge},
		{"a request line that is none", "NOT A REQUEST\r\n\r\n", http.StatusBadRequest},
		{"a range past the end", "GET /commlab.wasm HTTP/1.1\r\nHost: x\r\nRange: bytes=999999-\r\n\r\n", http.StatusRequestedRangeNotSatisfiable},
		{"a plain GET", "GET / HTTP/1.1\r\nHost: x\r\n\r\n", http.StatusOK},
	} {
		resp := raw(t, addr, c.req)
		if resp.StatusCode != c.status {
			t.Errorf("%s: status %d, want %d", c.name, resp.StatusCode, c.status)
		}
		for _, kv := range sitehttp.Headers {
			if got := resp.Header.Values(kv[0]); len(got) != 1 || got[0] != kv[1] {
				t.Errorf("%s: %s = %q, want once %q", c.name, kv[0], got, kv[1])
			}
		}
	}
}

// TestIdleConnectionsDoNotStarve: at the cap on open connections, idle
// keep-alive ones give way to a new client (issue 26: 190 idle connections
// kept a client out at 200 descriptors).
func TestIdleConnectionsDoNotStarve(t *testing.T) {
	lim := serverLimits()
	lim.maxConns = 8
	addr := startServer(t, lim)
	var idle []net.Conn
	for range lim.maxConns {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		if _, err := http.ReadResponse(bufio.NewReader(c), nil); err != nil {
			t.Fatal(err)
		}
		idle = append(idle, c) // kept alive, idle
	}
	t0 := time.Now()
	if resp := raw(t, addr, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); resp.StatusCode != http.StatusOK {
		t.Errorf("the new client: status %d", resp.StatusCode)
	}
	if took := time.Since(t0); took > 2*time.Second {
		t.Errorf("the new client waited %v", took)
	}
	// The one idle longest was closed for it.
	idle[0].SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := idle[0].Read(make([]byte, 1)); !closed(err) {
		t.Errorf("the oldest idle connection is still open (read %d bytes, %v)", n, err)
	}
}

// TestIdleTimeout: a keep-alive connection idle past its time, and one that
// never sends a header, are closed.
func TestIdleTimeout(t *testing.T) {
	lim := serverLimits()
	lim.idle, lim.readHeader = 300*time.Millisecond, 300*time.Millisecond
	addr := startServer(t, lim)
	used, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer used.Close()
	io.WriteString(used, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	br := bufio.NewReader(used)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	silent, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	for name, r := range map[string]io.Reader{"idle keep-alive": br, "silent": silent} {
		t0 := time.Now()
		used.SetReadDeadline(time.Now().Add(10 * time.Second))
		silent.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := r.Read(make([]byte, 1)); !closed(err) || time.Since(t0) > 5*time.Second {
			t.Errorf("%s connection: open after %v (%v)", name, time.Since(t0), err)
		}
	}
}

// closed reports whether a read ended because the server closed the
// connection, not by the read's own deadline.
func closed(err error) bool {
	var ne net.Error
	return err != nil && !(errors.As(err, &ne) && ne.Timeout())
}
