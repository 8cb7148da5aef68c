package sitehttp

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/andybalholm/brotli"
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
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
			if fi.Size() >= minCompress && r.Header.Get("Range") == "" {
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
// bother.
const minCompress = 1024

// brotliQuality is the brotli level: 5 is what hosts use on the fly (4-6).
// On the 14.7 MB wasm it gives 3.01 MB in 2.7 s, gzip 6 3.62 MB in 1.0 s
// (measured under a load of 11 on 2 cores); 6 gains 1 % for 60 % more
// time, 9 3 % for 7 times the time. The browser tests report brotli 11
// separately, as a build step would precompress.
const brotliQuality = 5

// negotiate picks the coding for an Accept-Encoding header, as Netlify
// does: brotli when the client takes it, else gzip, else none ("").
// A coding with q=0 is refused; "*" stands for any coding not named.
func negotiate(header string) string {
	accepts := map[string]bool{}
	star, hasStar := false, false
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		ok := q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
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
		e.data, e.err = compress(root, name, enc)
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

// compress reads name and compresses it with enc (br or gzip).
func compress(root fs.FS, name, enc string) ([]byte, error) {
	raw, err := fs.ReadFile(root, name)
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
