// Command serve serves commlab's static site for development: the landing
// page, the browser visualizer (commlab.wasm) and the reports.
//
// Usage:
//
//	serve [-addr 127.0.0.1:8080] [-dir site] [-build]
//
// It sends the same headers as the hosting (netlify.toml): the
// Content-Security-Policy, application/wasm for WebAssembly, and
// revalidation on every request, and brotli (or gzip) on the wire for the types Netlify
// compresses, so what works here works, and loads, as when deployed. Files
// are opened through an os.Root: nothing outside -dir, not even through a
// symlink.
//
// `make serve` runs it with -build: it answers from its first second and
// builds, one step at a time in the background, commlab.wasm, the
// thumbnails (the scene pages' stills among them), a quick report if there
// is none, then the full report, which
// replaces the quick one as a whole directory (build.go). Until a piece is
// in place, the page that needs it is a 503 that says what is being built
// and reloads itself, and the report pages say a full report is on its way.
//
// Every answer carries those headers, net/http's own (431, 400) and
// OPTIONS * included. Connections are bounded (conns.go): a header must
// come within 10 s, a keep-alive connection idle for 15 s is closed, and
// at the cap on open connections (the descriptor limit less 64) a new one
// closes the one idle longest, so idle connections never keep a client
// out.
//
// The default address is loopback only. Any other address makes the site
// reachable from the network, which serve allows but says so.
package main
