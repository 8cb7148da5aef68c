package sitehttp

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/andybalholm/brotli"

	"commlab/internal/boundedio"
)

// CSP is the Content-Security-Policy of every response. netlify.toml must
// carry the same string (cmd/serve's tests compare them).
//
//   - script-src 'self': the landing and scene pages load scripts from files
//     only, and the report pages keep their chart options in JSON data blocks
//     drawn by one static script (see cmd/gen-report/internal/report), so no
//     page needs inline script. 'wasm-unsafe-eval' lets the scene page
//     compile commlab.wasm, and nothing else.
//   - style-src 'unsafe-inline': echarts builds its tooltips as HTML with
//     style attributes, and Ebiten styles the canvas it creates.
//   - No frame-ancestors: scenes are meant to be embedded (?embed=1) in
//     slides served from anywhere, including file://.
const CSP = "default-src 'self'; " +
	"script-src 'self' 'wasm-unsafe-eval'; " +
	"style-src 'self' 'unsafe-inline'; " +
	"object-src 'none'; " +
	"base-uri 'self'; " +
	"form-action 'self'"

// CacheControl applies to every response. Nothing on the site has a content
// hash in its name, and commlab.wasm must match the wasm_exec.js and pages
// it was built with, so the browser revalidates every file (a cheap 304 when
// unchanged) rather than trusting a stale copy after a redeploy.
const CacheControl = "no-cache"

// Headers are set on every response, errors included, in this order.
var Headers = [][2]string{
	{"Content-Security-Policy", CSP},
	{"X-Content-Type-Options", "nosniff"},
	{"Referrer-Policy", "no-referrer"},
	{"Cache-Control", CacheControl},
}

// contentTypes pins the types of the files the site ships, so the answer
// does not depend on the machine's /etc/mime.types. WebAssembly streaming
// compilation requires exactly application/wasm.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".wasm": "application/wasm",
	".json": "application/json",
	".csv":  "text/csv; charset=utf-8",
	".txt":  "text/plain; charset=utf-8",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".gif":  "image/gif",
	".webm": "video/webm",
	".ico":  "image/x-icon",
}

// Handler serves the files of root, which is the site directory (for
// example os.DirFS("site")). It answers GET and HEAD only, serves a
// directory's index.html but never lists a directory, and hides dot files
// and Go sources (none belong in the published site).
func Handler(root fs.FS) http.Handler {
	files := http.FileServerFS(root)
	var cc compCache
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		w := &headerWriter{ResponseWriter: rw}
		h := w.Header()
		for _, kv := range Headers {
			h.Set(kv[0], kv[1])
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if strings.ContainsRune(name, 0) || !utf8.ValidString(name) {
			// %00 and broken UTF-8 name no file; never echo them back.
			http.Error(w, "bad request: the path is not a valid file name", http.StatusBadRequest)
			return
		}
		if hidden(name) || tooLong(name) {
			http.NotFound(w, r)
			return
		}
		if name == "" {
			name = "."
		}
		fi, err := fs.Stat(root, name)
		if err != nil {
			// Not there, or not reachable (a symlink out of an os.Root,
			// a name the file system refuses): a 404 either way, and
			// the message never repeats the path.
			http.NotFound(w, r)
			return
		}
		file := name
		if fi.IsDir() {
			file = path.Join(name, "index.html")
			ifi, err := fs.Stat(root, file)
			if err != nil {
				http.NotFound(w, r)
				return
			}
			if !strings.HasSuffix(r.URL.Path, "/") {
				files.ServeHTTP(w, r) // the redirect to the slash
				return
			}
			fi = ifi
		}
		if ct, ok := contentTypes[path.Ext(file)]; ok {
			h.Set("Content-Type", ct)
		}
		if compressible[path.Ext(file)] {
			h.Add("Vary", "Accept-Encoding")
			if fi.Size() >= minCompress && fi.Size() <= maxCompress && r.Header.Get("Range") == "" {
				if enc := negotiate(r.Header.Get("Accept-Encoding")); enc != "" {
					if data, err := cc.compressed(root, file, fi, enc); err == nil {
						h.Set("Content-Encoding", enc)
						http.ServeContent(w, r, file, fi.ModTime(), bytes.NewReader(data))
						return
					}
				}
			}
		}
		files.ServeHTTP(w, r)
	})
}

// headerWriter puts back the Headers a writer took off before the
// response goes out: http.ServeContent drops Cache-Control from its errors
// (a 416 for a range past the end had none).
type headerWriter struct {
	http.ResponseWriter
	sent bool
}

