package main

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"commlab/cmd/serve/sitehttp"
)

// limits are the dev server's timeouts and its cap on open connections.
//
// A browser loads a page over a handful of connections and reuses them
// within seconds; a connection that has sent no request in idle is closed.
// A connection that sends its header slowly is given readHeader; a request
// (GET or HEAD, no body to wait for) read, and its answer (the 14.7 MB
// wasm among them) written, within the others. At maxConns open
// connections a new one closes the one idle longest, so that idle
// keep-alive connections never keep a new client out (issue 26: 190 idle
// connections starved a client at 200 descriptors).
type limits struct {
	readHeader, read, write, idle time.Duration
	maxConns                      int
}

// serverLimits are the limits serve uses: maxConns leaves room under the
// process's descriptor limit for the files it serves and the builder.
func serverLimits() limits {
	return limits{
		readHeader: 10 * time.Second,
		read:       30 * time.Second,
		write:      2 * time.Minute,
		idle:       15 * time.Second,
		maxConns:   max(16, openFileLimit()-64),
	}
}

// maxHeaderBytes bounds a request's header: a browser's are a few kB.
const maxHeaderBytes = 64 << 10

// newServer is the dev server for h under l: its own answers (431 for a
// header over maxHeaderBytes, 400 for a request it cannot read) carry the
// site's headers too, and so does OPTIONS *, which h answers.
func newServer(h http.Handler, l limits) *http.Server {
	cl := &connLimit{max: l.maxConns, idle: map[net.Conn]time.Time{}, closed: map[net.Conn]bool{}}
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: l.readHeader,
		ReadTimeout:       l.read,
		WriteTimeout:      l.write,
		IdleTimeout:       l.idle,
		MaxHeaderBytes:    maxHeaderBytes,
		// OPTIONS * goes to h, which answers 405 with the site's
		// headers, instead of net/http's bare 200.
		DisableGeneralOptionsHandler: true,
		ConnState:                    cl.track,
	}
}

// connLimit closes the longest idle connection when a new one would pass
// max open ones.
type connLimit struct {
	max    int
	mu     sync.Mutex
	open   int
	idle   map[net.Conn]time.Time // since when each idle connection has been idle
	closed map[net.Conn]bool      // closed here, no longer counted
}

func (c *connLimit) track(conn net.Conn, s http.ConnState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch s {
	case http.StateNew:
		c.open++
		for c.open > c.max && len(c.idle) > 0 {
			var oldest net.Conn
			var since time.Time
			for ic, t := range c.idle {
				if oldest == nil || t.Before(since) {
					oldest, since = ic, t
				}
			}
			delete(c.idle, oldest)
			c.open-- // its StateClosed will not count it again
			c.closed[oldest] = true
			oldest.Close()
		}
	case http.StateIdle:
		c.idle[conn] = time.Now()
	case http.StateActive:
		delete(c.idle, conn)
	case http.StateClosed, http.StateHijacked:
		delete(c.idle, conn)
		if c.closed[conn] {
			delete(c.closed, conn)
		} else {
			c.open--
		}
	}
}

// headerConn adds the site's headers to the answers net/http writes itself,
// on the connection, before any handler runs (431, 400, 505): every
// response of the site carries them.
type headerConn struct{ net.Conn }

// headerListener wraps each accepted connection in a headerConn.
type headerListener struct{ net.Listener }

func (l headerListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return headerConn{c}, nil
}

// siteHeaders are sitehttp.Headers as header lines.
var siteHeaders = func() []byte {
	var b bytes.Buffer
	for _, kv := range sitehttp.Headers {
		b.WriteString(kv[0] + ": " + kv[1] + "\r\n")
	}
	return b.Bytes()
}()

// ReadFrom keeps the connection's own (sendfile for a file's bytes): a
// body, never a header, is written through it.
func (c headerConn) ReadFrom(r io.Reader) (int64, error) {
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(c.Conn, r)
}

// Write adds siteHeaders after the status line of an error answer whose
// whole header is in p and carries no Content-Security-Policy: only the
// server's own answers lack it (the handler sets it on every response).
func (c headerConn) Write(p []byte) (int, error) {
	if bytes.HasPrefix(p, []byte("HTTP/1.1 4")) || bytes.HasPrefix(p, []byte("HTTP/1.1 5")) {
		if end := bytes.Index(p, []byte("\r\n\r\n")); end > 0 && !bytes.Contains(p[:end], []byte("\r\nContent-Security-Policy:")) {
			if line := bytes.Index(p, []byte("\r\n")) + 2; line > 1 {
				q := make([]byte, 0, len(p)+len(siteHeaders))
				q = append(append(append(q, p[:line]...), siteHeaders...), p[line:]...)
				if _, err := c.Conn.Write(q); err != nil {
					return 0, err
				}
				return len(p), nil
			}
		}
	}
	return c.Conn.Write(p)
}
