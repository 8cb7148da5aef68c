// Command wasm is commlab's browser visualizer: an Ebiten game compiled to
// js/wasm that paints a scene's render.List on the page's canvas and offers
// a small JavaScript API, window.commlab, to the page and to the end-to-end
// tests.
//
// Build it with `make wasm` (GOOS=js GOARCH=wasm) and open site/scene.html
// through `make serve`. Every file that imports Ebiten or syscall/js carries
// the build constraint js && wasm, because Ebiten's native build needs cgo
// and a display; natively this package builds to a program that only says
// where the visualizer runs, so that `go build ./...` and `go vet ./...`
// stay clean on a bare machine.
//
// The JavaScript API (all methods synchronous, none block):
//
//	window.commlab.version() string  build identification, never empty
//	window.commlab.state()   object  {scene, frames, playhead, width, height}
//
// The page learns that the API exists from the "commlab-ready" event on
// window.
//
// For now the only picture is a placeholder schematic of a butterfly
// allreduce; the scenes driven by engine traces replace it.
package main