func (w *headerWriter) WriteHeader(code int) {
	if !w.sent {
		w.sent = true
		h := w.Header()
		for _, kv := range Headers {
			if h.Get(kv[0]) == "" {
				h.Set(kv[0], kv[1])
			}
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *headerWriter) Write(b []byte) (int, error) {
	if !w.sent {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// ReadFrom keeps the writer's own (sendfile for a file).
func (w *headerWriter) ReadFrom(r io.Reader) (int64, error) {
	if !w.sent {
		w.WriteHeader(http.StatusOK)
	}
	if rf, ok := w.ResponseWriter.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(w.ResponseWriter, r)
}

// Unwrap lets http.ResponseController reach the writer underneath.
func (w *headerWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Limits on a path, below what file systems refuse (255 bytes a segment,
// 4096 a path), so an over-long name is a plain 404, never an error.
const (
	maxSegment = 255
	maxPath    = 1024
)

func tooLong(name string) bool {
	if len(name) > maxPath {
		return true
	}
	for _, seg := range strings.Split(name, "/") {
		if len(seg) > maxSegment {
			return true
		}
	}
	return false
}

// compressible are the types a host compresses on the wire (Netlify does
// for these): the wasm above all, whose 14.7 MB are 3.0 MB in brotli and
// 3.6 MB gzipped, so a page served locally loads as the hosted one does.
var compressible = map[string]bool{
	".wasm": true, ".json": true, ".js": true, ".css": true, ".html": true,
	".csv": true, ".svg": true, ".txt": true,
}

// minCompress is the size below which compressing saves too little to
// bother; maxCompress the size above which a file is served as it is
// rather than held in memory whole to compress (the wasm is 14.7 MB, the
// largest report page a few MB).
const (
	minCompress = 1024
	maxCompress = 256 << 20
)

// brotliQuality is the brotli level: 5 is what hosts use on the fly (4-6).
// On the 14.7 MB wasm it gives 3.01 MB in 2.7 s, gzip 6 3.62 MB in 1.0 s
// (measured under a load of 11 on 2 cores); 6 gains 1 % for 60 % more
// time, 9 3 % for 7 times the time. The browser tests report brotli 11
// separately, as a build step would precompress.
const brotliQuality = 5

// negotiate picks the coding for an Accept-Encoding header, as Netlify
// does: brotli when the client takes it, else gzip, else none ("").
// A coding weighed 0 is refused; "*" stands for any coding not named. The
// weight is read as RFC 9110 (12.4.2) writes it, "q" in either case, a
// value from 0 to 1 with up to three decimals; a weight that is not one
// refuses the coding, so that nothing is sent compressed on a header that
// cannot be read as asking for it.
func negotiate(header string) string {
	accepts := map[string]bool{}
	star, hasStar := false, false
	for _, part := range strings.Split(header, ",") {
		params := strings.Split(part, ";")
		coding := strings.ToLower(strings.TrimSpace(params[0]))
		ok := true
		for _, param := range params[1:] {
			name, value, _ := strings.Cut(param, "=")
			if strings.EqualFold(strings.TrimSpace(name), "q") {
				ok = qvalue(strings.TrimSpace(value)) > 0
			}
		}
		if coding == "*" {
			star, hasStar = ok, true
			continue
		}
		if coding != "" {
			accepts[coding] = ok
		}
	}
	for _, enc := range []string{"br", "gzip"} {
		if ok, named := accepts[enc]; ok || !named && hasStar && star {
			return enc
		}
	}
	return ""
}

// qvalue reads a weight, ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] );
// anything else is 0.
func qvalue(s string) float64 {
	if s == "" || len(s) > 5 || s[0] != '0' && s[0] != '1' || len(s) > 1 && s[1] != '.' {
		return 0
	}
	for _, c := range s[min(len(s), 2):] {
		if c < '0' || c > '9' {
			return 0
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v > 1 {
		return 0
	}
	return v
}

// compCache holds each file's compressed forms by coding and name, one
// cache per Handler (per root), valid while the file's size and
// modification time are those compressed: the wasm takes a second or
// more to compress, so it is done once per build, not per load, and two
// requests at once wait for one compression.
type compCache struct {
	sync.Mutex
	m map[[2]string]*compEntry
}

type compEntry struct {
	mod  time.Time
	size int64
	done chan struct{} // closed when data and err are set
	data []byte
	err  error
}

func (cc *compCache) compressed(root fs.FS, name string, fi fs.FileInfo, enc string) ([]byte, error) {
	key := [2]string{enc, name}
	cc.Lock()
	e, ok := cc.m[key]
	if !ok || !e.mod.Equal(fi.ModTime()) || e.size != fi.Size() {
		e = &compEntry{mod: fi.ModTime(), size: fi.Size(), done: make(chan struct{})}
		if cc.m == nil {
			cc.m = map[[2]string]*compEntry{}
		}
		cc.m[key] = e
		cc.Unlock()
		e.data, e.err = compress(root, name, enc, fi.Size())
		close(e.done)
		if e.err != nil {
			cc.Lock()
			if cc.m[key] == e {
				delete(cc.m, key) // try again next time
			}
			cc.Unlock()
		}
		return e.data, e.err
	}
	cc.Unlock()
	<-e.done
	return e.data, e.err
}

// compress reads name, of size bytes when it was looked at (a file that
// has grown since is left to be served as it is), and compresses it with
// enc (br or gzip).
func compress(root fs.FS, name, enc string, size int64) ([]byte, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	raw, err := boundedio.ReadAll(name, f, size)
	f.Close()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	var zw io.WriteCloser
	if enc == "br" {
		zw = brotli.NewWriterLevel(&b, brotliQuality)
	} else {
		zw, _ = gzip.NewWriterLevel(&b, gzip.BestSpeed+5) // level 6, gzip's default
	}
	if _, err := zw.Write(raw); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// hidden reports whether a cleaned, slash-separated path names something
// that is in the site folder but not part of the site.
func hidden(name string) bool {
	if strings.HasSuffix(name, ".go") {
		return true
	}
	for _, seg := range strings.Split(name, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}
