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
// from the current source into a temporary directory, once per run and
// shared by every scene test, and the reports come from $COMMLAB_REPORTS
// (make test points it at the quick report it just generated), else
// site/reports when it holds a report, else a quick report generated into a
// temporary directory. One headless Chromium serves the whole run, each test
// in a tab of its own; the page numbers start a fresh browser per load.
//
// The scene tests hold the page to its contract (window.commlab and the
// page's DOM, documented in docs/visualizer.md): every scene of scene/catalog loads
// and draws, state() and the address bar follow the controls and the API, a
// reload reproduces the view, bad URL values and bad input are reported on the page exactly
// as scene.ParseQuery and Field.Parse word them, embed mode works in a
// 640x360 iframe with the keyboard, and the page's numbers and trace are
// bit for bit the ones the scene gives when built natively.
//
// The scene page's start is held to its contract too: every scene's still
// (gen-anim -thumbs, which the harness runs once) is painted before its
// first live frame and then taken away, and every link to the reports
// resolves to a page and an id in a quick report (docs/visualizer.md). At
// one of its paper's points a scene shows the paper's number beside its
// run's, in state().paper and in the panel, equal to the native engine's
// bit for bit, and none off the point or when embedded (TestPaperPoint).
//
// TestPageNumbers measures the page numbers (wasm size, the still
// and the first live frame after navigation with where the start's time
// goes, frames per second) and prints them against their targets; it runs
// only with COMMLAB_BENCH=1, which `make bench` sets.
//
// Chromium is /usr/bin/chromium or $CHROMIUM. Without it the tests skip,
// unless CI=true, where they fail: CI must not pass by testing nothing.
// The tests are native only (chromedp does not build for js/wasm), so
// their files carry the constraint !(js && wasm).
//
// Run them with `make e2e`; set COMMLAB_E2E_SHOTS=DIR to keep their
// screenshots.
package e2e
