// Command serve serves commlab's static site for development: the landing
// page, the browser visualizer (commlab.wasm) and the reports.
//
// Usage:
//
//	serve [-addr 127.0.0.1:8080] [-dir site]
//
// It sends the same headers as the hosting (netlify.toml): the
// Content-Security-Policy, application/wasm for WebAssembly, and
// revalidation on every request, so what works here works when deployed.
// `make serve` builds the wasm and the reports first and then runs it.
//
// The default address is loopback only. Any other address makes the site
// reachable from the network, which serve allows but says so.
package main
