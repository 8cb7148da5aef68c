// Package e2e holds commlab's browser tests: the site as a person sees it,
// in headless Chromium driven by chromedp.
//
// The tests serve the site with the same handler as cmd/serve
// (cmd/serve/sitehttp, so the same Content-Security-Policy) on a random
// 127.0.0.1 port, and fail on any console error, uncaught exception, browser
// log error (a blocked or missing resource, a CSP violation) and any request
// to a host other than 127.0.0.1: the site must work offline.
//
// They build what they need rather than trusting site/: the wasm is compiled
// from the current source into a temporary directory, and the reports come
// from $COMMLAB_REPORTS (make test points it at the quick report it just
// generated), else site/reports when it holds a report, else a quick report
// generated into a temporary directory.
//
// Chromium is /usr/bin/chromium or $CHROMIUM. Without it the tests skip,
// unless CI=true, where they fail: CI must not pass by testing nothing.
// The tests are native only (chromedp does not build for js/wasm), so
// their files carry the constraint !(js && wasm).
//
// Run them with `make e2e`; set COMMLAB_E2E_SHOTS=DIR to keep their
// screenshots.
package e2e
