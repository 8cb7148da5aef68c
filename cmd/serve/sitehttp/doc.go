// Package sitehttp serves commlab's static site (site/) the way the hosting
// does: the same security headers as netlify.toml, WebAssembly as
// application/wasm, and revalidation instead of long caching.
//
// It is shared by cmd/serve (make serve) and the browser tests in cmd/serve/e2e,
// so what the tests exercise is what a developer sees. The header values
// live here once; a test in cmd/serve checks netlify.toml against them.
package sitehttp
